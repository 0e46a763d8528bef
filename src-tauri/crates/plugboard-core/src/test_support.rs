//! Fixtures the core's own tests share with other crates' tests (the `test-support` feature: the CLI's
//! integration tests turn it on). It must never be on in Plugboard itself: everything here damages or fakes.
#![allow(clippy::expect_used, reason = "a fixture that cannot be built fails the test that asked for it")]

use std::path::Path;

use crate::console::{CallOutcome, History, NewCall};

/// Makes `path` a call history whose header and schema are sound and whose table pages are garbage: damage that
/// only reading the pages finds. Fifty 3 kB rows spread the table over many pages; each of them after the first
/// (the header and the schema) is overwritten. Returns the damaged bytes, for checking that nothing rewrote them.
pub fn history_with_damaged_pages(path: &Path) -> Vec<u8> {
    let history = History::open(path).expect("open the history to fill");
    let rows = (0..50).map(|i| NewCall {
        server: "srv".into(),
        tool: "t".into(),
        arguments: "{}".into(),
        started_at_ms: 1_700_000_000_000.0,
        duration_ms: 1,
        outcome: CallOutcome::Result { is_error: false, result: format!("{i}:{}", "x".repeat(3000)), truncated: false },
        origin: None,
    });
    history.record_all(rows.collect()).expect("fill the history");
    drop(history);
    let wal = format!("{}-wal", path.display());
    assert!(std::fs::metadata(wal).is_err(), "the history is checkpointed into its file when closed");
    let mut bytes = std::fs::read(path).expect("read the history");
    let page = usize::from(u16::from_be_bytes([bytes[16], bytes[17]]));
    assert!(bytes.len() > 10 * page, "the rows spread over pages: {} bytes", bytes.len());
    bytes[page..].fill(0xa5);
    std::fs::write(path, &bytes).expect("damage the history's pages");
    bytes
}
