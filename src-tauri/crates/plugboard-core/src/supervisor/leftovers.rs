//! The start-up sweep: what earlier Plugboard processes left behind (today: their labelled Docker containers, which
//! outlive a crashed or killed app) is removed once, when the engine first reconciles. It runs off the async
//! threads and never delays a server's start; it must never touch what a live Plugboard process still owns.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use tokio::task::JoinHandle;

use crate::transport::{DockerSweepError, SweepReport, sweep_docker_leftovers};

/// One sweep of leftovers (blocking: it runs `docker`). The app uses [`sweep_docker_leftovers`]; tests pass a
/// sweep over a stand-in `docker`.
pub type LeftoverSweep = Arc<dyn Fn() -> Result<SweepReport, DockerSweepError> + Send + Sync>;

/// The sweep and whether (and how) it ran.
pub(super) struct Leftovers {
    sweep: LeftoverSweep,
    started: AtomicBool,
    task: Mutex<Option<JoinHandle<Result<SweepReport, DockerSweepError>>>>,
}

impl Leftovers {
    pub fn new(sweep: LeftoverSweep) -> Self {
        Self { sweep, started: AtomicBool::new(false), task: Mutex::new(None) }
    }

    /// The app's sweep: Docker containers labelled by a Plugboard process that is gone.
    pub fn docker() -> Self {
        Self::new(Arc::new(sweep_docker_leftovers))
    }

    /// Starts the sweep the first time only. New containers carry this process's pid, so a sweep running while
    /// servers start never removes them.
    pub fn start_once(&self) {
        if self.started.swap(true, Ordering::AcqRel) {
            return;
        }
        let sweep = Arc::clone(&self.sweep);
        let task = tokio::task::spawn_blocking(move || {
            let outcome = sweep();
            match &outcome {
                Ok(report) if !report.removed.is_empty() => {
                    tracing::info!(containers = ?report.removed, "removed containers left by earlier Plugboard runs");
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "could not sweep containers left by earlier Plugboard runs"),
            }
            outcome
        });
        *self.task.lock().unwrap_or_else(PoisonError::into_inner) = Some(task);
    }

    /// Waits for the sweep and returns its outcome; `None` if it never started or was already collected.
    pub async fn finished(&self) -> Option<Result<SweepReport, DockerSweepError>> {
        let task = self.task.lock().unwrap_or_else(PoisonError::into_inner).take()?;
        task.await.ok()
    }
}
