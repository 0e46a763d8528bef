//! The tool-call console: runs one call with live events and a cancel, times it, redacts it and records it in the
//! history; pages and searches that history. Every call passes the secret guard (guard.rs): one that would carry
//! another server's secret is refused, and secrets in a result are replaced before anyone sees it. It must never
//! record or return a secret value in plain text (see redact.rs), and a call's failure is an outcome it records, not
//! an error it returns.

mod capped_json;
pub mod cli_line;
mod guard;
pub mod history;
mod recorder;
pub mod redact;
mod types;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use rmcp::model::{CallToolResult, JsonObject};
use tokio::sync::{mpsc, oneshot};

pub use cli_line::cli_command;
pub use guard::LeakGuard;
pub use history::{DamageCheck, History, HistoryError, NewCall};
pub use redact::{REDACTED, ServerSecrets, redact_arguments};
pub use types::{CallOutcome, CallStatus, HistoryEntry, HistoryPage, HistorySummary};

use recorder::Recorder;

use crate::registry::Registry;
use crate::supervisor::{CallCancel, CallEvent, CallObserver, Supervisor, SupervisorError};

/// Why the console could not run or record a call (a call that ran and failed is a [`CallOutcome`] instead).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConsoleError {
    /// No server of that name is configured.
    #[error("there is no server named {server:?}")]
    UnknownServer { server: String },
    #[error(transparent)]
    History(#[from] HistoryError),
    #[error("the call history task stopped: {message}")]
    Interrupted { message: String },
}

/// A recorded call and, for callers that print it (the CLI), the result it came from (secrets already replaced by
/// their references, see guard.rs; token-shaped text left for the person to read).
pub struct Ran {
    pub entry: HistoryEntry,
    pub result: Result<CallToolResult, SupervisorError>,
}

/// The console over one supervisor and one history.
pub struct Console {
    supervisor: Arc<Supervisor>,
    history: Arc<History>,
    guard: LeakGuard,
    /// Running calls' cancels by the caller's call id.
    running: Mutex<HashMap<String, oneshot::Sender<()>>>,
    /// Writes the rows of calls answered before they were recorded (the gateway's).
    recorder: Recorder,
}

impl Console {
    /// A console whose guard knows the secrets `supervisor`'s sessions were made with, and with `registry` every
    /// secret the configured servers refer to (see [`LeakGuard::new`]).
    pub fn new(supervisor: Arc<Supervisor>, history: Arc<History>, registry: Option<Arc<Registry>>) -> Self {
        let guard = LeakGuard::new(Arc::clone(&supervisor), registry);
        let recorder = Recorder::new(Arc::clone(&history));
        Self { supervisor, history, guard, running: Mutex::new(HashMap::new()), recorder }
    }

    /// Runs `tool` of `server`, handing each of its events to `on_event` in order; [`Console::cancel`] with
    /// `call_id` stops it. Returns once every event of the call was handed over.
    pub async fn run(
        &self,
        call_id: &str,
        server: &str,
        tool: &str,
        arguments: JsonObject,
        mut on_event: impl FnMut(CallEvent) + Send + 'static,
    ) -> Result<HistoryEntry, ConsoleError> {
        let (events, mut received) = mpsc::unbounded_channel();
        let forward = tokio::spawn(async move {
            while let Some(event) = received.recv().await {
                on_event(event);
            }
        });
        let (cancel, cancelled) = oneshot::channel();
        // Dropping a cancel sender cancels its call, so an id already running keeps its entry (this call then
        // cannot be cancelled by id), and only the call that registered an id removes it.
        let kept_unregistered = match self.lock().entry(call_id.to_owned()) {
            std::collections::hash_map::Entry::Vacant(free) => {
                free.insert(cancel);
                None
            }
            std::collections::hash_map::Entry::Occupied(_) => Some(cancel),
        };
        let ran = self.run_detailed(server, tool, arguments, Some(CallCancel(cancelled)), Some(events), None).await;
        if kept_unregistered.is_none() {
            self.lock().remove(call_id);
        }
        // The channel closes when the supervisor lets go of the observer, shortly after the call (observe.rs).
        let _ = forward.await;
        ran.map(|ran| ran.entry)
    }

