//! How Plugboard answers what a server sends unasked: elicitation, sampling and roots requests, and notifications
//! (tool list changes, log messages, progress) forwarded to whoever owns the session. A session with a person behind
//! it (the window) hands requests to the person (`PersonLink`); the gateway's to its client (`DownstreamLink`); one
//! without either (the CLI) declines them. It must
//! never accept an elicitation, write a sampling reply or share a folder on the person's behalf.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rmcp::ClientHandler;
#[allow(deprecated)] // Logging, sampling and roots types: see `ServerLog::from_rmcp`.
use rmcp::model::{
    ClientConfig, CreateMessageRequestParams, CreateMessageResult, CustomNotification, ElicitRequestParams,
    ElicitResult, ElicitationAction, ElicitationCapability, ErrorCode, ErrorData, FormElicitationCapability,
    InputRequest, InputRequiredResult, InputResponses, JsonObject, ListRootsResult, LoggingMessageNotificationParam,
    RootsCapabilities, UrlElicitationCapability,
};
use rmcp::service::{NotificationContext, RequestContext, RoleClient};
use serde_json::Value;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::call_tap::CallTap;
use super::client_config;
use super::downstream::DownstreamLink;
use super::limits::{LimitExceeded, MAX_NOTICE_BACKLOG, Tripwire};
use super::person_link::PersonLink;

/// What to answer when a server asks the person for input (`elicitation/create`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ElicitationPolicy {
    /// Decline every request: nobody is there to answer (the CLI, a headless session).
    #[default]
    Decline,
}

/// Who answers a session's requests for a person: a fixed policy (no person: the CLI) or the person, through the
/// window's queue.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Answerer {
    Policy(ElicitationPolicy),
    Person(PersonLink),
    /// The gateway's client answers (`plugboard serve`).
    Client(DownstreamLink),
}

impl From<ElicitationPolicy> for Answerer {
    fn from(policy: ElicitationPolicy) -> Self {
        Self::Policy(policy)
    }
}

impl Default for Answerer {
    fn default() -> Self {
        Self::Policy(ElicitationPolicy::Decline)
    }
}

/// Something a server told us outside any request of ours, in the order it arrived.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ServerNotice {
    /// `notifications/tools/list_changed`: the tool list should be fetched again.
    ToolsChanged,
    /// `notifications/resources/list_changed`: the server's resources (or templates) changed.
    ResourcesChanged,
    /// `notifications/prompts/list_changed`: the server's prompts changed.
    PromptsChanged,
    /// `notifications/message`: a log entry from the server.
    Log(ServerLog),
    /// The server asked for input and was declined; `message` is what it asked (server text: show it inert).
    ElicitationDeclined { message: String },
    /// The server asked us to sample an LLM and was refused.
    SamplingDeclined,
    /// The server asked the person to open a link Plugboard will not offer (why, in plain words); declined.
    LinkRefused { message: String, reason: String },
    /// `notifications/elicitation/complete`: the step the person took in their browser is done, says the server.
    LinkCompleted { elicitation_id: String },
}

/// The method of the notification a server sends when a URL-mode elicitation's step is done (2025-11-25).
pub(super) const ELICITATION_COMPLETE: &str = "notifications/elicitation/complete";

/// One `notifications/message` entry. All three fields are server text: show them inert.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ServerLog {
    /// The syslog level the server gave (`debug` … `emergency`).
    pub level: String,
    /// The server's name for the part of it that logged, if any.
    pub logger: Option<String>,
    /// Any JSON value: usually a string, sometimes an object.
    pub data: Value,
}

impl ServerLog {
    // rmcp marks logging deprecated (SEP-2577, the 2026-07-28 revision); servers of 2025-11-25 still send it.
    #[allow(deprecated)]
    pub(crate) fn from_rmcp(params: LoggingMessageNotificationParam) -> Self {
        let level = serde_json::to_value(params.level).ok().and_then(|v| v.as_str().map(str::to_owned));
        Self { level: level.unwrap_or_default(), logger: params.logger, data: params.data }
    }
}

/// What a server may ask Plugboard for while the session is open: rmcp calls it for every server→client message.
#[derive(Debug, Clone)]
pub struct PlugboardClient {
    info: ClientConfig,
    person: Option<PersonLink>,
    client: Option<DownstreamLink>,
    notices: mpsc::Sender<ServerNotice>,
    // Notices are queued only once someone took the receiver (`McpSession::take_notices`): a session nobody listens
    // to must not pile up a chatty server's log lines for its whole life.
    listening: Arc<AtomicBool>,
    /// The session's limits: a backlog of notices past [`MAX_NOTICE_BACKLOG`] trips it.
    wire: Tripwire,
    /// Where the transport hands a call's progress and log lines, in wire order (`call_tap.rs`).
    tap: CallTap,
}

/// The handler every Plugboard session is served with, and the receiving end of its notices (at most
/// [`MAX_NOTICE_BACKLOG`] waiting). Pass the receiver to the session (`McpSession`), which hands it out once.
pub fn client_handler(answerer: impl Into<Answerer>) -> (PlugboardClient, mpsc::Receiver<ServerNotice>) {
    client_handler_with_backlog(answerer, MAX_NOTICE_BACKLOG)
}

