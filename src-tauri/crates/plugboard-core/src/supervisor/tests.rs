//! The supervisor against real processes: the reference server-everything over stdio, and small shell
//! "servers" that fail on purpose. Each test asserts the ordered status sequence, not only the end state.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;

use super::*;
use crate::config::model::{Auth, HttpMode, HttpSpec, ServerConfig, ServerName, StdioSpec, ToolFilter, Transport};
use crate::secrets::{MemoryStore, Vault};

const NPM: &str = "needs the npm reference servers; make test installs them into tests/node_modules";

fn everything_bin() -> PathBuf {
    let bin = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../tests/node_modules/.bin/mcp-server-everything");
    assert!(bin.exists(), "{NPM}: {} is missing", bin.display());
    bin
}

fn stdio(name: &str, command: &str, args: &[&str]) -> ServerConfig {
    ServerConfig {
        timeout: Duration::from_secs(20),
        ..ServerConfig::new(
            ServerName::parse(name).expect("name"),
            Transport::Stdio(StdioSpec {
                command: command.to_owned(),
                args: args.iter().map(|a| (*a).to_owned()).collect(),
                env: Default::default(),
                cwd: None,
            }),
        )
    }
}

fn everything(name: &str) -> ServerConfig {
    let bin = everything_bin();
    stdio(name, bin.to_str().expect("utf-8 path"), &["stdio"])
}

fn supervisor() -> Supervisor {
    let vault = Arc::new(Vault::with_store(Arc::new(MemoryStore::default())));
    Supervisor::new(Arc::new(LiveConnector::new(vault)))
}

/// Collects the labels of `server`'s status events until `stop` matches one (or 60 s pass).
async fn statuses_until(
    events: &mut tokio::sync::broadcast::Receiver<SupervisorEvent>,
    server: &str,
    stop: impl Fn(&ServerStatus) -> bool,
) -> Vec<&'static str> {
    let mut seen = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while let Ok(Ok(event)) = tokio::time::timeout_at(deadline, events.recv()).await {
        if let SupervisorEvent::StatusChanged { server: s, status } = event
            && s == server
        {
            seen.push(status.label());
            if stop(&status) {
                break;
            }
        }
    }
    seen
}

fn is_ready(s: &ServerStatus) -> bool {
    matches!(s, ServerStatus::Ready { .. })
}

fn text_of(result: &rmcp::model::CallToolResult) -> String {
    result.content.iter().filter_map(|c| c.as_text()).map(|t| t.text.as_str()).collect::<Vec<_>>().join("")
}

fn args(value: serde_json::Value) -> rmcp::model::JsonObject {
    match value {
        serde_json::Value::Object(map) => map,
        _ => rmcp::model::JsonObject::new(),
    }
}

/// A reference server comes up Connecting → Ready with its tools named, and a call goes through.
#[tokio::test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
async fn comes_up_and_calls() {
    let sup = supervisor();
    let mut events = sup.subscribe();
    sup.reconcile(vec![everything("everything")]).await;
    assert_eq!(statuses_until(&mut events, "everything", is_ready).await, ["connecting", "ready"]);

    let tools = sup.tools("everything").expect("tools");
    let echo = tools.iter().find(|t| t.name == "echo").expect("echo");
    assert_eq!(echo.exposed_name, "mcp__everything__echo");
    assert!(echo.allowed && echo.input_schema.contains("message"));

    let result = sup.call("everything", "echo", args(json!({"message": "hi"})), None).await.expect("call");
    assert_eq!(text_of(&result), "Echo: hi");
    sup.shutdown().await;
}

/// The allowlist hides other tools, a misspelt entry is reported with the real names, and a hidden tool cannot be called.
#[tokio::test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
async fn allowlist_is_applied_and_unknown_entries_reported() {
    let sup = supervisor();
    let mut events = sup.subscribe();
    let mut config = everything("curated");
    config.tools = ToolFilter::Only(vec!["echo".into(), "ecco".into()]);
    sup.reconcile(vec![config]).await;
    let status = sup.settled("curated", Duration::from_secs(60)).await.expect("settled");
    assert!(matches!(status, ServerStatus::Ready { tools: 1, .. }), "{status:?}");

    let mut warned = false;
    while let Ok(event) = events.try_recv() {
        if let SupervisorEvent::Warned { message, .. } = event {
            warned |= message.contains("ecco") && message.contains("echo");
        }
    }
    assert!(warned, "the misspelt entry was reported with the available names");
    let hidden = sup.call("curated", "get-sum", args(json!({"a": 1, "b": 2})), None).await;
    assert!(matches!(hidden, Err(SupervisorError::UnknownTool { .. })), "{hidden:?}");
    sup.shutdown().await;
}