    /// Cancels the running call `call_id`; false when there is none (it may have just ended).
    pub fn cancel(&self, call_id: &str) -> bool {
        self.lock().remove(call_id).is_some_and(|cancel| cancel.send(()).is_ok())
    }

    /// Runs and records one call, returning the record and the raw result. `origin` names the MCP client that
    /// made it through the gateway (`None`: Plugboard's own console or CLI).
    pub async fn run_detailed(
        &self,
        server: &str,
        tool: &str,
        arguments: JsonObject,
        cancel: Option<CallCancel>,
        events: Option<CallObserver>,
        origin: Option<String>,
    ) -> Result<Ran, ConsoleError> {
        let (finished, result) = self.execute(server, tool, arguments, cancel, events, origin).await?;
        let call = finished.row(&result);
        let history = Arc::clone(&self.history);
        // A call that ran returns its result even when the history cannot take it (the entry says why).
        let entry = blocking(move || Ok(history.record_or_keep(call))).await?;
        Ok(Ran { entry, result })
    }

    /// [`Console::run_detailed`] for the last call of a process (a command): once the call is answered, its row is
    /// written (and the WAL copied into the file once it is due, [`History::write_back`]) while `meanwhile` runs
    /// (the command stops its server then), so neither waits for the other and the process may exit without closing
    /// the history.
    /// `meanwhile` runs whether or not the call could be made.
    pub async fn run_last<T>(
        &self,
        server: &str,
        tool: &str,
        arguments: JsonObject,
        meanwhile: impl Future<Output = T>,
    ) -> (Result<Ran, ConsoleError>, T) {
        let executed = self.execute(server, tool, arguments, None, None, None).await;
        let history = Arc::clone(&self.history);
        let recorded = async move {
            let (finished, result) = executed?;
            let call = finished.row(&result);
            blocking(move || {
                let entry = history.record_or_keep(call);
                if entry.unrecorded.is_none()
                    && let Err(e) = history.write_back()
                {
                    // The row is in the WAL, which the next open reads back: nothing is lost.
                    tracing::debug!(error = %e, "the history's WAL was not copied into the file before the exit");
                }
                Ok(Ran { entry, result })
            })
            .await
        };
        // `meanwhile` first: it wakes the runtime's worker (the server's stop) before the row's writer is woken on
        // the other CPU; the other way round the worker was seen waiting 0.1 ms behind the writer on one CPU while
        // the other stood idle.
        let (meanwhile, recorded) = tokio::join!(meanwhile, recorded);
        (recorded, meanwhile)
    }

    /// Runs one call and returns its raw result at once; the history row is made and written just after (the
    /// gateway's client should not wait for the row's redacted text nor for SQLite). [`Console::flush`] waits for
    /// the rows still being written.
    pub async fn run_recorded_after(
        &self,
        server: &str,
        tool: &str,
        arguments: JsonObject,
        cancel: Option<CallCancel>,
        events: Option<CallObserver>,
        origin: Option<String>,
    ) -> Result<Result<CallToolResult, SupervisorError>, ConsoleError> {
        let (finished, result) = self.execute(server, tool, arguments, cancel, events, origin).await?;
        // The writer makes the row's text: the client's answer does not wait for it.
        self.recorder.record(finished, result.clone());
        Ok(result)
    }

    /// Waits until every history row of [`Console::run_recorded_after`] is written (before the process ends).
    pub async fn flush(&self) {
        self.recorder.flush().await;
    }

