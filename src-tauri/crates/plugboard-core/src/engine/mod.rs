//! The one front door to Plugboard's engine: it builds the config store, vault, registry, supervisor, console and
//! login flows once, and the window, the CLI and the gateway each hold one `Engine` and call only it. Policy that
//! more than one front end needs (logging in, applying an import) lives here, never in a front end. It must never
//! know which front end holds it beyond the options it was opened with.

mod approvals;
mod clients;
mod imports;
mod login;
mod startup;
mod tool_changes;

use std::future::Future;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use crate::auth::PendingFlows;
use crate::config::model::Transport;
use crate::config::{self, ConfigError, ConfigEvent, ConfigStore, FileWatcher};
use crate::console::{Console, DamageCheck, History, HistoryError};
use crate::person::PersonRequests;
use crate::registry::{Registry, RegistryError};
use crate::secrets::{Fallback, LogScrub, Vault};
use crate::supervisor::{LiveConnector, Supervisor, SupervisorError};
use crate::transport::{DownstreamLink, is_docker_run};
use crate::trust::Approvals;

pub use startup::StartupProblem;
pub use tool_changes::ToolChangeView;

/// Who answers what servers ask of a person (forms, sampling, roots).
#[derive(Debug, Clone)]
pub enum PersonAnswers {
    /// Nobody: each request is declined with a reason (a CLI command has no one to ask mid-call).
    Declined,
    /// They wait in [`Engine::person`]'s queue for the window's dialogs.
    Queued,
    /// The gateway's client answers them, once it is connected and if it declared it can (`plugboard serve`).
    Client(DownstreamLink),
}

/// What an engine is opened over.
#[derive(Debug, Clone)]
pub struct EngineOptions {
    /// servers.json.
    pub config_path: PathBuf,
    /// Where secrets go when no keychain is reachable.
    pub secrets: Fallback,
    pub person: PersonAnswers,
    /// The person's decisions on what may run.
    pub approvals: Approvals,
    /// Learns every secret value expanded for a server, for the log writer to take out of its lines.
    pub log_scrub: LogScrub,
    /// How much of the call history its open reads for damage: all of it for the window, only what a call touches
    /// for a command that must start at once.
    pub history_check: DamageCheck,
}

impl EngineOptions {
    /// The person's own config file and keychain.
    pub fn for_this_user(secrets: Fallback, person: PersonAnswers) -> Self {
        let (config_path, approvals, log_scrub) =
            (config::config_path(), Approvals::for_this_user(), LogScrub::default());
        Self { config_path, secrets, person, approvals, log_scrub, history_check: DamageCheck::Whole }
    }

    /// With the scrub the process's log writer reads (see `secrets::LogScrub`).
    pub fn with_log_scrub(self, log_scrub: LogScrub) -> Self {
        Self { log_scrub, ..self }
    }

    /// With the call history opened as `history_check` says.
    pub fn with_history_check(self, history_check: DamageCheck) -> Self {
        Self { history_check, ..self }
    }
}

