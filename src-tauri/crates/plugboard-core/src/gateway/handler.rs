//! One client's session with the gateway: `initialize`, the curated `tools/list` (the first one waits, bounded,
//! for servers still connecting), `tools/call` routed through the console (so it is in the history) with progress
//! passed to the client and the client's cancel passed upstream, and `list_changed` whenever the catalog changes.
//! A profile in search mode lists its three search tools instead (search_tools.rs); its `call_tool` runs here.

use std::sync::Arc;
use std::time::Duration;

#[allow(deprecated)] // `SetLevelRequestParams`: see logs.rs.
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult, GetPromptRequestParams,
    GetPromptResponse, Implementation, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ProgressToken, ReadResourceRequestParams,
    ReadResourceResponse, RequestParamsMeta, ServerCapabilities, ServerConfig, SetLevelRequestParams,
    SubscriptionFilter,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler};
use tokio::sync::{OnceCell, mpsc, oneshot};

use super::logs::LogFloor;
use super::publish::CatalogFeed;
use super::relay::Relay;
use super::search::ToolSearch;
use super::search_tools::{self, SearchCall};
use super::upstream_failure::{failed_call, pages_required};
use crate::config::ProfileMode;
use crate::engine::Engine;
use crate::supervisor::{CallCancel, CallEvent, SupervisorError};

/// How the gateway behaves towards its clients.
#[derive(Debug, Clone)]
pub struct GatewayOptions {
    /// How long the first `tools/list` waits for servers still connecting, so a client that ignores
    /// `list_changed` still sees their tools.
    pub first_list_wait: Duration,
    /// The profile of servers.json the client sees (`None`: everything curated).
    pub profile: Option<String>,
}

impl Default for GatewayOptions {
    fn default() -> Self {
        Self { first_list_wait: Duration::from_secs(5), profile: None }
    }
}

/// The gateway as an rmcp server handler; cheap to clone (one per client session).
#[derive(Clone)]
pub struct Gateway {
    engine: Arc<Engine>,
    catalog: CatalogFeed,
    options: GatewayOptions,
    /// What the first list's wait found: why each `required` server that did not come up is not ready.
    first_wait: Arc<OnceCell<Vec<String>>>,
    relay: Relay,
    logs: LogFloor,
    search: Arc<ToolSearch>,
}

impl Gateway {
    /// A gateway over `engine`'s servers, offering what `catalog` publishes (see `publish_catalog`).
    pub fn new(engine: Arc<Engine>, catalog: CatalogFeed, options: GatewayOptions) -> Self {
        let relay = Relay::new(Arc::clone(&engine), catalog.clone());
        let (first_wait, logs, search) = (Arc::default(), LogFloor::default(), Arc::default());
        Self { engine, catalog, options, first_wait, relay, logs, search }
    }

    /// Waits once, bounded, for every server to settle; afterwards a `required` server that is not ready is an
    /// error naming it (the person said nothing may run without it).
    async fn servers_settled(&self) -> Result<(), ErrorData> {
        let missing = self
            .first_wait
            .get_or_init(|| async {
                let supervisor = self.engine.supervisor();
                supervisor.settle_all(self.options.first_list_wait).await;
                // Published now, not when the supervisor's events reach the feed: the list below must see them.
                self.catalog.refresh();
                let failures = supervisor.required_failures().into_iter();
                failures.map(|(server, status)| SupervisorError::NotReady { server, status }.to_string()).collect()
            })
            .await;
        if missing.is_empty() {
            return Ok(());
        }
        Err(ErrorData::internal_error(
            format!("a server marked required is not ready, so Plugboard offers no tools: {}", missing.join("; ")),
            None,
        ))
    }
}

