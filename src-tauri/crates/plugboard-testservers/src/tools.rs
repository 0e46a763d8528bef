//! The tools: well-behaved ones (echo, slow, big) and ones that fail in each way a client must tell apart (a tool
//! error, a JSON-RPC error, a crash mid-call), `progress` for a long job that reports progress, plus `add_tool` for
//! list-changed notifications.

use std::sync::Arc;
use std::time::Duration;

use rmcp::handler::server::router::tool::ToolRoute;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, ProgressNotificationParam, Tool};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, Peer, RoleServer, schemars, tool, tool_router};
use serde::Deserialize;

use crate::era::Change;
use crate::server::TestServer;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct EchoArgs {
    /// The text to send back.
    message: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SlowArgs {
    /// How long to sleep, in milliseconds.
    ms: u64,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct BigArgs {
    /// How many bytes of text to return.
    bytes: usize,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ProgressArgs {
    /// How many progress notifications to send before answering.
    steps: u32,
    /// The pause before each notification, in milliseconds.
    interval_ms: u64,
    /// Also send a log message (`notifications/message`, logger "progress") before each progress notification.
    #[serde(default)]
    log: bool,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct AddToolArgs {
    /// The new tool's name.
    name: String,
}

/// The description of `--hostile-tool`'s tool: markup that would run script if a UI rendered it as HTML, and
/// hidden characters (zero-width space, right-to-left override) that a UI must make visible.
pub const HOSTILE_DESCRIPTION: &str = "<img src=x onerror=\"document.title='pwned'\"><script>document.title='pwned'</script>\
<b>bold?</b> hidden\u{200b}space and \u{202e}reversed";

/// The `hostile` tool: its description is [`HOSTILE_DESCRIPTION`]; calling it answers "harmless".
pub fn hostile_route() -> ToolRoute<TestServer> {
    let schema = JsonObject::from_iter([("type".to_owned(), serde_json::Value::from("object"))]);
    let tool = Tool::new("hostile", HOSTILE_DESCRIPTION, Arc::new(schema));
    ToolRoute::new_dyn(tool, |_context| {
        Box::pin(async { Ok(CallToolResult::success(vec![ContentBlock::text("harmless")]).into()) })
    })
}

/// One `notifications/message` saying which step comes next (logging is deprecated in rmcp, still sent by servers
/// of 2025-11-25).
#[allow(deprecated)]
async fn log_step(peer: &Peer<RoleServer>, step: u32) -> Result<(), ErrorData> {
    use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
    let message =
        LoggingMessageNotificationParam::new(LoggingLevel::Info, format!("step {step}").into()).with_logger("progress");
    peer.notify_logging_message(message).await.map_err(|e| ErrorData::internal_error(e.to_string(), None))
}

impl TestServer {
    /// Exits with status 1 (journalled "crashing"), unless `--crash-once`'s marker says this already happened.
    fn crash_now(&self) -> String {
        if let Some(marker) = &self.crash_once {
            if marker.exists() {
                return "survived".to_owned();
            }
            // Created before exiting, so the next process (the supervisor's reconnect) answers instead.
            let _ = std::fs::write(marker, b"crashed once\n");
        }
        self.journal.record("crashing");
        std::process::exit(1);
    }
}

/// The text `big` returns: `bytes` ASCII letters in a fixed cycle, so a test can rebuild and compare it.
pub fn big_text(bytes: usize) -> String {
    (b'a'..=b'z').cycle().take(bytes).map(char::from).collect()
}

#[tool_router(vis = "pub(crate)")]
impl TestServer {
    #[tool(description = "Returns \"Echo: \" followed by the message")]
    fn echo(&self, Parameters(EchoArgs { message }): Parameters<EchoArgs>) -> String {
        format!("Echo: {message}")
    }

    #[tool(description = "Sleeps `ms` milliseconds, then answers")]
    async fn slow(&self, Parameters(SlowArgs { ms }): Parameters<SlowArgs>) -> String {
        tokio::time::sleep(Duration::from_millis(ms)).await;
        format!("slept {ms} ms")
    }

    #[tool(description = "Sends `steps` progress notifications `interval_ms` apart, then answers (a long job that \
                          reports progress)")]
    async fn progress(
        &self,
        Parameters(ProgressArgs { steps, interval_ms, log }): Parameters<ProgressArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<String, ErrorData> {
        let token = context
            .meta
            .get_progress_token()
            .ok_or_else(|| ErrorData::invalid_params("the request carries no progressToken", None))?;
        for step in 1..=steps {
            tokio::time::sleep(Duration::from_millis(interval_ms)).await;
            if log {
                log_step(&context.peer, step).await?;
            }
            let progress = ProgressNotificationParam::new(token.clone(), f64::from(step)).with_total(f64::from(steps));
            context.peer.notify_progress(progress).await.map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        }
        Ok(format!("done after {steps} steps"))
    }

    #[tool(description = "Returns `bytes` bytes of text (letters a to z, repeated)")]
    fn big(&self, Parameters(BigArgs { bytes }): Parameters<BigArgs>) -> String {
        big_text(bytes)
    }

    #[tool(description = "Always fails as a tool: the result has isError true")]
    fn fail(&self) -> CallToolResult {
        CallToolResult::error(vec![ContentBlock::text("failed on purpose")])
    }

    #[tool(description = "Always fails as a protocol: the answer is a JSON-RPC error")]
    fn jsonrpc_error(&self) -> Result<String, ErrorData> {
        Err(ErrorData::internal_error("a JSON-RPC error on purpose", None))
    }

    #[tool(description = "Exits the server with status 1 while this call is in flight")]
    fn crash(&self) -> String {
        self.crash_now()
    }

    #[tool(
        description = "Exits the server with status 1 while this call is in flight; marked read-only, so safe to repeat",
        annotations(read_only_hint = true)
    )]
    fn crash_read_only(&self) -> String {
        self.crash_now()
    }

    #[tool(
        description = "Adds a tool named `name` (it answers \"added\"), then sends notifications/tools/list_changed"
    )]
    async fn add_tool(
        &self,
        Parameters(AddToolArgs { name }): Parameters<AddToolArgs>,
        peer: Peer<RoleServer>,
    ) -> Result<String, ErrorData> {
        let schema: JsonObject = serde_json::from_value(serde_json::json!({ "type": "object" }))
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let tool = Tool::new(name.clone(), "added at run time", Arc::new(schema));
        self.add_route(ToolRoute::new_dyn(tool, |_context| {
            Box::pin(async { Ok(CallToolResult::success(vec![ContentBlock::text("added")]).into()) })
        }));
        self.announcer.announce(&peer, Change::Tools).await?;
        Ok(format!("added {name}"))
    }
}
