//! A session's line to the person: turns a server's elicitation, sampling and roots requests into requests in the
//! window's queue (`person::PersonRequests`) and the person's answers back into protocol results. It must never
//! invent an answer: a timeout, a withdrawal or a decline all reach the server as a refusal.

// Sampling and roots are deprecated by SEP-2577; servers of 2025-11-25 still ask for them.
#![allow(deprecated)]

use std::future::Future;
use std::sync::Arc;

use rmcp::model::{
    CreateMessageRequestParams, CreateMessageResult, ElicitResult, ElicitationAction, ErrorCode, ErrorData,
    ListRootsResult, Root, SamplingMessage,
};

use crate::person::{Asked, FormAction, LinkToOpen, PersonAnswer, PersonRequests, RequestKind};

/// The model name a reply written by the person carries, so the server knows no LLM wrote it.
pub const HUMAN_MODEL: &str = "human (Plugboard)";

/// Which broker a session asks, and the server name the person sees.
#[derive(Clone)]
pub struct PersonLink {
    broker: Arc<PersonRequests>,
    server: String,
}

impl std::fmt::Debug for PersonLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PersonLink").field("server", &self.server).finish_non_exhaustive()
    }
}

fn refused(message: &str) -> ErrorData {
    // -1 is the spec's "user rejected the request" code.
    ErrorData::new(ErrorCode(-1), message.to_owned(), None)
}

impl PersonLink {
    pub fn new(broker: Arc<PersonRequests>, server: impl Into<String>) -> Self {
        Self { broker, server: server.into() }
    }

    /// A form shown to the person; anything but their accept or cancel is a decline.
    pub(crate) async fn elicit(
        &self,
        message: &str,
        schema: String,
        withdrawn: impl Future<Output = ()>,
    ) -> ElicitResult {
        let kind = RequestKind::Elicitation { message: message.to_owned(), schema };
        match self.broker.ask(&self.server, kind, withdrawn).await {
            Asked::Answered(PersonAnswer::Form { action: FormAction::Accept, content: Some(content) }) => {
                ElicitResult::new(ElicitationAction::Accept).with_content(serde_json::Value::Object(content))
            }
            Asked::Answered(PersonAnswer::Form { action: FormAction::Cancel, .. }) => {
                ElicitResult::new(ElicitationAction::Cancel)
            }
            _ => ElicitResult::new(ElicitationAction::Decline),
        }
    }

    /// A page the person may open in their browser: accepted only once they chose to open it.
    pub(crate) async fn open_link(
        &self,
        message: &str,
        link: LinkToOpen,
        withdrawn: impl Future<Output = ()>,
    ) -> ElicitResult {
        let kind = RequestKind::OpenLink { message: message.to_owned(), link: Box::new(link) };
        match self.broker.ask(&self.server, kind, withdrawn).await {
            Asked::Answered(PersonAnswer::Link(FormAction::Accept)) => ElicitResult::new(ElicitationAction::Accept),
            Asked::Answered(PersonAnswer::Link(FormAction::Cancel)) => ElicitResult::new(ElicitationAction::Cancel),
            _ => ElicitResult::new(ElicitationAction::Decline),
        }
    }

    /// [`PersonLink::open_link`] for a page nobody waits on (a failed call's): one already shown is not shown again.
    pub(crate) async fn offer_page(&self, message: &str, link: LinkToOpen) {
        let kind = RequestKind::OpenLink { message: message.to_owned(), link: Box::new(link) };
        let _ = self.broker.ask_unless_waiting(&self.server, kind, std::future::pending()).await;
    }

    /// A message the person writes in place of an LLM, or a refusal.
    pub(crate) async fn sample(
        &self,
        params: &CreateMessageRequestParams,
        withdrawn: impl Future<Output = ()>,
    ) -> Result<CreateMessageResult, ErrorData> {
        match self.broker.ask(&self.server, RequestKind::sampling(params), withdrawn).await {
            Asked::Answered(PersonAnswer::Sampling(Some(reply))) => {
                Ok(CreateMessageResult::new(SamplingMessage::assistant_text(reply), HUMAN_MODEL.to_owned())
                    .with_stop_reason(CreateMessageResult::STOP_REASON_END_TURN))
            }
            Asked::TimedOut => Err(refused("nobody answered the sampling request in time")),
            _ => Err(refused("the person declined the sampling request")),
        }
    }

    /// The folders the person chose, or a refusal.
    pub(crate) async fn roots(&self, withdrawn: impl Future<Output = ()>) -> Result<ListRootsResult, ErrorData> {
        match self.broker.ask(&self.server, RequestKind::Roots, withdrawn).await {
            Asked::Answered(PersonAnswer::Roots(Some(uris))) => {
                Ok(ListRootsResult::new(uris.into_iter().map(Root::new).collect()))
            }
            Asked::TimedOut => Err(refused("nobody answered the roots request in time")),
            _ => Err(refused("the person declined to share folders")),
        }
    }
}
