//! An initialised MCP client session over any transport, with the few calls this slice needs.

use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject, Tool};
use rmcp::service::{RoleClient, RunningService};

use super::TransportError;

/// A live session with one MCP server; dropping it closes the connection.
pub struct McpSession {
    service: RunningService<RoleClient, rmcp::model::ClientConfig>,
}

impl McpSession {
    pub(crate) fn new(service: RunningService<RoleClient, rmcp::model::ClientConfig>) -> Self {
        Self { service }
    }

    /// The server's name and version as it announced them in `initialize`.
    pub fn server_name(&self) -> Option<String> {
        let info = self.service.peer_info()?;
        let server = info.server_info.as_ref()?;
        Some(format!("{} {}", server.name, server.version))
    }

    /// Every tool, following pagination to the end.
    pub async fn list_tools(&self) -> Result<Vec<Tool>, TransportError> {
        Ok(self.service.list_all_tools().await?)
    }

    /// Calls one tool with JSON object arguments.
    pub async fn call_tool(&self, name: &str, arguments: JsonObject) -> Result<CallToolResult, TransportError> {
        let params = CallToolRequestParams::new(name.to_owned()).with_arguments(arguments);
        Ok(self.service.call_tool(params).await?)
    }

    /// Ends the session and waits for the transport to close.
    pub async fn close(self) -> Result<(), TransportError> {
        self.service.cancel().await.map(|_| ()).map_err(|e| TransportError::Request(e.to_string()))
    }
}
