//! The supervisor: one actor per configured server (see actor.rs), started concurrently and failing
//! independently, plus the handle everything else uses — status, tools, calls, connect/disconnect, reconcile.
//! It never holds a lock across an await, and one server's trouble never blocks another's calls.

mod actor;
mod allowlist;
mod backoff;
mod call;
mod call_event;
mod connector;
mod era_memory;
mod error;
mod freshness;
mod inspect;
mod leftovers;
mod log;
mod naming;
mod observe;
mod pinning;
mod relay;
mod rounds;
mod scrub;
mod status;
mod tools;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::{broadcast, mpsc, oneshot, watch};
use tokio::task::JoinHandle;

pub use allowlist::{AllowlistView, Curated, curate};
pub use backoff::{CRASH_LOOP_FAILURES, CRASH_LOOP_WINDOW, FIRST_DELAY, MAX_DELAY};
pub(crate) use call::URL_ELICITATION_REQUIRED;
pub use call::{CallCancel, PROGRESS_MAX_FACTOR};
pub use call_event::CallEvent;
pub use connector::{ConnectError, Connected, Connector, KeychainUnlocked, LiveConnector};
pub use error::{PageToOpen, SupervisorError};
pub use freshness::STALE_LIST_WAIT;
pub use inspect::{
    PromptArgumentInfo, PromptInfo, PromptMessageInfo, PromptOutcome, ResourceContent, ResourceInfo,
    ResourceTemplateInfo, ServerInfo,
};
pub use leftovers::LeftoverSweep;
pub use log::{LOG_CAPACITY, LOG_TEXT_LIMIT, LogRing, PLUGBOARD_WARNING, ServerLogEntry};
pub use naming::{ExposedName, MAX_EXPOSED_LEN, expose};
pub use observe::CallObserver;
pub use status::{ServerStatus, SupervisorEvent};
pub use tools::{ToolInfo, ToolSet};

use crate::config::model::ServerConfig;
use crate::secrets::ResolvedSecrets;
use crate::transport::{DockerSweepError, SweepReport};
use actor::{Actor, Command, Published};
use call::CallRoute;
use leftovers::Leftovers;
use observe::Observers;

/// A ready server's curated tools (see [`Supervisor::curated`]).
#[derive(Debug, Clone, PartialEq)]
pub struct CuratedServer {
    pub name: String,
    /// `readOnly` in servers.json: the person says none of its tools changes anything.
    pub read_only: bool,
    /// The allowed tools, as the server defined them.
    pub tools: Vec<rmcp::model::Tool>,
}

/// A running server's handle: how to talk to its actor and what it publishes.
struct ServerHandle {
    config: ServerConfig,
    /// Everything a call needs, behind one pointer (see call.rs).
    route: Arc<CallRoute>,
    /// Its recent log; handed on to the next handle when the server is edited, dropped when it is removed.
    log: Arc<LogRing>,
    /// The secrets its session was made with (none before it first connected).
    secrets: watch::Receiver<ResolvedSecrets>,
    /// What of its prompts and resource templates is approved (see pinning.rs).
    approved: watch::Receiver<pinning::ApprovedPins>,
    task: JoinHandle<()>,
}

/// Owns every server's actor.
pub struct Supervisor {
    connector: Arc<dyn Connector>,
    servers: Mutex<BTreeMap<String, ServerHandle>>,
    events: broadcast::Sender<SupervisorEvent>,
    leftovers: Leftovers,
}

impl Supervisor {
    /// The engine; [`Supervisor::sweep_leftovers`] removes Docker containers left by earlier runs.
    pub fn new(connector: Arc<dyn Connector>) -> Self {
        Self::with_leftovers(connector, Leftovers::docker())
    }

    /// The engine with another start-up sweep (tests: a stand-in `docker`).
    pub fn with_leftover_sweep(connector: Arc<dyn Connector>, sweep: LeftoverSweep) -> Self {
        Self::with_leftovers(connector, Leftovers::new(sweep))
    }

    fn with_leftovers(connector: Arc<dyn Connector>, leftovers: Leftovers) -> Self {
        let (events, _) = broadcast::channel(1024);
        Self { connector, servers: Mutex::new(BTreeMap::new()), events, leftovers }
    }

    /// Waits for the start-up sweep of leftovers and returns what it did (`None` before [`Supervisor::sweep_leftovers`],
    /// or when already collected).
    pub async fn leftovers_swept(&self) -> Option<Result<SweepReport, DockerSweepError>> {
        self.leftovers.finished().await
    }

