//! Each remote transport against a fake server that answers a tool call with a message that never ends
//! (`testing::FakeMcp`): the call fails, the session ends with the limit it crossed (which the supervisor turns
//! into a Failed status: see plugboard-testservers' hostile_input tests), the client stopped reading soon after the
//! limit, and its memory stayed flat. Each attack runs alone in a child process: its memory is measured there, and
//! its buffers never disturb the other tests' measurements in this one.

use std::time::Duration;

use rmcp::model::JsonObject;

use crate::config::model::HttpMode;
use crate::testing::{Answer, CHILD_OUT, FakeMcp, OFFERED, client, findings, peak_growth_kib, start_measuring_memory};
use crate::transport::{
    ElicitationPolicy, LimitExceeded, MAX_MESSAGE_BYTES, McpSession, RemoteOptions, RemoteSpec, connect_remote,
};

const MIB: u64 = 1 << 20;

async fn connect(url: String, mode: HttpMode) -> McpSession {
    let spec = RemoteSpec { url, headers: Vec::new(), mode };
    connect_remote(spec, RemoteOptions::new(client(), ElicitationPolicy::Decline)).await.expect("connect").session
}

/// Calls the fake's tool, checks what followed and writes the peak memory growth to `CHILD_OUT`.
async fn attacked(session: McpSession, hostile: &FakeMcp, crossed: LimitExceeded) {
    let start = start_measuring_memory();
    let outcome = tokio::time::timeout(Duration::from_secs(30), session.call_tool("act", JsonObject::new())).await;
    let grown = peak_growth_kib(start);
    assert!(outcome.expect("the call ends").is_err(), "an endless answer is no result");
    assert_eq!(session.limit_exceeded(), Some(crossed));
    for _ in 0..100 {
        if session.is_closed() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(session.is_closed(), "the session ends with the crossed limit");
    let written = hostile.written();
    assert!(written < OFFERED / 2, "the client read on past the limit: {} MiB", written >> 20);
    let out = std::env::var_os(CHILD_OUT).expect("run alone by memory_stays_flat_under_each_attack");
    std::fs::write(out, grown.to_string()).expect("write the findings");
}

/// Whether this process was started to run one attack (see the module's doc).
fn alone() -> bool {
    std::env::var_os(CHILD_OUT).is_some()
}

/// (Run alone by `memory_stays_flat_under_each_attack`.) A Streamable HTTP JSON body that never ends: the call
/// fails and the session ends, saying the body was too large.
#[tokio::test]
async fn an_endless_streamable_http_body_ends_the_session() {
    if !alone() {
        return;
    }
    let hostile = FakeMcp::streamable(Answer::EndlessJsonBody).await;
    let session = connect(hostile.server.url("/mcp"), HttpMode::StreamableHttp).await;
    attacked(session, &hostile, LimitExceeded::ResponseBody { limit: MAX_MESSAGE_BYTES }).await;
}

/// (Run alone by `memory_stays_flat_under_each_attack`.) A Streamable HTTP event stream whose event never ends: the
/// call fails and the session ends, saying the event was too large (rmcp alone would fail the one call and go on).
#[tokio::test]
async fn an_endless_streamable_http_event_ends_the_session() {
    if !alone() {
        return;
    }
    let hostile = FakeMcp::streamable(Answer::EndlessSseEvent).await;
    let session = connect(hostile.server.url("/mcp"), HttpMode::StreamableHttp).await;
    attacked(session, &hostile, LimitExceeded::SseEvent { limit: MAX_MESSAGE_BYTES }).await;
}

/// (Run alone by `memory_stays_flat_under_each_attack`.) A legacy SSE event that never ends: the call fails and
/// the session ends, saying the event was too large.
#[tokio::test]
async fn an_endless_legacy_sse_event_ends_the_session() {
    if !alone() {
        return;
    }
    let hostile = FakeMcp::legacy_sse().await;
    let session = connect(hostile.server.url("/sse"), HttpMode::Sse).await;
    attacked(session, &hostile, LimitExceeded::SseEvent { limit: MAX_MESSAGE_BYTES }).await;
}

/// Each attack above, alone in its own process, ends as it says, and the client's peak memory grows by less than
/// 2.5 times the limit (a buffer that doubles while it fills up to the limit), though eight times it was offered.
#[test]
fn memory_stays_flat_under_each_attack() {
    for attack in [
        "an_endless_streamable_http_body_ends_the_session",
        "an_endless_streamable_http_event_ends_the_session",
        "an_endless_legacy_sse_event_ends_the_session",
    ] {
        let grown_kib: u64 = findings(&format!("transport::limits_tests::{attack}")).trim().parse().expect("KiB");
        eprintln!("{attack}: peak RSS grew {} MiB with {} MiB offered", grown_kib >> 10, OFFERED >> 20);
        assert!(grown_kib * 1024 < MAX_MESSAGE_BYTES as u64 * 5 / 2, "{attack}: grew {} MiB", grown_kib >> 10);
        assert!(grown_kib * 1024 >= MIB, "{attack}: the measurement saw nothing ({grown_kib} KiB)");
    }
}
