//! The call history against real SQLite files in a temp dir: paging, search, pruning, the result cap, a restart
//! and a damaged file (its header, or only its pages).

use super::*;

fn call(server: &str, tool: &str, arguments: &str) -> NewCall {
    NewCall {
        server: server.into(),
        tool: tool.into(),
        arguments: arguments.into(),
        started_at_ms: 1_700_000_000_000.0,
        duration_ms: 12,
        outcome: CallOutcome::Result { is_error: false, result: r#"{"content":[]}"#.into(), truncated: false },
        origin: None,
    }
}

fn temp() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(FILE_NAME);
    (dir, path)
}

fn ids(page: &HistoryPage) -> Vec<u32> {
    page.entries.iter().map(|e| e.id).collect()
}

/// Pages come newest first, `before_id` continues where the last page ended, and `total` counts every match.
#[test]
fn pages_newest_first_and_continue_before_an_id() {
    let (_dir, path) = temp();
    let history = History::open(&path).expect("open");
    for i in 0..7 {
        history.record(call("srv", &format!("tool{i}"), "{}")).expect("record");
    }
    let first = history.page("", None, 3).expect("page");
    assert_eq!(ids(&first), [7, 6, 5]);
    assert_eq!(first.total, 7);
    let second = history.page("", Some(5), 3).expect("page");
    assert_eq!(ids(&second), [4, 3, 2]);
    let last = history.page("", Some(2), 3).expect("page");
    assert_eq!(ids(&last), [1]);
}

