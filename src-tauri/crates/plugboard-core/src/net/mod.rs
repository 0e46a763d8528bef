//! The network edge every front end shares: the one pooled HTTP client (keep-alive, bounded connect, no redirects)
//! and the guard every configured or discovered server URL passes. Transport, auth and the doctor reach the network
//! only through these; nothing here may follow a redirect or log a URL, which can carry a secret after expansion.

mod client;
mod url_guard;

pub use client::pooled_http_client;
pub use url_guard::{UrlRefused, check_server_url};