/// Why an engine call failed; each case keeps the error of the part that failed, for front ends to present.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EngineError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Registry(#[from] RegistryError),
    #[error(transparent)]
    Supervisor(#[from] SupervisorError),
    #[error(transparent)]
    Login(#[from] crate::auth::LoginError),
    /// No valid server of that name is configured.
    #[error("there is no valid server named {name:?}")]
    UnknownServer { name: String },
    /// A file the engine follows (servers.json, the approvals, the pins) cannot be watched, usually because its
    /// folder cannot be created.
    #[error("cannot watch {} for changes: {message}", path.display())]
    Watch { path: PathBuf, message: String },
    /// The approvals could not be read or saved.
    #[error(transparent)]
    Trust(#[from] crate::trust::TrustError),
    /// The server's definition changed between showing it and the decision: show it again.
    #[error("{name} changed since it was shown for approval; look at it again")]
    ApprovalOutdated { name: String },
    /// Blocking work (the keychain, the file system) did not finish.
    #[error("the operation did not finish: {message}")]
    Interrupted { message: String },
}

/// The console, and why it is not over the history on disk when it is not.
type OpenedConsole = (Arc<Console>, Option<HistoryError>);

/// Plugboard's engine, opened once per process.
pub struct Engine {
    registry: Arc<Registry>,
    vault: Arc<Vault>,
    supervisor: Arc<Supervisor>,
    /// Opened on first use (a command that lists servers never pays for SQLite), with why the history on disk
    /// could not be opened when it could not (the console then keeps this run's calls in memory).
    console: OnceLock<Result<OpenedConsole, HistoryError>>,
    person: Arc<PersonRequests>,
    /// The gateway's client, when servers' requests for a person go to it.
    downstream: Option<DownstreamLink>,
    flows: Arc<PendingFlows>,
    /// The person's decisions on what may run; the connector checks the same file before every start.
    approvals: Approvals,
    /// The watchers of servers.json and the approvals once [`Engine::follow_config`] started them; dropped with
    /// the engine.
    watchers: Mutex<Vec<FileWatcher>>,
    history_check: DamageCheck,
}

impl Engine {
    /// Opens the config and the vault and builds every part; no server starts until asked.
    pub fn open(options: EngineOptions) -> Result<Self, EngineError> {
        let vault = Arc::new(Vault::open(options.secrets));
        let registry = Arc::new(Registry::new(ConfigStore::open(options.config_path)?, Arc::clone(&vault)));
        let person = Arc::new(PersonRequests::default());
        let downstream = match &options.person {
            PersonAnswers::Client(link) => Some(link.clone()),
            PersonAnswers::Declined | PersonAnswers::Queued => None,
        };
        let (approvals, history_check) = (options.approvals, options.history_check);
        let connector = match options.person {
            PersonAnswers::Queued => {
                LiveConnector::with_person(Arc::clone(&vault), approvals.clone(), Arc::clone(&person))
            }
            PersonAnswers::Client(link) => LiveConnector::with_client(Arc::clone(&vault), approvals.clone(), link),
            PersonAnswers::Declined => LiveConnector::new(Arc::clone(&vault), approvals.clone()),
        };
        let supervisor = Arc::new(Supervisor::new(Arc::new(connector.scrubbing_logs(options.log_scrub))));
        let flows = Arc::new(PendingFlows::new());
        let console = OnceLock::new();
        let watchers = Mutex::default();
        Ok(Self { registry, vault, supervisor, console, person, downstream, flows, approvals, watchers, history_check })
    }

    pub fn registry(&self) -> &Arc<Registry> {
        &self.registry
    }

    pub fn vault(&self) -> &Arc<Vault> {
        &self.vault
    }

    pub fn supervisor(&self) -> &Arc<Supervisor> {
        &self.supervisor
    }

    /// The tool-call console over the history on disk (opened now if it was not yet); over a history in memory
    /// when the disk's cannot be opened; an error only when not even that can be.
    pub fn console(&self) -> Result<&Arc<Console>, HistoryError> {
        self.opened_console().as_ref().map(|(console, _)| console).map_err(Clone::clone)
    }

    /// Why the history on disk is unavailable, if it is: this run's calls are then kept in memory only.
    pub fn history_problem(&self) -> Option<&HistoryError> {
        match self.opened_console() {
            Ok((_, problem)) => problem.as_ref(),
            Err(problem) => Some(problem),
        }
    }

    fn opened_console(&self) -> &Result<OpenedConsole, HistoryError> {
        self.console.get_or_init(|| {
            // A call is worth more than its history line: an unusable data dir costs the record, not the console.
            let (history, problem) = match History::open_default(self.history_check) {
                Ok(history) => (history, None),
                Err(problem) => {
                    tracing::error!(
                        "the call history cannot be opened; this run's calls are kept in memory: {problem}"
                    );
                    (History::in_memory()?, Some(problem))
                }
            };
            let registry = Some(Arc::clone(&self.registry));
            let console = Console::new(Arc::clone(&self.supervisor), Arc::new(history), registry);
            Ok((Arc::new(console), problem))
        })
    }

    /// Servers' requests waiting for a person (empty unless opened with [`PersonAnswers::Queued`]).
    pub fn person(&self) -> &Arc<PersonRequests> {
        &self.person
    }

    /// Where servers' requests for a person go when the engine serves a gateway client.
    pub fn downstream(&self) -> Option<&DownstreamLink> {
        self.downstream.as_ref()
    }

    /// Logins waiting for their redirect: the loopback receiver and deep links both deliver here.
    pub fn flows(&self) -> &Arc<PendingFlows> {
        &self.flows
    }

    /// For long-running front ends: watches servers.json, the approvals and the tool pins, and returns the task (for the caller's
    /// runtime) that starts every configured server, reconciles them with the file after every save or external
    /// edit, and applies approvals given in another process (the CLI's `approve`, the window's dialog).
    pub fn follow_config(&self) -> Result<impl Future<Output = ()> + Send + 'static, EngineError> {
        let mut changes = self.registry.store().subscribe();
        let watched = Arc::clone(&self.registry);
        let reload: config::OnChange = Box::new(move || {
            if let Err(e) = watched.store().reload() {
                tracing::warn!("cannot reload the server config: {e}");
            }
        });
        let (decided, pinned) = (Arc::new(tokio::sync::Notify::new()), Arc::new(tokio::sync::Notify::new()));
        let (on_decided, on_pinned) = (Arc::clone(&decided), Arc::clone(&pinned));
        // One watch for the three files: the approvals share the data folder with the call history, whose every
        // write wakes each watch of that folder.
        let watcher = watch(vec![
            (self.registry.store().path().to_owned(), reload),
            (self.approvals.path().to_owned(), Box::new(move || on_decided.notify_one())),
            (self.approvals.tool_pins().path().to_owned(), Box::new(move || on_pinned.notify_one())),
        ])?;
        *self.watchers.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = vec![watcher];
        let (registry, supervisor) = (Arc::clone(&self.registry), Arc::clone(&self.supervisor));
        let approvals = self.approvals.clone();
        let mut released = ReleasedPins::new(self.approvals.tool_pins());
        Ok(async move {
            reconcile_long_running(&supervisor, &registry).await;
            released.changed().await;
            loop {
                tokio::select! {
                    change = changes.recv() => match change {
                        // Missed changes are folded into one reconcile: it compares with the file as it is now.
                        Ok(ConfigEvent::Saved | ConfigEvent::Reloaded)
                        | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                            reconcile_long_running(&supervisor, &registry).await;
                        }
                        Ok(_) => {}
                        Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
                    },
                    () = decided.notified() => approvals::apply_decisions(&supervisor, &approvals).await,
                    // Approved changes apply at once, whichever process approved them; a write that only
                    // recorded what a session withheld releases nothing, so it is not reviewed again everywhere.
                    () = pinned.notified() => if released.changed().await {
                        supervisor.review_tools_again().await;
                    },
                }
            }
        })
    }

    /// For one-shot commands: starts `only` that server (or every one), without following the file. A container
    /// server among them first has the containers of Plugboard processes that are gone swept (a `plugboard call`
    /// killed mid-call is found by the next command that runs a container).
    pub async fn start(&self, only: Option<&str>) -> Result<(), EngineError> {
        let configs: Vec<_> =
            self.registry.configs().into_iter().filter(|c| only.is_none_or(|name| c.name.as_str() == name)).collect();
        if let Some(name) = only
            && configs.is_empty()
        {
            return Err(EngineError::UnknownServer { name: name.to_owned() });
        }
        if runs_containers(&configs) {
            self.supervisor.sweep_leftovers();
        }
        let stdio = configs.iter().filter(|c| matches!(c.transport, Transport::Stdio(_))).count();
        if stdio > 0 {
            // Beside the approvals and the PATH lookup, not on the first spawn's way: the spawner thread, and a keeper
            // for each server (one that turns out not to be approved runs nothing and is let go).
            crate::transport::start_spawner_thread();
            crate::transport::warm_keepers(stdio);
        }
        self.supervisor.reconcile(configs).await;
        Ok(())
    }

    /// Runs `op` on the registry off the async runtime: the keychain and the file system may block.
    pub async fn with_registry<T, F>(&self, op: F) -> Result<T, EngineError>
    where
        T: Send + 'static,
        F: FnOnce(&Registry) -> Result<T, RegistryError> + Send + 'static,
    {
        let registry = Arc::clone(&self.registry);
        Ok(blocking(move || op(&registry)).await??)
    }

    /// Stops following the file and stops every server; no server process outlives this.
    pub async fn shutdown(&self) {
        // Calls answered a moment ago may still be writing their history rows.
        if let Some(Ok((console, _))) = self.console.get() {
            console.flush().await;
        }
        self.watchers.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clear();
        self.supervisor.shutdown().await;
        // A sweep still running finishes (bounded by docker's own timeout) rather than dying with the process.
        let _ = self.supervisor.leftovers_swept().await;
    }

    fn config(&self, name: &str) -> Result<crate::config::model::ServerConfig, EngineError> {
        self.registry
            .configs()
            .into_iter()
            .find(|c| c.name.as_str() == name)
            .ok_or_else(|| EngineError::UnknownServer { name: name.to_owned() })
    }
}

