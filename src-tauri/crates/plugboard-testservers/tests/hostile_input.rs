//! Servers that attack Plugboard's limits (`plugboard_core::transport::limits`), run by the supervisor as the app
//! runs them: a stdout line that never ends and a notification flood each end in a failed status that says which
//! limit the server crossed, the call in flight hears why, and the app's memory stays flat. Memory is this test
//! process's peak RSS, reset before each attack, so the attacks run one at a time.

#![allow(clippy::expect_used, reason = "in the memory helpers too, a panic is the report")]

mod support;

use std::time::Duration;

use plugboard_core::supervisor::{ServerStatus, SupervisorError};
use plugboard_core::transport::{MAX_MESSAGE_BYTES, MAX_UNASKED_PER_SECOND};
use serde_json::json;

use support::{Harness, args, is_ready};

/// One attack at a time: each measures the whole process's memory.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A field of /proc/self/status, in KiB.
fn status_kib(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status.lines().find(|l| l.starts_with(field)).expect("the field");
    line.split_whitespace().nth(1).and_then(|kib| kib.parse().ok()).expect("a number")
}

/// Starts measuring: the peak (VmHWM) is reset to the current RSS; returns that RSS.
fn start_measuring() -> u64 {
    std::fs::write("/proc/self/clear_refs", "5").expect("reset the peak RSS (Linux ≥ 4.0)");
    status_kib("VmRSS:")
}

/// How far the peak rose above `start`, in MiB.
fn peak_growth_mib(start: u64) -> u64 {
    status_kib("VmHWM:").saturating_sub(start) / 1024
}

fn failed_error(status: &ServerStatus) -> &str {
    match status {
        ServerStatus::Failed { error, .. } => error,
        other => panic!("not failed: {other:?}"),
    }
}

/// A server that writes 100 MiB to stdout without a newline is stopped once the line passes 16 MiB: its status is
/// Failed (not retried: it would do it again) and says so, the call in flight hears the same, and the app's memory
/// peaks far below what was sent.
#[tokio::test]
async fn a_stdout_line_that_never_ends_fails_the_server_with_memory_flat() {
    let _one = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::new();
    h.sup.reconcile(vec![h.server("endless", &["--endless-line"])]).await;
    assert_eq!(h.statuses_until("endless", is_ready).await, ["connecting", "ready"]);

    let start = start_measuring();
    let outcome = h.sup.call("endless", "endless_line", args(json!({ "mib": 100 })), None).await;
    let grown = peak_growth_mib(start);
    assert_eq!(h.statuses_until("endless", |s| !is_ready(s)).await, ["failed"]);
    let status = h.sup.status("endless").expect("status");
    let error = failed_error(&status);
    assert!(error.contains("more than 16 MiB to stdout without a newline"), "{error}");
    let Err(SupervisorError::Interrupted { message, .. }) = &outcome else { panic!("{outcome:?}") };
    assert!(message.contains("16 MiB"), "the caller hears why: {message}");
    eprintln!("100 MiB without a newline: the app's peak RSS grew {grown} MiB");
    // The line is held up to the limit while it is read (a Vec that doubles: up to 2 × 16 MiB for a moment).
    assert!(grown < 3 * (MAX_MESSAGE_BYTES as u64 >> 20), "peak RSS grew {grown} MiB");
    assert!(h.pending_statuses().is_empty(), "no reconnect after a crossed limit");
    h.finish().await;
}

/// A server that sends 200,000 log notifications as fast as it can is stopped once it passes 1,000 within a
/// second: its status is Failed and says so, the call hears the same, and the app's memory stays flat.
#[tokio::test]
async fn a_notification_flood_fails_the_server_with_memory_flat() {
    let _one = ONE_AT_A_TIME.lock().await;
    let mut h = Harness::new();
    h.sup.reconcile(vec![h.server("flooder", &["--flood-notifications"])]).await;
    assert_eq!(h.statuses_until("flooder", is_ready).await, ["connecting", "ready"]);

    let start = start_measuring();
    let outcome = h.sup.call("flooder", "flood", args(json!({ "count": 200_000 })), None).await;
    let grown = peak_growth_mib(start);
    let status = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let status = h.sup.status("flooder").expect("status");
            if matches!(status, ServerStatus::Failed { .. }) {
                return status;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the flood fails the server");
    let error = failed_error(&status);
    let limit = format!("more than {MAX_UNASKED_PER_SECOND} notifications and requests within one second");
    assert!(error.contains(&limit), "{error}");
    let Err(SupervisorError::Interrupted { message, .. }) = &outcome else { panic!("{outcome:?}") };
    assert!(message.contains(&limit), "the caller hears why: {message}");
    eprintln!("a flood of notifications: the app's peak RSS grew {grown} MiB");
    assert!(grown < 16, "peak RSS grew {grown} MiB");
    h.finish().await;
}
