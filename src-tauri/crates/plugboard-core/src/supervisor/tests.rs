//! The supervisor against real processes: the reference server-everything over stdio, and small shell
//! "servers" that fail on purpose. Each test asserts the ordered status sequence, not only the end state.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;

use super::*;
use crate::config::model::{Auth, HttpMode, HttpSpec, ServerConfig, ServerName, StdioSpec, ToolFilter, Transport};
use crate::secrets::{MemoryStore, Vault};
pub(super) use crate::testing::{statuses_until, supervisor};

const NPM: &str = "needs the npm reference servers; make test installs them into tests/node_modules";

pub(super) fn everything_bin() -> PathBuf {
    let bin = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../tests/node_modules/.bin/mcp-server-everything");
    assert!(bin.exists(), "{NPM}: {} is missing", bin.display());
    bin
}

pub(super) fn stdio(name: &str, command: &str, args: &[&str]) -> ServerConfig {
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

pub(super) fn everything(name: &str) -> ServerConfig {
    let bin = everything_bin();
    stdio(name, bin.to_str().expect("utf-8 path"), &["stdio"])
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

/// While a crashed server heals, what it offered stays curated (other clients keep its tools and their calls wait for
/// the new session) instead of vanishing from every client until it is back.
#[tokio::test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
async fn a_healing_server_stays_curated() {
    let marker = format!("plugboard-heal-marker-{}", std::process::id());
    let bin = everything_bin();
    let sup = supervisor();
    let mut events = sup.subscribe();
    sup.reconcile(vec![stdio("healing", bin.to_str().expect("utf-8"), &["stdio", &marker])]).await;
    statuses_until(&mut events, "healing", is_ready).await;
    let offered = |sup: &Supervisor| -> Vec<String> {
        let curated = sup.curated();
        curated
            .iter()
            .filter(|s| s.name == "healing")
            .flat_map(|s| s.tools.iter().map(|t| t.name.to_string()))
            .collect()
    };
    assert!(offered(&sup).contains(&"echo".to_owned()), "ready: offered");

    let killed = std::process::Command::new("pkill").args(["-9", "-f", &marker]).status().expect("pkill");
    assert!(killed.success(), "the server process was found and killed");
    let seen = statuses_until(&mut events, "healing", |s| matches!(s, ServerStatus::Reconnecting { .. })).await;
    assert_eq!(seen.last(), Some(&"reconnecting"), "{seen:?}");
    assert!(offered(&sup).contains(&"echo".to_owned()), "reconnecting: still offered");
    let result = sup.call("healing", "echo", args(json!({ "message": "back" })), None).await.expect("waited call");
    assert_eq!(text_of(&result), "Echo: back");

    sup.disconnect("healing").await.expect("disconnect");
    assert!(offered(&sup).is_empty(), "stopped by the person: no longer offered");
    sup.shutdown().await;
}

/// The state machine alone, over the fake connector (no process, no network): an auth failure is never retried (one
/// attempt, then NeedsLogin), and a transient failure backs off and, five times within a minute, stops in Failed.
#[tokio::test]
async fn retries_follow_the_failure_kind() {
    use crate::testing::FakeConnector;
    let login = FakeConnector::failing(vec![ConnectError::AuthRequired { hint: "log in to it".into() }]);
    let sup = Supervisor::new(Arc::clone(&login) as Arc<dyn Connector>);
    let mut events = sup.subscribe();
    sup.reconcile(vec![stdio("remote", "never-started", &[])]).await;
    assert_eq!(statuses_until(&mut events, "remote", ServerStatus::is_settled).await, ["connecting", "needs login"]);
    // Past the first retry's backoff (0.5 s and its jitter): an auth failure is never retried by itself.
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(login.attempts(), 1, "an auth failure waits for the person");
    sup.shutdown().await;

    let flaky = ConnectError::Transport { message: "connection reset".into(), transient: true, stderr_tail: None };
    let down = FakeConnector::failing(vec![flaky]);
    let sup = Supervisor::new(Arc::clone(&down) as Arc<dyn Connector>);
    let mut events = sup.subscribe();
    sup.reconcile(vec![stdio("flaky", "never-started", &[])]).await;
    let seen = statuses_until(&mut events, "flaky", |s| matches!(s, ServerStatus::Failed { .. })).await;
    assert_eq!(seen.last(), Some(&"failed"), "{seen:?}");
    assert_eq!(down.attempts(), CRASH_LOOP_FAILURES, "{seen:?}");
    sup.shutdown().await;
}

/// A server that exits at once is retried with backoff and ends in Failed after 5 failures, with its stderr; the
/// failure and the stderr lines are in its log as well (its page's Log tab shows what its row shows).
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
    let log = sup.log("crashy").expect("log");
    let logged: Vec<(&str, Option<&str>, &str)> =
        log.iter().map(|e| (e.level.as_str(), e.logger.as_deref(), e.message.as_str())).collect();
    assert!(logged.contains(&("info", Some("stderr"), "fatal: no config")), "{logged:?}");
    assert!(logged.iter().any(|(level, _, message)| *level == "plugboard-warning" && message.contains("5 times")));
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

/// An edit of the allowlist alone applies to the live session: the server does not reconnect (no Connecting, the
/// same session answers), the tool count follows the new list, and a tool taken out can no longer be called.
#[tokio::test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
async fn allowlist_edit_keeps_the_session() {
    let sup = supervisor();
    let config = everything("trimmed");
    sup.reconcile(vec![config.clone()]).await;
    let status = sup.settled("trimmed", Duration::from_secs(60)).await.expect("settled");
    let ServerStatus::Ready { tools: all, .. } = status else { panic!("not ready: {status:?}") };
    assert!(all > 1, "server-everything offers several tools");

    let mut events = sup.subscribe();
    let mut trimmed = config.clone();
    trimmed.tools = ToolFilter::Only(vec!["echo".into()]);
    sup.reconcile(vec![trimmed.clone()]).await;
    let seen = statuses_until(&mut events, "trimmed", |s| matches!(s, ServerStatus::Ready { tools: 1, .. })).await;
    assert_eq!(seen, ["ready"], "the allowlist applied without a reconnect");
    assert_eq!(sup.config("trimmed").expect("config").tools, trimmed.tools, "the running config has the new list");
    let echoed = sup.call("trimmed", "echo", args(json!({"message": "still here"})), None).await.expect("echo");
    assert!(text_of(&echoed).contains("still here"));
    let hidden = sup.call("trimmed", "get-sum", args(json!({"a": 1, "b": 2})), None).await;
    assert!(matches!(hidden, Err(SupervisorError::UnknownTool { .. })), "{hidden:?}");

    sup.reconcile(vec![config]).await;
    let seen =
        statuses_until(&mut events, "trimmed", |s| matches!(s, ServerStatus::Ready { tools, .. } if *tools == all))
            .await;
    assert_eq!(seen, ["ready"], "widening the list again does not reconnect either");
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
    let supervisor = Supervisor::new(crate::testing::approving_connector(vault));
    let mut events = supervisor.subscribe();
    let spec =
        HttpSpec { url: "http://127.0.0.1:9/mcp".into(), headers: Default::default(), mode: HttpMode::StreamableHttp };
    let config = ServerConfig {
        auth: Auth::OAuth(crate::config::model::OAuthSettings {
            redirect: crate::config::model::Redirect::Loopback,
            ..crate::config::model::OAuthSettings::default()
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

/// The engine's first reconcile sweeps Docker leftovers exactly once, through the stand-in `docker` (no engine runs
/// here; the script records its argv): `ps` of our label, then `rm -f` of only the container whose Plugboard
/// process is gone. A second reconcile does not sweep again.
#[tokio::test]
async fn first_reconcile_sweeps_docker_leftovers_once() {
    use std::ffi::OsString;

    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("docker-argv.log");
    let docker = dir.path().join("docker");
    let script = "#!/bin/sh\n# Stand-in docker for tests: records argv, never talks to an engine.\n\
                  printf '%s\\n' \"$*\" >> \"$STAND_IN_LOG\"\n\
                  [ \"$1\" = ps ] && printf 'plugboard-gone-1111-0\\t1111\\nplugboard-live-4242-0\\t4242\\n'\nexit 0\n";
    crate::testing::write_executable(&docker, script);
    let env: Vec<(OsString, OsString)> =
        vec![("PATH".into(), "/usr/bin:/bin".into()), ("STAND_IN_LOG".into(), log.clone().into())];
    let sweep: LeftoverSweep = Arc::new(move || crate::transport::sweep_with(&docker, &env, |pid| pid == 4242));
    let vault = Arc::new(Vault::with_store(Arc::new(MemoryStore::default())));
    let sup = Supervisor::with_leftover_sweep(crate::testing::approving_connector(vault), sweep);
    sup.reconcile(Vec::new()).await;
    assert!(sup.leftovers_swept().await.is_none(), "reconciling alone sweeps nothing (one-shot commands skip it)");

    sup.sweep_leftovers();
    let report = sup.leftovers_swept().await.expect("the sweep ran").expect("the stand-in answered");
    assert_eq!(report.removed, ["plugboard-gone-1111-0"]);
    assert_eq!(report.kept, ["plugboard-live-4242-0"]);
    sup.sweep_leftovers();
    assert!(sup.leftovers_swept().await.is_none(), "the sweep runs once per engine");

    let recorded = std::fs::read_to_string(&log).expect("the stand-in was called");
    let calls: Vec<&str> = recorded.lines().collect();
    assert_eq!(calls.len(), 2, "{calls:?}");
    assert!(calls[0].starts_with("ps -a --filter label=dev.plugboard.managed=1 --format"), "{calls:?}");
    assert_eq!(calls[1], "rm -f plugboard-gone-1111-0");
    sup.shutdown().await;
}

/// A remote server whose URL is not http(s) (here `file:`, as an expanded reference could produce) never connects:
/// Connecting → Failed, with an error naming the `url` field, and no retry.
#[tokio::test]
async fn file_url_is_refused_naming_the_field() {
    let sup = supervisor();
    let mut events = sup.subscribe();
    let spec = HttpSpec { url: "file:///etc/passwd".into(), headers: Default::default(), mode: HttpMode::Probe };
    sup.reconcile(vec![ServerConfig::new(ServerName::parse("local-file").expect("name"), Transport::Http(spec))]).await;
    let seen = statuses_until(&mut events, "local-file", |s| matches!(s, ServerStatus::Failed { .. })).await;
    assert_eq!(seen, ["connecting", "failed"]);
    let ServerStatus::Failed { error, .. } = sup.status("local-file").expect("status") else { panic!("not failed") };
    assert!(error.starts_with("url: the file: scheme is not allowed"), "{error}");
    sup.shutdown().await;
}

/// The pooled HTTP client every remote server uses does not follow redirects: a 307 to another port comes back
/// as the 307 itself, so a server cannot bounce our headers (tokens) somewhere else.
#[tokio::test]
async fn pooled_client_does_not_follow_redirects() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let server = tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.expect("accept");
        let mut request = [0u8; 4096];
        let _ = socket.read(&mut request).await;
        let answer = "HTTP/1.1 307 Temporary Redirect\r\nLocation: http://127.0.0.1:9/elsewhere\r\n\
                      Content-Length: 0\r\nConnection: close\r\n\r\n";
        socket.write_all(answer.as_bytes()).await.expect("write");
    });
    let response =
        crate::net::pooled_http_client().get(format!("http://127.0.0.1:{port}/mcp")).send().await.expect("answer");
    assert_eq!(response.status(), reqwest::StatusCode::TEMPORARY_REDIRECT);
    assert_eq!(response.headers()["location"], "http://127.0.0.1:9/elsewhere");
    server.await.expect("server task");
}
