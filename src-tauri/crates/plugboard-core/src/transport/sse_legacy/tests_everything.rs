//! Tests of the legacy SSE transport against the real reference server (`mcp-server-everything sse`).
//! Must never leave a node process behind: the server is killed when dropped, panics included.

use std::time::Duration;

use rmcp::ServiceExt;

use super::{LegacySseConfig, connect_legacy_sse};
use crate::config::model::HttpMode;
use crate::testing::{ListeningServer, client};
use crate::transport::client_config;
use crate::transport::{ElicitationPolicy, RemoteOptions, RemoteSpec, connect_remote};

/// The whole path through `connect_remote` configured as SSE: handshake, ~14 tools including `echo`, an echo round trip, a clean close.
#[tokio::test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
async fn server_everything_lists_tools_and_echoes() {
    let server = ListeningServer::everything("sse", None);
    let spec = RemoteSpec { url: server.url("/sse"), headers: Vec::new(), mode: HttpMode::Sse };
    let remote = connect_remote(spec, RemoteOptions::new(client(), ElicitationPolicy::Decline)).await.expect("connect");
    assert_eq!(remote.spoke, HttpMode::Sse);
    let session = remote.session;
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
    drop(server);
}

/// A server that dies mid-session ends the stream with a transient cause, and the next call fails instead of hanging.
#[tokio::test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
async fn server_everything_dying_is_transient() {
    let server = ListeningServer::everything("sse", None);
    let transport = connect_legacy_sse(client(), LegacySseConfig::new(server.url("/sse"))).await.expect("connect");
    let end = transport.stream_end();
    let service = client_config(false).serve(transport).await.expect("initialize");
    assert!(!service.list_all_tools().await.expect("tools/list").is_empty());

    drop(server);
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
