//! The approval gate at the point of spawning and connecting, through the live connector: an unapproved program
//! never runs, a changed one stops running until approved again, a refusal sticks, and a remote server whose
//! origin changed gets no request (so no header secret) until the new origin is approved.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use crate::config::model::{HttpMode, HttpSpec, ServerConfig, ServerName, StdioSpec, Transport};
use crate::testing::{LoopbackServer, Reply, memory_vault, statuses_until};
use crate::trust::{Approvals, Decision, LaunchDefinition};

use super::{LiveConnector, ServerStatus, Supervisor};

/// A server that leaves `marker` behind the moment it runs (and then is not an MCP server at all).
fn marking(name: &str, marker: &std::path::Path, extra: &str) -> ServerConfig {
    let script = format!("echo ran >> '{}'; {extra} exit 3", marker.display());
    let spec =
        StdioSpec { command: "/bin/sh".into(), args: vec!["-c".into(), script], env: BTreeMap::new(), cwd: None };
    ServerConfig::new(ServerName::parse(name).expect("name"), Transport::Stdio(spec))
}

fn supervised(approvals: &Approvals) -> Supervisor {
    Supervisor::new(Arc::new(LiveConnector::new(memory_vault(), approvals.clone())))
}

fn is_settled(status: &ServerStatus) -> bool {
    status.is_settled()
}

/// Never approved: the program does not run and the server says it awaits approval and how to give it. Approved:
/// it runs. Changed (one argument): it does not run again until that definition is approved.
#[tokio::test]
async fn an_unapproved_or_changed_command_never_runs() {
    let dir = tempfile::tempdir().expect("dir");
    let marker = dir.path().join("ran");
    let approvals = Approvals::at(dir.path().join("trust.json"));
    let sup = supervised(&approvals);
    let mut events = sup.subscribe();

    let config = marking("marked", &marker, "");
    sup.reconcile(vec![config.clone()]).await;
    assert_eq!(statuses_until(&mut events, "marked", is_settled).await, ["connecting", "needs approval"]);
    let hint = sup.status("marked").expect("status");
    assert!(
        matches!(&hint, ServerStatus::NeedsApproval { hint, refused: false } if hint.contains("plugboard approve marked")),
        "{hint:?}"
    );
    assert!(!marker.exists(), "the program ran without approval");

    approvals.record(&LaunchDefinition::of(&config), Decision::Approved).expect("approve");
    sup.restart("marked").await.expect("restart");
    // It exits at once, so the supervisor retries it into a crash loop: every try ran it.
    statuses_until(&mut events, "marked", |s| matches!(s, ServerStatus::Failed { .. })).await;
    let runs = std::fs::read_to_string(&marker).expect("it ran once approved");
    assert!(runs.starts_with("ran\n"), "{runs:?}");

    let changed = marking("marked", &marker, "true;");
    sup.reconcile(vec![changed]).await;
    assert_eq!(statuses_until(&mut events, "marked", is_settled).await.last(), Some(&"needs approval"));
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(std::fs::read_to_string(&marker).expect("marker"), runs, "the changed command ran unapproved");
    sup.shutdown().await;
}

/// A refusal is remembered: the server settles as refused, without running, until its definition changes.
#[tokio::test]
async fn a_refusal_sticks() {
    let dir = tempfile::tempdir().expect("dir");
    let marker = dir.path().join("ran");
    let approvals = Approvals::at(dir.path().join("trust.json"));
    let config = marking("refused", &marker, "");
    approvals.record(&LaunchDefinition::of(&config), Decision::Refused).expect("refuse");
    let sup = supervised(&approvals);
    let mut events = sup.subscribe();
    sup.reconcile(vec![config]).await;
    assert_eq!(statuses_until(&mut events, "refused", is_settled).await, ["connecting", "refused"]);
    assert!(matches!(sup.status("refused").expect("status"), ServerStatus::NeedsApproval { refused: true, .. }));
    assert!(!marker.exists(), "a refused program ran");
    sup.shutdown().await;
}

/// A remote server's approval is bound to its origin: approved, it is reached; pointed at another host (here
/// another port) it gets not a single request, so its header never travels, until the new origin is approved.
#[tokio::test]
async fn a_changed_origin_receives_nothing() {
    let dir = tempfile::tempdir().expect("dir");
    let approvals = Approvals::at(dir.path().join("trust.json"));
    let approved = LoopbackServer::replying(|_, _, _| Reply::status(404)).await;
    let elsewhere = LoopbackServer::replying(|_, _, _| Reply::status(404)).await;
    let remote = |url: String| {
        let headers = BTreeMap::from([("X-Api-Key".to_owned(), "plain-key".to_owned())]);
        let spec = HttpSpec { url, headers, mode: HttpMode::StreamableHttp };
        ServerConfig::new(ServerName::parse("remote").expect("name"), Transport::Http(spec))
    };
    let first = remote(approved.url("/mcp"));
    approvals.record(&LaunchDefinition::of(&first), Decision::Approved).expect("approve");
    let sup = supervised(&approvals);
    let mut events = sup.subscribe();
    sup.reconcile(vec![first]).await;
    statuses_until(&mut events, "remote", is_settled).await;
    assert!(!approved.requests().is_empty(), "the approved origin was reached");

    sup.reconcile(vec![remote(elsewhere.url("/mcp"))]).await;
    assert_eq!(statuses_until(&mut events, "remote", is_settled).await.last(), Some(&"needs approval"));
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(elsewhere.requests().is_empty(), "the new origin got {} request(s)", elsewhere.requests().len());
    sup.shutdown().await;
}
