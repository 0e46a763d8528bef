//! Looking inside a real server (the reference server-everything over stdio): its resources, templates, prompts
//! and initialize result through the supervisor, and its log kept across a reconnect and dropped on removal.

use std::collections::BTreeMap;
use std::time::Duration;

use super::tests::{everything, everything_bin, stdio, supervisor};
use super::*;

async fn ready(sup: &Supervisor, name: &str) {
    let status = sup.settled(name, Duration::from_secs(60)).await.expect("settled");
    assert!(matches!(status, ServerStatus::Ready { .. }), "{status:?}");
}

/// Resources and templates are listed in full, a text resource reads as text and a blob as base64 with its size.
#[tokio::test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
async fn lists_and_reads_resources() {
    let sup = supervisor();
    sup.reconcile(vec![everything("res")]).await;
    ready(&sup, "res").await;

    let resources = sup.resources("res").await.expect("resources");
    let doc = resources
        .iter()
        .find(|r| r.uri == "demo://resource/static/document/features.md")
        .expect("the docs are listed as static resources");
    assert_eq!(doc.mime_type.as_deref(), Some("text/markdown"));
    assert!(resources.len() >= 7, "every document is listed: {resources:?}");

    let templates = sup.resource_templates("res").await.expect("templates");
    let uris: Vec<&str> = templates.iter().map(|t| t.uri_template.as_str()).collect();
    assert!(uris.contains(&"demo://resource/dynamic/text/{resourceId}"), "{uris:?}");
    assert!(uris.contains(&"demo://resource/dynamic/blob/{resourceId}"), "{uris:?}");

    let text = sup.read_resource("res", "demo://resource/dynamic/text/3").await.expect("read text");
    assert!(
        matches!(&text[..], [ResourceContent::Text { text, .. }] if text.starts_with("Resource 3: This is a plaintext")),
        "{text:?}"
    );
    let blob = sup.read_resource("res", "demo://resource/dynamic/blob/2").await.expect("read blob");
    match &blob[..] {
        [ResourceContent::Blob { blob, size, mime_type, .. }] => {
            assert_eq!(mime_type.as_deref(), Some("text/plain"));
            // "Resource 2: This is a base64 blob created at <time>": its start is the base64 of "Resource 2: ".
            assert!(blob.starts_with("UmVzb3VyY2UgMjog"), "{blob}");
            assert!(*size > 40, "{size}");
        }
        other => panic!("{other:?}"),
    }
    let missing = sup.read_resource("res", "demo://resource/dynamic/text/zero").await;
    assert!(matches!(missing, Err(SupervisorError::Protocol { .. })), "{missing:?}");
    sup.shutdown().await;
}

/// Prompts are listed with their declared arguments (required marked), and a prompt is got with arguments filled in.
#[tokio::test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
async fn lists_and_gets_prompts_with_arguments() {
    let sup = supervisor();
    sup.reconcile(vec![everything("prompts")]).await;
    ready(&sup, "prompts").await;

    let prompts = sup.prompts("prompts").await.expect("prompts");
    let args_prompt = prompts.iter().find(|p| p.name == "args-prompt").expect("args-prompt");
    let declared: Vec<(&str, bool)> = args_prompt.arguments.iter().map(|a| (a.name.as_str(), a.required)).collect();
    assert_eq!(declared, [("city", true), ("state", false)]);

    let arguments = BTreeMap::from([("city".to_owned(), "Paris".to_owned()), ("state".to_owned(), "TX".to_owned())]);
    let got = sup.get_prompt("prompts", "args-prompt", arguments).await.expect("get");
    assert_eq!(got.messages.len(), 1);
    assert_eq!(got.messages[0].role, "user");
    let content: serde_json::Value = serde_json::from_str(&got.messages[0].content).expect("JSON text");
    assert_eq!(content["type"], "text");
    assert_eq!(content["text"], "What's weather in Paris, TX?");
    sup.shutdown().await;
}

