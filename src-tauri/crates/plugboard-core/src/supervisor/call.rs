//! Tool calls through the supervisor: wait for the server to be ready, check the allowlist, call with the server's
//! timeout (each progress notification restarts it, up to a hard maximum). After a transport failure it reconnects
//! and retries the call ONCE, but only when the request provably never reached the server (the write failed, the
//! connection was refused) or the server annotated the tool `readOnlyHint`/`idempotentHint`: any other call whose
//! connection broke may have run, so the caller hears exactly that (`SupervisorError::Interrupted`) and it is never
//! repeated. JSON-RPC errors and results with `isError` are never retried. A timed-out, cancelled or abandoned call
//! sends `notifications/cancelled`.
//!
//! This is the per-call hot path: a ready server costs one map lookup under the lock, one `Arc` clone, a hash
//! lookup of the tool and rmcp's own request; the waiting machinery runs only when the server is not ready, and
//! the observer machinery (observe.rs) only when a caller passes an observer.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, CancelledNotification, CancelledNotificationParam,
    ClientRequest, DEFAULT_MRTR_MAX_ROUNDS, ErrorCode, ErrorData, InputRequiredResult, InputResponses, JsonObject,
    RequestId, ServerResult,
};
use rmcp::service::{PeerRequestOptions, RoleClient};
use rmcp::{Peer, ServiceError};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot, watch};
use tokio_util::sync::CancellationToken;

use super::actor::Command;
use super::error::PageToOpen;
use super::observe::{CallObserver, Observers, Watching};
use super::tools::ToolSet;
use super::{ServerStatus, Supervisor, SupervisorError};
use crate::transport::{PersonLink, PlugboardClient};

/// How many times the server's timeout a call may run in all while progress notifications keep extending it.
/// A multiple rather than a fixed ceiling (such as 10 min) because it scales with what the person configured: a
/// 30 s default gets 5 min, a server set to 120 s for slow jobs gets 20 min, and the ceiling is never below the
/// timeout itself. A server that reports progress forever is still cut off.
pub const PROGRESS_MAX_FACTOR: u32 = 10;

/// Lets the person cancel a running call: drop or fire the sender.
pub struct CallCancel(pub oneshot::Receiver<()>);

/// A live session as calls use it: its peer, and who answers what its server asks (for a 2026-07-28 server's
/// `input_required` rounds, which reach the same person or client as a session's requests do).
#[derive(Clone)]
pub(super) struct LivePeer {
    pub peer: Peer<RoleClient>,
    pub answers: PlugboardClient,
}

/// What a call needs of one server, shared behind one `Arc` so a call clones a single pointer under the
/// supervisor's lock. Read-only views the actor updates.
pub(super) struct CallRoute {
    pub timeout: Duration,
    pub status: watch::Receiver<ServerStatus>,
    pub peer: watch::Receiver<Option<(u64, LivePeer)>>,
    pub tools: watch::Receiver<Arc<ToolSet>>,
    pub commands: mpsc::Sender<Command>,
    pub observers: Arc<Observers>,
    /// The window's person, who is shown the pages a server needs opened; `None` without one (CLI, `serve`).
    pub person: Option<PersonLink>,
}

impl CallRoute {
    /// The live session's peer if the server is ready right now (the common case: no waiting, no timer).
    pub(super) fn ready_peer(&self) -> Option<(u64, LivePeer)> {
        if matches!(*self.status.borrow(), ServerStatus::Ready { .. }) { self.peer.borrow().clone() } else { None }
    }
}

/// How a request failed, as far as retrying it goes.
pub(super) enum Failure {
    /// It provably never reached the server: sending it again cannot make it run twice.
    NotSent(String),
    /// The connection broke while it was out: the server may have run it.
    Interrupted(String),
    Final(SupervisorError),
}

impl Supervisor {
    /// Calls `tool` of `server` with `arguments`.
    pub async fn call(
        &self,
        server: &str,
        tool: &str,
        arguments: JsonObject,
        cancel: Option<CallCancel>,
    ) -> Result<CallToolResult, SupervisorError> {
        self.call_observed(server, tool, arguments, cancel, None).await
    }

