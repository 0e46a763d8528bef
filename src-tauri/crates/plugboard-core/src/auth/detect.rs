//! Whether a URL server without an `oauth` section is an OAuth server, as Claude Code and VS Code decide it: it
//! answered 401 with a `WWW-Authenticate` challenge, or it publishes protected-resource metadata (RFC 9728). It only
//! reads the server's own well-known URLs (same origin as the configured URL, no redirects) and never sends a
//! credential.

use std::time::Duration;

use url::Url;

/// How long the metadata look-up may take: it decides only what the person is told.
const LOOKUP_TIMEOUT: Duration = Duration::from_secs(10);

/// The largest metadata document read.
const MAX_METADATA_BYTES: usize = 64 * 1024;

/// Whether the server at `url` publishes protected-resource metadata naming an authorization server, at the path
/// RFC 9728 puts it for `url` or at the origin's root.
pub async fn publishes_resource_metadata(http: &reqwest::Client, url: &str) -> bool {
    let Ok(url) = Url::parse(url) else { return false };
    for candidate in metadata_urls(&url) {
        if names_an_authorization_server(http, candidate).await {
            return true;
        }
    }
    false
}

/// RFC 9728 §3.1: the well-known segment goes between the origin and the resource's path.
fn metadata_urls(url: &Url) -> Vec<Url> {
    let path = url.path().trim_end_matches('/');
    let mut urls = Vec::new();
    for suffix in [path, ""] {
        let mut candidate = url.clone();
        candidate.set_query(None);
        candidate.set_fragment(None);
        candidate.set_path(&format!("/.well-known/oauth-protected-resource{suffix}"));
        if !urls.contains(&candidate) {
            urls.push(candidate);
        }
    }
    urls
}

async fn names_an_authorization_server(http: &reqwest::Client, url: Url) -> bool {
    let Ok(response) = http.get(url).timeout(LOOKUP_TIMEOUT).send().await else { return false };
    if !response.status().is_success() {
        return false;
    }
    let Ok(body) = response.bytes().await else { return false };
    if body.len() > MAX_METADATA_BYTES {
        return false;
    }
    serde_json::from_slice::<serde_json::Value>(&body)
        .ok()
        .is_some_and(|metadata| metadata["authorization_servers"].as_array().is_some_and(|servers| !servers.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{LoopbackServer, Reply, client};

    /// The metadata is looked for under the resource's path first, then at the origin; query and fragment go.
    #[test]
    fn metadata_urls_follow_rfc_9728() {
        let urls = metadata_urls(&Url::parse("https://a.example/v1/mcp/?x=1#f").expect("url"));
        let urls: Vec<_> = urls.iter().map(Url::as_str).collect();
        assert_eq!(
            urls,
            [
                "https://a.example/.well-known/oauth-protected-resource/v1/mcp",
                "https://a.example/.well-known/oauth-protected-resource"
            ]
        );
        let root = metadata_urls(&Url::parse("https://a.example/").expect("url"));
        assert_eq!(root.len(), 1);
    }

    /// A server publishing metadata that names an authorization server is an OAuth server; one without metadata,
    /// or whose metadata names none, is not.
    #[tokio::test]
    async fn metadata_naming_an_authorization_server_makes_an_oauth_server() {
        let oauth = LoopbackServer::replying(|_, path, base| match path {
            "/.well-known/oauth-protected-resource/mcp" => {
                Reply::json(serde_json::json!({"resource": format!("{base}/mcp"), "authorization_servers": [base]}))
            }
            _ => Reply::status(404),
        })
        .await;
        assert!(publishes_resource_metadata(&client(), &format!("{}/mcp", oauth.base)).await);

        let none = LoopbackServer::replying(|_, _, _| Reply::status(404)).await;
        assert!(!publishes_resource_metadata(&client(), &format!("{}/mcp", none.base)).await);
        let empty =
            LoopbackServer::replying(|_, _, _| Reply::json(serde_json::json!({"authorization_servers": []}))).await;
        assert!(!publishes_resource_metadata(&client(), &format!("{}/mcp", empty.base)).await);
    }
}
