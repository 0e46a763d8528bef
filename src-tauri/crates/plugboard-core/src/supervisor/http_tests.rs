//! The supervisor against the reference server-everything over HTTP: Streamable HTTP, legacy SSE, the probe that
//! falls back from one to the other, and a server restarted mid-session (its session is gone) healing by itself.

use std::time::Duration;

use serde_json::json;

use super::*;
use crate::config::model::{HttpMode, HttpSpec, ServerConfig, ServerName, Transport};
use crate::testing::ListeningServer;
use crate::testing::supervisor;

fn remote(name: &str, url: String, mode: HttpMode) -> ServerConfig {
    ServerConfig {
        timeout: Duration::from_secs(20),
        ..ServerConfig::new(
            ServerName::parse(name).expect("name"),
            Transport::Http(HttpSpec { url, headers: Default::default(), mode }),
        )
    }
}

async fn echo(sup: &Supervisor, server: &str, message: &str) -> String {
    let args = json!({ "message": message }).as_object().cloned().unwrap_or_default();
    let result = sup.call(server, "echo", args, None).await.unwrap_or_else(|e| panic!("{server}: {e}"));
    result.content.iter().filter_map(|c| c.as_text()).map(|t| t.text.clone()).collect()
}

/// Each way of reaching an HTTP server comes up Ready and calls work: Streamable HTTP, legacy SSE, and a bare URL
/// that probes Streamable HTTP first and falls back to SSE.
#[tokio::test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
async fn streamable_sse_and_probe_come_up() {
    let streamable = ListeningServer::everything("streamableHttp", None);
    let sse = ListeningServer::everything("sse", None);
    let sup = supervisor();
    sup.reconcile(vec![
        remote("streamable", streamable.url("/mcp"), HttpMode::StreamableHttp),
        remote("sse", sse.url("/sse"), HttpMode::Sse),
        remote("probe-streamable", streamable.url("/mcp"), HttpMode::Probe),
        remote("probe-sse", sse.url("/sse"), HttpMode::Probe),
    ])
    .await;
    let statuses = sup.settle_all(Duration::from_secs(60)).await;
    for (name, status) in &statuses {
        assert!(matches!(status, ServerStatus::Ready { .. }), "{name}: {status:?}");
    }
    for name in ["streamable", "sse", "probe-streamable", "probe-sse"] {
        assert_eq!(echo(&sup, name, name).await, format!("Echo: {name}"));
    }
    sup.shutdown().await;
}

/// A Streamable HTTP server restarted mid-session (its session id is gone) is healed: the next call reconnects
/// with a fresh session and succeeds, and the status goes through Reconnecting back to Ready.
#[tokio::test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
async fn restarted_http_server_is_healed() {
    let first = ListeningServer::everything("streamableHttp", None);
    let port = first.port;
    let sup = supervisor();
    let mut events = sup.subscribe();
    sup.reconcile(vec![remote("restarting", first.url("/mcp"), HttpMode::StreamableHttp)]).await;
    assert!(matches!(sup.settled("restarting", Duration::from_secs(30)).await, Ok(ServerStatus::Ready { .. })));
    assert_eq!(echo(&sup, "restarting", "before").await, "Echo: before");

    drop(first);
    let _second = ListeningServer::everything("streamableHttp", Some(port));
    assert_eq!(echo(&sup, "restarting", "after").await, "Echo: after");

    let mut seen = Vec::new();
    while let Ok(event) = events.try_recv() {
        if let SupervisorEvent::StatusChanged { status, .. } = event {
            seen.push(status.label());
        }
    }
    assert_eq!(seen.first(), Some(&"connecting"));
    assert!(seen.contains(&"reconnecting"), "the restart was noticed and healed: {seen:?}");
    assert_eq!(seen.last(), Some(&"ready"), "{seen:?}");
    sup.shutdown().await;
}
