//! Why a connection or a request to an MCP server failed.

/// A failure talking to an MCP server.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TransportError {
    /// The server process could not be started (binary not found, not executable, …).
    #[error("could not start `{command}`: {source}")]
    Spawn { command: String, source: std::io::Error },
    /// The MCP handshake failed.
    #[error("the server did not complete the MCP handshake: {0}")]
    Initialize(String),
    /// A request after the handshake failed.
    #[error("request failed: {0}")]
    Request(String),
}

impl From<rmcp::ServiceError> for TransportError {
    fn from(e: rmcp::ServiceError) -> Self {
        Self::Request(e.to_string())
    }
}
