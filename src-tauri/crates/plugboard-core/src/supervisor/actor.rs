//! One task per server, the only owner of its session: it connects, discovers tools, watches the connection,
//! reconnects with backoff after transient failures, and publishes every state through ONE `set_state`. What the
//! server offers is checked against its pins (pinning.rs) before any of it is published.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::model::Tool;
use tokio::sync::{broadcast, mpsc, oneshot, watch};

use super::backoff::{FailureWindow, delay};
use super::connector::{ConnectError, Connector, KeychainUnlocked};
use super::freshness::Freshness;
use super::log::{LogRing, PLUGBOARD_WARNING, STDERR_LEVEL, STDERR_LOGGER};
use super::observe::Observers;
use super::pinning::{self, ApprovedPins, SessionPins, extras};
use super::status::{ServerStatus, SupervisorEvent};
use super::tools::ToolSet;
use crate::config::model::{ServerConfig, ToolFilter};
use crate::secrets::ResolvedSecrets;
use crate::transport::{CallNotices, McpSession, ServerNotice};
use crate::trust::{Listing, PinKind};

/// How often a ready session is checked for a dead transport (a crashed process, a closed stream).
const HEALTH_CHECK: Duration = Duration::from_millis(250);
/// How long one connection attempt may take before it counts as failed.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(60);

/// What the rest of the supervisor asks of an actor.
pub(super) enum Command {
    Connect,
    Disconnect {
        done: oneshot::Sender<()>,
    },
    /// A call found the connection of session `generation` broken: reconnect now, unless that session is gone.
    ConnectionLost {
        generation: u64,
        reason: String,
    },
    Shutdown {
        done: oneshot::Sender<()>,
    },
    /// The allowlist changed and nothing else: filter the tools already discovered again, keeping the session.
    SetAllowlist(ToolFilter),
    /// The tool pins changed (the person approved a change, maybe in another process): check the tools already
    /// discovered against them again, keeping the session; `done` when published.
    ReviewTools {
        done: oneshot::Sender<()>,
    },
    /// The relay was offered a prompt or resource template that is not approved: list them again for the pins, so
    /// the change is recorded and shown for review.
    RelistExtras,
    /// Someone is about to use the tool list: list it again if the server's ttl for it ran out; `done` when published.
    RefreshIfStale {
        done: oneshot::Sender<()>,
    },
}

/// What an actor shares with the handle: read-only views, updated only by the actor.
pub(super) struct Published {
    pub status: watch::Sender<ServerStatus>,
    /// The live session's peer, with the session's generation (so a late report about an old session is ignored).
    pub peer: watch::Sender<Option<(u64, super::call::LivePeer)>>,
    pub tools: watch::Sender<Arc<ToolSet>>,
    /// Calls that want their own progress and the server's logs (observe.rs).
    pub observers: Arc<Observers>,
    /// The server's recent log, kept by the supervisor across reconnects and edits.
    pub log: Arc<LogRing>,
    /// The secret values the current (or last) session was made with, for the console's redaction.
    pub secrets: watch::Sender<ResolvedSecrets>,
    /// What of the session's prompts and resource templates is approved, for the relay.
    pub approved: watch::Sender<ApprovedPins>,
}

pub(super) struct Actor {
    pub config: ServerConfig,
    pub connector: Arc<dyn Connector>,
    pub events: broadcast::Sender<SupervisorEvent>,
    pub published: Published,
    session: Option<McpSession>,
    /// The tools the live session offered when last listed, so a new allowlist applies without asking again.
    offered: Vec<Tool>,
    /// Until when `offered` is fresh, as the server said.
    offered_fresh: Freshness,
    /// The pins the live session's listings are checked against, and what of them is withheld.
    pins: SessionPins,
    notices: Option<mpsc::Receiver<ServerNotice>>,
    generation: u64,
    failures: FailureWindow,
    attempt: u32,
    next_retry: Option<tokio::time::Instant>,
    /// Set while the keychain is locked: resolves when it may have been unlocked (see `Connector::keychain_unlocked`).
    keychain_unlocked: Option<KeychainUnlocked>,
    wanted: bool,
}

