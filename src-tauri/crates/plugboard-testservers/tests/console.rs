//! The console against `plugboard-testserver`: a call's progress and the server's log messages reach its observer
//! in order while it runs, and the call lands in the history redacted of the server's own secret.

mod support;

use std::sync::{Arc, Mutex};

use plugboard_core::console::{CallOutcome, CallStatus, Console, History};
use plugboard_core::secrets::Sensitive;
use plugboard_core::supervisor::CallEvent;
use serde_json::json;

use support::{Harness, args, is_ready};

const SECRET: &str = "tok-9f8e7d6c5b4a";

/// Five progress steps, each after a log line, arrive on the observer as log, progress, log, progress… in order;
/// the call is recorded with its result and found again by search.
#[tokio::test]
async fn progress_and_logs_stream_in_order_and_the_call_is_recorded() {
    let mut h = Harness::new();
    h.sup.reconcile(vec![h.server("busy", &[])]).await;
    assert_eq!(h.statuses_until("busy", is_ready).await, ["connecting", "ready"]);
    let history = Arc::new(History::open(&h.dir.path().join("history.sqlite3")).expect("history"));
    let console = Console::new(Arc::clone(&h.sup), Arc::clone(&history), None);

    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    let arguments = args(json!({"steps": 5, "interval_ms": 20, "log": true}));
    let on_event = move |event| sink.lock().expect("lock").push(event);
    let entry = console.run("call-1", "busy", "progress", arguments, on_event).await.expect("recorded");

    let seen = seen.lock().expect("lock").clone();
    let expected: Vec<CallEvent> = (1..=5)
        .flat_map(|step| {
            [
                CallEvent::Log {
                    level: "info".into(),
                    logger: Some("progress".into()),
                    message: format!("step {step}"),
                },
                CallEvent::Progress { progress: f64::from(step), total: Some(5.0), message: None },
            ]
        })
        .collect();
    assert_eq!(seen, expected);

    let CallOutcome::Result { is_error: false, result, truncated: false } = &entry.outcome else {
        panic!("a successful result, got {:?}", entry.outcome)
    };
    assert!(result.contains("done after 5 steps"), "{result}");
    assert_eq!(history.get(entry.id).expect("stored"), entry);
    let page = console.page("PROGRESS".into(), None, 10).await.expect("page");
    assert_eq!((page.total, page.entries[0].status), (1, CallStatus::Ok));
    h.finish().await;
}

/// Every notice a server sends before its result is with the caller when the call returns, and the caller's channel
/// is closed by then: nothing is still on its way (rmcp alone would hand the result over first and the last notices
/// after, on tasks of their own). Repeated, with no pause between the notices and the result.
#[tokio::test]
async fn a_calls_notices_are_all_delivered_by_the_time_it_returns() {
    let mut h = Harness::new();
    h.sup.reconcile(vec![h.server("busy", &[])]).await;
    assert_eq!(h.statuses_until("busy", is_ready).await, ["connecting", "ready"]);
    for round in 0..50 {
        let (events, mut received) = tokio::sync::mpsc::unbounded_channel();
        let arguments = args(json!({"steps": 5, "interval_ms": 0, "log": true}));
        h.sup.call_observed("busy", "progress", arguments, None, Some(events)).await.expect("the call answers");
        let mut progress = Vec::new();
        let mut logs = 0;
        loop {
            match received.try_recv() {
                Ok(CallEvent::Progress { progress: step, .. }) => progress.push(step),
                Ok(CallEvent::Log { .. }) => logs += 1,
                Ok(other) => panic!("round {round}: unexpected {other:?}"),
                Err(tokio::sync::mpsc::error::TryRecvError::Disconnected) => break,
                Err(tokio::sync::mpsc::error::TryRecvError::Empty) => {
                    panic!("round {round}: the channel is still open")
                }
            }
        }
        assert_eq!((progress, logs), (vec![1.0, 2.0, 3.0, 4.0, 5.0], 5), "round {round}");
    }
    h.finish().await;
}

/// The server's own secret (referenced from its env) is replaced by `${secret:NAME}` in the recorded arguments
/// and result; a tool error and a cancel are recorded as outcomes, and cancelling an unknown call says false.
#[tokio::test]
async fn secrets_are_redacted_and_every_outcome_is_recorded() {
    let mut h = Harness::new();
    h.vault.set("keeper", "API_TOKEN", &Sensitive::new(SECRET.to_owned())).expect("set secret");
    let mut config = h.server("keeper", &[]);
    if let plugboard_core::config::model::Transport::Stdio(stdio) = &mut config.transport {
        stdio.env.insert("API_TOKEN".into(), "${secret:API_TOKEN}".into());
    }
    h.sup.reconcile(vec![config]).await;
    assert_eq!(h.statuses_until("keeper", is_ready).await, ["connecting", "ready"]);
    let history = Arc::new(History::open(&h.dir.path().join("history.sqlite3")).expect("history"));
    let console = Arc::new(Console::new(Arc::clone(&h.sup), history, None));

    let echoed = console
        .run("a", "keeper", "echo", args(json!({"message": format!("key {SECRET}")})), |_| {})
        .await
        .expect("recorded");
    assert_eq!(echoed.arguments, r#"{"message":"key ${secret:API_TOKEN}"}"#);
    let CallOutcome::Result { result, .. } = &echoed.outcome else { panic!("{:?}", echoed.outcome) };
    assert!(result.contains("Echo: key ${secret:API_TOKEN}") && !result.contains(SECRET), "{result}");

    let failed = console.run("b", "keeper", "fail", args(json!({})), |_| {}).await.expect("recorded");
    assert!(matches!(failed.outcome, CallOutcome::Result { is_error: true, .. }), "{:?}", failed.outcome);

    let running = {
        let console = Arc::clone(&console);
        tokio::spawn(async move { console.run("c", "keeper", "slow", args(json!({"ms": 30_000})), |_| {}).await })
    };
    let mut cancelled = false;
    for _ in 0..100 {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        if console.cancel("c") {
            cancelled = true;
            break;
        }
    }
    assert!(cancelled, "the running call was found by its id");
    let entry = running.await.expect("joined").expect("recorded");
    assert_eq!(entry.outcome, CallOutcome::Cancelled);
    assert!(!console.cancel("c"), "an ended call cannot be cancelled");

    let unknown = console.run("d", "nobody", "echo", args(json!({})), |_| {}).await;
    assert!(unknown.is_err(), "an unknown server is an error, not a recorded outcome");
    let page = console.page(String::new(), None, 10).await.expect("page");
    let statuses: Vec<CallStatus> = page.entries.iter().map(|e| e.status).collect();
    assert_eq!(statuses, [CallStatus::Cancelled, CallStatus::ToolError, CallStatus::Ok]);
    h.finish().await;
}