    /// Sweeps what earlier Plugboard processes left behind, the first time only (see leftovers.rs). Long-running
    /// engines call it once a server that can leave something behind (a container) is configured; a one-shot
    /// command never pays for `docker ps`.
    pub fn sweep_leftovers(&self) {
        self.leftovers.start_once();
    }

    /// Status changes, tool changes and warnings of every server.
    pub fn subscribe(&self) -> broadcast::Receiver<SupervisorEvent> {
        self.events.subscribe()
    }

    /// Makes the running servers match `configs`: new ones start, edited ones restart, removed ones stop, and
    /// unchanged ones are not touched. An edit of the allowlist alone is applied in place: it is a filter on
    /// Plugboard's side, so the server's process and session stay. Starting is concurrent; this returns without
    /// waiting for connections.
    pub async fn reconcile(&self, configs: Vec<ServerConfig>) {
        let mut stopping = Vec::new();
        {
            let mut servers = self.lock();
            let wanted: BTreeMap<String, ServerConfig> = configs.into_iter().map(|c| (c.name.to_string(), c)).collect();
            for (name, handle) in servers.iter_mut() {
                if let Some(config) = wanted.get(name)
                    && differs_only_in_allowlist(&handle.config, config)
                    && handle.route.commands.try_send(Command::SetAllowlist(config.tools.clone())).is_ok()
                {
                    handle.config = config.clone();
                }
            }
            let gone: Vec<String> = servers
                .iter()
                .filter(|(name, handle)| wanted.get(*name).is_none_or(|c| *c != handle.config))
                .map(|(name, _)| name.clone())
                .collect();
            let mut logs = BTreeMap::new();
            for name in gone {
                if let Some(handle) = servers.remove(&name) {
                    logs.insert(name, Arc::clone(&handle.log));
                    stopping.push(handle);
                }
            }
            for (name, config) in wanted {
                let log = logs.remove(&name).unwrap_or_default();
                servers.entry(name).or_insert_with(|| self.spawn(config, log));
            }
        }
        for handle in stopping {
            stop(handle).await;
        }
    }

    fn spawn(&self, config: ServerConfig, log: Arc<LogRing>) -> ServerHandle {
        let (commands, receiver) = mpsc::channel(16);
        let initial = if config.enabled { ServerStatus::Connecting } else { ServerStatus::Disabled };
        let (status_tx, status) = watch::channel(initial);
        let (peer_tx, peer) = watch::channel(None);
        let (tools_tx, tools) = watch::channel(Arc::new(ToolSet::default()));
        let observers = Arc::new(Observers::default());
        let (secrets_tx, secrets) = watch::channel(ResolvedSecrets::default());
        // Nothing is approved before the first review: a relay asking meanwhile passes nothing on.
        let (approved_tx, approved) = watch::channel(Some(Arc::default()));
        let published = Published {
            status: status_tx,
            peer: peer_tx,
            tools: tools_tx,
            observers: Arc::clone(&observers),
            log: Arc::clone(&log),
            secrets: secrets_tx,
            approved: approved_tx,
        };
        let actor = Actor::new(config.clone(), Arc::clone(&self.connector), self.events.clone(), published);
        let task = tokio::spawn(actor.run(receiver));
        let person = self.connector.person_link(config.name.as_str());
        let route = Arc::new(CallRoute { timeout: config.timeout, status, peer, tools, commands, observers, person });
        ServerHandle { config, route, log, secrets, approved, task }
    }

    /// The config `server` runs with.
    pub fn config(&self, server: &str) -> Result<ServerConfig, SupervisorError> {
        self.with_handle(server, |h| h.config.clone())
    }

    /// Whether `server` is one of the supervised servers (without copying its config, as each call asks).
    pub fn supervises(&self, server: &str) -> bool {
        self.lock().contains_key(server)
    }

    /// Every server's status, by name.
    pub fn statuses(&self) -> Vec<(String, ServerStatus)> {
        self.lock().iter().map(|(name, h)| (name.clone(), h.route.status.borrow().clone())).collect()
    }

    pub fn status(&self, server: &str) -> Result<ServerStatus, SupervisorError> {
        self.with_handle(server, |h| h.route.status.borrow().clone())
    }