    /// [`Supervisor::call`], also sending `observer` the call's progress and the server's log messages while it
    /// runs, in the order they arrive.
    pub async fn call_observed(
        &self,
        server: &str,
        tool: &str,
        arguments: JsonObject,
        mut cancel: Option<CallCancel>,
        observer: Option<CallObserver>,
    ) -> Result<CallToolResult, SupervisorError> {
        let route = self.with_handle(server, |h| Arc::clone(&h.route))?;
        let watching = observer.map(|sender| route.observers.watch(sender));
        let mut arguments = Some(arguments);
        for attempt in 0..2 {
            let (generation, peer) = match route.ready_peer() {
                Some(ready) => ready,
                None => wait_ready(server, &route).await?,
            };
            if !route.tools.borrow().is_allowed(tool) {
                // Only a refused call pays for the scan of the tool list.
                if route.tools.borrow().tools.iter().any(|t| t.name == tool && t.allowed && t.withheld.is_some()) {
                    return Err(SupervisorError::Withheld { server: server.to_owned(), tool: tool.to_owned() });
                }
                let available: Vec<String> = route.tools.borrow().allowed().map(|t| t.name.clone()).collect();
                return Err(SupervisorError::UnknownTool {
                    server: server.to_owned(),
                    tool: tool.to_owned(),
                    available: available.join(", "),
                });
            }
            // The arguments are cloned only for the one retry, never on the last attempt.
            let args = if attempt == 0 { arguments.clone() } else { arguments.take() }.unwrap_or_default();
            let failure =
                match call_once(server, &peer, tool, args, route.timeout, cancel.as_mut(), watching.as_ref()).await {
                    Ok(result) => return Ok(result),
                    Err(Failure::Final(error)) => {
                        route.offer_pages(&error);
                        return Err(error);
                    }
                    Err(failure) => failure,
                };
            let repeatable = route.tools.borrow().repeatable(tool);
            let after = lose_session(&route, generation, &failure).await;
            if attempt == 0 && (failure.not_sent() || repeatable) {
                let why =
                    if failure.not_sent() { "it never reached the server" } else { "the server marked it repeatable" };
                tracing::info!(server, tool, why, "the connection broke during a call; reconnecting and retrying once");
                // The next attempt must not take the old session's peer from a status that is still Ready.
                if route.peer.borrow().as_ref().is_some_and(|(g, _)| *g == generation) {
                    wait_for_new_session(&route, generation).await;
                }
                continue;
            }
            return Err(match failure {
                Failure::Interrupted(message) if !repeatable => {
                    tracing::warn!(server, tool, "a call was interrupted and may have run; not repeating it");
                    let message = after.unwrap_or(message);
                    SupervisorError::Interrupted { server: server.to_owned(), tool: tool.to_owned(), message }
                }
                Failure::NotSent(message) | Failure::Interrupted(message) => {
                    SupervisorError::Connection { server: server.to_owned(), message: after.unwrap_or(message) }
                }
                Failure::Final(error) => error,
            });
        }
        Err(SupervisorError::Connection { server: server.to_owned(), message: "the retry failed too".into() })
    }
}

impl Failure {
    fn not_sent(&self) -> bool {
        matches!(self, Self::NotSent(_))
    }

    /// What the caller hears of a request that is not retried.
    pub(super) fn settled(self, server: &str) -> SupervisorError {
        match self {
            Self::NotSent(message) | Self::Interrupted(message) => {
                SupervisorError::Connection { server: server.to_owned(), message }
            }
            Self::Final(error) => error,
        }
    }

    fn reason(&self) -> String {
        match self {
            Self::NotSent(reason) | Self::Interrupted(reason) => reason.clone(),
            Self::Final(error) => error.to_string(),
        }
    }
}

/// Tells the actor the session `generation` broke and waits (bounded: it may have noticed and reconnected on its own
/// already) until it saw that; returns why the server failed for good if it did (a crossed limit, a crash loop).
async fn lose_session(route: &CallRoute, generation: u64, failure: &Failure) -> Option<String> {
    let _ = route.commands.send(Command::ConnectionLost { generation, reason: failure.reason() }).await;
    let mut status = route.status.clone();
    let lost = status.wait_for(|s| !matches!(s, ServerStatus::Ready { .. }));
    let _ = tokio::time::timeout(Duration::from_secs(2), lost).await;
    match &*route.status.borrow() {
        ServerStatus::Failed { error, .. } => Some(error.clone()),
        _ => None,
    }
}

