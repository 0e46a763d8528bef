//! Prompts and resources of a 2026-07-28 server that ask for input before they answer: an `input_required` answer
//! to `prompts/get` or `resources/read` reaches the person's dialogs (or the gateway's client) through the session's
//! handler, as a tool call's rounds do (call.rs), and the request goes out again carrying the answers. Each send is
//! cut off at the server's timeout; the person's answering never is (the dialogs have their own wait limit). Never
//! retried after a broken connection, and never more than [`DEFAULT_MRTR_MAX_ROUNDS`] rounds.

use std::future::Future;
use std::sync::Arc;

use rmcp::model::{
    DEFAULT_MRTR_MAX_ROUNDS, GetPromptRequestParams, GetPromptResponse, GetPromptResult, InputRequiredResult,
    InputResponses, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
};
use rmcp::service::RoleClient;
use rmcp::{Peer, ServiceError};

use super::call::{answer_round, classify, rounds_exceeded, wait_ready};
use super::{Supervisor, SupervisorError};

/// One answer to a request that may ask for input first.
enum Answered<T> {
    Complete(T),
    InputRequired(InputRequiredResult),
}

/// A request that carries a round's answers when it is sent again.
trait Retried: Clone {
    fn carry(&mut self, responses: Option<InputResponses>, state: Option<String>);
}

impl Retried for GetPromptRequestParams {
    fn carry(&mut self, responses: Option<InputResponses>, state: Option<String>) {
        (self.input_responses, self.request_state) = (responses, state);
    }
}

impl Retried for ReadResourceRequestParams {
    fn carry(&mut self, responses: Option<InputResponses>, state: Option<String>) {
        (self.input_responses, self.request_state) = (responses, state);
    }
}

/// A prompt's answer; a kind rmcp may add later is not one Plugboard can use.
fn prompt_answer(response: GetPromptResponse) -> Result<Answered<GetPromptResult>, ServiceError> {
    match response {
        GetPromptResponse::Complete(done) => Ok(Answered::Complete(done)),
        GetPromptResponse::InputRequired(asked) => Ok(Answered::InputRequired(asked)),
        _ => Err(ServiceError::UnexpectedResponse),
    }
}

/// A resource's answer; a kind rmcp may add later is not one Plugboard can use.
fn resource_answer(response: ReadResourceResponse) -> Result<Answered<ReadResourceResult>, ServiceError> {
    match response {
        ReadResourceResponse::Complete(done) => Ok(Answered::Complete(done)),
        ReadResourceResponse::InputRequired(asked) => Ok(Answered::InputRequired(asked)),
        _ => Err(ServiceError::UnexpectedResponse),
    }
}

impl Supervisor {
    /// Gets a prompt of `server`, answering the rounds it asks for first.
    pub(super) async fn prompt_in_rounds(
        &self,
        server: &str,
        params: GetPromptRequestParams,
    ) -> Result<GetPromptResult, SupervisorError> {
        self.in_rounds(server, params, |peer, params| async move {
            peer.get_prompt_once(params).await.and_then(prompt_answer)
        })
        .await
    }

    /// Reads a resource of `server`, answering the rounds it asks for first.
    pub(super) async fn resource_in_rounds(
        &self,
        server: &str,
        params: ReadResourceRequestParams,
    ) -> Result<ReadResourceResult, SupervisorError> {
        self.in_rounds(server, params, |peer, params| async move {
            peer.read_resource_once(params).await.and_then(resource_answer)
        })
        .await
    }

    /// Sends `params` with `send` until the server answers it, each round's questions answered in between.
    async fn in_rounds<P, T, F, Fut>(&self, server: &str, mut params: P, send: F) -> Result<T, SupervisorError>
    where
        P: Retried,
        F: Fn(Peer<RoleClient>, P) -> Fut,
        Fut: Future<Output = Result<Answered<T>, ServiceError>>,
    {
        let route = self.with_handle(server, |h| Arc::clone(&h.route))?;
        let (_, live) = match route.ready_peer() {
            Some(ready) => ready,
            None => wait_ready(server, &route).await?,
        };
        for _ in 0..DEFAULT_MRTR_MAX_ROUNDS {
            let asked = match tokio::time::timeout(route.timeout, send(live.peer.clone(), params.clone())).await {
                Ok(Ok(Answered::Complete(done))) => return Ok(done),
                Ok(Ok(Answered::InputRequired(asked))) => asked,
                Ok(Err(error)) => return Err(classify(server, error).settled(server)),
                Err(_) => return Err(SupervisorError::Timeout { server: server.to_owned(), after: route.timeout }),
            };
            let (responses, state) =
                answer_round(server, &live.answers, asked, None).await.map_err(|failure| failure.settled(server))?;
            params.carry(responses, state);
        }
        Err(rounds_exceeded(server))
    }
}