pub(crate) fn client_handler_with_backlog(
    answerer: impl Into<Answerer>,
    backlog: usize,
) -> (PlugboardClient, mpsc::Receiver<ServerNotice>) {
    let (notices, receiver) = mpsc::channel(backlog);
    let (person, client) = match answerer.into() {
        Answerer::Policy(ElicitationPolicy::Decline) => (None, None),
        Answerer::Person(link) => (Some(link), None),
        Answerer::Client(link) => (None, Some(link)),
    };
    // Sampling is announced only when someone can answer it (see `client_config`); roots only where the gateway's
    // client may have some to give.
    let mut info = client_config(person.is_some() || client.is_some());
    if client.is_some() {
        info.capabilities.roots = Some(RootsCapabilities::default());
    }
    // Only a person can consent to opening a link: URL mode is announced where one may be asked, the window's or
    // the gateway client's (which relays a page only to a client that declared URL mode itself).
    if person.is_some() || client.is_some() {
        info.capabilities.elicitation = Some(
            ElicitationCapability::new()
                .with_form(FormElicitationCapability::default())
                .with_url(UrlElicitationCapability::default()),
        );
    }
    let listening = Arc::new(AtomicBool::new(false));
    let handler = PlugboardClient {
        info,
        person,
        client,
        notices,
        listening,
        wire: Tripwire::default(),
        tap: CallTap::default(),
    };
    (handler, receiver)
}

/// What the person would see: declining says why, since servers often relay the text of our answer.
pub const DECLINED_SAMPLING: &str =
    "Plugboard declined the sampling request: it cannot run LLM requests for servers yet";

impl PlugboardClient {
    /// From now on notices are queued for the receiver.
    pub(crate) fn start_listening(&self) {
        self.listening.store(true, Ordering::Release);
    }

    /// The wire the session's transport is guarded by (`transport::guarded`), shared with the session.
    pub(crate) fn tripwire(&self) -> Tripwire {
        self.wire.clone()
    }

    /// Where the session's transport hands a call's progress and log lines, shared with the session.
    pub(crate) fn call_tap(&self) -> CallTap {
        self.tap.clone()
    }

    pub(super) fn notify(&self, notice: ServerNotice) {
        if !self.listening.load(Ordering::Acquire) {
            return;
        }
        match self.notices.try_send(notice) {
            // Waiting for room would park one rmcp task per notice instead: memory would grow all the same.
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.wire.trip(LimitExceeded::Backlog { backlog: self.notices.max_capacity() });
            }
            // The receiver may be gone (the session is closing): nothing to do then.
            Ok(()) | Err(mpsc::error::TrySendError::Closed(_)) => {}
        }
    }

    /// The answer to one elicitation request when nobody is there to answer it.
    pub fn answer_elicitation(&self, request: &ElicitRequestParams) -> ElicitResult {
        let message = match request {
            ElicitRequestParams::FormElicitationParams { message, .. }
            // A URL elicitation needs consent to open a link: never without a person.
            | ElicitRequestParams::UrlElicitationParams { message, .. } => message.as_str(),
            _ => "",
        };
        tracing::info!(
            chars = message.chars().count(),
            "declined a server's elicitation request: nobody is here to answer it"
        );
        self.notify(ServerNotice::ElicitationDeclined { message: message.to_owned() });
        ElicitResult::new(ElicitationAction::Decline)
    }
}

/// The answers to what a server asks, shared by the two eras: asked mid-call in a session (rmcp calls the
/// `ClientHandler` methods below), or handed back in an `input_required` round of 2026-07-28 (`answer_inputs`).
impl PlugboardClient {
    async fn elicit(&self, request: ElicitRequestParams, cancelled: impl Future<Output = ()>) -> ElicitResult {
        match (&self.person, &request) {
            (Some(person), ElicitRequestParams::FormElicitationParams { message, requested_schema, .. }) => {
                let schema = serde_json::to_string(requested_schema).unwrap_or_else(|_| "{}".to_owned());
                return person.elicit(message, schema, cancelled).await;
            }
            (Some(person), ElicitRequestParams::UrlElicitationParams { message, url, .. }) => {
                return match crate::person::vet_link(url) {
                    Ok(link) => person.open_link(message, link, cancelled).await,
                    Err(refused) => {
                        tracing::info!(%refused, "declined a server's link: it is not offered to the person");
                        self.notify(ServerNotice::LinkRefused {
                            message: message.clone(),
                            reason: refused.to_string(),
                        });
                        ElicitResult::new(ElicitationAction::Decline)
                    }
                };
            }
            _ => {}
        }
        if let Some(client) = &self.client {
            return client.elicit(request).await;
        }
        self.answer_elicitation(&request)
    }

