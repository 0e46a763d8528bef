//! The test server's MCP face: its tool router (which can grow at run time for `--list-changed`, as can its
//! resources and prompts), the capabilities it announces, and the one `call_tool` that journals every call and, for
//! `--hang`, never answers (nor, for `--hang-tools-list`, does `tools/list`); and the prompt `interview` and the
//! resource `ask://person`, which ask the person a form before they answer.

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, DiscoverResult, GetPromptRequestParams, GetPromptResponse,
    GetPromptResult, Implementation, InitializeRequestParams, InitializeResult, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams, PromptMessage,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, ResourceContents, Role,
    ServerCapabilities, ServerConfig, SubscriptionFilter,
};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler, tool_handler};

use crate::era::{Announcer, accepted};
use crate::extras::Extras;
use crate::journal::Journal;
use crate::lists::Lists;
use crate::options::Options;
use crate::person::{INTERVIEW_PROMPT, INTERVIEW_RESOURCE, interview};

/// One server process's state; cheap to clone (rmcp clones handlers).
#[derive(Clone)]
pub struct TestServer {
    router: Arc<Mutex<ToolRouter<Self>>>,
    pub(crate) journal: Arc<Journal>,
    pub(crate) crash_once: Option<PathBuf>,
    hang: bool,
    hang_tools_list: bool,
    /// `--list-changed`: resources and prompts too, announced as changing.
    pub(crate) lists: Option<Lists>,
    /// `--extras-description-file`: instructions, a prompt and a resource template.
    extras: Option<Extras>,
    /// `--era`: what the server answers to each opening, and how it announces list changes.
    pub(crate) announcer: Announcer,
    /// `--openings`: each `server/discover` and `initialize` asked for.
    openings: Arc<Journal>,
    /// `--listings`: each `tools/list` answered.
    listings: Arc<Journal>,
    /// `--tools-ttl-ms`: how long the tool list says it stays fresh.
    tools_ttl_ms: Option<u64>,
}

impl TestServer {
    pub fn new(options: &Options) -> Self {
        let mut router = Self::tool_router() + Self::person_router() + Self::hostile_router();
        if options.list_changed {
            router += Self::lists_router();
        }
        if !options.crash_mid_call {
            router.remove_route("crash");
            router.remove_route("crash_read_only");
        }
        if !options.endless_line {
            router.remove_route("endless_line");
        }
        if !options.flood_notifications {
            router.remove_route("flood");
        }
        if !options.list_changed {
            router.remove_route("add_tool");
        }
        if options.hostile_tool {
            router.add_route(crate::tools::hostile_route());
        }
        // A missing file keeps the built-in description: the test server must start whatever the test did.
        if let Some(text) = options.echo_description_file.as_ref().and_then(|f| std::fs::read_to_string(f).ok())
            && let Some(echo) = router.map.get_mut("echo")
        {
            echo.attr.description = Some(text.into());
        }
        Self {
            router: Arc::new(Mutex::new(router)),
            journal: Arc::new(Journal::new(options.journal.clone())),
            crash_once: options.crash_once.clone(),
            hang: options.hang,
            announcer: Announcer::new(options.era, options.legacy_version.as_deref()),
            openings: Arc::new(Journal::new(options.openings.clone())),
            listings: Arc::new(Journal::new(options.listings.clone())),
            tools_ttl_ms: options.tools_ttl_ms,
            hang_tools_list: options.hang_tools_list,
            lists: options.list_changed.then(Lists::default),
            extras: Extras::read(options.extras_description_file.as_deref()),
        }
    }