impl Actor {
    pub fn new(
        config: ServerConfig,
        connector: Arc<dyn Connector>,
        events: broadcast::Sender<SupervisorEvent>,
        published: Published,
    ) -> Self {
        let wanted = config.enabled;
        Self {
            config,
            connector,
            events,
            published,
            session: None,
            offered: Vec::new(),
            offered_fresh: Freshness::UntilChanged,
            pins: SessionPins::default(),
            notices: None,
            generation: 0,
            failures: FailureWindow::default(),
            attempt: 0,
            next_retry: None,
            keychain_unlocked: None,
            wanted,
        }
    }

    /// The actor's life: runs until shut down or until every handle is gone.
    pub async fn run(mut self, mut commands: mpsc::Receiver<Command>) {
        if !self.wanted {
            self.set_state(ServerStatus::Disabled);
        }
        let mut health = tokio::time::interval(HEALTH_CHECK);
        loop {
            if self.wanted && self.session.is_none() && self.next_retry.is_none() && self.keychain_unlocked.is_none() {
                self.connect_once().await;
            }
            let retry_at = self.next_retry;
            tokio::select! {
                command = commands.recv() => match command {
                    None => break,
                    Some(Command::Shutdown { done }) => {
                        self.close().await;
                        let _ = done.send(());
                        return;
                    }
                    Some(Command::Connect) => {
                        // An explicit connect forgives past failures: the person may have fixed the cause.
                        self.failures.clear();
                        self.attempt = 0;
                        self.next_retry = None;
                        self.keychain_unlocked = None;
                        self.wanted = true;
                    }
                    Some(Command::Disconnect { done }) => {
                        self.wanted = false;
                        self.next_retry = None;
                        self.keychain_unlocked = None;
                        self.close().await;
                        self.set_state(ServerStatus::Stopped);
                        let _ = done.send(());
                    }
                    Some(Command::SetAllowlist(filter)) => self.set_allowlist(filter),
                    Some(Command::ReviewTools { done }) => {
                        self.review_again().await;
                        let _ = done.send(());
                    }
                    Some(Command::RelistExtras) => self.relist(&[PinKind::Prompt, PinKind::ResourceTemplate]).await,
                    Some(Command::RefreshIfStale { done }) => {
                        if self.offered_fresh.is_stale(Instant::now()) {
                            self.refresh_tools(Relisting::Expired).await;
                        }
                        let _ = done.send(());
                    }
                    Some(Command::ConnectionLost { generation, reason }) => {
                        if self.session.is_some() && generation == self.generation {
                            self.on_transport_lost(reason).await;
                        }
                    }
                },
                notice = next_notice(&mut self.notices) => match notice {
                    Some(notice) => self.on_notice(notice).await,
                    // The session ended; the health check reports it.
                    None => self.notices = None,
                },
                _ = health.tick(), if self.session.is_some() => {
                    if self.session.as_ref().is_some_and(McpSession::is_closed) {
                        self.on_transport_lost("the connection closed".to_owned()).await;
                    }
                }
                _ = sleep_until(retry_at), if retry_at.is_some() => {
                    self.next_retry = None;
                }
                () = wait_for(&mut self.keychain_unlocked), if self.keychain_unlocked.is_some() => {
                    self.keychain_unlocked = None;
                }
            }
        }
        self.close().await;
    }

    async fn connect_once(&mut self) {
        self.set_state(ServerStatus::Connecting);
        let connected = match tokio::time::timeout(CONNECT_TIMEOUT, self.connector.connect(&self.config)).await {
            Ok(result) => result,
            Err(_) => Err(ConnectError::Transport {
                message: format!("no answer within {} s", CONNECT_TIMEOUT.as_secs()),
                transient: true,
                stderr_tail: None,
            }),
        };
        let connected = match connected {
            Ok(connected) => connected,
            Err(error) => return self.on_connect_failed(error),
        };
        for message in &connected.warnings {
            self.warn(message.clone());
        }
        // Before any call can run on the new session, so its redaction knows what this session was given.
        self.published.secrets.send_replace(connected.secrets);
        let mut session = connected.session;
        let (offered, offered_fresh) = match self.listed_tools(&session).await {
            Ok(listed) => listed,
            Err(message) => {
                let tail = session.stderr_tail();
                // A server that crossed a limit would do it again: not a failure to retry.
                let (message, transient) = match session.limit_exceeded() {
                    Some(exceeded) => (exceeded.to_string(), false),
                    None => (message, true),
                };
                drop(session.close().await);
                return self.on_connect_failed(ConnectError::Transport { message, transient, stderr_tail: tail });
            }
        };
        // Everything the server says to a model is pinned at once: the first listing after approval pins it all.
        let (extras, trouble) = extras(&session, self.config.timeout, &EXTRAS).await;
        for message in trouble {
            self.warn(message);
        }
        self.pins.renew(connected.pinning);
        self.offered = offered;
        self.offered_fresh = offered_fresh;
        let mut listing = Listing::default().tools(&self.offered);
        listing.merge(extras);
        self.review(listing).await;
        let (protocol_version, server_name) = (session.protocol_version().unwrap_or_default(), session.server_name());
        self.generation += 1;
        // Calls can start once the peer is published: their progress and log lines must have somewhere to go first.
        session.call_tap().attach(Arc::clone(&self.published.observers) as Arc<dyn CallNotices>);
        let live = super::call::LivePeer { peer: session.peer(), answers: session.answers() };
        self.published.peer.send_replace(Some((self.generation, live)));
        self.notices = session.take_notices();
        self.session = Some(session);
        self.attempt = 0;
        let (tools, warnings) = self.publish_tools();
        for message in warnings {
            self.warn(message);
        }
        self.set_state(ServerStatus::Ready { tools, protocol_version, server_name });
    }