/// The initialize result comes through: protocol version, name and version, capabilities in words, instructions.
#[tokio::test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
async fn server_info_says_what_initialize_said() {
    let sup = supervisor();
    sup.reconcile(vec![everything("info")]).await;
    ready(&sup, "info").await;
    let info = sup.server_info("info").await.expect("info");
    let ServerStatus::Ready { protocol_version, .. } = sup.status("info").expect("status") else { panic!() };
    assert_eq!(info.protocol_version, protocol_version);
    assert_eq!(info.name.as_deref(), Some("mcp-servers/everything"));
    assert_eq!(info.version.as_deref(), Some("2.0.0"));
    assert!(info.capabilities.iter().any(|c| c.starts_with("tools")), "{:?}", info.capabilities);
    assert!(info.capabilities.iter().any(|c| c.starts_with("resources (subscriptions")), "{:?}", info.capabilities);
    assert!(info.capabilities.iter().any(|c| c.starts_with("prompts")), "{:?}", info.capabilities);
    assert!(info.capabilities.contains(&"logging".to_owned()), "{:?}", info.capabilities);
    assert!(info.instructions.as_deref().is_some_and(|i| !i.trim().is_empty()), "{info:?}");
    sup.shutdown().await;
}

/// A server that is turned off answers every look with NotReady (saying it is disabled), and an unknown one NotFound.
#[tokio::test]
async fn a_server_that_is_not_ready_says_so() {
    let sup = supervisor();
    let mut off = stdio("off", "unused", &[]);
    off.enabled = false;
    sup.reconcile(vec![off]).await;
    let not_ready = |r: &Result<_, SupervisorError>| {
        matches!(r, Err(SupervisorError::NotReady { status: ServerStatus::Disabled, .. }))
    };
    assert!(not_ready(&sup.resources("off").await.map(drop)));
    assert!(not_ready(&sup.resource_templates("off").await.map(drop)));
    assert!(not_ready(&sup.read_resource("off", "demo://x").await.map(drop)));
    assert!(not_ready(&sup.prompts("off").await.map(drop)));
    assert!(not_ready(&sup.get_prompt("off", "p", BTreeMap::new()).await.map(drop)));
    assert!(not_ready(&sup.server_info("off").await.map(drop)));
    assert_eq!(sup.log("off").map(|l| l.len()), Ok(0));
    assert!(matches!(sup.server_info("nope").await, Err(SupervisorError::NotFound { .. })));
    assert!(matches!(sup.log("nope"), Err(SupervisorError::NotFound { .. })));
    sup.shutdown().await;
}

/// The server's log messages and Plugboard's warnings land in its log; the log survives the server's process
/// being killed and reconnected, and is gone when the server is removed.
#[tokio::test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
async fn log_survives_a_reconnect_and_goes_with_the_server() {
    let marker = format!("plugboard-log-marker-{}", std::process::id());
    let bin = everything_bin();
    let mut config = stdio("chatty", bin.to_str().expect("utf-8"), &["stdio", &marker]);
    config.tools = crate::config::model::ToolFilter::Only(vec!["toggle-simulated-logging".into(), "nosuch".into()]);
    let sup = supervisor();
    let mut events = sup.subscribe();
    sup.reconcile(vec![config.clone()]).await;
    ready(&sup, "chatty").await;

    sup.call("chatty", "toggle-simulated-logging", rmcp::model::JsonObject::new(), None).await.expect("toggle");
    // The server logs once at once, then every 5 s.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    let logged = loop {
        match tokio::time::timeout_at(deadline, events.recv()).await {
            Ok(Ok(SupervisorEvent::Logged { server, entry }))
                if server == "chatty" && entry.level != PLUGBOARD_WARNING =>
            {
                break entry;
            }
            Ok(Ok(_)) => {}
            other => panic!("no log message arrived: {other:?}"),
        }
    };
    assert!(logged.message.contains("message"), "{logged:?}");
    let before = sup.log("chatty").expect("log");
    assert!(before.iter().any(|e| e.level == PLUGBOARD_WARNING && e.message.contains("nosuch")), "{before:?}");
    assert!(before.contains(&logged), "{before:?}");

    let killed = std::process::Command::new("pkill").args(["-9", "-f", &marker]).status().expect("pkill");
    assert!(killed.success(), "the server process was found and killed");
    let mut status = sup.status("chatty").expect("status");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while matches!(status, ServerStatus::Ready { .. }) && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
        status = sup.status("chatty").expect("status");
    }
    ready(&sup, "chatty").await;
    let after = sup.log("chatty").expect("log");
    assert!(after.starts_with(&before), "the history before the reconnect is kept: {after:?}");
    // The new session's allowlist warning is logged again, after the old lines.
    assert!(after.len() > before.len(), "{after:?}");

    sup.reconcile(vec![]).await;
    assert!(matches!(sup.log("chatty"), Err(SupervisorError::NotFound { .. })));
    sup.reconcile(vec![config]).await;
    assert!(sup.log("chatty").expect("log").iter().all(|e| !before.contains(e)), "a re-added server starts afresh");
    sup.shutdown().await;
}
