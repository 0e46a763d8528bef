//! Tools that ask the client's person something through the client: a form (elicitation), a reply (sampling) and
//! folders (roots). Each echoes what came back, so a test can see exactly what the client answered. In a 2026-07-28
//! session the form is asked in rounds (`ask_person_in_rounds`).

// Sampling and roots are deprecated by SEP-2577; clients of 2025-11-25 still answer them.
#![allow(deprecated)]

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientResult, ContentBlock, CreateMessageRequestParams,
    CustomNotification, ElicitRequest, ElicitRequestParams, ElicitResult, ElicitationAction, InputRequest,
    InputRequests, InputRequiredResult, InputResponses, SamplingMessage, ServerNotification, ServerRequest,
};
use rmcp::service::{PeerRequestOptions, ServiceError};
use rmcp::{ErrorData, Peer, RoleServer, schemars, tool, tool_router};
use serde::Deserialize;

use crate::server::TestServer;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct AskArgs {
    /// The question shown above the form.
    message: String,
    /// Give up (rmcp then sends `notifications/cancelled` for the request) after this many milliseconds.
    give_up_after_ms: Option<u64>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct LinkArgs {
    /// The page the person is asked to open (sent as is, even when it is not a valid or safe address).
    url: String,
    /// Send `notifications/elicitation/complete` for the request once the person accepted.
    #[serde(default)]
    complete_after_accept: bool,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SampleArgs {
    /// The user message the server asks a model (here: the person) to answer.
    prompt: String,
}

fn failed(e: impl std::fmt::Display) -> ErrorData {
    ErrorData::internal_error(e.to_string(), None)
}

/// `ask_person`'s form: a name (required) and an age.
fn form_params(message: &str) -> Result<ElicitRequestParams, ErrorData> {
    serde_json::from_value(serde_json::json!({
        "mode": "form",
        "message": message,
        "requestedSchema": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "title": "Name"},
                "age": {"type": "integer", "title": "Age"}
            },
            "required": ["name"]
        }
    }))
    .map_err(failed)
}

/// What `ask_person` answers for the person's answer.
fn spoken(answer: &ElicitResult) -> Result<String, ErrorData> {
    Ok(match &answer.action {
        ElicitationAction::Accept => format!("accept {}", serde_json::to_string(&answer.content).map_err(failed)?),
        ElicitationAction::Decline => "decline".to_owned(),
        ElicitationAction::Cancel => "cancel".to_owned(),
        other => format!("{other:?}"),
    })
}

/// `ask_person` in a 2026-07-28 session, which has no requests from server to client: the form goes back as an
/// `input_required` result, and the client's retry of the call carries the person's answer.
pub(crate) fn ask_person_in_rounds(request: &CallToolRequestParams) -> Result<CallToolResponse, ErrorData> {
    let arguments = request.arguments.clone().unwrap_or_default();
    let message = arguments.get("message").and_then(serde_json::Value::as_str).unwrap_or_default();
    Ok(match form_in_rounds(request.input_responses.as_ref(), message)? {
        Ok(answer) => CallToolResponse::Complete(CallToolResult::success(vec![ContentBlock::text(answer)])),
        Err(round) => CallToolResponse::InputRequired(round),
    })
}

/// The person's answer to the form as a retry carries it, or (`Err`) the round that asks for it.
fn form_in_rounds(
    responses: Option<&InputResponses>,
    message: &str,
) -> Result<Result<String, InputRequiredResult>, ErrorData> {
    let Some(answer) = responses.and_then(|responses| responses.get("form")) else {
        let form = InputRequest::Elicitation(ElicitRequest::new(form_params(message)?));
        let requests = InputRequests::from([("form".to_owned(), form)]);
        return Ok(Err(InputRequiredResult::from_input_requests(requests)));
    };
    let answer: ElicitResult = serde_json::from_value(answer.clone()).map_err(failed)?;
    spoken(&answer).map(Ok)
}

/// The prompt that asks the person the form before it is filled in.
pub(crate) const INTERVIEW_PROMPT: &str = "interview";
/// The resource that asks the person the form before it is read.
pub(crate) const INTERVIEW_RESOURCE: &str = "ask://person";

/// What the person answered the form, asked mid-request in a session of the earlier era, or in rounds in a
/// 2026-07-28 one (`Err` is then the round to answer with); for the prompt and the resource that interview.
pub(crate) async fn interview(
    peer: &Peer<RoleServer>,
    responses: Option<&InputResponses>,
    message: &str,
) -> Result<Result<String, InputRequiredResult>, ErrorData> {
    if peer.peer_info().is_none() {
        return form_in_rounds(responses, message);
    }
    let request = ServerRequest::ElicitRequest(ElicitRequest::new(form_params(message)?));
    match peer.send_request(request).await.map_err(failed)? {
        ClientResult::ElicitResult(answer) => spoken(&answer).map(Ok),
        other => Err(failed(format!("unexpected answer {other:?}"))),
    }
}

