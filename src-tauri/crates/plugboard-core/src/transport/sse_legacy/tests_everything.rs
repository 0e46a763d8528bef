//! Tests of the legacy SSE transport against the real reference server (`mcp-server-everything sse`).
//! Must never leave a node process behind: the server is killed on every path, panics included.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use rmcp::ServiceExt;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use super::tests_support::client;
use super::{LegacySseConfig, connect, connect_legacy_sse};
use crate::transport::client_config;

/// One `mcp-server-everything sse` on a free port; killed when dropped (`kill_on_drop`) or by `stop()`.
struct Everything {
    child: Child,
    port: u16,
}

impl Everything {
    async fn start() -> Self {
        let bin =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../tests/node_modules/.bin/mcp-server-everything");
        assert!(bin.exists(), "{} is missing: run `make test` to install the reference servers", bin.display());
        // A port that was free a moment ago; a lost race shows up as no "running" line, and we try another.
        for _ in 0..3 {
            let port = std::net::TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("addr").port();
            let mut child = Command::new(&bin)
                .arg("sse")
                .env("PORT", port.to_string())
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .kill_on_drop(true)
                .spawn()
                .expect("spawn mcp-server-everything");
            let stderr = child.stderr.take().expect("stderr");
            let mut lines = BufReader::new(stderr).lines();
            let ready = tokio::time::timeout(Duration::from_secs(20), async {
                while let Ok(Some(line)) = lines.next_line().await {
                    if line.contains("Server is running on port") {
                        return true;
                    }
                }
                false
            })
            .await
            .unwrap_or(false);
            if ready {
                // Keep draining so the server never blocks on a full pipe.
                tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
                return Self { child, port };
            }
            let _ = child.kill().await;
        }
        panic!("mcp-server-everything did not start");
    }

    fn sse_url(&self) -> String {
        format!("http://127.0.0.1:{}/sse", self.port)
    }

    async fn stop(mut self) {
        let _ = self.child.kill().await;
    }
}

/// The whole path through `connect()`: handshake, ~14 tools including `echo`, an echo round trip, a clean close.
#[tokio::test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
async fn server_everything_lists_tools_and_echoes() {
    let server = Everything::start().await;
    let session = connect(client(), LegacySseConfig::new(server.sse_url())).await.expect("connect");
    assert!(session.server_name().is_some_and(|n| !n.is_empty()));

    let tools = session.list_tools().await.expect("tools/list");
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert!(names.contains(&"echo") && names.len() >= 10, "{names:?}");

    let arguments = serde_json::json!({ "message": "hello from plugboard" });
    let arguments = arguments.as_object().cloned().expect("object");
    let result = session.call_tool("echo", arguments).await.expect("tools/call");
    let text: String = result.content.iter().filter_map(|c| c.as_text()).map(|t| t.text.as_str()).collect();
    assert_eq!(text, "Echo: hello from plugboard");

    tokio::time::timeout(Duration::from_secs(5), session.close()).await.expect("close does not hang").expect("close");
    server.stop().await;
}

/// A server that dies mid-session ends the stream with a transient cause, and the next call fails instead of hanging.
#[tokio::test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
async fn server_everything_dying_is_transient() {
    let server = Everything::start().await;
    let transport = connect_legacy_sse(client(), LegacySseConfig::new(server.sse_url())).await.expect("connect");
    let end = transport.stream_end();
    let service = client_config(false).serve(transport).await.expect("initialize");
    assert!(!service.list_all_tools().await.expect("tools/list").is_empty());

    server.stop().await;
    let cause = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            if let Some(cause) = end.cause() {
                return cause;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the stream ends");
    assert!(cause.is_transient(), "{cause:?}");
    let call = tokio::time::timeout(Duration::from_secs(5), service.list_all_tools()).await.expect("no hang");
    assert!(call.is_err());
}
