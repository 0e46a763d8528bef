//! Serving a Streamable HTTP session the one way Plugboard does: the caller's pooled reqwest client, its headers,
//! Plugboard's handler and announced protocol (2025-11-25). The supervisor and the conformance client both come
//! through here, so what the suite checks is what the app runs. It must never build its own HTTP client.

use std::collections::HashMap;

use reqwest::header::{HeaderName, HeaderValue};
use rmcp::ServiceExt;
use rmcp::service::ClientInitializeError;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::{StreamableHttpClient, StreamableHttpClientTransportConfig};

use super::handler::{Answerer, ElicitationPolicy, client_handler};
use super::{McpSession, TransportError};

/// Connects to `url` through `client` (the pooled client, or rmcp's `AuthClient` over it for OAuth servers) and
/// completes the handshake, keeping rmcp's error so callers can classify it (auth challenge,
/// unreachable, refused).
pub(crate) async fn serve_streamable_http<C>(
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

/// Connects to a Streamable HTTP server with no extra headers, answering elicitation under `policy`. `client`
/// should be the app's pooled client (`net::pooled_http_client`).
pub async fn connect_streamable_http(
    client: reqwest::Client,
    url: &str,
    policy: ElicitationPolicy,
) -> Result<McpSession, TransportError> {
    serve_streamable_http(client, url, HashMap::new(), policy)
        .await
        .map_err(|e| TransportError::Initialize(e.to_string()))
}
