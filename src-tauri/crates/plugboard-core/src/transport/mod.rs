//! Connections to MCP servers. This slice has stdio only; Streamable HTTP and legacy SSE come with the engine.

mod error;
mod session;
pub mod sse_legacy;
mod stdio;

pub use error::TransportError;
pub use session::McpSession;
pub(crate) use stdio::client_config;
pub use stdio::{
    Containment, DockerSweepError, Launched, ShutdownReport, ShutdownStage, StderrTail, StdioLaunch, SweepReport,
    connect_stdio, connect_stdio_named, resolve_program, sweep_docker_leftovers,
};
