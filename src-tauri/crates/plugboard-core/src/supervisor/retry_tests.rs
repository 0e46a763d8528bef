//! The retry rule of `call.rs` where only a fake server can show it deterministically: a request that provably never
//! reached the server (its connection refused, with no open connection to reuse) is retried on the next session even
//! for a tool not marked safe to repeat, and runs once. Interrupted calls (which are not repeated) and read-only ones
//! (which are) run against the real test server in plugboard-testservers' supervisor_faults.

use std::time::Duration;

use rmcp::model::JsonObject;

use super::*;
use crate::config::model::{HttpMode, HttpSpec, ServerConfig, ServerName, Transport};
use crate::testing::{Answer, FakeMcp, supervisor};

/// A call made while the server is down never reaches it (the connection is refused), so it is retried on the next
/// session although `act` is not marked safe to repeat: it succeeds once the server is back, which ran it once.
#[tokio::test]
async fn a_call_refused_at_connect_is_retried_and_runs_once() {
    let first = FakeMcp::streamable(Answer::Normally).await;
    let addr = first.server.addr;
    let sup = supervisor();
    let transport = Transport::Http(HttpSpec {
        url: first.server.url("/mcp"),
        headers: Default::default(),
        mode: HttpMode::StreamableHttp,
    });
    sup.reconcile(vec![ServerConfig::new(ServerName::parse("refusing").expect("name"), transport)]).await;
    assert!(matches!(sup.settled("refusing", Duration::from_secs(30)).await, Ok(ServerStatus::Ready { .. })));

    drop(first);
    while tokio::net::TcpStream::connect(addr).await.is_ok() {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let back = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(500)).await;
        FakeMcp::streamable_at(addr, Answer::Normally).await
    });
    let result = sup.call("refusing", "act", JsonObject::new(), None).await.expect("retried on the next session");
    let said: String = result.content.iter().filter_map(|c| c.as_text()).map(|t| t.text.clone()).collect();
    assert_eq!(said, "ran");
    let second = back.await.expect("back");
    assert_eq!(second.calls(), 1, "the call ran exactly once");
    sup.shutdown().await;
}