/// A server whose process dies is healed: Reconnecting → Connecting → Ready, and a call made right after the
/// crash is retried once on the new session and succeeds.
#[tokio::test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
async fn killed_server_reconnects_and_the_call_is_retried() {
    // A unique extra argument (server-everything ignores it) lets the test find and kill exactly this server.
    let marker = format!("plugboard-kill-marker-{}", std::process::id());
    let bin = everything_bin();
    let sup = supervisor();
    let mut events = sup.subscribe();
    sup.reconcile(vec![stdio("flaky", bin.to_str().expect("utf-8"), &["stdio", &marker])]).await;
    assert_eq!(statuses_until(&mut events, "flaky", is_ready).await, ["connecting", "ready"]);

    // Three rounds: the race between the health check and the call goes either way, and both must heal.
    for round in 0..3 {
        let killed = std::process::Command::new("pkill").args(["-9", "-f", &marker]).status().expect("pkill");
        assert!(killed.success(), "round {round}: the server process was found and killed");
        let message = format!("again {round}");
        let result = sup.call("flaky", "echo", args(json!({ "message": message })), None).await.expect("retried call");
        assert_eq!(text_of(&result), format!("Echo: again {round}"));
        let seen = statuses_until(&mut events, "flaky", is_ready).await;
        assert_eq!(seen, ["reconnecting", "connecting", "ready"], "round {round}: {seen:?}");
    }
    sup.shutdown().await;
}

/// A server that exits at once is retried with backoff and ends in Failed after 5 failures, with its stderr.
#[tokio::test]
async fn crash_loop_ends_in_failed() {
    let sup = supervisor();
    let mut events = sup.subscribe();
    sup.reconcile(vec![stdio("crashy", "/bin/sh", &["-c", "echo 'fatal: no config' >&2; exit 1"])]).await;
    let seen = statuses_until(&mut events, "crashy", |s| matches!(s, ServerStatus::Failed { .. })).await;
    let expected: Vec<&str> =
        ["connecting", "reconnecting"].iter().copied().cycle().take(8).chain(["connecting", "failed"]).collect();
    assert_eq!(seen, expected);
    match sup.status("crashy").expect("status") {
        ServerStatus::Failed { error, .. } => assert!(error.contains("5 times"), "{error}"),
        other => panic!("{other:?}"),
    }
    sup.shutdown().await;
}

/// A command that does not exist fails at once, without retrying, and says which program was missing.
#[tokio::test]
async fn missing_command_fails_without_retry() {
    let sup = supervisor();
    let mut events = sup.subscribe();
    sup.reconcile(vec![stdio("ghost", "plugboard-no-such-program", &[])]).await;
    let seen = statuses_until(&mut events, "ghost", |s| s.is_settled()).await;
    assert_eq!(seen, ["connecting", "failed"]);
    let status = sup.status("ghost").expect("status");
    assert!(
        matches!(&status, ServerStatus::Failed { error, .. } if error.contains("plugboard-no-such-program")),
        "{status:?}"
    );
    sup.shutdown().await;
}

/// A remote server whose bearer-token variable is unset asks for the variable, never for a login.
#[tokio::test]
async fn unset_bearer_variable_asks_to_set_it() {
    let sup = supervisor();
    let mut config = stdio("remote", "unused", &[]);
    config.transport = Transport::Http(HttpSpec {
        url: "http://127.0.0.1:9/mcp".into(),
        headers: Default::default(),
        mode: HttpMode::StreamableHttp,
    });
    config.auth = Auth::BearerEnv { var: "PLUGBOARD_TEST_SURELY_UNSET_TOKEN".into() };
    sup.reconcile(vec![config]).await;
    match sup.settled("remote", Duration::from_secs(10)).await.expect("settled") {
        ServerStatus::NeedsLogin { hint } => {
            assert!(hint.contains("PLUGBOARD_TEST_SURELY_UNSET_TOKEN") && !hint.contains("log in"), "{hint}");
        }
        other => panic!("{other:?}"),
    }
    sup.shutdown().await;
}

