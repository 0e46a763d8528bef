//! Launching a local MCP server as a child process and speaking JSON-RPC over its stdin/stdout.
//! argv only, never a shell. Process-group hygiene and staged shutdown arrive with the connection engine.

use std::path::PathBuf;

use rmcp::ServiceExt;
use rmcp::model::{ClientCapabilities, ClientConfig, Implementation, ProtocolVersion};
use rmcp::transport::TokioChildProcess;
use tokio::process::Command;

use super::{McpSession, TransportError};

/// What to run: a program and its arguments, never a shell line.
#[derive(Debug, Clone)]
pub struct StdioLaunch {
    pub program: PathBuf,
    pub args: Vec<String>,
}

/// Starts the server and completes the MCP handshake.
pub async fn connect_stdio(launch: &StdioLaunch) -> Result<McpSession, TransportError> {
    let mut command = Command::new(&launch.program);
    command.args(&launch.args);
    let child = TokioChildProcess::new(command)
        .map_err(|source| TransportError::Spawn { command: launch.program.display().to_string(), source })?;
    let service = client_config().serve(child).await.map_err(|e| TransportError::Initialize(e.to_string()))?;
    Ok(McpSession::new(service))
}

/// What Plugboard announces in `initialize`. The protocol version is pinned to 2025-11-25: rmcp's default
/// (2026-07-28) has no `initialize` and breaks servers of the earlier era (see ../shared/reference/rmcp-notes.md).
pub(crate) fn client_config() -> ClientConfig {
    ClientConfig::new(ClientCapabilities::default(), Implementation::new("plugboard", env!("CARGO_PKG_VERSION")))
        .with_protocol_version(ProtocolVersion::V_2025_11_25)
}