/// The query is a case-insensitive substring of server, tool or arguments (Unicode too), and `total` counts matches.
#[test]
fn search_matches_server_tool_and_arguments_in_any_case() {
    let (_dir, path) = temp();
    let history = History::open(&path).expect("open");
    history.record(call("GitHub", "list_issues", r#"{"repo":"plugboard"}"#)).expect("record");
    history.record(call("files", "read", r#"{"path":"/tmp/ÉTÉ.txt"}"#)).expect("record");
    history.record(call("files", "write", r#"{"path":"/tmp/a%b_c"}"#)).expect("record");
    assert_eq!(ids(&history.page("github", None, 10).expect("page")), [1]);
    assert_eq!(ids(&history.page("ISSUES", None, 10).expect("page")), [1]);
    assert_eq!(ids(&history.page("PlugBoard", None, 10).expect("page")), [1]);
    assert_eq!(ids(&history.page("été", None, 10).expect("page")), [2]);
    // LIKE wildcards are plain characters here.
    assert_eq!(ids(&history.page("%b_", None, 10).expect("page")), [3]);
    let files = history.page("files", None, 1).expect("page");
    assert_eq!((ids(&files), files.total), (vec![3], 2));
    assert_eq!(history.page("nothing like it", None, 10).expect("page").total, 0);
}

/// Past the row limit the oldest rows go, and ids keep growing after a prune or a clear.
#[test]
fn oldest_rows_are_pruned_past_the_limit() {
    let (_dir, path) = temp();
    let history = History::open_with_limit(&path, 5).expect("open");
    for i in 0..12 {
        history.record(call("srv", &format!("t{i}"), "{}")).expect("record");
    }
    let page = history.page("", None, 100).expect("page");
    assert_eq!(ids(&page), [12, 11, 10, 9, 8]);
    assert_eq!(page.total, 5);
    assert!(matches!(history.get(7), Err(HistoryError::NotFound { id: 7 })));
    history.clear().expect("clear");
    assert_eq!(history.page("", None, 100).expect("page").total, 0);
    assert_eq!(history.record(call("srv", "t", "{}")).expect("record").id, 13);
}

/// A result past 256 KiB is cut on a character boundary and marked truncated; a small one is kept whole.
#[test]
fn large_results_are_capped_and_marked() {
    let (_dir, path) = temp();
    let history = History::open(&path).expect("open");
    let mut big = call("srv", "big", "{}");
    let text = "é".repeat(RESULT_CAP); // two bytes each: twice the cap
    big.outcome = CallOutcome::Result { is_error: true, result: text, truncated: false };
    let saved = history.record(big).expect("record");
    let CallOutcome::Result { result, truncated, is_error } = history.get(saved.id).expect("get").outcome else {
        panic!("a result outcome")
    };
    assert!(truncated && is_error);
    assert_eq!(result.len(), RESULT_CAP);
    assert!(result.chars().all(|c| c == 'é'));
    let small = history.record(call("srv", "small", "{}")).expect("record");
    assert_eq!(history.get(small.id).expect("get"), small);
}

/// Every outcome kind survives closing and reopening the file, as do the summaries' status and preview.
#[test]
fn entries_survive_a_restart() {
    let (_dir, path) = temp();
    let long_args = format!(r#"{{"text":"{}"}}"#, "x".repeat(300));
    let saved = {
        let history = History::open(&path).expect("open");
        let mut failed = call("srv", "f", "{}");
        failed.outcome = CallOutcome::Failed { message: "the server closed the connection".into() };
        let mut cancelled = call("srv", "c", &long_args);
        cancelled.outcome = CallOutcome::Cancelled;
        [history.record(call("srv", "ok", "{}")), history.record(failed), history.record(cancelled)]
            .map(|r| r.expect("record"))
    };
    let history = History::open(&path).expect("reopen");
    assert!(history.moved_aside().is_none());
    for entry in &saved {
        assert_eq!(&history.get(entry.id).expect("get"), entry);
    }
    let page = history.page("", None, 10).expect("page");
    let statuses: Vec<CallStatus> = page.entries.iter().map(|e| e.status).collect();
    assert_eq!(statuses, [CallStatus::Cancelled, CallStatus::Failed, CallStatus::Ok]);
    assert_eq!(page.entries[0].arguments_preview.chars().count(), PREVIEW_CHARS as usize);
    assert_eq!(saved[0].cli_command, "plugboard call srv ok --args '{}'");
}

/// A call whose row alone fills a good part of the WAL: a 200 KiB result.
fn big_call(tool: &str) -> NewCall {
    let result = format!(r#"{{"content":[{{"type":"text","text":"{}"}}]}}"#, "r".repeat(200 * 1024));
    NewCall { outcome: CallOutcome::Result { is_error: false, result, truncated: false }, ..call("srv", tool, "{}") }
}

/// Below [`WRITE_BACK_AT_BYTES`] `write_back` leaves the rows in the WAL; from there on it puts them into the file
/// itself: a copy of the file alone holds them (while the connection is still open, so no close has copied them).
#[test]
fn write_back_puts_the_rows_into_the_file_once_the_wal_is_due() {
    let (dir, path) = temp();
    // Closed once, so the schema is in the file.
    drop(History::open(&path).expect("create"));
    let history = History::open(&path).expect("open");
    let copy_without_wal = |name: &str| {
        let copy = dir.path().join(name);
        std::fs::copy(&path, &copy).expect("copy the file alone");
        let rows: u32 = Connection::open(&copy)
            .and_then(|c| c.query_row("SELECT count(*) FROM calls", [], |row| row.get(0)))
            .expect("read the copy");
        rows
    };
    history.record(call("srv", "small", "{}")).expect("record");
    assert!(!history.write_back().expect("write back"), "a WAL of {} bytes is not due", wal_size(&path));
    assert_eq!(copy_without_wal("small.sqlite3"), 0, "a row is in the WAL until a copy");
    history.record(big_call("big")).expect("record");
    history.record(big_call("bigger")).expect("record");
    assert!(wal_size(&path) >= WRITE_BACK_AT_BYTES, "{}", wal_size(&path));
    assert!(history.write_back().expect("write back"), "a WAL of {} bytes is due", wal_size(&path));
    assert_eq!(copy_without_wal("due.sqlite3"), 3);
    assert_eq!(history.page("", None, 10).expect("page").total, 3);
}

/// Commands end without closing the history, one after another: the WAL each leaves stays under the bound (the
/// copy empties it once it is due), yet it is not copied at every call (the first row stays in the WAL), and every
/// row is kept.
#[test]
fn commands_that_exit_without_closing_keep_the_wal_bounded() {
    let (_dir, path) = temp();
    let rounds = 100;
    let (mut largest, mut emptied) = (0, 0);
    for round in 1..=rounds {
        let history = History::open_checking(&path, MAX_ROWS, DamageCheck::OnUse).expect("open");
        history.record(call("srv", "t", "{}")).expect("record");
        let copied = history.write_back().expect("write back");
        let left = wal_size(&path);
        if round == 1 {
            assert!(!copied && left > 0, "the first row was copied at once (WAL {left} bytes)");
        }
        if copied {
            assert_eq!(left, 0, "round {round}: alone on the file, a copy empties the WAL");
            emptied += 1;
        }
        largest = largest.max(left);
        // As a command ends: no close.
        std::mem::forget(history);
    }
    assert!(largest < WRITE_BACK_AT_BYTES + 64 * 1024, "the WAL grew to {largest} bytes");
    assert!(emptied >= 2, "copied {emptied} times in {rounds} rounds");
    assert_eq!(History::open(&path).expect("reopen").page("", None, 10).expect("page").total, rounds);
}

/// With another connection in the middle of a read (the window's), `write_back` does not wait for it (the history's
/// busy timeout is seconds): it copies what it can, and the rows stay readable.
#[test]
fn write_back_never_waits_for_another_connection() {
    let (_dir, path) = temp();
    let history = History::open(&path).expect("open");
    history.record(big_call("first")).expect("record");
    let reader = Connection::open(&path).expect("another connection");
    reader.execute_batch("BEGIN; SELECT count(*) FROM calls;").expect("a read that stays open");
    history.record(big_call("second")).expect("record");
    let started = std::time::Instant::now();
    assert!(history.write_back().expect("write back"), "a WAL of {} bytes is due", wal_size(&path));
    assert!(started.elapsed() < BUSY_TIMEOUT / 2, "waited {:?} for the reader", started.elapsed());
    reader.execute_batch("COMMIT").expect("the read ends");
    assert_eq!(history.page("", None, 10).expect("page").total, 2);
}

/// A file that is not a database is moved aside with a warning, and a fresh history works in its place.
#[test]
fn a_damaged_file_is_moved_aside_and_replaced() {
    let (dir, path) = temp();
    std::fs::write(&path, vec![0x5a_u8; 8192]).expect("write garbage");
    let history = History::open(&path).expect("open despite the damage");
    let aside = history.moved_aside().expect("moved aside").to_owned();
    assert!(aside.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("history.sqlite3.damaged-")));
    assert_eq!(std::fs::read(&aside).expect("kept"), vec![0x5a_u8; 8192]);
    assert_eq!(history.record(call("srv", "t", "{}")).expect("record").id, 1);
    drop(history);
    assert!(History::open(&path).expect("reopen").moved_aside().is_none());
    drop(dir);
}

/// A history whose header and schema are sound but whose table pages are garbage: damage only reading the pages finds.
fn history_with_damaged_pages() -> (tempfile::TempDir, PathBuf, Vec<u8>) {
    let (dir, path) = temp();
    let damaged = crate::test_support::history_with_damaged_pages(&path);
    (dir, path, damaged)
}

/// Opened for a command (no page read at open), damaged pages fail the write that meets them with the reason and
/// where it gets mended, the call is still handed back whole, and the file stays where it is: another process may
/// be using it.
#[test]
fn damage_met_on_use_is_reported_and_the_file_left_in_place() {
    let (dir, path, damaged) = history_with_damaged_pages();
    let history = History::open_checking(&path, MAX_ROWS, DamageCheck::OnUse).expect("the header is sound");
    assert!(history.moved_aside().is_none());
    let kept = history.record_or_keep(call("files", "list", "{}"));
    assert_eq!(kept.id, 0);
    let why = kept.unrecorded.expect("the reason");
    assert!(why.contains("damaged") && why.contains("window moves it aside"), "{why}");
    assert!(matches!(history.page("", None, 10), Err(HistoryError::Damaged { .. })));
    drop(history);
    assert_eq!(std::fs::read(&path).expect("still there"), damaged);
    drop(dir);
}

/// The window's open reads every page: the same damage is found there, and the file is moved aside for a new one.
#[test]
fn the_whole_check_finds_damage_in_the_pages_and_moves_the_file_aside() {
    let (dir, path, _) = history_with_damaged_pages();
    let history = History::open(&path).expect("open despite the damage");
    assert!(history.moved_aside().is_some(), "moved aside");
    assert_eq!(history.record(call("srv", "t", "{}")).expect("record").id, 1);
    drop(dir);
}

/// A place where no file can be made is a typed error naming the path, not a panic.
#[test]
fn an_unusable_location_is_a_typed_error() {
    let (dir, _) = temp();
    let blocker = dir.path().join("not-a-dir");
    std::fs::write(&blocker, "file").expect("write");
    let path = blocker.join(FILE_NAME);
    match History::open(&path) {
        Err(HistoryError::Open { path: named, .. }) => assert_eq!(named, path),
        other => panic!("expected an open error, got {:?}", other.map(|_| ())),
    }
}

/// The in-memory history (the CLI's fallback when the data dir is unwritable) records and pages like the file.
#[test]
fn in_memory_history_records_and_pages() {
    let history = History::in_memory().expect("open");
    history.record(call("srv", "echo", r#"{"message":"hi"}"#)).expect("record");
    let page = history.page("ECHO", None, 10).expect("page");
    assert_eq!(ids(&page), [1]);
    assert_eq!(history.get(1).expect("get").tool, "echo");
}

/// A call made through the gateway keeps the client's name: in the entry, in the page's summary, and searchable.
#[test]
fn the_calling_client_is_recorded_and_searchable() {
    let (_dir, path) = temp();
    let history = History::open(&path).expect("open");
    history.record(call("files", "read", "{}")).expect("record");
    let via_claude = history.record(NewCall { origin: Some("Claude Desktop".into()), ..call("files", "list", "{}") });
    let via_claude = via_claude.expect("record");
    assert_eq!(via_claude.origin.as_deref(), Some("Claude Desktop"));
    assert_eq!(history.get(via_claude.id).expect("get").origin.as_deref(), Some("Claude Desktop"));
    let page = history.page("claude", None, 10).expect("page");
    assert_eq!(ids(&page), [via_claude.id]);
    assert_eq!(page.entries[0].origin.as_deref(), Some("Claude Desktop"));
    assert_eq!(history.page("", None, 10).expect("page").entries[1].origin, None);
}

/// A history written before origins existed (schema 1) opens, keeps its calls (with no origin) and takes new ones.
#[test]
fn a_schema_1_file_is_migrated() {
    let (_dir, path) = temp();
    {
        let old = rusqlite::Connection::open(&path).expect("sqlite");
        old.execute_batch(
            "CREATE TABLE calls (id INTEGER PRIMARY KEY AUTOINCREMENT, server TEXT NOT NULL, tool TEXT NOT NULL,
                 arguments TEXT NOT NULL, haystack TEXT NOT NULL, started_at_ms REAL NOT NULL,
                 duration_ms INTEGER NOT NULL, status TEXT NOT NULL, result TEXT, truncated INTEGER NOT NULL DEFAULT 0);
             INSERT INTO calls (server, tool, arguments, haystack, started_at_ms, duration_ms, status, result)
                 VALUES ('files', 'read', '{}', 'files
read
{}', 1.0, 5, 'ok', '{}');
             PRAGMA user_version = 1;",
        )
        .expect("schema 1");
    }
    let history = History::open(&path).expect("open");
    let old = history.get(1).expect("the old call");
    assert_eq!((old.server.as_str(), old.origin), ("files", None));
    let new = history.record(NewCall { origin: Some("cursor".into()), ..call("files", "list", "{}") }).expect("record");
    assert_eq!(history.get(new.id).expect("get").origin.as_deref(), Some("cursor"));
}

/// A history that cannot write (read-only, as in a read-only data dir) refuses `record`, and `record_or_keep` still hands back
/// the whole call with id 0 and the reason; nothing is stored.
#[test]
fn a_call_the_history_cannot_take_is_kept_whole() {
    let (_dir, path) = temp();
    let history = History::open(&path).expect("open");
    history.refuse_writes(true);
    assert!(history.record(call("files", "list", "{}")).is_err(), "a full database refuses the row");
    let kept = history.record_or_keep(call("files", "list", r#"{"path":"/"}"#));
    assert_eq!((kept.id, kept.arguments.as_str()), (0, r#"{"path":"/"}"#));
    assert!(kept.unrecorded.as_deref().is_some_and(|why| why.contains("readonly")), "{:?}", kept.unrecorded);
    assert!(matches!(kept.outcome, CallOutcome::Result { ref result, .. } if result == r#"{"content":[]}"#));
    assert_eq!(history.page("", None, 10).expect("page").total, 0);
}
