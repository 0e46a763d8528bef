//! The gateway with an rmcp client over an in-memory pipe: the handshake, the curated list and a refused name,
//! without launching a process (the SDK clients' tests under tests/gateway do the rest end to end).

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};

use super::{Gateway, GatewayOptions, publish_catalog};
use crate::engine::{Engine, EngineOptions, PersonAnswers};
use crate::secrets::Fallback;

/// A gateway over the config `servers_json` (already started), and an rmcp client connected to it in memory.
async fn connected(servers_json: &str) -> (tempfile::TempDir, Arc<Engine>, RunningService<RoleClient, ()>) {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("servers.json"), servers_json).expect("config");
    let options = EngineOptions {
        config_path: dir.path().join("servers.json"),
        secrets: Fallback::chosen(false),
        person: PersonAnswers::Declined,
    };
    let engine = Arc::new(Engine::open(options).expect("engine"));
    engine.start(None).await.expect("start");
    let (catalog, publishing) = publish_catalog(engine.supervisor());
    tokio::spawn(publishing);
    let options = GatewayOptions { first_list_wait: Duration::from_secs(5) };
    let gateway = Gateway::new(Arc::clone(&engine), catalog, options);
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move { gateway.serve(server_io).await.expect("serve").waiting().await });
    let client = tokio::time::timeout(Duration::from_secs(10), ().serve(client_io)).await.expect("in time");
    (dir, engine, client.expect("client"))
}

/// An empty config serves an empty tool list at once, names itself, and refuses a tool it does not offer.
#[tokio::test]
async fn an_empty_gateway_answers_and_refuses_unknown_tools() {
    let (_dir, engine, client) = connected(r#"{"mcpServers": {}}"#).await;
    assert_eq!(
        client.peer_info().and_then(|info| info.server_info.clone()).map(|s| s.name).as_deref(),
        Some("plugboard")
    );
    let tools = client.list_all_tools().await.expect("list");
    assert!(tools.is_empty(), "{tools:?}");
    let refused = client.call_tool(CallToolRequestParams::new("mcp__nope__x")).await;
    assert!(format!("{refused:?}").contains("offers no tool named"), "{refused:?}");
    client.cancel().await.expect("close");
    engine.shutdown().await;
}

/// A `required` server that cannot start makes the first list an error that names it and says why; a server that
/// is not required and fails just has no tools in the list.
#[tokio::test]
async fn a_required_server_that_fails_makes_the_first_list_an_error() {
    let config = r#"{"mcpServers": {
        "must": {"command": "plugboard-no-such-program-required", "required": true},
        "may": {"command": "plugboard-no-such-program-optional"}
    }}"#;
    let (_dir, engine, client) = connected(config).await;
    let listed = client.list_all_tools().await;
    let said = format!("{listed:?}");
    assert!(said.contains("required") && said.contains("must") && !said.contains("may ("), "{said}");
    assert!(said.contains("plugboard-no-such-program-required"), "the reason is given: {said}");
    client.cancel().await.expect("close");
    engine.shutdown().await;

    let (_dir, engine, client) =
        connected(r#"{"mcpServers": {"may": {"command": "plugboard-no-such-program"}}}"#).await;
    assert!(client.list_all_tools().await.expect("a list").is_empty());
    client.cancel().await.expect("close");
    engine.shutdown().await;
}