#[tool_router(router = person_router, vis = "pub(crate)")]
impl TestServer {
    #[tool(description = "Asks the person for a name (string) and an age (integer) with a form, then answers \
                          \"accept {content}\", \"decline\" or \"cancel\" (or \"gave up\" after `give_up_after_ms`)")]
    async fn ask_person(
        &self,
        Parameters(AskArgs { message, give_up_after_ms }): Parameters<AskArgs>,
        peer: Peer<RoleServer>,
    ) -> Result<String, ErrorData> {
        let params = form_params(&message)?;
        let options = match give_up_after_ms {
            Some(ms) => PeerRequestOptions::with_timeout(std::time::Duration::from_millis(ms)),
            None => PeerRequestOptions::no_options(),
        };
        let request = ServerRequest::ElicitRequest(ElicitRequest::new(params));
        let handle = peer.send_request_with_option(request, options).await.map_err(failed)?;
        let answer = match handle.await_response().await {
            Ok(ClientResult::ElicitResult(answer)) => answer,
            Ok(other) => return Err(failed(format!("unexpected answer {other:?}"))),
            Err(ServiceError::Timeout { .. }) => return Ok("gave up".to_owned()),
            Err(e) => return Err(failed(e)),
        };
        spoken(&answer)
    }

    #[tool(description = "Asks the person to open `url` (elicitation, URL mode) whatever the client announced, then \
                          answers \"accept\", \"decline\" or \"cancel\"")]
    async fn open_link(
        &self,
        Parameters(LinkArgs { url, complete_after_accept }): Parameters<LinkArgs>,
        peer: Peer<RoleServer>,
    ) -> Result<String, ErrorData> {
        let elicitation_id = format!("link-{}", std::process::id());
        let params: ElicitRequestParams = serde_json::from_value(serde_json::json!({
            "mode": "url",
            "message": "Connect your account on the provider's page.",
            "url": url,
            "elicitationId": elicitation_id,
        }))
        .map_err(failed)?;
        let answer = match peer.send_request(ServerRequest::ElicitRequest(ElicitRequest::new(params))).await {
            Ok(ClientResult::ElicitResult(answer)) => answer,
            Ok(other) => return Err(failed(format!("unexpected answer {other:?}"))),
            Err(e) => return Err(failed(e)),
        };
        if answer.action == ElicitationAction::Accept && complete_after_accept {
            let done = CustomNotification::new(
                "notifications/elicitation/complete",
                Some(serde_json::json!({ "elicitationId": elicitation_id })),
            );
            peer.send_notification(ServerNotification::CustomNotification(done)).await.map_err(failed)?;
        }
        Ok(match answer.action {
            ElicitationAction::Accept => "accept".to_owned(),
            ElicitationAction::Decline => "decline".to_owned(),
            ElicitationAction::Cancel => "cancel".to_owned(),
            other => format!("{other:?}"),
        })
    }

    #[tool(description = "Fails with -32042 (URL elicitation required): the person must open `url` first")]
    async fn needs_page(&self, Parameters(LinkArgs { url, .. }): Parameters<LinkArgs>) -> Result<String, ErrorData> {
        let data = serde_json::json!({ "elicitations": [{
            "mode": "url",
            "message": "Authorize access to your files first.",
            "url": url,
            "elicitationId": format!("page-{}", std::process::id()),
        }]});
        Err(ErrorData::new(rmcp::model::ErrorCode(-32042), "This request requires more information.", Some(data)))
    }

    #[tool(description = "Asks the client to sample a reply to `prompt` (with a system prompt), then answers \
                          \"{role} {model}: {text}\"")]
    async fn sample(
        &self,
        Parameters(SampleArgs { prompt }): Parameters<SampleArgs>,
        peer: Peer<RoleServer>,
    ) -> Result<String, ErrorData> {
        let params = CreateMessageRequestParams::new(vec![SamplingMessage::user_text(prompt)], 100)
            .with_system_prompt("Answer briefly.");
        let result = peer.create_message(params).await.map_err(failed)?;
        let text: Vec<String> = result
            .message
            .content
            .into_vec()
            .into_iter()
            .filter_map(|block| block.as_text().map(|t| t.text.clone()))
            .collect();
        let role = serde_json::to_value(result.message.role).map_err(failed)?;
        Ok(format!("{} {}: {}", role.as_str().unwrap_or_default(), result.model, text.join("")))
    }

    #[tool(description = "Asks the client for its roots, then answers their URIs, one a line")]
    async fn list_roots(&self, peer: Peer<RoleServer>) -> Result<String, ErrorData> {
        let roots = peer.list_roots().await.map_err(failed)?;
        Ok(roots.roots.into_iter().map(|root| root.uri).collect::<Vec<_>>().join("\n"))
    }
}