/// Waits (within the server's timeout) for the server to be ready and returns its peer; a settled non-ready state
/// is an error.
pub(super) async fn wait_ready(server: &str, route: &CallRoute) -> Result<(u64, LivePeer), SupervisorError> {
    wait_ready_on(server, route.timeout, &route.status, &route.peer).await
}

/// Waits (at most `timeout`) until the server is Ready with a live session, or settles otherwise.
async fn wait_ready_on(
    server: &str,
    timeout: Duration,
    status: &watch::Receiver<ServerStatus>,
    peer: &watch::Receiver<Option<(u64, LivePeer)>>,
) -> Result<(u64, LivePeer), SupervisorError> {
    let not_ready = |status: ServerStatus| SupervisorError::NotReady { server: server.to_owned(), status };
    let (mut status, mut peer) = (status.clone(), peer.clone());
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        let waited = tokio::time::timeout_at(deadline, status.wait_for(ServerStatus::is_settled))
            .await
            .map(|r| r.map(|s| s.clone()));
        let current = match waited {
            Ok(Ok(current)) => current,
            Ok(Err(_)) => return Err(SupervisorError::ShutDown),
            Err(_) => return Err(not_ready(status.borrow().clone())),
        };
        let live = peer.borrow_and_update().clone();
        match (current, live) {
            (ServerStatus::Ready { .. }, Some(live)) => return Ok(live),
            // A session just lost: the actor drops its peer before its status says so (it first stops what is
            // left of the process), so Ready without a peer is a moment in between. Wait for what changes next.
            (ServerStatus::Ready { .. }, None) => {
                let changed = async {
                    tokio::select! {
                        changed = status.changed() => changed,
                        changed = peer.changed() => changed,
                    }
                };
                match tokio::time::timeout_at(deadline, changed).await {
                    Ok(Ok(())) => {}
                    Ok(Err(_)) => return Err(SupervisorError::ShutDown),
                    Err(_) => return Err(not_ready(status.borrow().clone())),
                }
            }
            (current, _) => return Err(not_ready(current)),
        }
    }
}

/// Waits (bounded) until the actor has replaced or dropped the session `generation`.
async fn wait_for_new_session(route: &CallRoute, generation: u64) {
    let mut peer = route.peer.clone();
    let replaced = peer.wait_for(|p| p.as_ref().is_none_or(|(g, _)| *g != generation));
    let _ = tokio::time::timeout(Duration::from_secs(2), replaced).await;
}

async fn call_once(
    server: &str,
    live: &LivePeer,
    tool: &str,
    arguments: JsonObject,
    timeout: Duration,
    mut cancel: Option<&mut CallCancel>,
    watching: Option<&Watching>,
) -> Result<CallToolResult, Failure> {
    let mut params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
    // A 2026-07-28 server asks what it needs as an `input_required` result; the call is then sent again with the
    // answers (a new request, its own timeout), at most this many times.
    for _ in 0..DEFAULT_MRTR_MAX_ROUNDS {
        let asked =
            match send_once(server, &live.peer, params.clone(), timeout, cancel.as_deref_mut(), watching).await? {
                ServerResult::CallToolResult(result) => return Ok(result),
                // A reply without `content` decodes as another shape: an empty result is still a result.
                ServerResult::EmptyResult(_) => return Ok(CallToolResult::default()),
                ServerResult::InputRequiredResult(asked) => asked,
                _ => {
                    return Err(protocol(
                        server,
                        "the server answered tools/call with something that is not a tool result",
                    ));
                }
            };
        let (input_responses, request_state) =
            answer_round(server, &live.answers, asked, cancel.as_deref_mut()).await?;
        (params.input_responses, params.request_state) = (input_responses, request_state);
    }
    Err(Failure::Final(rounds_exceeded(server)))
}

/// A server that kept asking for input for [`DEFAULT_MRTR_MAX_ROUNDS`] rounds without an answer.
pub(super) fn rounds_exceeded(server: &str) -> SupervisorError {
    SupervisorError::Protocol {
        server: server.to_owned(),
        message: format!("the server asked for input {DEFAULT_MRTR_MAX_ROUNDS} times without answering"),
    }
}

fn protocol(server: &str, message: &str) -> Failure {
    Failure::Final(SupervisorError::Protocol { server: server.to_owned(), message: message.to_owned() })
}

