//! Connections to MCP servers, all served with Plugboard's one handler: stdio, and a remote server through one entry
//! point (`connect_remote`: Streamable HTTP, legacy SSE, OAuth) whose pieces stay private.

mod downstream;
mod error;
mod handler;
mod person_link;
mod remote;
mod remote_errors;
#[cfg(test)]
mod remote_tests;
mod session;
mod sse_legacy;
mod stdio;
mod streamable_http;

pub use downstream::DownstreamLink;
pub use error::TransportError;
pub use handler::{
    Answerer, DECLINED_SAMPLING, ElicitationPolicy, PlugboardClient, ServerLog, ServerNotice, client_handler,
    schema_defaults,
};
pub use person_link::{HUMAN_MODEL, PersonLink};
pub use remote::{LoginFuture, RemoteConnection, RemoteOptions, RemoteSpec, connect_remote};
pub use remote_errors::DNS_FAILURE_PREFIX;
pub use session::McpSession;
#[cfg(feature = "fuzzing")]
pub(crate) use sse_legacy::fuzz_event_stream;
pub(crate) use stdio::client_config;
#[cfg(test)]
pub(crate) use stdio::sweep_with;
pub use stdio::{
    Containment, DockerSweepError, EngineProblem, Launched, ShutdownReport, ShutdownStage, StderrTail, StdioLaunch,
    SweepReport, connect_stdio, connect_stdio_answered, connect_stdio_named, docker_engine_version, docker_image_ports,
    hardened_args, install_hint, is_docker_run, resolve_program, sweep_docker_leftovers,
};
