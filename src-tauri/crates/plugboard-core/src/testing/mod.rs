//! What the core's tests share, one file per helper: a supervisor over a memory vault, status sequences and a fake
//! connector (`supervised.rs`); the one hand-written loopback HTTP server (`loopback_http.rs`) and a fake MCP server
//! on it for what no real server does on request (`fake_mcp.rs`); a server process on a loopback port
//! (`server_process.rs`); one test run alone in a child process (`child.rs`); the test Docker engine's images
//! (`docker_engine.rs`); executable scripts (`script.rs`). Compiled for tests only; never shipped.
//!
//! A folder in the core rather than a test-support crate: a crate depending on the core cannot serve the core's own
//! unit tests (they would see a second copy of every type), and nearly all the core's tests are unit tests.
#![allow(clippy::expect_used, reason = "test support: a failed setup step is the clearest report a test can give")]

mod child;
mod docker_engine;
mod fake_mcp;
mod loopback_http;
mod script;
mod server_process;
mod supervised;

pub use child::{CHILD_OUT, alone, findings, peak_growth_kib, start_measuring_memory};
pub use docker_engine::{HTTP_IMAGE, STDIO_IMAGE, TestImage, containers, docker_ok};
pub use fake_mcp::{Answer, FakeMcp, OFFERED};
pub use loopback_http::{LoopbackServer, Reply, Request, client, respond};
pub use script::write_executable;
pub use server_process::{ListeningServer, everything_bin};
pub use supervised::{FakeConnector, approve_all, approving_connector, memory_vault, statuses_until, supervisor};