/// A pause before resending a request whose server asked nothing but handed back its state (it is still working):
/// without one, the rounds would hammer it.
const STATE_ONLY_PAUSE: Duration = Duration::from_millis(100);

/// Answers one round through the session's person or client; the person's cancel of the call ends it.
pub(super) async fn answer_round(
    server: &str,
    answers: &PlugboardClient,
    asked: InputRequiredResult,
    cancel: Option<&mut CallCancel>,
) -> Result<(Option<InputResponses>, Option<String>), Failure> {
    if asked.input_requests.as_ref().is_none_or(|requests| requests.is_empty()) {
        if asked.request_state.is_none() {
            return Err(protocol(server, "the server asked for input without saying what"));
        }
        tokio::time::sleep(STATE_ONLY_PAUSE).await;
    }
    let stop = CancellationToken::new();
    let _stop_on_drop = stop.clone().drop_guard();
    let cancelled = async {
        match cancel {
            Some(CallCancel(receiver)) => {
                let _ = receiver.await;
            }
            None => std::future::pending().await,
        }
    };
    tokio::select! {
        answered = answers.answer_inputs(asked, &stop) => answered.map_err(|e| {
            Failure::Final(SupervisorError::Protocol { server: server.to_owned(), message: e.message.to_string() })
        }),
        () = cancelled => Err(Failure::Final(SupervisorError::Cancelled { server: server.to_owned() })),
    }
}

/// Sends one `tools/call` and waits for its answer, whatever its shape.
async fn send_once(
    server: &str,
    peer: &Peer<RoleClient>,
    params: CallToolRequestParams,
    timeout: Duration,
    cancel: Option<&mut CallCancel>,
    watching: Option<&Watching>,
) -> Result<ServerResult, Failure> {
    let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
    let options = PeerRequestOptions::with_timeout(timeout)
        .reset_timeout_on_progress()
        .with_max_total_timeout(timeout.saturating_mul(PROGRESS_MAX_FACTOR));
    let sent = match watching {
        None => peer.send_request_with_option(request, options).await,
        Some(watching) => {
            let registering = watching.begin();
            let sent = peer.send_request_with_option(request, options).await;
            if let Ok(handle) = &sent {
                registering.register(handle.progress_token.clone());
            }
            sent
        }
    };
    let handle = match sent {
        Ok(handle) => handle,
        // rmcp's session had already ended: the request was never handed to the transport.
        Err(error @ ServiceError::TransportClosed) => return Err(Failure::NotSent(error.to_string())),
        Err(error) => return Err(classify(server, error)),
    };
    // rmcp sends `notifications/cancelled` itself when its timeout fires; the guard covers the person's cancel and
    // a caller that drops this future.
    let mut abandoned = AbandonGuard { peer: peer.clone(), id: Some(handle.id.clone()) };
    let cancelled = async {
        match cancel {
            Some(CallCancel(receiver)) => {
                let _ = receiver.await;
            }
            None => std::future::pending().await,
        }
    };
    let outcome = tokio::select! {
        outcome = handle.await_response() => outcome,
        () = cancelled => return Err(Failure::Final(SupervisorError::Cancelled { server: server.to_owned() })),
    };
    abandoned.id = None;
    outcome.map_err(|error| classify(server, error))
}

/// Tells the server about a request nobody waits for any more (the person cancelled it, or the caller dropped the
/// call), so it can stop working on it.
struct AbandonGuard {
    peer: Peer<RoleClient>,
    id: Option<RequestId>,
}

impl Drop for AbandonGuard {
    fn drop(&mut self) {
        let Some(id) = self.id.take() else { return };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
        let peer = self.peer.clone();
        let reason = "cancelled by the person or abandoned by the caller".to_owned();
        let notification = CancelledNotification::new(CancelledNotificationParam::new(Some(id), Some(reason)));
        // Best effort: a closed session has nobody to tell.
        runtime.spawn(async move { drop(peer.send_notification(notification.into()).await) });
    }
}