impl ServerHandler for Gateway {
    #[allow(deprecated)] // `enable_logging`: see logs.rs.
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_resources()
            .enable_resources_list_changed()
            .enable_prompts()
            .enable_prompts_list_changed()
            .enable_completions()
            .enable_logging()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("plugboard", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Plugboard's gateway: the tools of every MCP server the person connected and curated in Plugboard, \
                 named mcp__<server>__<tool>.",
            )
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        // Servers' requests for a person go to this client from now on (when it declared it takes them).
        if let Some(downstream) = self.engine.downstream() {
            downstream.attach(context.peer.clone());
        }
        super::list_changes::relay_upstream_list_changes(self.engine.supervisor(), &self.catalog, context.peer.clone());
        let mut catalog = self.catalog.subscribe();
        let mut seen = Arc::clone(&catalog.borrow_and_update());
        let peer = context.peer;
        // Ends when the catalog's publisher does or the client is gone (a notification cannot be sent).
        tokio::spawn(async move {
            while catalog.changed().await.is_ok() {
                let now = Arc::clone(&catalog.borrow_and_update());
                let mut sent = Ok(());
                if now.tools_differ(&seen) {
                    sent = sent.and(peer.notify_tool_list_changed().await);
                }
                // A server that came or went brings or takes its resources and prompts.
                if now.servers_differ(&seen) {
                    sent = sent.and(peer.notify_resource_list_changed().await);
                    sent = sent.and(peer.notify_prompt_list_changed().await);
                }
                if sent.is_err() {
                    break;
                }
                seen = now;
            }
        });
    }

    fn accepted_subscription_filter(&self, _requested: &SubscriptionFilter) -> Option<SubscriptionFilter> {
        Some(super::subscriptions::accepted())
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        super::subscriptions::follow(context, self.catalog.clone(), self.engine.supervisor()).await
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.servers_settled().await?;
        // A client lists when it starts and when told of a change: the moment to honour the servers' ttls.
        let supervisor = self.engine.supervisor();
        supervisor.refresh_stale_tools(None, crate::supervisor::STALE_LIST_WAIT).await;
        self.catalog.refresh();
        Ok(ListToolsResult::with_all_items(self.catalog.current().listed()))
    }

    #[allow(deprecated)] // See logs.rs.
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.logs.set(request.level);
        Ok(())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.servers_settled().await?;
        Ok(ListResourcesResult::with_all_items(self.relay.resources().await))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        self.servers_settled().await?;
        Ok(ListResourceTemplatesResult::with_all_items(self.relay.resource_templates().await))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        Ok(self.relay.read_resource(request).await?.into())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        self.servers_settled().await?;
        Ok(ListPromptsResult::with_all_items(self.relay.prompts().await))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        Ok(self.relay.get_prompt(request).await?.into())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        self.relay.complete(request).await
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let progress_token = request.progress_token().or_else(|| context.meta.get_progress_token());
        let (name, arguments) = match self.catalog.current().mode() {
            ProfileMode::Direct => (request.name.to_string(), request.arguments.unwrap_or_default()),
            ProfileMode::Search => {
                // A search is the client's first look at the tools, as a list is: servers still connecting count.
                self.servers_settled().await?;
                match search_tools::answer(&self.search, &self.catalog.current(), request)? {
                    SearchCall::Answered(result) => return Ok(result.into()),
                    SearchCall::Run { name, arguments } => (name, arguments),
                }
            }
        };
        let mut route = self.catalog.current().route(&name).cloned();
        if route.is_none() {
            // A client may call a tool it knows before listing: wait for servers still connecting, as a list does.
            self.servers_settled().await?;
            route = self.catalog.current().route(&name).cloned();
        }
        let Some(route) = route else {
            return Err(ErrorData::invalid_params(
                format!("Plugboard offers no tool named {name:?}; list the tools again"),
                None,
            ));
        };
        let console = self.engine.console().map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let (events, mut received) = mpsc::unbounded_channel::<CallEvent>();
        // Dropping `cancel` would cancel the call: it lives until the call is over, or fires on the client's cancel.
        let (cancel, cancelled) = oneshot::channel();
        let mut cancel = Some(cancel);
        // The history says which client made the call, by the name it gave in `initialize`.
        let origin = context.peer.peer_info().map(|info| info.client_info.name.clone());
        let cancel_on = Some(CallCancel(cancelled));
        // What servers ask of a person during the call goes to this client (over HTTP others may be connected).
        let _asking = self.engine.downstream().map(|link| link.calling(context.peer.clone()));
        // The client gets the result without waiting for the history row (written just after; flushed at shutdown).
        let run = console.run_recorded_after(&route.server, &route.tool, arguments, cancel_on, Some(events), origin);
        tokio::pin!(run);
        let updates = Updates { peer: &context.peer, logs: &self.logs, progress_token: progress_token.as_ref() };
        let ran = loop {
            tokio::select! {
                biased;
                Some(event) = received.recv() => updates.send(event).await,
                () = context.ct.cancelled(), if cancel.is_some() => {
                    if let Some(cancel) = cancel.take() {
                        let _ = cancel.send(());
                    }
                }
                ran = &mut run => break ran,
            }
        };
        // Every update goes out before the result (a progress notification after the response is an error to the
        // client): the supervisor hands a call's notices over in wire order and closes the channel as the call ends,
        // so this drains what is left and stops (bounded, in case a sender were ever kept alive).
        let rest = async {
            while let Some(event) = received.recv().await {
                updates.send(event).await;
            }
        };
        let _ = tokio::time::timeout(REST_OF_THE_UPDATES, rest).await;
        let info = context.peer.peer_info();
        let client = info.as_ref().map(|info| &info.capabilities);
        match ran {
            Ok(Ok(result)) => Ok(result.into()),
            Ok(Err(error)) => match pages_required(client, &error) {
                Some(pages) => Err(pages),
                None => Ok(failed_call(&route.server, &route.tool, &error).into()),
            },
            Err(error) => Err(ErrorData::internal_error(format!("Plugboard could not run the call: {error}"), None)),
        }
    }
}

/// The longest a result waits for the call's remaining updates once the call is over (they are already queued).
const REST_OF_THE_UPDATES: std::time::Duration = std::time::Duration::from_millis(250);

/// Passes a call's progress and log lines to the client that made it; a client that went away misses them (the
/// call's result still settles the request).
struct Updates<'a> {
    peer: &'a Peer<RoleServer>,
    logs: &'a LogFloor,
    progress_token: Option<&'a ProgressToken>,
}

impl Updates<'_> {
    async fn send(&self, event: CallEvent) {
        match (event, self.progress_token) {
            (CallEvent::Progress { progress, total, message }, Some(token)) => {
                let mut update = ProgressNotificationParam::new(token.clone(), progress);
                update.total = total;
                update.message = message;
                let _ = self.peer.notify_progress(update).await;
            }
            (CallEvent::Log { level, logger, message }, _) => {
                if let Some(line) = self.logs.notification(&level, logger, message) {
                    #[allow(deprecated)] // See logs.rs.
                    let _ = self.peer.notify_logging_message(line).await;
                }
            }
            _ => {}
        }
    }
}