    fn on_connect_failed(&mut self, error: ConnectError) {
        match error {
            ConnectError::AuthRequired { hint } => {
                self.wanted = false;
                self.set_state(ServerStatus::NeedsLogin { hint });
            }
            ConnectError::Unapproved(unapproved) => {
                self.wanted = false;
                let refused = matches!(unapproved, crate::trust::Unapproved::Refused { .. });
                self.set_state(ServerStatus::NeedsApproval { hint: unapproved.to_string(), refused });
            }
            // Not a failure of the server's: it waits, outside the crash-loop count, until the keychain is unlocked.
            ConnectError::KeychainLocked { message } => {
                let hint = format!(
                    "{message}. Unlock the OS keychain (your login keyring): Plugboard connects it as soon as it is \
                     unlocked, or press Retry"
                );
                self.keychain_unlocked = Some(self.connector.keychain_unlocked());
                self.set_state(ServerStatus::KeychainLocked { hint });
            }
            ConnectError::Transport { message, transient: true, stderr_tail } => {
                self.schedule_retry(message, stderr_tail);
            }
            other => {
                self.wanted = false;
                let stderr_tail = match &other {
                    ConnectError::Transport { stderr_tail, .. } => stderr_tail.clone(),
                    _ => None,
                };
                self.set_state(ServerStatus::Failed { error: other.to_string(), stderr_tail });
            }
        }
    }

    async fn on_transport_lost(&mut self, reason: String) {
        let tail = self.session.as_ref().and_then(McpSession::stderr_tail);
        if let Some(exceeded) = self.session.as_ref().and_then(McpSession::limit_exceeded) {
            // It would cross the limit again: stopped until the person restarts it. Said before the (staged, maybe
            // seconds long) stop, so a caller whose call it broke hears why at once.
            self.wanted = false;
            self.next_retry = None;
            self.published.peer.send_replace(None);
            self.set_state(ServerStatus::Failed { error: exceeded.to_string(), stderr_tail: tail });
            self.close().await;
            return;
        }
        self.close().await;
        if self.wanted {
            self.schedule_retry(reason, tail);
        }
    }

    /// Retries after a backoff, unless this failure makes a crash loop.
    fn schedule_retry(&mut self, reason: String, stderr_tail: Option<String>) {
        if self.failures.record(Instant::now()) {
            self.wanted = false;
            self.next_retry = None;
            let error =
                format!("it failed 5 times within a minute, so Plugboard stopped retrying; last error: {reason}");
            self.set_state(ServerStatus::Failed { error, stderr_tail });
            return;
        }
        self.attempt += 1;
        let wait = delay(self.attempt, jitter_seed(self.config.name.as_str()));
        self.next_retry = Some(tokio::time::Instant::now() + wait);
        let next_try_ms = u32::try_from(wait.as_millis()).unwrap_or(u32::MAX);
        self.set_state(ServerStatus::Reconnecting { attempt: self.attempt, next_try_ms, reason });
    }

