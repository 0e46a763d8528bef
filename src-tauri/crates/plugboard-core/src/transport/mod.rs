//! Connections to MCP servers, all served with Plugboard's one handler and opened in the server's protocol era
//! (`era.rs`): stdio, and a remote server through one entry point (`connect_remote`: Streamable HTTP, legacy SSE,
//! OAuth) whose pieces stay private. Every session is held to
//! the limits of `limits.rs` (a message's size, what a server may send unasked).

mod bounded_http;
mod call_tap;
mod delivery;
mod downstream;
mod dpop_http;
mod era;
mod error;
mod guarded;
mod handler;
mod limits;
#[cfg(test)]
mod limits_tests;
pub(crate) mod line_transport;
mod list_changes;
mod person_link;
mod remote;
mod remote_errors;
#[cfg(test)]
mod remote_tests;
mod session;
mod sse_legacy;
mod stdio;
mod streamable_http;

pub use call_tap::{CallNotices, CallTap};
pub use delivery::never_reached;
pub use downstream::DownstreamLink;
pub use era::{Era, Opening};
pub use error::TransportError;
pub use handler::{
    Answerer, DECLINED_SAMPLING, ElicitationPolicy, PlugboardClient, ServerLog, ServerNotice, client_handler,
    schema_defaults,
};
pub use limits::{LimitExceeded, MAX_MESSAGE_BYTES, MAX_NOTICE_BACKLOG, MAX_UNASKED_PER_SECOND};
pub use person_link::{HUMAN_MODEL, PersonLink};
pub use remote::{LoginFuture, RemoteConnection, RemoteLogin, RemoteOptions, RemoteSpec, connect_remote};
pub use remote_errors::DNS_FAILURE_PREFIX;
pub use session::McpSession;
#[cfg(feature = "fuzzing")]
pub(crate) use sse_legacy::fuzz_event_stream;
pub(crate) use stdio::client_config;
#[cfg(target_os = "linux")]
pub use stdio::run_keeper;
#[cfg(test)]
pub(crate) use stdio::sweep_with;
pub use stdio::{
    Containment, DockerSweepError, EngineProblem, KEEPER_BINARY, Launched, ShutdownReport, ShutdownStage, StderrTail,
    StdioLaunch, SweepReport, connect_stdio, connect_stdio_answered, connect_stdio_named, docker_engine_version,
    docker_image_ports, hardened_args, install_hint, is_docker_run, resolve_program, sweep_docker_leftovers,
};
pub use stdio::{launches, start_spawner_thread, warm_keepers};
