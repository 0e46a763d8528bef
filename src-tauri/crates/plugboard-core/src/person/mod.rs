//! Requests from servers that only a person can answer (a form, a message an LLM would write, the folders to work
//! in): the broker a window-backed session hands them to, and the window answers through. It must never answer on
//! the person's behalf, and a process without a person (CLI, `serve`) never has one, so those keep declining.

mod answer;
mod link;
mod request;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use rmcp::model::JsonObject;
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, oneshot};

pub use answer::{check_form, roots_as_uris};
pub use link::{LinkToOpen, MAX_LINK_CHARS, RefusedLink, vet as vet_link};
pub use request::{PendingRequest, RequestKind, SamplingLine};

/// How long a request waits for the person before it is declined.
pub const WAIT_LIMIT: Duration = Duration::from_secs(10 * 60);

/// How the person answered a form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum FormAction {
    /// Sent the filled form.
    Accept,
    /// Said no.
    Decline,
    /// Dismissed it without choosing.
    Cancel,
}

/// The person's answer, checked, as the handler turns it into the server's result.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum PersonAnswer {
    Form {
        action: FormAction,
        content: Option<JsonObject>,
    },
    /// The reply the person wrote; `None` declines.
    Sampling(Option<String>),
    /// The folders as `file://` URIs; `None` declines.
    Roots(Option<Vec<String>>),
    /// A link to open: `Accept` once the browser was asked to open it.
    Link(FormAction),
}

/// How a wait for the person ended.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Asked {
    Answered(PersonAnswer),
    /// Nobody answered within the wait limit.
    TimedOut,
    /// The server cancelled the request or its session closed.
    Withdrawn,
}

/// Why a request left the queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum WithdrawReason {
    Answered,
    TimedOut,
    /// The server cancelled it, or its session closed.
    Cancelled,
}

/// What the window learns about the queue, in order.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum PersonEvent {
    Arrived(PendingRequest),
    Withdrawn { id: u32, reason: WithdrawReason },
}

/// Why an answer was not taken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PersonError {
    /// The request is gone: answered, timed out or withdrawn by the server.
    #[error("the request {id} is no longer waiting for an answer")]
    NotFound { id: u32 },
    /// The answer does not fit the request (a wrong type in a form, a relative folder…): the dialog shows why.
    #[error("{message}")]
    InvalidAnswer { message: String },
}

struct Waiting {
    request: PendingRequest,
    answer: oneshot::Sender<PersonAnswer>,
}

/// A request just queued: its id and where its answer arrives.
struct Queued {
    id: u32,
    answered: oneshot::Receiver<PersonAnswer>,
}

/// The queue of requests waiting for the person. One per window process, shared by every session.
pub struct PersonRequests {
    waiting: Mutex<BTreeMap<u32, Waiting>>,
    next: AtomicU32,
    events: broadcast::Sender<PersonEvent>,
    wait_limit: Duration,
}

impl Default for PersonRequests {
    fn default() -> Self {
        Self::new(WAIT_LIMIT)
    }
}

impl PersonRequests {
    /// A broker whose requests are declined after `wait_limit` without an answer.
    pub fn new(wait_limit: Duration) -> Self {
        Self { waiting: Mutex::default(), next: AtomicU32::new(1), events: broadcast::channel(64).0, wait_limit }
    }

