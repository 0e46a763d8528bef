//! Passing a client's resource, prompt and completion requests through to a ready server, for the gateway, in
//! rmcp's own types (the gateway serves them on as they came). Each goes through the live session like the
//! detail page's looks (inspect.rs): waiting for a connecting server, cut off at its timeout, never retried; a
//! 2026-07-28 server's rounds of questions before a prompt or resource are answered on the way (rounds.rs). A
//! server that does not offer a capability is asked nothing and answers nothing. Prompts and resource templates pass
//! only as approved (pinning.rs): one new or changed since the server was approved is left out until the person
//! approves it, and the server's actor is asked to record it for review.

use rmcp::Peer;
use rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResult, Prompt, ReadResourceRequestParams,
    ReadResourceResult, Resource, ResourceTemplate, ServerCapabilities,
};
use rmcp::service::RoleClient;

use super::actor::Command;
use super::pinning::{prompt_approved, template_approved};
use super::{Supervisor, SupervisorError};

impl Supervisor {
    /// Every resource `server` lists; none when it offers no resources.
    pub async fn relay_resources(&self, server: &str) -> Result<Vec<Resource>, SupervisorError> {
        if !self.offers(server, |c| c.resources.is_some()).await? {
            return Ok(Vec::new());
        }
        self.ask(server, |peer| async move { peer.list_all_resources().await }).await
    }

    /// Every resource template `server` lists; none when it offers no resources.
    pub async fn relay_resource_templates(&self, server: &str) -> Result<Vec<ResourceTemplate>, SupervisorError> {
        if !self.offers(server, |c| c.resources.is_some()).await? {
            return Ok(Vec::new());
        }
        let templates = self.ask(server, |peer| async move { peer.list_all_resource_templates().await }).await?;
        Ok(self.approved_only(server, templates, template_approved))
    }

    /// Reads a resource of `server` (its own URI in `params`).
    pub async fn relay_read_resource(
        &self,
        server: &str,
        params: ReadResourceRequestParams,
    ) -> Result<ReadResourceResult, SupervisorError> {
        self.resource_in_rounds(server, params).await
    }

    /// Every prompt `server` offers; none when it offers no prompts.
    pub async fn relay_prompts(&self, server: &str) -> Result<Vec<Prompt>, SupervisorError> {
        if !self.offers(server, |c| c.prompts.is_some()).await? {
            return Ok(Vec::new());
        }
        let prompts = self.ask(server, |peer| async move { peer.list_all_prompts().await }).await?;
        Ok(self.approved_only(server, prompts, prompt_approved))
    }

    /// Gets a prompt of `server` (its own name in `params`).
    pub async fn relay_get_prompt(
        &self,
        server: &str,
        params: GetPromptRequestParams,
    ) -> Result<GetPromptResult, SupervisorError> {
        self.prompt_in_rounds(server, params).await
    }

    /// Completes an argument of a prompt or resource template of `server`; no suggestions when it offers none.
    pub async fn relay_complete(
        &self,
        server: &str,
        params: CompleteRequestParams,
    ) -> Result<CompleteResult, SupervisorError> {
        if !self.offers(server, |c| c.completions.is_some()).await? {
            return Ok(CompleteResult::default());
        }
        self.ask(server, |peer: Peer<RoleClient>| async move { peer.complete(params).await }).await
    }

    /// What of `offered` is approved; when something is not, the actor lists it again so it is recorded for review.
    fn approved_only<T>(
        &self,
        server: &str,
        offered: Vec<T>,
        approved: fn(&std::collections::BTreeMap<crate::trust::Subject, String>, &T) -> bool,
    ) -> Vec<T> {
        let Ok((pins, commands)) =
            self.with_handle(server, |h| (h.approved.borrow().clone(), h.route.commands.clone()))
        else {
            return Vec::new();
        };
        let Some(pins) = pins else { return offered };
        let before = offered.len();
        let kept: Vec<T> = offered.into_iter().filter(|item| approved(&pins, item)).collect();
        if kept.len() < before {
            // Best effort: a busy actor records it at its next listing anyway.
            let _ = commands.try_send(Command::RelistExtras);
        }
        kept
    }

    /// Whether the ready `server` declared what `check` looks for in its capabilities.
    async fn offers(&self, server: &str, check: impl Fn(&ServerCapabilities) -> bool) -> Result<bool, SupervisorError> {
        let (peer, _) = self.ready(server).await?;
        Ok(peer.peer_info().is_some_and(|info| check(&info.capabilities)))
    }
}