    /// Runs the call; returns what the history's row is made of ([`Finished::row`]) and the result.
    async fn execute(
        &self,
        server: &str,
        tool: &str,
        arguments: JsonObject,
        cancel: Option<CallCancel>,
        events: Option<CallObserver>,
        origin: Option<String>,
    ) -> Result<(Finished, Result<CallToolResult, SupervisorError>), ConsoleError> {
        if !self.supervisor.supervises(server) {
            return Err(ConsoleError::UnknownServer { server: server.to_owned() });
        }
        // Built once per change of the secrets, not per call (guard.rs).
        let index = self.guard.index().await;
        let refused = guard::foreign_secret_in(&index, server, &arguments);
        let secrets = ServerSecrets::new(Arc::clone(&index), server);
        // Redacted with the row (for the gateway, by the history's writer): the call takes these.
        let sent = arguments.clone();
        let started_at_ms = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64() * 1000.0);
        let started = Instant::now();
        let result = match refused {
            Some(secret) => {
                tracing::warn!(server, secret = %secret.reference(), owner = %secret.owner, "refused a call carrying another server's secret");
                Err(SupervisorError::SecretRefused {
                    server: server.to_owned(),
                    secret: secret.reference(),
                    owner: secret.owner,
                })
            }
            None => self.supervisor.call_observed(server, tool, arguments, cancel, events).await,
        };
        let result = match result {
            Ok(result) => Ok(guard::redact_result(&index, server, result)),
            Err(error) => Err(guard::redact_error(&index, server, error)),
        };
        let duration_ms = u32::try_from(started.elapsed().as_millis()).unwrap_or(u32::MAX);
        let finished = Finished {
            server: server.to_owned(),
            tool: tool.to_owned(),
            arguments: sent,
            started_at_ms,
            duration_ms,
            origin,
            secrets,
        };
        Ok((finished, result))
    }

    /// A page of the history (see [`History::page`]).
    pub async fn page(&self, query: String, before_id: Option<u32>, limit: u32) -> Result<HistoryPage, ConsoleError> {
        let history = Arc::clone(&self.history);
        blocking(move || Ok(history.page(&query, before_id, limit)?)).await
    }

    /// One recorded call in full.
    pub async fn entry(&self, id: u32) -> Result<HistoryEntry, ConsoleError> {
        let history = Arc::clone(&self.history);
        blocking(move || Ok(history.get(id)?)).await
    }

    /// Forgets every recorded call.
    pub async fn clear(&self) -> Result<(), ConsoleError> {
        let history = Arc::clone(&self.history);
        blocking(move || Ok(history.clear()?)).await
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, oneshot::Sender<()>>> {
        // Inserts and removes are single steps: a panic elsewhere cannot leave the map half-changed.
        self.running.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// How far past the history's cap a result's text is redacted: longer than any token shape the redaction knows
/// (a JWT of a few kB is a long one), so one that begins before the cap is found whole.
const TOKEN_MARGIN: usize = 16 * 1024;

/// A call that ran, before the history's row is made of it. It holds the arguments as sent, secrets and all: it is
/// never shown nor logged (no `Debug`), only made into the redacted row.
pub(crate) struct Finished {
    server: String,
    tool: String,
    arguments: JsonObject,
    started_at_ms: f64,
    duration_ms: u32,
    origin: Option<String>,
    /// What the row must not show.
    secrets: ServerSecrets,
}

impl Finished {
    /// The history's row of this call with `result`: arguments and outcome redacted (secrets as references,
    /// token-shaped spans and values under secret-looking keys hidden).
    pub(crate) fn row(self, result: &Result<CallToolResult, SupervisorError>) -> NewCall {
        let secrets = &self.secrets;
        let outcome = match result {
            Ok(result) => {
                // Only the start is kept: the text is made and redacted up to a margin past the cap, so a secret or a
                // token that begins before the cap is still whole where the redaction looks for it.
                let margin = TOKEN_MARGIN.max(secrets.longest_form());
                let (text, cut) = capped_json::json_up_to(result, history::RESULT_CAP + margin);
                CallOutcome::Result {
                    is_error: result.is_error == Some(true),
                    result: secrets.redact_text(&text),
                    truncated: cut,
                }
            }
            Err(SupervisorError::Cancelled { .. }) => CallOutcome::Cancelled,
            Err(error) => CallOutcome::Failed { message: secrets.redact_text(&error.to_string()) },
        };
        NewCall {
            server: self.server,
            tool: self.tool,
            arguments: redact_arguments(self.arguments, secrets),
            started_at_ms: self.started_at_ms,
            duration_ms: self.duration_ms,
            outcome,
            origin: self.origin,
        }
    }
}

/// SQLite and the keychain block: their work runs on the blocking pool.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ConsoleError> + Send + 'static,
) -> Result<T, ConsoleError> {
    tokio::task::spawn_blocking(work).await.map_err(|e| ConsoleError::Interrupted { message: e.to_string() })?
}

#[cfg(test)]
mod row_tests;
#[cfg(test)]
mod unrecorded_tests;
