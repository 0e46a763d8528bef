//! The gateway's history rows, made and written after their calls were answered, by one writer thread. It wakes
//! for the first row after a quiet spell, lets the rows of the next [`LINGER`] gather, then makes them (their
//! redacted text) and writes them in one transaction: calls one after another share SQLite's locks and commit, and
//! the callers wake it once per batch, not once per row (each wake-up was a context switch on the caller's CPU, and
//! each row a transaction of its own). It must never block the caller, nor lose a row handed to it before
//! [`Recorder::flush`] returned.

use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Duration;

use rmcp::model::CallToolResult;
use tokio::sync::oneshot;

use super::Finished;
use super::history::History;
use crate::supervisor::SupervisorError;

/// How long the first row of a batch waits for others. A person's console shows gateway calls this much later at
/// most; a flush (at shutdown) does not wait for it.
const LINGER: Duration = Duration::from_millis(20);

/// At most this many rows go into one transaction (the history's readers wait for it); more wait for the next.
const MAX_BATCH: usize = 256;

/// A call answered and not yet in the history.
struct Pending {
    finished: Finished,
    result: Result<CallToolResult, SupervisorError>,
}

/// What the callers handed over and the writer has not taken yet.
#[derive(Default)]
struct Queue {
    rows: Vec<Pending>,
    /// Answered once every row handed over before them is written.
    flushes: Vec<oneshot::Sender<()>>,
    /// The recorder is gone: the writer writes what is left and ends.
    closed: bool,
}

impl Queue {
    fn is_empty(&self) -> bool {
        self.rows.is_empty() && self.flushes.is_empty()
    }
}

#[derive(Default)]
struct Shared {
    queue: Mutex<Queue>,
    /// Rung for the first row of a batch, a full batch, a flush and the end.
    wake: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        // Every change under the lock is a push or a take: a panic elsewhere cannot leave it half-made.
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The writer of one history; its thread starts with the first row (a CLI call that records inline never needs it)
/// and ends when the recorder is dropped, once every row handed over is written.
pub(super) struct Recorder {
    history: Arc<History>,
    shared: Arc<Shared>,
    /// Whether the writer's thread runs (decided at the first row; without it, rows are written by their calls).
    writer: OnceLock<bool>,
}

impl Recorder {
    pub(super) fn new(history: Arc<History>) -> Self {
        Self { history, shared: Arc::default(), writer: OnceLock::new() }
    }

    /// Hands a call that was answered with `result` to the writer.
    pub(super) fn record(&self, finished: Finished, result: Result<CallToolResult, SupervisorError>) {
        let pending = Pending { finished, result };
        if !*self.writer.get_or_init(|| self.start()) {
            write(&self.history, vec![pending], Vec::new());
            return;
        }
        let mut queue = self.shared.lock();
        queue.rows.push(pending);
        // The writer is waiting for a first row, or lingering; only a first row or a full batch is news to it.
        let ring = queue.rows.len() == 1 || queue.rows.len() == MAX_BATCH;
        drop(queue);
        if ring {
            self.shared.wake.notify_one();
        }
    }

    /// Waits until every row handed over so far is written (or could not be: the writer logs why).
    pub(super) async fn flush(&self) {
        if self.writer.get() != Some(&true) {
            return;
        }
        let (done, written) = oneshot::channel();
        self.shared.lock().flushes.push(done);
        self.shared.wake.notify_one();
        let _ = written.await;
    }

    fn start(&self) -> bool {
        let (history, shared) = (Arc::clone(&self.history), Arc::clone(&self.shared));
        let started = std::thread::Builder::new().name("history-writer".into()).spawn(move || run(&history, &shared));
        if let Err(e) = &started {
            tracing::warn!(error = %e, "the history writer could not start; rows are written by their calls");
        }
        started.is_ok()
    }
}

impl Drop for Recorder {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.wake.notify_one();
    }
}

/// Writes batches until the recorder is gone and nothing is left.
fn run(history: &History, shared: &Shared) {
    let mut queue = shared.lock();
    loop {
        queue = shared.wake.wait_while(queue, |q| q.is_empty() && !q.closed).unwrap_or_else(PoisonError::into_inner);
        if queue.is_empty() {
            return;
        }
        let lingering = |q: &mut Queue| q.flushes.is_empty() && q.rows.len() < MAX_BATCH && !q.closed;
        queue = shared.wake.wait_timeout_while(queue, LINGER, lingering).unwrap_or_else(PoisonError::into_inner).0;
        let (rows, flushes) = (std::mem::take(&mut queue.rows), std::mem::take(&mut queue.flushes));
        drop(queue);
        write(history, rows, flushes);
        queue = shared.lock();
    }
}

