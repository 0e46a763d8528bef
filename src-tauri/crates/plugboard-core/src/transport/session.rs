//! An initialised MCP client session over any transport, with the calls the engine needs. For a stdio server it
//! also owns the process (guard and stderr tail), so the process can never outlive the session: it must never
//! hand the process out, and dropping it always stops the whole process group.

use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject, Tool};
use rmcp::service::{Peer, RoleClient, RunningService};
use tokio::sync::mpsc;

use super::TransportError;
use super::call_tap::CallTap;
use super::era::Era;
use super::handler::{PlugboardClient, ServerNotice};
use super::limits::LimitExceeded;
use super::list_changes::ListChanges;
use super::stdio::{Launched, ShutdownReport, StdioProcess};

/// A live session with one MCP server; dropping it closes the connection (and stops a stdio server's group).
pub struct McpSession {
    // Field order matters: the service drops (cancelling the connection) before the process guard stops the group.
    service: RunningService<RoleClient, PlugboardClient>,
    process: Option<StdioProcess>,
    notices: Option<mpsc::Receiver<ServerNotice>>,
    /// A 2026-07-28 session's `subscriptions/listen` stream, open while someone takes the notices.
    changes: Option<ListChanges>,
}

impl McpSession {
    /// `notices` is the receiver `client_handler` returned with the handler `service` was served with.
    pub(crate) fn new(
        service: RunningService<RoleClient, PlugboardClient>,
        notices: mpsc::Receiver<ServerNotice>,
    ) -> Self {
        Self { service, process: None, notices: Some(notices), changes: None }
    }

    pub(crate) fn with_process(
        service: RunningService<RoleClient, PlugboardClient>,
        notices: mpsc::Receiver<ServerNotice>,
        process: StdioProcess,
    ) -> Self {
        Self { service, process: Some(process), notices: Some(notices), changes: None }
    }

    /// The session, also owning `process` (an HTTP server Plugboard runs in a container): it stops with the
    /// session, and the session is closed when it exits.
    pub(crate) fn owning(mut self, process: StdioProcess) -> Self {
        self.process = Some(process);
        self
    }

    /// What the server says unasked (tool list changes, logs, progress, declined requests), from now on; `None`
    /// after the first call. Until it is taken, notices are dropped rather than queued.
    pub fn take_notices(&mut self) -> Option<mpsc::Receiver<ServerNotice>> {
        let notices = self.notices.take()?;
        self.service.service().start_listening();
        if self.era() == Some(Era::Modern) {
            self.changes = ListChanges::follow(self.peer(), self.service.service().clone());
        }
        Some(notices)
    }

    /// The server's name and version as it announced them in `initialize`.
    pub fn server_name(&self) -> Option<String> {
        let info = self.service.peer_info()?;
        let server = info.server_info.as_ref()?;
        Some(format!("{} {}", server.name, server.version))
    }

    /// The protocol version agreed: the server's answer to `initialize`, or the one chosen from `server/discover`'s list.
    pub fn protocol_version(&self) -> Option<String> {
        Some(self.service.peer_info()?.protocol_version.to_string())
    }

    /// The era of the agreed version: stateless 2026-07-28, or a session opened by `initialize`.
    pub fn era(&self) -> Option<Era> {
        Some(Era::of_version(self.service.peer_info()?.protocol_version.as_str()))
    }

    /// Who answers what this session's server asks (a 2026-07-28 server's `input_required` rounds go through it).
    pub fn answers(&self) -> PlugboardClient {
        self.service.service().clone()
    }

    /// A handle for sending requests concurrently with the owner of the session.
    pub fn peer(&self) -> Peer<RoleClient> {
        self.service.peer().clone()
    }

    /// Whether the connection is over: closed, the transport gone, a limit crossed, or (stdio) the server process
    /// exited, which a grandchild still holding its stdout would otherwise hide.
    pub fn is_closed(&self) -> bool {
        self.service.is_closed()
            || self.service.peer().is_transport_closed()
            || self.limit_exceeded().is_some()
            || self.process.as_ref().is_some_and(StdioProcess::leader_exited)
    }

    /// The limit the server crossed, which ended this session (`transport::limits`); `None` while it kept to them.
    pub fn limit_exceeded(&self) -> Option<LimitExceeded> {
        self.service.service().tripwire().cause().cloned()
    }

    /// Where this session's transport hands a call's progress and log lines (attach the calls' watcher before any
    /// call is made).
    pub fn call_tap(&self) -> CallTap {
        self.service.service().call_tap()
    }

    /// The last lines the server wrote to stderr (stdio only), to show when it fails.
    pub fn stderr_tail(&self) -> Option<String> {
        self.process.as_ref().map(|p| p.stderr().snapshot()).filter(|tail| !tail.is_empty())
    }

    /// How the stdio server was launched (resolved binary, pid, containment).
    pub fn launched(&self) -> Option<&Launched> {
        self.process.as_ref().map(StdioProcess::launched)
    }

    /// The process group id while the session owns it (stdio on Unix).
    #[cfg(test)]
    pub(crate) fn pgid(&self) -> Option<i32> {
        self.process.as_ref().and_then(StdioProcess::pgid)
    }

    /// Every tool, following pagination to the end.
    pub async fn list_tools(&self) -> Result<Vec<Tool>, TransportError> {
        Ok(self.list_tools_with_ttl().await?.0)
    }

    /// Every tool, with how long the server says the list stays fresh (2026-07-28's `ttlMs`, what is left of the
    /// shortest page's); `None` when a page gave none.
    pub async fn list_tools_with_ttl(&self) -> Result<(Vec<Tool>, Option<Duration>), TransportError> {
        let merged = self.service.list_all_tools_with_cache_hint().await?;
        Ok((merged.items, merged.ttl_ms.map(Duration::from_millis)))
    }

    /// Calls one tool with JSON object arguments.
    pub async fn call_tool(&self, name: &str, arguments: JsonObject) -> Result<CallToolResult, TransportError> {
        let params = CallToolRequestParams::new(name.to_owned()).with_arguments(arguments);
        Ok(self.service.call_tool(params).await?)
    }

    /// Ends the session: closes the connection (for stdio: closes stdin), then stops the server's process group in
    /// stages (wait, SIGTERM, wait, SIGKILL) and removes its Docker container.
    pub async fn close(self) -> Result<(), TransportError> {
        self.close_with_report().await.0
    }

    /// `close`, also saying how the process ended (`None` for remote servers).
    pub(crate) async fn close_with_report(self) -> (Result<(), TransportError>, Option<ShutdownReport>) {
        let Self { service, process, notices: _, changes } = self;
        drop(changes);
        let closed = service.cancel().await.map(|_| ()).map_err(|e| TransportError::Request(e.to_string()));
        let report = match &process {
            Some(process) => Some(process.shutdown().await),
            None => None,
        };
        (closed, report)
    }
}
