//! Connections to MCP servers: stdio, Streamable HTTP and legacy SSE, all served with Plugboard's one handler, and
//! the guard every remote server URL passes first.

mod downstream;
mod error;
mod handler;
mod person_link;
mod session;
pub mod sse_legacy;
mod stdio;
mod streamable_http;
mod streamable_http_auth;

pub use downstream::DownstreamLink;
pub use error::TransportError;
pub use handler::{
    Answerer, DECLINED_SAMPLING, ElicitationPolicy, PlugboardClient, ServerLog, ServerNotice, client_handler,
    schema_defaults,
};
pub use person_link::{HUMAN_MODEL, PersonLink};
pub use session::McpSession;
pub(crate) use stdio::client_config;
#[cfg(test)]
pub(crate) use stdio::sweep_with;
pub use stdio::{
    Containment, DockerSweepError, Launched, ShutdownReport, ShutdownStage, StderrTail, StdioLaunch, SweepReport,
    connect_stdio, connect_stdio_answered, connect_stdio_named, install_hint, is_docker_run, resolve_program,
    sweep_docker_leftovers,
};
pub use streamable_http::connect_streamable_http;
pub(crate) use streamable_http::serve_streamable_http;
pub use streamable_http_auth::{
    HttpConnection, connect_streamable_http_authorized, connect_streamable_http_or_challenge,
};
