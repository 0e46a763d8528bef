//! 2026-07-28's `ttlMs` on a tool list, through the supervisor and the live connector against `plugboard-testserver`:
//! a list whose ttl ran out is listed again when someone is about to use it, one still fresh is not, and a list
//! from a server of an earlier protocol, which carries no ttl, is kept until the server says it changed.

mod support;

use std::time::Duration;

use plugboard_core::supervisor::ServerStatus;

use support::{Harness, journal, journal_count};

/// Longer than the supervisor's floor between two listings of a server (a second): the brief list is stale after it.
const PAST_THE_FLOOR: Duration = Duration::from_millis(1_200);

#[tokio::test]
async fn a_tool_list_is_listed_again_once_its_ttl_ran_out_and_not_before() {
    let h = Harness::new();
    let logs = [("lasting", h.file("lasting")), ("brief", h.file("brief")), ("older", h.file("older"))];
    let [(_, lasting), (_, brief), (_, older)] = &logs;
    h.sup
        .reconcile(vec![
            // Fresh for ten minutes.
            h.server("lasting", &["--era", "modern", "--tools-ttl-ms", "600000", "--listings", lasting]),
            // No ttl of its own: rmcp sends a 2026-07-28 client 0, "immediately stale".
            h.server("brief", &["--era", "modern", "--listings", brief]),
            // 2025-11-25: no ttl at all.
            h.server("older", &["--era", "legacy", "--listings", older]),
        ])
        .await;
    for (name, log) in &logs {
        let settled = h.sup.settled(name, Duration::from_secs(30)).await;
        assert!(matches!(settled, Ok(ServerStatus::Ready { .. })), "{name}: {settled:?}");
        // Listed to come up; a 2026-07-28 session lists once more when its `subscriptions/listen` stream is
        // acknowledged (a change in between would have reached nobody).
        let expected = if *name == "older" { 1 } else { 2 };
        let listed = journal_count(&log.into(), "tools/list", expected, Duration::from_secs(10)).await;
        assert_eq!(listed, expected, "{name}");
    }

    tokio::time::sleep(PAST_THE_FLOOR).await;
    h.sup.refresh_stale_tools(None, Duration::from_secs(20)).await;
    assert_eq!(journal(brief), ["tools/list"; 3], "the stale list is listed again");
    assert_eq!(journal(lasting), ["tools/list"; 2], "a fresh list is not");
    assert_eq!(journal(older), ["tools/list"], "a list without a ttl is kept until it changes");
    assert!(h.sup.tools("brief").expect("tools").iter().any(|t| t.name == "echo"), "the new list is published");

    // Asking for one server refreshes that one alone.
    tokio::time::sleep(PAST_THE_FLOOR).await;
    h.sup.refresh_stale_tools(Some("lasting"), Duration::from_secs(20)).await;
    assert_eq!(journal(brief), ["tools/list"; 3]);
    h.sup.refresh_stale_tools(Some("brief"), Duration::from_secs(20)).await;
    assert_eq!(journal(brief), ["tools/list"; 4]);
    h.finish().await;
}
