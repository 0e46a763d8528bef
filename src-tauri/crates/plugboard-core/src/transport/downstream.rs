//! What a server asks of a person, relayed to the gateway's client: `plugboard serve` has no person of its own, so
//! elicitation, sampling and roots requests go to the client that launched it, when that client is connected and
//! declared the capability; otherwise they are declined with the reason in the log. It must never answer for the
//! client, and never send a request to a client that did not declare it can take it.

use std::sync::{Arc, PoisonError, RwLock};

#[allow(deprecated)]
// Sampling and roots are deprecated by SEP-2577; servers and clients of 2025-11-25 still use them.
use rmcp::model::{
    ClientCapabilities, CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult,
    ElicitationAction, ErrorCode, ErrorData, ListRootsResult,
};
use rmcp::service::RoleServer;
use rmcp::{Peer, ServiceError};

/// The gateway's connected client, shared by every upstream session's handler; cheap to clone.
#[derive(Clone, Default)]
pub struct DownstreamLink {
    client: Arc<RwLock<Option<Peer<RoleServer>>>>,
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

    fn peer(&self) -> Option<Peer<RoleServer>> {
        self.client.read().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// The client, if it is connected and declared what `wants` looks for.
    fn able(&self, wants: impl Fn(&ClientCapabilities) -> bool) -> Option<Peer<RoleServer>> {
        self.peer().filter(|peer| peer.peer_info().is_some_and(|info| wants(&info.capabilities)))
    }

    /// The client's answer to a server's form (or URL) request; a decline when it cannot be asked.
    pub async fn elicit(&self, request: ElicitRequestParams) -> ElicitResult {
        let Some(client) = self.able(|c| c.elicitation.is_some()) else {
            tracing::info!("declined a server's elicitation request: the gateway's client does not take them");
            return ElicitResult::new(ElicitationAction::Decline);
        };
        match client.create_elicitation(request).await {
            Ok(answer) => answer,
            Err(e) => {
                tracing::warn!("declined a server's elicitation request: the gateway's client failed it: {e}");
                ElicitResult::new(ElicitationAction::Decline)
            }
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