/// What of the tool pins is approved, as last applied: a write to the pins file that left it as it was (a session
/// recording what it withheld, this process's or another's) needs no review.
struct ReleasedPins {
    pins: crate::trust::ToolPins,
    applied: Option<String>,
}

impl ReleasedPins {
    fn new(pins: crate::trust::ToolPins) -> Self {
        Self { pins, applied: None }
    }

    /// Whether what is approved changed since last asked (an unreadable file counts as a change: every session
    /// then withholds everything, which it must learn).
    async fn changed(&mut self) -> bool {
        let pins = self.pins.clone();
        let now = blocking(move || pins.approved_fingerprint().ok()).await.ok().flatten();
        let changed = now.is_none() || now != self.applied;
        self.applied = now;
        changed
    }
}

/// A long-running engine's reconcile: also sweeps the containers earlier processes left, once a container server
/// is configured.
async fn reconcile_long_running(supervisor: &Supervisor, registry: &Registry) {
    let configs = registry.configs();
    if runs_containers(&configs) {
        supervisor.sweep_leftovers();
    }
    supervisor.reconcile(configs).await;
}

/// Whether any of `configs` runs a container (and so can leave one behind).
fn runs_containers(configs: &[crate::config::model::ServerConfig]) -> bool {
    configs.iter().any(|c| match &c.transport {
        Transport::Stdio(spec) => is_docker_run(std::path::Path::new(&spec.command), &spec.args),
        Transport::Http(_) => false,
    })
}

/// Watches `files` (see [`config::watch_files`]), saying which could not be watched when one cannot.
fn watch(files: Vec<(std::path::PathBuf, config::OnChange)>) -> Result<FileWatcher, EngineError> {
    config::watch_files(files).map_err(|e| EngineError::Watch { path: e.path, message: e.source.to_string() })
}

/// The keychain and the file system block: their work runs on the blocking pool.
async fn blocking<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, EngineError> {
    tokio::task::spawn_blocking(work).await.map_err(|e| EngineError::Interrupted { message: e.to_string() })
}