    /// Waits until `server` stops connecting (ready, failed, needs login, …) or `timeout` passes.
    pub async fn settled(&self, server: &str, timeout: Duration) -> Result<ServerStatus, SupervisorError> {
        let mut status = self.with_handle(server, |h| h.route.status.clone())?;
        let waited = tokio::time::timeout(timeout, status.wait_for(ServerStatus::is_settled)).await;
        match waited.map(|r| r.map(|s| s.clone())) {
            Ok(Ok(settled)) => Ok(settled),
            Ok(Err(_)) => Err(SupervisorError::ShutDown),
            Err(_) => Ok(status.borrow().clone()),
        }
    }

    /// Waits until every server has settled, or `timeout` passes; returns the statuses.
    pub async fn settle_all(&self, timeout: Duration) -> Vec<(String, ServerStatus)> {
        let names: Vec<String> = self.lock().keys().cloned().collect();
        let waits = names.iter().map(|name| self.settled(name, timeout));
        let _ = futures::future::join_all(waits).await;
        self.statuses()
    }

    /// The `required` servers that are not ready (call after [`Supervisor::settle_all`]): start-up must stop with
    /// their reasons instead of carrying on without them.
    pub fn required_failures(&self) -> Vec<(String, ServerStatus)> {
        self.lock()
            .iter()
            .filter(|(_, h)| h.config.required && h.config.enabled)
            .map(|(name, h)| (name.clone(), h.route.status.borrow().clone()))
            .filter(|(_, status)| !matches!(status, ServerStatus::Ready { .. }))
            .collect()
    }

    /// The tool pins changed (a person approved changed tools, maybe in another process): every connected server
    /// checks the tools it already listed against them again, keeping its session; returns once all have.
    pub async fn review_tools_again(&self) {
        let actors: Vec<_> = self.lock().values().map(|h| h.route.commands.clone()).collect();
        until_each_done(actors, |done| Command::ReviewTools { done }).await;
    }

    /// Before the tool lists are used: every server whose list's ttl ran out (2026-07-28's `ttlMs`; freshness.rs)
    /// lists its tools again, `server` alone when named; returns once each has published what it got or kept what it
    /// had, or after `within`, when what was listed last is used (a slow server must not hold every list).
    pub async fn refresh_stale_tools(&self, server: Option<&str>, within: Duration) {
        let actors: Vec<_> = {
            let servers = self.lock();
            let chosen = servers.iter().filter(|(name, _)| server.is_none_or(|s| s == name.as_str()));
            chosen.map(|(_, h)| h.route.commands.clone()).collect()
        };
        // Past `within` the actors go on: the next use finds their lists published.
        let refreshed = until_each_done(actors, |done| Command::RefreshIfStale { done });
        drop(tokio::time::timeout(within, refreshed).await);
    }

    /// The server's tools (all of them, each marked allowed or not), as last discovered, each flagged when it
    /// names another server's tools.
    pub fn tools(&self, server: &str) -> Result<Vec<ToolInfo>, SupervisorError> {
        self.allowlist(server).map(|view| view.tools)
    }

    /// What the person curated, as other clients may use it: each enabled server that is ready, or healing with the
    /// tools its last session listed (so a crash does not make them vanish from every client and come back; a call
    /// meanwhile waits for the new session), with its allowed tools' definitions, in name order.
    pub fn curated(&self) -> Vec<CuratedServer> {
        let offered = |h: &ServerHandle| {
            let status = h.route.status.borrow();
            match *status {
                ServerStatus::Ready { .. } => true,
                ref healing if !healing.is_settled() => !h.route.tools.borrow().allowed_definitions().is_empty(),
                _ => false,
            }
        };
        self.lock()
            .iter()
            .filter(|(_, h)| h.config.enabled && offered(h))
            .map(|(name, h)| CuratedServer {
                name: name.clone(),
                read_only: h.config.read_only,
                tools: h.route.tools.borrow().allowed_definitions().to_vec(),
            })
            .collect()
    }

    /// The server's allowlist as its running config has it, next to the tools it offers (for the allowlist editor).
    pub fn allowlist(&self, server: &str) -> Result<AllowlistView, SupervisorError> {
        let servers = self.lock();
        let handle = servers.get(server).ok_or_else(|| SupervisorError::NotFound { server: server.to_owned() })?;
        let mut view = AllowlistView::new(&handle.config.tools, &handle.route.tools.borrow());
        let others: Vec<(String, Vec<String>)> = servers
            .iter()
            .filter(|(name, _)| *name != server)
            .map(|(name, h)| (name.clone(), h.route.tools.borrow().tools.iter().map(|t| t.name.clone()).collect()))
            .collect();
        drop(servers);
        tools::flag_shadowing(server, &mut view.tools, &others);
        Ok(view)
    }

