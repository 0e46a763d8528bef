//! The gateway's history rows, written after their calls were answered by one writer thread, which takes every row
//! waiting and writes them in one transaction: under load the rows share SQLite's locks and commit, and no call
//! starts a blocking thread of its own (each did, and a burst of calls grew the blocking pool by a thread per row
//! waiting on the history's lock). It must never block the caller, nor lose a row handed to it before
//! [`Recorder::flush`] returned.

use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, OnceLock};

use tokio::sync::oneshot;

use super::history::{History, NewCall};

/// At most this many rows go into one transaction; more wait for the next.
const MAX_BATCH: usize = 256;

/// What the writer is handed, in order.
enum Job {
    Row(NewCall),
    /// Answered once every row handed over before it is written.
    Flush(oneshot::Sender<()>),
}

/// The writer of one history; its thread starts with the first row (a CLI call that records inline never needs it)
/// and ends when the recorder is dropped.
pub(super) struct Recorder {
    history: Arc<History>,
    jobs: OnceLock<Sender<Job>>,
}

impl Recorder {
    pub(super) fn new(history: Arc<History>) -> Self {
        Self { history, jobs: OnceLock::new() }
    }

    /// Hands `call` to the writer.
    pub(super) fn record(&self, call: NewCall) {
        self.send(Job::Row(call));
    }

    /// Waits until every row handed over so far is written (or could not be: the writer logs why).
    pub(super) async fn flush(&self) {
        if self.jobs.get().is_none() {
            return;
        }
        let (done, written) = oneshot::channel();
        self.send(Job::Flush(done));
        let _ = written.await;
    }

    fn send(&self, job: Job) {
        let sent = self.jobs.get_or_init(|| self.start()).send(job);
        // The writer is gone (it could not start): write here rather than lose the row.
        match sent.map_err(|unsent| unsent.0) {
            Ok(()) => {}
            Err(Job::Row(call)) => write(&self.history, vec![call], Vec::new()),
            Err(Job::Flush(done)) => write(&self.history, Vec::new(), vec![done]),
        }
    }

    fn start(&self) -> Sender<Job> {
        let (jobs, received) = channel();
        let history = Arc::clone(&self.history);
        let started = std::thread::Builder::new().name("history-writer".into()).spawn(move || run(&history, &received));
        if let Err(e) = started {
            tracing::warn!(error = %e, "the history writer could not start; rows are written by their calls");
            // Dropping the receiver makes every send fail, which writes inline.
        }
        jobs
    }
}

/// Writes batches until every sender is gone.
fn run(history: &History, jobs: &Receiver<Job>) {
    while let Ok(first) = jobs.recv() {
        let (mut rows, mut flushes) = (Vec::new(), Vec::new());
        let mut next = Some(first);
        while let Some(job) = next.take() {
            match job {
                Job::Row(call) => rows.push(call),
                // A flush ends the batch: it answers for the rows before it once they are written.
                Job::Flush(done) => {
                    flushes.push(done);
                    break;
                }
            }
            if rows.len() < MAX_BATCH {
                next = jobs.try_recv().ok();
            }
        }
        write(history, rows, flushes);
    }
}

fn write(history: &History, rows: Vec<NewCall>, flushes: Vec<oneshot::Sender<()>>) {
    if !rows.is_empty()
        && let Err(e) = history.record_all(rows)
    {
        tracing::warn!(error = %e, "gateway calls could not be written to the history");
    }
    for done in flushes {
        let _ = done.send(());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::console::CallOutcome;

    fn call(n: usize) -> NewCall {
        NewCall {
            server: "files".into(),
            tool: format!("tool-{n}"),
            arguments: "{}".into(),
            started_at_ms: 1_700_000_000_000.0,
            duration_ms: 1,
            outcome: CallOutcome::Result { is_error: false, result: r#"{"content":[]}"#.into(), truncated: false },
            origin: Some("a client".into()),
        }
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
            recorder.record(call(n));
        }
        recorder.flush().await;
        let page = history.page("", None, 1).expect("page");
        assert_eq!(page.total, 500, "pruned to the limit");
        assert_eq!(page.entries[0].tool, "tool-699", "the newest row is the last one handed over");
        recorder.record(call(700));
        recorder.flush().await;
        assert_eq!(history.page("", None, 1).expect("page").entries[0].tool, "tool-700");
    }
}
