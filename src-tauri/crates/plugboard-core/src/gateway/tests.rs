//! The gateway with an rmcp client over an in-memory pipe: the handshake, the curated list, a refused name and a
//! search profile, without launching a process (the SDK clients' tests under tests/gateway do the rest end to end).

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::CallToolRequestParams;
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RunningService};
use rmcp::{RoleClient, ServiceExt};

use super::{Gateway, GatewayOptions, Scope, publish_catalog};
use crate::engine::{Engine, EngineOptions, PersonAnswers};
use crate::secrets::Fallback;

/// A gateway over the config `servers_json` (already started), and an rmcp client connected to it in memory.
async fn connected(servers_json: &str) -> (tempfile::TempDir, Arc<Engine>, RunningService<RoleClient, ()>) {
    connected_with(servers_json, None, ClientLifecycleMode::Initialize).await
}

/// The same, serving the profile `profile` of the config.
async fn connected_as(
    servers_json: &str,
    profile: Option<&str>,
) -> (tempfile::TempDir, Arc<Engine>, RunningService<RoleClient, ()>) {
    connected_with(servers_json, profile, ClientLifecycleMode::Initialize).await
}

/// `connected_as`, the client starting its session the way `lifecycle` says (the protocol era).
async fn connected_with(
    servers_json: &str,
    profile: Option<&str>,
    lifecycle: ClientLifecycleMode,
) -> (tempfile::TempDir, Arc<Engine>, RunningService<RoleClient, ()>) {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("servers.json"), servers_json).expect("config");
    let options = EngineOptions {
        config_path: dir.path().join("servers.json"),
        secrets: Fallback::chosen(false),
        person: PersonAnswers::Declined,
        approvals: crate::trust::Approvals::at(dir.path().join("trust.json")),
        log_scrub: crate::secrets::LogScrub::default(),
        history_check: crate::console::DamageCheck::OnUse,
    };
    let engine = Arc::new(Engine::open(options).expect("engine"));
    crate::testing::approve_all(&engine).await;
    engine.start(None).await.expect("start");
    let scope = Scope::select(engine.registry(), profile).expect("the profile is there");
    let (catalog, publishing) = publish_catalog(engine.supervisor(), scope);
    tokio::spawn(publishing);
    let options = GatewayOptions { first_list_wait: Duration::from_secs(5), profile: None };
    let gateway = Gateway::new(Arc::clone(&engine), catalog, options);
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move { gateway.serve(server_io).await.expect("serve").waiting().await });
    let client = tokio::time::timeout(Duration::from_secs(10), ().serve_with_lifecycle(client_io, lifecycle))
        .await
        .expect("in time");
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

/// A search-mode profile lists only the three search tools and answers them itself: a search over no tools finds
/// nothing, and neither call_tool nor a direct call reaches a name the catalog does not offer.
#[tokio::test]
async fn a_search_profile_lists_and_answers_the_search_tools() {
    let config = r#"{"mcpServers": {}, "profiles": {"find": {"mode": "search", "servers": {}}}}"#;
    let (_dir, engine, client) = connected_as(config, Some("find")).await;
    let names: Vec<String> = client.list_all_tools().await.expect("list").into_iter().map(|t| t.name.into()).collect();
    assert_eq!(names, ["find_tools", "describe_tool", "call_tool"]);
    let arguments = |value: serde_json::Value| value.as_object().cloned();
    let mut find = CallToolRequestParams::new("find_tools");
    find.arguments = arguments(serde_json::json!({"query": "anything \"*"}));
    let found = client.call_tool(find).await.expect("found");
    assert_eq!(found.structured_content, Some(serde_json::json!({"tools": []})));
    let mut call = CallToolRequestParams::new("call_tool");
    call.arguments = arguments(serde_json::json!({"name": "mcp__files__read", "arguments": {}}));
    let refused = format!("{:?}", client.call_tool(call).await);
    assert!(refused.contains("offers no tool named") && refused.contains("find_tools"), "{refused}");
    let direct = format!("{:?}", client.call_tool(CallToolRequestParams::new("mcp__files__read")).await);
    assert!(direct.contains("search mode"), "{direct}");
    client.cancel().await.expect("close");
    engine.shutdown().await;
}

/// A client of the 2026-07-28 era hears about changes on its `subscriptions/listen` stream: the gateway accepts
/// the three lists it announces, and a server coming up sends `tools/list_changed` (then resources and prompts) on
/// the stream, tagged with the subscription.
#[tokio::test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
async fn a_2026_client_hears_tools_list_changed_on_its_subscription() {
    use rmcp::model::{ServerNotification, SubscriptionFilter};

    use crate::config::model::{ServerConfig, ServerName, StdioSpec, Transport};

    let newer = ClientLifecycleMode::Discover { preferred_versions: vec![rmcp::model::ProtocolVersion::V_2026_07_28] };
    let (dir, engine, client) = connected_with(r#"{"mcpServers": {}}"#, None, newer).await;
    let version = client.peer_info().map(|info| info.protocol_version.to_string()).unwrap_or_default();
    assert_eq!(version, "2026-07-28");
    let asked = SubscriptionFilter::builder().tools_list_changed().prompts_list_changed().build();
    let mut subscription = client.listen(asked).await.expect("listen");
    assert_eq!(subscription.acknowledged().tools_list_changed, Some(true));
    assert_eq!(subscription.acknowledged().resources_list_changed, None, "only what was asked");

    let bin = crate::testing::everything_bin().display().to_string();
    let spec = StdioSpec { command: bin, args: vec!["stdio".into()], env: Default::default(), cwd: None };
    let everything = ServerConfig::new(ServerName::parse("everything").expect("name"), Transport::Stdio(spec));
    let approvals = crate::trust::Approvals::at(dir.path().join("trust.json"));
    let definition = crate::trust::LaunchDefinition::of(&everything);
    approvals.record(&definition, crate::trust::Decision::Approved).expect("the test approves");
    engine.supervisor().reconcile(vec![everything]).await;

    let mut received = Vec::new();
    for _ in 0..2 {
        let next = tokio::time::timeout(Duration::from_secs(30), subscription.next()).await.expect("in time");
        received.push(next.expect("a notification").expect("open"));
    }
    assert!(matches!(received[0], ServerNotification::ToolListChangedNotification(_)), "{received:?}");
    assert!(matches!(received[1], ServerNotification::PromptListChangedNotification(_)), "{received:?}");
    assert!(client.list_all_tools().await.expect("list").iter().any(|t| t.name == "mcp__everything__echo"));
    client.cancel().await.expect("close");
    engine.shutdown().await;
}
