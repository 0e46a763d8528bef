//! Serving a Streamable HTTP session the one way Plugboard does: the caller's pooled reqwest client, its headers,
//! Plugboard's handler and announced protocol (2025-11-25). Only `remote.rs` calls it, for the supervisor and the
//! conformance client alike, so what the suite checks is what the app runs. It must never build its own HTTP client.

use std::collections::HashMap;

use reqwest::header::{HeaderName, HeaderValue};
use rmcp::ServiceExt;
use rmcp::service::ClientInitializeError;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::{StreamableHttpClient, StreamableHttpClientTransportConfig};

use super::McpSession;
use super::handler::{Answerer, client_handler};

/// Connects to `url` through `client` (the pooled client, or rmcp's `AuthClient` over it for OAuth servers) and
/// completes the handshake, keeping rmcp's error so callers can classify it (auth challenge,
/// unreachable, refused).
pub(super) async fn serve_streamable_http<C>(
    client: C,
    url: &str,
    headers: HashMap<HeaderName, HeaderValue>,
    answerer: impl Into<Answerer>,
) -> Result<McpSession, ClientInitializeError>
where
    C: StreamableHttpClient + Send + Sync + 'static,
{
    let config = StreamableHttpClientTransportConfig::with_uri(url.to_owned()).custom_headers(headers);
    let transport = StreamableHttpClientTransport::with_client(client, config);
    let (handler, notices) = client_handler(answerer);
    let service = handler.serve(transport).await?;
    Ok(McpSession::new(service, notices))
}