/// A disabled server stays Disabled; an explicit disconnect stays Stopped and never reconnects; a broken server
/// next to a good one does not disturb it; reconcile restarts only the edited server.
#[tokio::test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
async fn servers_are_independent_and_reconcile_is_minimal() {
    let sup = supervisor();
    let mut off = everything("off");
    off.enabled = false;
    let good = everything("good");
    let bad = stdio("bad", "plugboard-no-such-program", &[]);
    sup.reconcile(vec![off.clone(), good.clone(), bad.clone()]).await;
    let all = sup.settle_all(Duration::from_secs(60)).await;
    let labels: Vec<_> = all.iter().map(|(n, s)| (n.as_str(), s.label())).collect();
    assert_eq!(labels, [("bad", "failed"), ("good", "ready"), ("off", "disabled")]);

    let mut events = sup.subscribe();
    let mut edited = bad.clone();
    edited.transport = Transport::Stdio(StdioSpec {
        command: "plugboard-still-missing".into(),
        args: vec![],
        env: Default::default(),
        cwd: None,
    });
    sup.reconcile(vec![off, good, edited]).await;
    let _ = sup.settled("bad", Duration::from_secs(30)).await;
    let mut touched = std::collections::BTreeSet::new();
    while let Ok(event) = events.try_recv() {
        if let SupervisorEvent::StatusChanged { server, .. } = event {
            touched.insert(server);
        }
    }
    assert_eq!(touched.into_iter().collect::<Vec<_>>(), ["bad"], "only the edited server restarted");

    sup.disconnect("good").await.expect("disconnect");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(sup.status("good").expect("status"), ServerStatus::Stopped);
    let refused = sup.call("good", "echo", args(json!({"message": "x"})), None).await;
    assert!(matches!(refused, Err(SupervisorError::NotReady { .. })), "{refused:?}");
    sup.shutdown().await;
}

/// An OAuth server with no stored login for its URL goes straight to NeedsLogin with the command to run — no
/// browser, no retry loop — and a login stored under the same name for another URL is not used.
#[tokio::test]
async fn oauth_server_without_a_login_needs_one() {
    use rmcp::transport::auth::CredentialStore;
    let vault = Arc::new(Vault::with_store(Arc::new(MemoryStore::default())));
    let elsewhere: rmcp::transport::auth::StoredCredentials = serde_json::from_value(json!({
        "client_id": "c", "token_response": {"access_token": "for-another-host", "token_type": "Bearer"}
    }))
    .expect("credentials");
    crate::auth::VaultCredentialStore::new(Arc::clone(&vault), "remote", "https://elsewhere.example/mcp")
        .save(elsewhere)
        .await
        .expect("save");
    let supervisor = Supervisor::new(Arc::new(LiveConnector::new(vault)));
    let mut events = supervisor.subscribe();
    let spec =
        HttpSpec { url: "http://127.0.0.1:9/mcp".into(), headers: Default::default(), mode: HttpMode::StreamableHttp };
    let config = ServerConfig {
        auth: Auth::OAuth(crate::config::model::OAuthSettings {
            scopes: None,
            client_id: None,
            redirect: crate::config::model::Redirect::Loopback,
            allow_missing_pkce_metadata: false,
        }),
        ..ServerConfig::new(ServerName::parse("remote").expect("name"), Transport::Http(spec))
    };
    supervisor.reconcile(vec![config]).await;
    let seen = statuses_until(&mut events, "remote", |s| matches!(s, ServerStatus::NeedsLogin { .. })).await;
    assert_eq!(seen, ["connecting", "needs login"]);
    let hint = supervisor.statuses().into_iter().find_map(|(_, s)| match s {
        ServerStatus::NeedsLogin { hint } => Some(hint),
        _ => None,
    });
    assert!(hint.as_deref().is_some_and(|h| h.contains("plugboard login remote")), "{hint:?}");
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert!(events.try_recv().is_err(), "no retry after NeedsLogin");
    supervisor.shutdown().await;
}