    #[allow(deprecated)] // Sampling is deprecated by SEP-2577; servers of 2025-11-25 may still ask.
    async fn sample(
        &self,
        params: CreateMessageRequestParams,
        cancelled: impl Future<Output = ()>,
    ) -> Result<CreateMessageResult, ErrorData> {
        if let Some(person) = &self.person {
            return person.sample(&params, cancelled).await;
        }
        if let Some(client) = &self.client {
            return client.sample(params).await;
        }
        tracing::info!("declined a server's sampling request");
        self.notify(ServerNotice::SamplingDeclined);
        // -1 is the spec's "user rejected sampling request" code.
        Err(ErrorData::new(ErrorCode(-1), DECLINED_SAMPLING, None))
    }

    #[allow(deprecated)] // Roots are deprecated by SEP-2577; servers of 2025-11-25 may still ask.
    async fn roots(&self, cancelled: impl Future<Output = ()>) -> Result<ListRootsResult, ErrorData> {
        if let Some(client) = &self.client {
            return client.roots().await;
        }
        match &self.person {
            Some(person) => person.roots(cancelled).await,
            // Roots are not announced without a person: a server asking anyway gets no folders.
            None => Err(ErrorData::new(ErrorCode::METHOD_NOT_FOUND, "roots are not offered by this client", None)),
        }
    }

    /// Answers one `input_required` round of a 2026-07-28 server the way the same questions are answered when a
    /// server of the earlier era asks them mid-call (the person's dialogs, the gateway's client, or a decline), one
    /// after another; returns what the retry carries: the answers by key, and the server's state unchanged.
    pub async fn answer_inputs(
        &self,
        asked: InputRequiredResult,
        stop: &CancellationToken,
    ) -> Result<(Option<InputResponses>, Option<String>), ErrorData> {
        let mut answers = InputResponses::new();
        for (key, request) in asked.input_requests.unwrap_or_default() {
            let answer = match request {
                InputRequest::Elicitation(request) => {
                    serde_json::to_value(self.elicit(request.params, stop.cancelled()).await)
                }
                InputRequest::CreateMessage(request) => {
                    serde_json::to_value(self.sample(request.params, stop.cancelled()).await?)
                }
                InputRequest::ListRoots(_) => serde_json::to_value(self.roots(stop.cancelled()).await?),
                _ => {
                    return Err(ErrorData::invalid_request(
                        format!("input request {key:?} is of a kind Plugboard does not know"),
                        None,
                    ));
                }
            };
            answers.insert(key, answer.map_err(|e| ErrorData::internal_error(e.to_string(), None))?);
        }
        Ok(((!answers.is_empty()).then_some(answers), asked.request_state))
    }
}

impl ClientHandler for PlugboardClient {
    fn get_info(&self) -> ClientConfig {
        self.info.clone()
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        // rmcp cancels the token when the server cancels the request or the session ends.
        Ok(self.elicit(request, context.ct.cancelled()).await)
    }

    #[allow(deprecated)] // Sampling is deprecated by SEP-2577 too; servers of 2025-11-25 may still ask.
    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        self.sample(params, context.ct.cancelled()).await
    }

    #[allow(deprecated)] // Roots are deprecated by SEP-2577 too; servers of 2025-11-25 may still ask.
    async fn list_roots(&self, context: RequestContext<RoleClient>) -> Result<ListRootsResult, ErrorData> {
        self.roots(context.ct.cancelled()).await
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.notify(ServerNotice::ToolsChanged);
    }

    async fn on_resource_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.notify(ServerNotice::ResourcesChanged);
    }

    async fn on_prompt_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.notify(ServerNotice::PromptsChanged);
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        _context: NotificationContext<RoleClient>,
    ) {
        // rmcp models no type for it: the 2026-07-28 revision dropped it, servers of 2025-11-25 still send it.
        if notification.method != ELICITATION_COMPLETE {
            return;
        }
        let id = notification.params.as_ref().and_then(|p| p.get("elicitationId")).and_then(Value::as_str);
        let id = id.unwrap_or_default().to_owned();
        if let Some(client) = self.client.clone() {
            // Its own task: every session's handler future would otherwise carry the relay's state.
            let id = id.clone();
            tokio::spawn(async move { client.page_completed(&id).await });
        }
        self.notify(ServerNotice::LinkCompleted { elicitation_id: id });
    }

    #[allow(deprecated)] // See `ServerLog::from_rmcp`.
    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.notify(ServerNotice::Log(ServerLog::from_rmcp(params)));
    }
}

/// The content a form has before anyone edits it, every field at its `default` (SEP-1034; the conformance client's
/// stand-in for the person accepts it so): each `properties.*.default` copied as is; a property without one is left
/// out; an object property contributes its own defaults, if it has any.
pub fn schema_defaults(schema: &Value) -> JsonObject {
    let mut content = JsonObject::new();
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return content;
    };
    for (name, property) in properties {
        if let Some(default) = property.get("default") {
            content.insert(name.clone(), default.clone());
        } else if property.get("properties").is_some() {
            let nested = schema_defaults(property);
            if !nested.is_empty() {
                content.insert(name.clone(), Value::Object(nested));
            }
        }
    }
    content
}

#[cfg(test)]
#[path = "handler_tests.rs"]
mod tests;
