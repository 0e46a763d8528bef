//! The gateway on stdin/stdout, for a client that launches `plugboard serve --stdio`: it starts every configured
//! server, follows edits of servers.json, serves one client session, and stops every server when the client
//! closes the connection. Nothing but MCP may be written to stdout.

use std::sync::Arc;

use rmcp::ServiceExt;
use rmcp::service::RoleServer;

use super::client_streams::client_streams;
use super::handler::{Gateway, GatewayOptions};
use super::http::EndpointError;
use super::scope::ProfileError;
use super::start::start_headless;
use crate::engine::{Engine, EngineError};
use crate::transport::MAX_MESSAGE_BYTES;
use crate::transport::line_transport::LineTransport;

/// Why the gateway's session did not end cleanly.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GatewayError {
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Endpoint(#[from] EndpointError),
    /// `--profile` names a profile the file does not have, or a malformed one.
    #[error(transparent)]
    Profile(#[from] ProfileError),
    /// The client never completed `initialize` (it closed the pipe, or sent something else).
    #[error("the client did not complete the MCP handshake: {message}")]
    Handshake { message: String },
    #[error("the client's session ended abnormally: {message}")]
    Session { message: String },
}

/// Serves one client over stdin/stdout until it disconnects; every server is stopped before this returns.
pub async fn serve_stdio(engine: Arc<Engine>, options: GatewayOptions) -> Result<(), GatewayError> {
    let catalog = start_headless(&engine, options.profile.as_deref()).await?;
    let gateway = Gateway::new(Arc::clone(&engine), catalog, options);
    let (reader, writer) = client_streams();
    let transport = LineTransport::<RoleServer, _, _>::new(reader, writer, MAX_MESSAGE_BYTES);
    let served = match gateway.serve(transport).await {
        Ok(running) => running.waiting().await.map(drop).map_err(|e| GatewayError::Session { message: e.to_string() }),
        Err(e) => Err(GatewayError::Handshake { message: e.to_string() }),
    };
    // The client closed the connection (or never opened it): no server process may outlive the gateway.
    engine.shutdown().await;
    served
}