pub(super) fn classify(server: &str, error: ServiceError) -> Failure {
    // A 401 the token refresh could not cure, or a 403 asking for more scope: a login, never a retry.
    if let Some(challenge) = error.auth_challenge() {
        let hint = crate::auth::demanded_scopes::hint_after(server, challenge);
        return Failure::Final(SupervisorError::AuthRequired { server: server.to_owned(), hint });
    }
    match error {
        ServiceError::TransportSend(_) if crate::transport::never_reached(&error) => {
            Failure::NotSent(error.to_string())
        }
        ServiceError::TransportClosed | ServiceError::TransportSend(_) => Failure::Interrupted(error.to_string()),
        ServiceError::McpError(data) if data.code == URL_ELICITATION_REQUIRED => {
            Failure::Final(SupervisorError::PagesToOpen { server: server.to_owned(), pages: pages_to_open(&data) })
        }
        ServiceError::McpError(data) => {
            Failure::Final(SupervisorError::Protocol { server: server.to_owned(), message: data.message.to_string() })
        }
        ServiceError::Cancelled { .. } => Failure::Final(SupervisorError::Cancelled { server: server.to_owned() }),
        ServiceError::Timeout { timeout } => {
            Failure::Final(SupervisorError::Timeout { server: server.to_owned(), after: timeout })
        }
        other => Failure::Final(SupervisorError::Protocol { server: server.to_owned(), message: other.to_string() }),
    }
}

/// The error a server answers when the person must open a page before the request can work (2025-11-25).
pub(crate) const URL_ELICITATION_REQUIRED: ErrorCode = ErrorCode(-32042);

/// The pages of a `-32042` error's `data.elicitations` (URL-mode elicitation parameters), each vetted.
fn pages_to_open(error: &ErrorData) -> Vec<PageToOpen> {
    let listed = error.data.as_ref().and_then(|d| d.get("elicitations")).and_then(Value::as_array);
    let text = |page: &Value, key: &str| page.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
    let mut pages: Vec<PageToOpen> = listed
        .into_iter()
        .flatten()
        .map(|page| PageToOpen {
            message: text(page, "message"),
            address: crate::person::vet_link(&text(page, "url")),
            elicitation_id: page.get("elicitationId").and_then(Value::as_str).map(str::to_owned),
        })
        .collect();
    if pages.is_empty() {
        // A server that names no page still said something: keep its message.
        pages.push(PageToOpen {
            message: error.message.to_string(),
            address: Err(crate::person::RefusedLink::NotAnAddress),
            elicitation_id: None,
        });
    }
    pages
}

impl CallRoute {
    /// Shows a window's person the pages a server needs opened (each a dialog of its own); without a person, the
    /// error's text lists them. The person's choice goes nowhere else: they call again once done.
    fn offer_pages(&self, error: &SupervisorError) {
        let (Some(person), SupervisorError::PagesToOpen { pages, .. }) = (&self.person, error) else { return };
        for page in pages {
            let Ok(link) = &page.address else { continue };
            let (person, message, link) = (person.clone(), page.message.clone(), link.clone());
            tokio::spawn(async move { person.offer_page(&message, link).await });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ready() -> ServerStatus {
        ServerStatus::Ready { tools: 1, protocol_version: "2025-11-25".into(), server_name: None }
    }

    /// A call that comes while a lost session is being stopped (status still Ready, its peer already dropped)
    /// waits for what follows instead of failing at once with "not ready (ready)": here the server then fails, and
    /// the call says so.
    #[tokio::test]
    async fn ready_without_a_session_is_waited_out() {
        let (status_tx, status) = watch::channel(ready());
        let (_peer_tx, peer) = watch::channel(None);
        let later = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(50)).await;
            status_tx.send_replace(ServerStatus::Reconnecting { attempt: 1, next_try_ms: 0, reason: "gone".into() });
            tokio::time::sleep(Duration::from_millis(50)).await;
            status_tx.send_replace(ServerStatus::Failed { error: "it crashed again".into(), stderr_tail: None });
            status_tx
        });
        let waited = wait_ready_on("echo", Duration::from_secs(5), &status, &peer).await;
        assert!(
            matches!(&waited, Err(SupervisorError::NotReady { status: ServerStatus::Failed { .. }, .. })),
            "{:?}",
            waited.err()
        );
        drop(later.await);
    }

    /// Still Ready without a session when the time is up: the call reports what it saw.
    #[tokio::test]
    async fn ready_without_a_session_still_times_out() {
        let (_status_tx, status) = watch::channel(ready());
        let (_peer_tx, peer) = watch::channel(None);
        let waited = wait_ready_on("echo", Duration::from_millis(50), &status, &peer).await;
        assert!(matches!(waited, Err(SupervisorError::NotReady { status: ServerStatus::Ready { .. }, .. })));
    }
}