    /// A message the server sent on its own: a changed tool list is fetched again, logs and refusals are reported.
    async fn on_notice(&mut self, notice: ServerNotice) {
        match notice {
            ServerNotice::ToolsChanged => self.refresh_tools(Relisting::Changed).await,
            // Nothing is kept of them here: whoever lists them (the gateway's clients) is told to list again.
            ServerNotice::ResourcesChanged => {
                self.relist(&[PinKind::ResourceTemplate]).await;
                let _ = self.events.send(SupervisorEvent::ResourcesChanged { server: self.name() });
            }
            ServerNotice::PromptsChanged => {
                self.relist(&[PinKind::Prompt]).await;
                let _ = self.events.send(SupervisorEvent::PromptsChanged { server: self.name() });
            }
            ServerNotice::Log(log) => {
                let text = match &log.data {
                    serde_json::Value::String(text) => text.clone(),
                    other => other.to_string(),
                };
                let entry = self.published.log.push(&log.level, log.logger, &text);
                let _ = self.events.send(SupervisorEvent::Logged { server: self.name(), entry });
            }
            ServerNotice::ElicitationDeclined { message } => self.warn(format!(
                "the server asked for input ({message}), which Plugboard cannot answer yet, so it was declined"
            )),
            ServerNotice::SamplingDeclined => {
                self.warn("the server asked Plugboard to run an LLM (sampling), which it does not do; declined".into());
            }
            ServerNotice::LinkRefused { message, reason } => self
                .warn(format!("the server asked you to open a link ({message}), which Plugboard declined: {reason}")),
            ServerNotice::LinkCompleted { elicitation_id } => {
                let text = format!("the server says the step in your browser is done (elicitation {elicitation_id})");
                let entry = self.published.log.push("info", None, &text);
                let _ = self.events.send(SupervisorEvent::Logged { server: self.name(), entry });
            }
        }
    }

    async fn refresh_tools(&mut self, why: Relisting) {
        let Some(session) = &self.session else { return };
        match self.listed_tools(session).await {
            Ok((offered, fresh)) => {
                self.offered = offered;
                self.offered_fresh = fresh;
                self.review(Listing::default().tools(&self.offered)).await;
                // The allowlist's warnings were given when it was set; a new tool list does not repeat them.
                drop(self.publish_tools());
            }
            Err(message) => match why {
                Relisting::Changed => self.warn(format!("the server said its tools changed, but {message}")),
                // The list it gave last is kept: a server out of breath now may answer next time.
                Relisting::Expired => {
                    self.warn(format!("its tool list was due to be listed again (its ttl ran out), but {message}"));
                }
            },
        }
    }

    /// The server's tools and until when they are fresh, within its timeout: the actor owns every command for this
    /// server, so a server that never answers must not hold it (disabling, removing and quitting wait on the actor).
    async fn listed_tools(&self, session: &McpSession) -> Result<(Vec<Tool>, Freshness), String> {
        match tokio::time::timeout(self.config.timeout, session.list_tools_with_ttl()).await {
            Ok(Ok((tools, ttl))) => {
                let era = session.era().unwrap_or(crate::transport::Era::Legacy);
                Ok((tools, Freshness::of(era, ttl, Instant::now())))
            }
            Ok(Err(e)) => Err(format!("listing its tools failed: {e}")),
            Err(_) => {
                Err(format!("it did not answer tools/list within {} s", super::error::seconds(&self.config.timeout)))
            }
        }
    }

    /// Checks a listing against the session's pins (what is new or changed since approval is withheld, and said in
    /// the log once per change) and publishes what is approved.
    async fn review(&mut self, listing: Listing) {
        let (approved, said) = self.pins.review(self.config.name.as_str(), listing).await;
        for message in said {
            self.warn(message);
        }
        self.published.approved.send_replace(approved);
    }

    /// The pins changed: what was already listed is checked again.
    async fn review_again(&mut self) {
        if self.session.is_none() {
            return;
        }
        let (approved, said) = self.pins.review_again(self.config.name.as_str()).await;
        for message in said {
            self.warn(message);
        }
        let before = self.published.approved.send_replace(approved.clone());
        // What the relay passes on changed: its listeners (the gateway's clients) are told to list again.
        if pinning::changed_kind(&before, &approved, PinKind::Prompt) {
            let _ = self.events.send(SupervisorEvent::PromptsChanged { server: self.name() });
        }
        if pinning::changed_kind(&before, &approved, PinKind::ResourceTemplate) {
            let _ = self.events.send(SupervisorEvent::ResourcesChanged { server: self.name() });
        }
        drop(self.publish_tools());
    }

