//! Streamable HTTP with OAuth: connecting so that a 401 challenge comes back as data (the start of a login) rather
//! than as text, and connecting with a logged-in `AuthorizationManager` through rmcp's `AuthClient` over the
//! caller's pooled client, with Plugboard's handler and pinned protocol like every other session. It must never
//! build its own HTTP client nor put a token anywhere but the Authorization header.

use std::collections::HashMap;
use std::sync::Arc;

use rmcp::ServiceExt;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::auth::{AuthClient, AuthorizationManager};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use tokio::sync::Mutex;

use super::handler::{ElicitationPolicy, client_handler};
use super::streamable_http::serve_streamable_http;
use super::{McpSession, TransportError};

/// The outcome of connecting to a server that may want a login first.
pub enum HttpConnection {
    /// The handshake completed without credentials.
    Ready(Box<McpSession>),
    /// The server answered 401/403: this is its `WWW-Authenticate` header, to start a login with.
    AuthRequired { challenge: String },
}

/// Connects without credentials; a 401/403 during the handshake comes back as [`HttpConnection::AuthRequired`].
pub async fn connect_streamable_http_or_challenge(
    client: reqwest::Client,
    url: &str,
    policy: ElicitationPolicy,
) -> Result<HttpConnection, TransportError> {
    match serve_streamable_http(client, url, HashMap::new(), policy).await {
        Ok(session) => Ok(HttpConnection::Ready(Box::new(session))),
        Err(e) => match e.auth_challenge() {
            Some(challenge) => Ok(HttpConnection::AuthRequired { challenge: challenge.to_owned() }),
            None => Err(TransportError::Initialize(e.to_string())),
        },
    }
}

/// Connects with the tokens `manager` holds (as `auth::login` and its siblings leave it). Returns the session and
/// the manager shared with its transport, for step-up (`auth::StepUp`): a token it gets is used from the next
/// request on.
pub async fn connect_streamable_http_authorized(
    client: reqwest::Client,
    url: &str,
    policy: ElicitationPolicy,
    manager: AuthorizationManager,
) -> Result<(McpSession, Arc<Mutex<AuthorizationManager>>), TransportError> {
    let auth_client = AuthClient::new(client, manager);
    let shared = auth_client.auth_manager.clone();
    let config = StreamableHttpClientTransportConfig::with_uri(url.to_owned());
    let transport = StreamableHttpClientTransport::with_client(auth_client, config);
    let (handler, notices) = client_handler(policy);
    let service = handler.serve(transport).await.map_err(|e| TransportError::Initialize(e.to_string()))?;
    Ok((McpSession::new(service, notices), shared))
}