    /// Arrivals and withdrawals from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<PersonEvent> {
        self.events.subscribe()
    }

    /// Every request waiting now, oldest first (for a window opened after they arrived).
    pub fn pending(&self) -> Vec<PendingRequest> {
        self.lock().values().map(|w| w.request.clone()).collect()
    }

    /// Queues `kind` from `server` and waits for the answer, the wait limit, or `withdrawn` (the server's cancel or
    /// the session's end), whichever comes first; the request leaves the queue in every case.
    pub async fn ask(&self, server: &str, kind: RequestKind, withdrawn: impl Future<Output = ()>) -> Asked {
        let queued = self.queue(&mut self.lock(), server, kind);
        self.wait(queued, withdrawn).await
    }

    /// [`PersonRequests::ask`], unless `server` already waits for the person with exactly `kind` (a page asked for
    /// again by a retried call): then `None` at once. The look and the queueing hold one lock, so requests racing
    /// from two calls queue one.
    pub async fn ask_unless_waiting(
        &self,
        server: &str,
        kind: RequestKind,
        withdrawn: impl Future<Output = ()>,
    ) -> Option<Asked> {
        let queued = {
            let mut waiting = self.lock();
            if waiting.values().any(|w| w.request.server == server && w.request.ask == kind) {
                return None;
            }
            self.queue(&mut waiting, server, kind)
        };
        Some(self.wait(queued, withdrawn).await)
    }

    /// Puts a request into the (locked) queue and tells the window.
    fn queue(&self, waiting: &mut BTreeMap<u32, Waiting>, server: &str, kind: RequestKind) -> Queued {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let (answer, answered) = oneshot::channel();
        let request = PendingRequest { id, server: server.to_owned(), ask: kind };
        waiting.insert(id, Waiting { request: request.clone(), answer });
        let _ = self.events.send(PersonEvent::Arrived(request));
        Queued { id, answered }
    }

    async fn wait(&self, Queued { id, answered }: Queued, withdrawn: impl Future<Output = ()>) -> Asked {
        // Dropped on every path, also when the handler's future is dropped mid-wait.
        let mut leave = Leave { broker: self, id, reason: WithdrawReason::Cancelled };
        tokio::select! {
            answer = answered => match answer {
                Ok(answer) => {
                    leave.reason = WithdrawReason::Answered;
                    Asked::Answered(answer)
                }
                Err(_) => Asked::Withdrawn,
            },
            () = tokio::time::sleep(self.wait_limit) => {
                leave.reason = WithdrawReason::TimedOut;
                Asked::TimedOut
            }
            () = withdrawn => Asked::Withdrawn,
        }
    }

    /// Answers a form: `content` (JSON text) is required to accept and checked against the requested schema.
    pub fn answer_elicitation(&self, id: u32, action: FormAction, content: Option<&str>) -> Result<(), PersonError> {
        self.answer(id, |kind| {
            let RequestKind::Elicitation { schema, .. } = kind else { return Err(wrong_kind("a form")) };
            let content = match (action, content) {
                (FormAction::Accept, Some(content)) => Some(check_form(schema, content)?),
                (FormAction::Accept, None) => return Err(invalid("accepting a form needs its content".to_owned())),
                _ => None,
            };
            Ok(PersonAnswer::Form { action, content })
        })
    }

    /// Answers a sampling request with the person's own reply, or declines it (`None`).
    pub fn answer_sampling(&self, id: u32, reply: Option<String>) -> Result<(), PersonError> {
        self.answer(id, |kind| {
            if !matches!(kind, RequestKind::Sampling { .. }) {
                return Err(wrong_kind("a message request"));
            }
            if reply.as_deref().is_some_and(|text| text.trim().is_empty()) {
                return Err(invalid("write a reply, or decline".to_owned()));
            }
            Ok(PersonAnswer::Sampling(reply))
        })
    }

    /// Answers a roots request with absolute folders, or declines it (`None`).
    pub fn answer_roots(&self, id: u32, folders: Option<&[String]>) -> Result<(), PersonError> {
        self.answer(id, |kind| {
            if !matches!(kind, RequestKind::Roots) {
                return Err(wrong_kind("a folders request"));
            }
            let uris = folders.map(roots_as_uris).transpose()?;
            Ok(PersonAnswer::Roots(uris))
        })
    }

    /// The address of a waiting link request, for the window to open once the person consented (and before it answers).
    pub fn link_to_open(&self, id: u32) -> Result<url::Url, PersonError> {
        match self.lock().get(&id).map(|w| &w.request.ask) {
            Some(RequestKind::OpenLink { link, .. }) => Ok(link.url.clone()),
            Some(_) => Err(wrong_kind("a link to open")),
            None => Err(PersonError::NotFound { id }),
        }
    }

    /// Answers a link request: `Accept` says the page was opened (the window opens it first), or declines or cancels.
    pub fn answer_link(&self, id: u32, action: FormAction) -> Result<(), PersonError> {
        self.answer(id, |kind| match kind {
            RequestKind::OpenLink { .. } => Ok(PersonAnswer::Link(action)),
            _ => Err(wrong_kind("a link to open")),
        })
    }

    /// Checks the answer against the request while it stays queued (a wrong answer leaves it waiting), then sends it.
    fn answer(
        &self,
        id: u32,
        check: impl FnOnce(&RequestKind) -> Result<PersonAnswer, PersonError>,
    ) -> Result<(), PersonError> {
        let mut waiting = self.lock();
        let request = waiting.get(&id).ok_or(PersonError::NotFound { id })?;
        let answer = check(&request.request.ask)?;
        let request = waiting.remove(&id).ok_or(PersonError::NotFound { id })?;
        // The asker may be gone at this very moment (withdrawn): the answer then has nowhere to go.
        request.answer.send(answer).map_err(|_| PersonError::NotFound { id })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u32, Waiting>> {
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

fn invalid(message: String) -> PersonError {
    PersonError::InvalidAnswer { message }
}

fn wrong_kind(expected: &str) -> PersonError {
    PersonError::InvalidAnswer { message: format!("this request is not {expected}") }
}

/// Takes a request out of the queue and tells the window, however the wait ended.
struct Leave<'a> {
    broker: &'a PersonRequests,
    id: u32,
    reason: WithdrawReason,
}

impl Drop for Leave<'_> {
    fn drop(&mut self) {
        self.broker.lock().remove(&self.id);
        let _ = self.broker.events.send(PersonEvent::Withdrawn { id: self.id, reason: self.reason });
    }
}