    /// Lists `kinds` of what the server offers besides tools again, for the pins.
    async fn relist(&mut self, kinds: &[PinKind]) {
        let Some(session) = &self.session else { return };
        let (listing, trouble) = extras(session, self.config.timeout, kinds).await;
        for message in trouble {
            self.warn(message);
        }
        self.review(listing).await;
        // What is withheld besides tools is shown with them: their view is published again.
        drop(self.publish_tools());
    }

    /// A new allowlist over the tools already discovered; a server not connected picks it up when it connects.
    fn set_allowlist(&mut self, filter: ToolFilter) {
        self.config.tools = filter;
        if self.session.is_some() {
            for message in self.publish_tools().1 {
                self.warn(message);
            }
        }
    }

    /// Filters the offered tools through the allowlist and the pins and publishes them, with the Ready count updated
    /// when ready; returns that count and the allowlist's warnings (entries that match no tool).
    fn publish_tools(&self) -> (u32, Vec<String>) {
        let withheld = self.pins.withheld_tools();
        let mut tools = ToolSet::build(self.config.name.as_str(), &self.offered, &self.config.tools, &withheld);
        tools.withheld_besides_tools = self.pins.withheld_besides_tools();
        let (count, warnings) = (tools.allowed_count(), tools.warnings.clone());
        self.published.tools.send_replace(Arc::new(tools));
        let _ = self.events.send(SupervisorEvent::ToolsChanged { server: self.name() });
        let current = self.published.status.borrow().clone();
        if let ServerStatus::Ready { protocol_version, server_name, .. } = current {
            self.set_state(ServerStatus::Ready { tools: count, protocol_version, server_name });
        }
        (count, warnings)
    }

    async fn close(&mut self) {
        self.notices = None;
        self.published.peer.send_replace(None);
        if let Some(session) = self.session.take() {
            // Closing a dead session can fail; the process is reaped either way.
            drop(session.close().await);
        }
    }

    /// The ONE place a state is stored and announced.
    fn set_state(&self, status: ServerStatus) {
        let status = status.as_sentence();
        tracing::info!(server = %self.config.name, state = status.label(), "server state changed");
        if let ServerStatus::Failed { error, stderr_tail } = &status {
            self.log_failure(error, stderr_tail.as_deref());
        }
        self.published.status.send_replace(status.clone());
        let _ = self.events.send(SupervisorEvent::StatusChanged { server: self.name(), status });
    }

    /// A failure goes into the server's log too, with the lines its process wrote to stderr, so its page's Log
    /// tab tells the same story as its row.
    fn log_failure(&self, error: &str, stderr_tail: Option<&str>) {
        let lines = stderr_tail.into_iter().flat_map(str::lines).filter(|line| !line.trim().is_empty());
        for line in lines {
            let entry = self.published.log.push(STDERR_LEVEL, Some(STDERR_LOGGER.into()), line);
            let _ = self.events.send(SupervisorEvent::Logged { server: self.name(), entry });
        }
        let entry = self.published.log.push(PLUGBOARD_WARNING, None, error);
        let _ = self.events.send(SupervisorEvent::Logged { server: self.name(), entry });
    }

    fn warn(&self, message: String) {
        tracing::warn!(server = %self.config.name, "{message}");
        let entry = self.published.log.push(PLUGBOARD_WARNING, None, &message);
        let _ = self.events.send(SupervisorEvent::Logged { server: self.name(), entry });
        let _ = self.events.send(SupervisorEvent::Warned { server: self.name(), message });
    }

    fn name(&self) -> String {
        self.config.name.to_string()
    }
}

async fn next_notice(notices: &mut Option<mpsc::Receiver<ServerNotice>>) -> Option<ServerNotice> {
    match notices {
        Some(receiver) => receiver.recv().await,
        None => std::future::pending().await,
    }
}

async fn wait_for(future: &mut Option<KeychainUnlocked>) {
    match future {
        Some(future) => future.await,
        None => std::future::pending().await,
    }
}

async fn sleep_until(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// What the server offers besides its tools that is pinned with them.
const EXTRAS: [PinKind; 3] = [PinKind::Prompt, PinKind::ResourceTemplate, PinKind::Instructions];

fn jitter_seed(name: &str) -> u64 {
    name.bytes().fold(u64::from(std::process::id()), |acc, b| acc.wrapping_mul(31).wrapping_add(u64::from(b)))
}

/// Why a tool list is fetched again.
#[derive(Debug, Clone, Copy)]
enum Relisting {
    /// The server said it changed.
    Changed,
    /// Its ttl ran out and someone asked for it.
    Expired,
}
