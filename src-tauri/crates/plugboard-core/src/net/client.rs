//! The app's one HTTP client: rmcp's default opens a new connection per request, and a redirect could carry our
//! headers (tokens) to another host, which MCP endpoints never need.

/// One keep-alive client for the whole app.
pub fn pooled_http_client() -> reqwest::Client {
    reqwest::Client::builder()
        .pool_idle_timeout(std::time::Duration::from_secs(90))
        .connect_timeout(std::time::Duration::from_secs(10))
        // A redirect could carry our headers (tokens) to another host: MCP endpoints do not redirect.
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap_or_default()
}