    /// The secret values `server`'s session was made with, for redacting what it sent and was sent; none before it
    /// first connected (then it was given none).
    pub fn resolved_secrets(&self, server: &str) -> Result<ResolvedSecrets, SupervisorError> {
        self.with_handle(server, |h| h.secrets.borrow().clone())
    }

    /// Every server's [`Supervisor::resolved_secrets`], in name order: what the console's secret guard indexes.
    pub fn every_resolved_secrets(&self) -> Vec<(String, ResolvedSecrets)> {
        self.lock().iter().map(|(name, h)| (name.clone(), h.secrets.borrow().clone())).collect()
    }

    /// The server's recent log (its messages and Plugboard's warnings), oldest first; it survives reconnects and
    /// edits of the server, and goes when the server is removed.
    pub fn log(&self, server: &str) -> Result<Vec<ServerLogEntry>, SupervisorError> {
        let log = self.with_handle(server, |h| Arc::clone(&h.log))?;
        Ok(log.snapshot())
    }

    /// Connects a stopped, failed or disabled-for-now server (an explicit request forgives past failures).
    pub async fn connect(&self, server: &str) -> Result<(), SupervisorError> {
        let commands = self.with_handle(server, |h| h.route.commands.clone())?;
        commands.send(Command::Connect).await.map_err(|_| SupervisorError::ShutDown)
    }

    /// Disconnects a server; it stays disconnected (no reconnect) until connected again.
    pub async fn disconnect(&self, server: &str) -> Result<(), SupervisorError> {
        let commands = self.with_handle(server, |h| h.route.commands.clone())?;
        let (done, finished) = oneshot::channel();
        commands.send(Command::Disconnect { done }).await.map_err(|_| SupervisorError::ShutDown)?;
        finished.await.map_err(|_| SupervisorError::ShutDown)
    }

    /// Stops a server's session (and process) and starts a new one.
    pub async fn restart(&self, server: &str) -> Result<(), SupervisorError> {
        self.disconnect(server).await?;
        self.connect(server).await
    }

    /// Stops every server and waits for their processes to be gone.
    pub async fn shutdown(&self) {
        let handles: Vec<ServerHandle> = std::mem::take(&mut *self.lock()).into_values().collect();
        futures::future::join_all(handles.into_iter().map(stop)).await;
    }

    fn with_handle<T>(&self, server: &str, f: impl FnOnce(&ServerHandle) -> T) -> Result<T, SupervisorError> {
        self.lock().get(server).map(f).ok_or_else(|| SupervisorError::NotFound { server: server.to_owned() })
    }

    fn lock(&self) -> MutexGuard<'_, BTreeMap<String, ServerHandle>> {
        // Handles are replaced whole, so a panic elsewhere cannot leave the map half-updated.
        self.servers.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Sends each actor the command `command` makes with a `done` to answer on, and waits until every one has answered;
/// an actor shutting down meanwhile has nothing left to do and counts as done.
async fn until_each_done(actors: Vec<mpsc::Sender<Command>>, command: impl Fn(oneshot::Sender<()>) -> Command) {
    let asked = actors.into_iter().map(|actor| {
        let (done, answered) = oneshot::channel();
        let command = command(done);
        async move {
            if actor.send(command).await.is_ok() {
                drop(answered.await);
            }
        }
    });
    futures::future::join_all(asked).await;
}

/// Whether `next` is `running` with another tool allowlist and nothing else changed.
fn differs_only_in_allowlist(running: &ServerConfig, next: &ServerConfig) -> bool {
    running.tools != next.tools && ServerConfig { tools: next.tools.clone(), ..running.clone() } == *next
}

async fn stop(handle: ServerHandle) {
    let (done, finished) = oneshot::channel();
    if handle.route.commands.send(Command::Shutdown { done }).await.is_ok() {
        let _ = finished.await;
    }
    let _ = handle.task.await;
}

#[cfg(test)]
mod approval_tests;
#[cfg(test)]
mod http_session_tests;
#[cfg(test)]
mod http_tests;
#[cfg(test)]
mod inspect_tests;
#[cfg(test)]
mod keychain_tests;
#[cfg(test)]
mod python_tests;
#[cfg(test)]
mod retry_tests;
#[cfg(test)]
mod tests;
