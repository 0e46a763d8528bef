//! The gateway with an rmcp client over an in-memory pipe: the handshake, the curated list and a refused name,
//! without launching a process (the SDK clients' tests under tests/gateway do the rest end to end).

use std::sync::Arc;
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;

use super::{Gateway, GatewayOptions, publish_catalog};
use crate::engine::{Engine, EngineOptions, PersonAnswers};
use crate::secrets::Fallback;

/// An empty config serves an empty tool list at once, names itself, and refuses a tool it does not offer.
#[tokio::test]
async fn an_empty_gateway_answers_and_refuses_unknown_tools() {
    let dir = tempfile::tempdir().expect("tempdir");
    let options = EngineOptions {
        config_path: dir.path().join("servers.json"),
        secrets: Fallback::chosen(false),
        person: PersonAnswers::Declined,
    };
    let engine = Arc::new(Engine::open(options).expect("engine"));
    let (catalog, publishing) = publish_catalog(engine.supervisor());
    tokio::spawn(publishing);
    let gateway =
        Gateway::new(Arc::clone(&engine), catalog, GatewayOptions { first_list_wait: Duration::from_secs(1) });
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let served = tokio::spawn(async move { gateway.serve(server_io).await.expect("serve").waiting().await });
    let client =
        tokio::time::timeout(Duration::from_secs(10), ().serve(client_io)).await.expect("in time").expect("client");
    assert_eq!(
        client.peer_info().and_then(|info| info.server_info.clone()).map(|s| s.name).as_deref(),
        Some("plugboard")
    );
    let tools = client.list_all_tools().await.expect("list");
    assert!(tools.is_empty(), "{tools:?}");
    let refused = client.call_tool(CallToolRequestParams::new("mcp__nope__x")).await;
    assert!(format!("{refused:?}").contains("offers no tool named"), "{refused:?}");
    client.cancel().await.expect("close");
    let _ = served.await;
    engine.shutdown().await;
}
