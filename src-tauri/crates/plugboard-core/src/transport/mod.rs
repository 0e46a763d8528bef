//! Connections to MCP servers: stdio, Streamable HTTP and legacy SSE, all served with Plugboard's one handler.

mod error;
mod handler;
mod session;
pub mod sse_legacy;
mod stdio;
mod streamable_http;
mod streamable_http_auth;

pub use error::TransportError;
pub use handler::{
    DECLINED_SAMPLING, ElicitationPolicy, PlugboardClient, ServerLog, ServerNotice, client_handler, schema_defaults,
};
pub use session::McpSession;
pub(crate) use stdio::client_config;
pub use stdio::{
    Containment, DockerSweepError, Launched, ShutdownReport, ShutdownStage, StderrTail, StdioLaunch, SweepReport,
    connect_stdio, connect_stdio_named, resolve_program, sweep_docker_leftovers,
};
pub use streamable_http::connect_streamable_http;
pub(crate) use streamable_http::serve_streamable_http;
pub use streamable_http_auth::{
    HttpConnection, connect_streamable_http_authorized, connect_streamable_http_or_challenge,
};