/// Makes and writes `rows`, at most [`MAX_BATCH`] a transaction, then answers `flushes`.
fn write(history: &History, rows: Vec<Pending>, flushes: Vec<oneshot::Sender<()>>) {
    let mut rows = rows.into_iter().map(|Pending { finished, result }| finished.row(&result)).peekable();
    while rows.peek().is_some() {
        let batch: Vec<_> = rows.by_ref().take(MAX_BATCH).collect();
        if let Err(e) = history.record_all(batch) {
            tracing::warn!(error = %e, "gateway calls could not be written to the history");
        }
    }
    for done in flushes {
        let _ = done.send(());
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::ContentBlock;

    use super::*;
    use crate::console::ServerSecrets;

    /// The n-th call of a tool, answered.
    fn answered(n: usize) -> (Finished, Result<CallToolResult, SupervisorError>) {
        let finished = Finished {
            server: "files".into(),
            tool: format!("tool-{n}"),
            arguments: serde_json::json!({ "token": "ghp_not-kept", "n": n }).as_object().cloned().unwrap_or_default(),
            started_at_ms: 1_700_000_000_000.0,
            duration_ms: 1,
            origin: Some("a client".into()),
            secrets: ServerSecrets::default(),
        };
        (finished, Ok(CallToolResult::success(vec![ContentBlock::text(format!("result {n}"))])))
    }

    fn record(recorder: &Recorder, n: usize) {
        let (finished, result) = answered(n);
        recorder.record(finished, result);
    }

    /// A history in a folder of its own and a recorder over it.
    fn fresh() -> (tempfile::TempDir, Arc<History>, Recorder) {
        let dir = tempfile::tempdir().expect("temp dir");
        let history = Arc::new(History::open(&dir.path().join("history.sqlite3")).expect("open"));
        let recorder = Recorder::new(Arc::clone(&history));
        (dir, history, recorder)
    }

    /// Waits until `holds`, looking every [`LINGER`]; fails after 10 s.
    async fn eventually(holds: impl Fn() -> bool, what: &str) {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while !holds() {
            assert!(std::time::Instant::now() < deadline, "not within 10 s: {what}");
            tokio::time::sleep(LINGER).await;
        }
    }

    fn newest_tool(history: &History) -> Option<String> {
        history.page("", None, 1).expect("page").entries.first().map(|entry| entry.tool.clone())
    }

    /// Rows handed over in a burst are all written, in order and pruned to the limit, by the time `flush` returns;
    /// a flush with nothing handed over returns at once.
    #[tokio::test]
    async fn every_row_handed_over_is_written_by_flush() {
        let dir = tempfile::tempdir().expect("temp dir");
        let history = Arc::new(History::open_with_limit(&dir.path().join("history.sqlite3"), 500).expect("open"));
        let recorder = Recorder::new(Arc::clone(&history));
        recorder.flush().await;
        for n in 0..700 {
            record(&recorder, n);
        }
        recorder.flush().await;
        let page = history.page("", None, 1).expect("page");
        assert_eq!(page.total, 500, "pruned to the limit");
        assert_eq!(page.entries[0].tool, "tool-699", "the newest row is the last one handed over");
        record(&recorder, 700);
        recorder.flush().await;
        assert_eq!(newest_tool(&history).as_deref(), Some("tool-700"));
        let entry = history.get(page.entries[0].id).expect("the row in full");
        assert!(format!("{:?}", entry.outcome).contains("result 699"), "the result's text is the row's: {entry:?}");
        assert!(!entry.arguments.contains("ghp_not-kept") && entry.arguments.contains("699"), "{}", entry.arguments);
    }

    /// Without a flush, a row is in the history once its batch's wait is over, and the writer goes back to waiting
    /// for the next one.
    #[tokio::test]
    async fn a_row_is_written_without_a_flush() {
        let (_dir, history, recorder) = fresh();
        for n in 0..2 {
            record(&recorder, n);
            eventually(|| newest_tool(&history) == Some(format!("tool-{n}")), "the row written").await;
        }
    }

    /// Dropping the recorder (the gateway ending without a flush) still writes what it was handed.
    #[tokio::test]
    async fn dropping_the_recorder_writes_what_is_left() {
        let (_dir, history, recorder) = fresh();
        for n in 0..3 {
            record(&recorder, n);
        }
        drop(recorder);
        eventually(|| history.page("", None, 1).expect("page").total == 3, "the rows written after the drop").await;
    }
}
