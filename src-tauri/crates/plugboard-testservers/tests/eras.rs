//! Both protocol eras through the supervisor and the live connector, against `plugboard-testserver` in each of its
//! `--era` modes: a 2026-07-28 server, a 2024-11-05 server and a dual-era one Ready side by side, each in its era;
//! list changes heard on a 2026-07-28 session's `subscriptions/listen` stream; and a server of the earlier era
//! opened with `initialize` at once when it reconnects, after the first probe found it out.

mod support;

use std::time::Duration;

use plugboard_core::supervisor::ServerStatus;
use serde_json::json;

use support::{Harness, args, is_ready, journal, text_of, within};

fn protocol_of(h: &Harness, server: &str) -> String {
    match h.sup.status(server) {
        Ok(ServerStatus::Ready { protocol_version, .. }) => protocol_version,
        other => panic!("{server} is not ready: {other:?}"),
    }
}

/// The done-when of the protocol issue: a 2026-07-28 server and a 2024-11-05 server come up Ready side by side,
/// with servers of every version between (each falls back to the version it answers) and a dual-era one spoken to in
/// 2026-07-28, and each answers a call.
#[tokio::test]
async fn servers_of_both_eras_come_up_ready_side_by_side() {
    let h = Harness::new();
    let servers = [
        ("modern", vec!["--era", "modern"], "2026-07-28"),
        ("old", vec!["--era", "legacy", "--legacy-version", "2024-11-05"], "2024-11-05"),
        ("march", vec!["--era", "legacy", "--legacy-version", "2025-03-26"], "2025-03-26"),
        ("june", vec!["--era", "legacy", "--legacy-version", "2025-06-18"], "2025-06-18"),
        ("recent", vec!["--era", "legacy"], "2025-11-25"),
        ("dual", vec!["--era", "dual"], "2026-07-28"),
    ];
    h.sup.reconcile(servers.iter().map(|(name, flags, _)| h.server(name, flags)).collect()).await;
    for (name, _, version) in &servers {
        let settled = h.sup.settled(name, Duration::from_secs(30)).await;
        assert!(matches!(settled, Ok(ServerStatus::Ready { .. })), "{name}: {settled:?}");
        assert_eq!(protocol_of(&h, name), *version, "{name}");
        let echoed = h.sup.call(name, "echo", args(json!({"message": name})), None).await.expect("call");
        assert_eq!(text_of(&echoed), format!("Echo: {name}"));
    }
    h.finish().await;
}

/// A 2026-07-28 server sends no notification unasked: the tool it adds reaches the supervisor's tools through the
/// session's `subscriptions/listen` stream.
#[tokio::test]
async fn a_modern_servers_list_change_arrives_on_its_stream() {
    let mut h = Harness::new();
    h.sup.reconcile(vec![h.server("growing", &["--era", "modern", "--list-changed"])]).await;
    assert_eq!(h.statuses_until("growing", is_ready).await, ["connecting", "ready"]);
    assert_eq!(protocol_of(&h, "growing"), "2026-07-28");
    let fresh = |h: &Harness| h.sup.tools("growing").expect("tools").into_iter().any(|t| t.name == "fresh");
    assert!(!fresh(&h));

    let added = h.sup.call("growing", "add_tool", args(json!({"name": "fresh"})), None).await.expect("call");
    assert_eq!(text_of(&added), "added fresh");
    assert!(within(Duration::from_secs(5), || fresh(&h)).await, "the new tool never showed up in tools()");
    // Long after the stream is open (the first change may have been caught by the fetch that follows its opening).
    tokio::time::sleep(Duration::from_millis(500)).await;
    h.sup.call("growing", "add_tool", args(json!({"name": "fresher"})), None).await.expect("call");
    let fresher = |h: &Harness| h.sup.tools("growing").expect("tools").into_iter().any(|t| t.name == "fresher");
    assert!(within(Duration::from_secs(5), || fresher(&h)).await, "the stream's notice never refetched the tools");
    h.finish().await;
}

/// The probe costs a server of the earlier era one `server/discover` per process of Plugboard, not one per
/// connection: its restart opens with `initialize` at once.
#[tokio::test]
async fn a_legacy_server_is_probed_once_then_opened_with_initialize() {
    let mut h = Harness::new();
    let openings = h.file("openings");
    h.sup.reconcile(vec![h.server("older", &["--era", "legacy", "--openings", &openings])]).await;
    assert_eq!(h.statuses_until("older", is_ready).await, ["connecting", "ready"]);
    assert_eq!(journal(&openings), ["discover", "initialize"]);

    h.sup.restart("older").await.expect("restart");
    let seen = h.statuses_until("older", is_ready).await;
    assert_eq!(seen.last(), Some(&"ready"), "{seen:?}");
    assert_eq!(journal(&openings), ["discover", "initialize", "initialize"]);
    assert_eq!(protocol_of(&h, "older"), "2025-11-25");
    h.finish().await;
}

/// A server that speaks only a version newer than Plugboard's refuses both openings with 2026-07-28's
/// unsupported-version error: the server fails at once with that said in words (what it speaks, what Plugboard does,
/// what would help), and is not retried, since every retry would be refused the same way.
#[tokio::test]
async fn a_server_of_a_newer_version_only_fails_saying_so_without_retrying() {
    let mut h = Harness::new();
    h.sup.reconcile(vec![h.server("newer", &["--era", "future"])]).await;
    let seen = h.statuses_until("newer", |s| matches!(s, ServerStatus::Failed { .. })).await;
    let status = h.sup.status("newer");
    assert_eq!(seen, ["connecting", "failed"], "no reconnecting in between: {status:?}");
    let Ok(ServerStatus::Failed { error, .. }) = status else { panic!("not failed") };
    assert!(error.contains("speaks none of the MCP versions Plugboard does"), "{error}");
    assert!(error.contains("2099-01-01") && error.contains("2026-07-28, 2025-11-25"), "{error}");
    h.finish().await;
}
