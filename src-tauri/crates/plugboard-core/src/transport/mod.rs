//! Connections to MCP servers. This slice has stdio only; Streamable HTTP and legacy SSE come with the engine.

mod error;
mod session;
mod stdio;

pub use error::TransportError;
pub use session::McpSession;
pub use stdio::{StdioLaunch, connect_stdio};
