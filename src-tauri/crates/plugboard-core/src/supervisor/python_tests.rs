//! The supervisor against a server built on the Python MCP SDK (PyPI `mcp`, in the `.tools/py` venv) over stdio,
//! legacy SSE and Streamable HTTP: each comes up Ready in the era that wire offers (SDK 2.3 speaks 2026-07-28 over
//! stdio and Streamable HTTP; legacy SSE is 2024-11-05 by nature, answered at 2025-11-25) and a tool call round-trips.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use serde_json::json;

use super::*;
use crate::config::model::{HttpMode, HttpSpec, ServerConfig, ServerName, StdioSpec, Transport};
use crate::testing::ListeningServer;
use crate::testing::supervisor;

/// The repository root (the venv and the fixture are found from it).
fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

/// The venv's interpreter and the fixture server script, both checked to exist.
fn python_and_script() -> (PathBuf, PathBuf) {
    let python = repo_root().join(".tools/py/bin/python3");
    assert!(python.exists(), "{} is missing: make test installs it", python.display());
    let script = repo_root().join("tests/fixtures/python_server.py");
    assert!(script.exists(), "{} is missing", script.display());
    (python, script)
}

/// The Python fixture server over HTTP (`python_server.py <transport> <port>`) on a free port.
fn start_python(transport: &str) -> ListeningServer {
    let (python, script) = python_and_script();
    ListeningServer::start(&format!("the Python fixture server ({transport})"), None, |port| {
        let mut command = Command::new(python);
        command.arg(script).arg(transport).arg(port.to_string());
        command
    })
}

fn with_timeout(config: ServerConfig) -> ServerConfig {
    ServerConfig { timeout: Duration::from_secs(30), ..config }
}

fn remote(name: &str, url: String, mode: HttpMode) -> ServerConfig {
    with_timeout(ServerConfig::new(
        ServerName::parse(name).expect("name"),
        Transport::Http(HttpSpec { url, headers: BTreeMap::new(), mode }),
    ))
}

fn local(name: &str) -> ServerConfig {
    let (python, script) = python_and_script();
    with_timeout(ServerConfig::new(
        ServerName::parse(name).expect("name"),
        Transport::Stdio(StdioSpec {
            command: python.display().to_string(),
            args: vec![script.display().to_string(), "stdio".into()],
            env: BTreeMap::new(),
            cwd: None,
        }),
    ))
}

/// Brings up the one configured server, asserts it is Ready, and returns the protocol version it speaks and what
/// `echo` answers.
async fn ready_then_echo(config: ServerConfig, message: &str) -> (String, String) {
    let name = config.name.to_string();
    let sup = supervisor();
    sup.reconcile(vec![config]).await;
    let status = sup.settled(&name, Duration::from_secs(60)).await;
    let Ok(ServerStatus::Ready { protocol_version, .. }) = status else { panic!("{name}: {status:?}") };
    let args = json!({ "message": message }).as_object().cloned().unwrap_or_default();
    let result = sup.call(&name, "echo", args, None).await.unwrap_or_else(|e| panic!("{name}: {e}"));
    sup.shutdown().await;
    (protocol_version, result.content.iter().filter_map(|c| c.as_text()).map(|t| t.text.clone()).collect())
}

/// A Python SDK server spawned over stdio comes up Ready at 2026-07-28 and its `echo` tool answers.
#[tokio::test]
#[ignore = "needs the Python SDK venv; make test installs it into .tools/py"]
async fn python_sdk_over_stdio() {
    assert_eq!(ready_then_echo(local("py-stdio"), "stdio").await, ("2026-07-28".into(), "Echo: stdio".into()));
}

/// A Python SDK server over legacy SSE (`/sse`) comes up Ready and its `echo` tool answers.
#[tokio::test]
#[ignore = "needs the Python SDK venv; make test installs it into .tools/py"]
async fn python_sdk_over_sse() {
    let server = start_python("sse");
    let config = remote("py-sse", server.url("/sse"), HttpMode::Sse);
    assert_eq!(ready_then_echo(config, "sse").await, ("2025-11-25".into(), "Echo: sse".into()));
}

/// A Python SDK server over Streamable HTTP (`/mcp`) comes up Ready at 2026-07-28 and its `echo` tool answers.
#[tokio::test]
#[ignore = "needs the Python SDK venv; make test installs it into .tools/py"]
async fn python_sdk_over_streamable_http() {
    let server = start_python("streamable-http");
    let config = remote("py-streamable", server.url("/mcp"), HttpMode::StreamableHttp);
    assert_eq!(ready_then_echo(config, "streamable").await, ("2026-07-28".into(), "Echo: streamable".into()));
}
