//! Why a connection or a request to an MCP server failed.

/// A failure talking to an MCP server.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TransportError {
    /// The server process could not be started (binary not found, not executable, …).
    #[error("Could not start `{command}`: {source}")]
    Spawn { command: String, source: std::io::Error },
    /// The MCP handshake failed.
    #[error("the server did not complete the MCP handshake: {0}")]
    Initialize(String),
    /// A local server stopped before the handshake completed (exited, closed its stdout). Its last stderr lines
    /// are kept apart from the message, so the status can show them as the server's own words.
    #[error("the server stopped before completing the MCP handshake: {message}")]
    StartupFailed { message: String, stderr_tail: Option<String> },
    /// A remote server wants credentials (a 401, or a 403 at the handshake); its `WWW-Authenticate` when it sent one.
    #[error("the server asks for credentials")]
    AuthRequired { challenge: Option<String> },
    /// A remote server could not be reached, refused the handshake or cannot be spoken to as configured; `message`
    /// says which in words, `transient` whether retrying by itself may help.
    #[error("{message}")]
    Remote { message: String, transient: bool },
    /// The server refused to open a session as Plugboard asked, with one of 2026-07-28's errors for it (no version
    /// in common, a client capability Plugboard did not declare, a header it found inconsistent), after every
    /// fallback: in words, with what the server said. Never transient: the next try would be refused the same way.
    #[error("{0}")]
    Refused(String),
    /// A request after the handshake failed.
    #[error("request failed: {0}")]
    Request(String),
    /// The server crossed one of Plugboard's limits (a message too large, a flood) during the handshake. Never
    /// transient: it would do the same again.
    #[error("{0}")]
    LimitExceeded(#[from] super::LimitExceeded),
}

impl TransportError {
    /// Whether trying again may succeed without the person changing anything. A server that dies during the
    /// handshake is retried (the supervisor's crash-loop limit stops a hopeless one); a missing or non-executable
    /// binary is not.
    pub fn is_transient(&self) -> bool {
        use std::io::ErrorKind::{Interrupted, ResourceBusy, TimedOut, WouldBlock};
        match self {
            Self::Spawn { source, .. } => matches!(source.kind(), Interrupted | WouldBlock | ResourceBusy | TimedOut),
            Self::Initialize(_) | Self::StartupFailed { .. } => true,
            Self::Remote { transient, .. } => *transient,
            _ => false,
        }
    }

    /// What a local server wrote last to stderr before it failed, when there is anything.
    pub fn stderr_tail(&self) -> Option<&str> {
        match self {
            Self::StartupFailed { stderr_tail, .. } => stderr_tail.as_deref(),
            _ => None,
        }
    }
}

impl From<rmcp::ServiceError> for TransportError {
    fn from(e: rmcp::ServiceError) -> Self {
        Self::Request(e.to_string())
    }
}