    /// A snapshot of the routes (routes are shared, so this is cheap); the lock is never held across an await.
    fn router(&self) -> ToolRouter<Self> {
        self.router.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    pub(crate) fn add_route(&self, route: ToolRoute<Self>) {
        self.router.lock().unwrap_or_else(PoisonError::into_inner).add_route(route);
    }
}

#[tool_handler(router = self.router())]
impl ServerHandler for TestServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = if self.lists.is_some() || self.extras.is_some() {
            ServerCapabilities::builder()
                .enable_prompts()
                .enable_prompts_list_changed()
                .enable_resources()
                .enable_resources_list_changed()
                .enable_tools()
                .enable_tool_list_changed()
                .build()
        } else {
            ServerCapabilities::builder().enable_tools().enable_tool_list_changed().build()
        };
        let config = ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("plugboard-testserver", env!("CARGO_PKG_VERSION")));
        match &self.extras {
            Some(extras) => config.with_instructions(extras.instructions()),
            None => config,
        }
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        self.openings.record("initialize");
        let negotiated = self.negotiate_initialize(&request);
        self.announcer.answer_initialize(&request, &context, negotiated)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Owned(self.announcer.supported_versions())
    }

    async fn discover(&self, _context: RequestContext<RoleServer>) -> Result<DiscoverResult, ErrorData> {
        self.openings.record("discover");
        match self.announcer.discover_refused() {
            Some(refused) => Err(refused),
            None => Ok(DiscoverResult::from_server_info(self.announcer.supported_versions(), self.get_info())),
        }
    }

    fn accepted_subscription_filter(&self, requested: &SubscriptionFilter) -> Option<SubscriptionFilter> {
        Some(accepted(requested))
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        self.announcer.follow(context).await
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        if self.hang_tools_list {
            std::future::pending::<()>().await;
        }
        self.listings.record("tools/list");
        let listed = ListToolsResult::with_all_items(self.router().list_all());
        Ok(match self.tools_ttl_ms {
            Some(ttl_ms) => listed.with_ttl_ms(ttl_ms).with_cache_scope(CacheScope::Private),
            None => listed,
        })
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(self.lists.as_ref().map(Lists::resources).unwrap_or_default()))
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let mut prompts = self.lists.as_ref().map(Lists::prompts).unwrap_or_default();
        prompts.extend(self.extras.as_ref().map(Extras::prompt));
        Ok(ListPromptsResult::with_all_items(prompts))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(self.extras.iter().map(Extras::template).collect()))
    }

    /// Only the prompt `interview`, which asks the person first.
    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        self.journal.record(&format!("prompt {}", request.name));
        if request.name != INTERVIEW_PROMPT {
            return Err(ErrorData::invalid_params(format!("no prompt {:?}", request.name), None));
        }
        Ok(match interview(&context.peer, request.input_responses.as_ref(), "Who is the prompt for?").await? {
            Ok(answer) => {
                GetPromptResponse::Complete(GetPromptResult::new(vec![PromptMessage::new_text(Role::User, answer)]))
            }
            Err(round) => GetPromptResponse::InputRequired(round),
        })
    }

    /// Only the resource `ask://person`, which asks the person first.
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.journal.record(&format!("read {}", request.uri));
        if request.uri != INTERVIEW_RESOURCE {
            return Err(ErrorData::resource_not_found(format!("no resource {:?}", request.uri), None));
        }
        Ok(match interview(&context.peer, request.input_responses.as_ref(), "Who reads this?").await? {
            Ok(answer) => ReadResourceResponse::Complete(ReadResourceResult::new(vec![ResourceContents::text(
                answer,
                INTERVIEW_RESOURCE,
            )])),
            Err(round) => ReadResourceResponse::InputRequired(round),
        })
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.to_string();
        self.journal.record(&format!("call {name}"));
        // A 2026-07-28 session (it opened without `initialize`) cannot be asked anything mid-call.
        if name == "ask_person" && context.peer.peer_info().is_none() {
            return crate::person::ask_person_in_rounds(&request);
        }
        // rmcp cancels this token when `notifications/cancelled` names the request; the handler keeps running,
        // so the journal can show the tests that the cancellation arrived.
        let cancelled = context.ct.clone();
        let answer = async {
            if self.hang {
                std::future::pending().await
            } else {
                self.router().call(ToolCallContext::new(self, request, context)).await
            }
        };
        tokio::select! {
            answer = answer => answer,
            () = cancelled.cancelled() => {
                self.journal.record(&format!("cancelled {name}"));
                Err(ErrorData::internal_error("the call was cancelled", None))
            }
        }
    }
}
