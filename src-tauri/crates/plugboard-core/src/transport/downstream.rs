//! What a server asks of a person, relayed to the gateway's client: `plugboard serve` has no person of its own, so
//! elicitation, sampling and roots requests go to the client that launched it, when that client is connected and
//! declared the capability; otherwise they are declined with the reason in the log. Over HTTP several clients may be
//! connected: a request goes to the client whose call is in flight (the newest, when several are: a request does
//! not say which call it belongs to), else to the one that connected last. A server's word that a page was completed
//! goes to the client that was asked to open it. It must never answer for the client, and never send a request to a
//! client that did not declare it can take it.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

#[allow(deprecated)]
// Sampling and roots are deprecated by SEP-2577; servers and clients of 2025-11-25 still use them.
use rmcp::model::{
    ClientCapabilities, CreateMessageRequestParams, CreateMessageResult, CustomNotification, ElicitRequestParams,
    ElicitResult, ElicitationAction, ErrorCode, ErrorData, ListRootsResult, ServerNotification,
};
use rmcp::service::RoleServer;
use rmcp::{Peer, ServiceError};

/// The clients with a call in flight, oldest first, each under the number of its call.
type InFlight = Vec<(u64, Peer<RoleServer>)>;

/// The pages a client accepted to open, oldest first, by the server's elicitation id: where a completion goes.
type Opened = VecDeque<(String, Peer<RoleServer>)>;

/// How many accepted pages are remembered for their completion; a server that never completes must not grow this.
const MAX_OPENED: usize = 64;

/// The gateway's connected client, shared by every upstream session's handler; cheap to clone.
#[derive(Clone, Default)]
pub struct DownstreamLink {
    client: Arc<RwLock<Option<Peer<RoleServer>>>>,
    calling: Arc<Mutex<InFlight>>,
    next_call: Arc<AtomicU64>,
    opened: Arc<Mutex<Opened>>,
}

/// Marks a client's call as in flight until dropped (see [`DownstreamLink::calling`]).
pub struct CallInFlight {
    link: DownstreamLink,
    call: u64,
}

impl Drop for CallInFlight {
    fn drop(&mut self) {
        self.link.in_flight().retain(|(call, _)| *call != self.call);
    }
}

impl std::fmt::Debug for DownstreamLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DownstreamLink").field("attached", &self.peer().is_some()).finish()
    }
}

impl DownstreamLink {
    /// From now on servers' requests go to this client (the one that just initialized).
    pub fn attach(&self, client: Peer<RoleServer>) {
        *self.client.write().unwrap_or_else(PoisonError::into_inner) = Some(client);
    }

    /// `client` has a call in flight until the returned guard is dropped: what servers ask meanwhile goes to it.
    pub fn calling(&self, client: Peer<RoleServer>) -> CallInFlight {
        let call = self.next_call.fetch_add(1, Ordering::Relaxed);
        self.in_flight().push((call, client));
        CallInFlight { link: self.clone(), call }
    }

    fn in_flight(&self) -> std::sync::MutexGuard<'_, InFlight> {
        self.calling.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Who to ask: the client with the newest call in flight, else the one that connected last. Never another
    /// client because that one cannot answer: the request is part of its call.
    fn peer(&self) -> Option<Peer<RoleServer>> {
        let newest = self.in_flight().last().map(|(_, peer)| peer.clone());
        newest.or_else(|| self.client.read().unwrap_or_else(PoisonError::into_inner).clone())
    }

    /// The client to ask, if it declared what `wants` looks for.
    fn able(&self, wants: impl Fn(&ClientCapabilities) -> bool) -> Option<Peer<RoleServer>> {
        self.peer().filter(|peer| peer.peer_info().is_some_and(|info| wants(&info.capabilities)))
    }

    /// The client's answer to a server's form or URL request; a decline when it cannot be asked: a page to open goes
    /// only to a client that declared URL mode, a form to one that declared forms (`{}` is forms alone).
    pub async fn elicit(&self, request: ElicitRequestParams) -> ElicitResult {
        let url = matches!(request, ElicitRequestParams::UrlElicitationParams { .. });
        let takes = |c: &ClientCapabilities| {
            c.elicitation
                .as_ref()
                .is_some_and(|e| if url { e.url.is_some() } else { e.form.is_some() || e.url.is_none() })
        };
        let Some(client) = self.able(takes) else {
            let mode = if url { "a page to open" } else { "a form" };
            tracing::info!("declined a server's elicitation request: the gateway's client does not take {mode}");
            return ElicitResult::new(ElicitationAction::Decline);
        };
        let page = match &request {
            ElicitRequestParams::UrlElicitationParams { elicitation_id, .. } => Some(elicitation_id.clone()),
            _ => None,
        };
        match client.create_elicitation(request).await {
            Ok(answer) => {
                if let (Some(id), ElicitationAction::Accept) = (page, &answer.action) {
                    let mut opened = self.opened.lock().unwrap_or_else(PoisonError::into_inner);
                    if opened.len() == MAX_OPENED {
                        opened.pop_front();
                    }
                    opened.push_back((id, client));
                }
                answer
            }
            Err(e) => {
                tracing::warn!("declined a server's elicitation request: the gateway's client failed it: {e}");
                ElicitResult::new(ElicitationAction::Decline)
            }
        }
    }

    /// Tells the client that accepted the page `elicitation_id` that the server saw it completed
    /// (`notifications/elicitation/complete`); an id no client accepted is dropped.
    pub async fn page_completed(&self, elicitation_id: &str) {
        let client = {
            let mut opened = self.opened.lock().unwrap_or_else(PoisonError::into_inner);
            let at = opened.iter().position(|(id, _)| id == elicitation_id);
            at.and_then(|at| opened.remove(at)).map(|(_, client)| client)
        };
        let Some(client) = client else {
            tracing::info!("a server completed a page no client of the gateway accepted to open; not relayed");
            return;
        };
        let params = serde_json::json!({ "elicitationId": elicitation_id });
        let done = CustomNotification::new(super::handler::ELICITATION_COMPLETE, Some(params));
        if let Err(e) = client.send_notification(ServerNotification::CustomNotification(done)).await {
            tracing::info!("a page's completion did not reach the gateway's client: {e}");
        }
    }

    /// The client's LLM reply to a server's sampling request.
    #[allow(deprecated)]
    pub async fn sample(&self, params: CreateMessageRequestParams) -> Result<CreateMessageResult, ErrorData> {
        let Some(client) = self.able(|c| c.sampling.is_some()) else {
            // -1 is the spec's "user rejected sampling request" code.
            return Err(ErrorData::new(ErrorCode(-1), "the client connected to Plugboard does not do sampling", None));
        };
        client.create_message(params).await.map_err(relay_error)
    }

    /// The client's roots.
    #[allow(deprecated)]
    pub async fn roots(&self) -> Result<ListRootsResult, ErrorData> {
        let Some(client) = self.able(|c| c.roots.is_some()) else {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                "the client connected to Plugboard offers no roots",
                None,
            ));
        };
        client.list_roots().await.map_err(relay_error)
    }
}

/// The client's own error passes through; a broken link becomes an internal error that says so.
fn relay_error(error: ServiceError) -> ErrorData {
    match error {
        ServiceError::McpError(error) => error,
        other => ErrorData::internal_error(format!("the client connected to Plugboard did not answer: {other}"), None),
    }
}
