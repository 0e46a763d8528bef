//! Tool calls through the supervisor: wait for the server to be ready, check the allowlist, call with the server's
//! timeout, and after a transient transport failure reconnect and retry the interrupted call ONCE. JSON-RPC errors
//! and results with `isError` are never retried. A timed-out or cancelled call sends `notifications/cancelled`
//! (rmcp sends it when the request future is dropped).

use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject};
use rmcp::service::RoleClient;
use rmcp::{Peer, ServiceError};
use tokio::sync::{oneshot, watch};

use super::actor::Command;
use super::{ServerStatus, Supervisor, SupervisorError};

/// Lets the person cancel a running call: drop or fire the sender.
pub struct CallCancel(pub oneshot::Receiver<()>);

enum Failure {
    Transient(String),
    Final(SupervisorError),
}

impl Supervisor {
    /// Calls `tool` of `server` with `arguments`.
    pub async fn call(
        &self,
        server: &str,
        tool: &str,
        arguments: JsonObject,
        mut cancel: Option<CallCancel>,
    ) -> Result<CallToolResult, SupervisorError> {
        let (timeout, mut status, peer, tools, commands) = self.with_handle(server, |h| {
            (h.config.timeout, h.status.clone(), h.peer.clone(), h.tools.clone(), h.commands.clone())
        })?;
        for attempt in 0..2 {
            let (generation, peer) = wait_ready(server, &mut status, &peer, timeout).await?;
            let allowed = tools.borrow().allowed().any(|t| t.name == tool);
            if !allowed {
                let available: Vec<String> = tools.borrow().allowed().map(|t| t.name.clone()).collect();
                return Err(SupervisorError::UnknownTool {
                    server: server.to_owned(),
                    tool: tool.to_owned(),
                    available: available.join(", "),
                });
            }
            match call_once(server, &peer, tool, arguments.clone(), timeout, cancel.as_mut()).await {
                Ok(result) => return Ok(result),
                Err(Failure::Transient(reason)) if attempt == 0 => {
                    tracing::info!(server, tool, "the connection broke during a call; reconnecting and retrying once");
                    let _ = commands.send(Command::ConnectionLost { generation, reason }).await;
                    // Let the actor see the loss before waiting for it to be ready again (bounded: it may have
                    // noticed and reconnected on its own already).
                    let lost = status.wait_for(|s| !matches!(s, ServerStatus::Ready { .. }));
                    let _ = tokio::time::timeout(Duration::from_secs(2), lost).await;
                }
                Err(Failure::Transient(message)) => {
                    return Err(SupervisorError::Connection { server: server.to_owned(), message });
                }
                Err(Failure::Final(error)) => return Err(error),
            }
        }
        Err(SupervisorError::Connection { server: server.to_owned(), message: "the retry failed too".into() })
    }
}

/// Waits (within `timeout`) for the server to be ready and returns its peer; a settled non-ready state is an error.
async fn wait_ready(
    server: &str,
    status: &mut watch::Receiver<ServerStatus>,
    peer: &watch::Receiver<Option<(u64, Peer<RoleClient>)>>,
    timeout: Duration,
) -> Result<(u64, Peer<RoleClient>), SupervisorError> {
    let not_ready = |status: ServerStatus| SupervisorError::NotReady { server: server.to_owned(), status };
    let waited = tokio::time::timeout(timeout, status.wait_for(|s| s.is_settled())).await.map(|r| r.map(|s| s.clone()));
    let current = match waited {
        Ok(Ok(current)) => current,
        Ok(Err(_)) => return Err(SupervisorError::ShutDown),
        Err(_) => return Err(not_ready(status.borrow().clone())),
    };
    match (current, peer.borrow().clone()) {
        (ServerStatus::Ready { .. }, Some(peer)) => Ok(peer),
        (current, _) => Err(not_ready(current)),
    }
}

async fn call_once(
    server: &str,
    peer: &Peer<RoleClient>,
    tool: &str,
    arguments: JsonObject,
    timeout: Duration,
    cancel: Option<&mut CallCancel>,
) -> Result<CallToolResult, Failure> {
    let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
    let call = tokio::time::timeout(timeout, peer.call_tool(params));
    let cancelled = async {
        match cancel {
            Some(CallCancel(receiver)) => {
                let _ = receiver.await;
            }
            None => std::future::pending().await,
        }
    };
    tokio::select! {
        outcome = call => match outcome {
            Ok(Ok(result)) => Ok(result),
            Ok(Err(error)) => Err(classify(server, error)),
            Err(_) => Err(Failure::Final(SupervisorError::Timeout { server: server.to_owned(), after: timeout })),
        },
        () = cancelled => Err(Failure::Final(SupervisorError::Cancelled { server: server.to_owned() })),
    }
}

fn classify(server: &str, error: ServiceError) -> Failure {
    match error {
        ServiceError::TransportClosed | ServiceError::TransportSend(_) => Failure::Transient(error.to_string()),
        ServiceError::McpError(data) => {
            Failure::Final(SupervisorError::Protocol { server: server.to_owned(), message: data.message.to_string() })
        }
        ServiceError::Cancelled { .. } => Failure::Final(SupervisorError::Cancelled { server: server.to_owned() }),
        ServiceError::Timeout { timeout } => {
            Failure::Final(SupervisorError::Timeout { server: server.to_owned(), after: timeout })
        }
        other => Failure::Final(SupervisorError::Protocol { server: server.to_owned(), message: other.to_string() }),
    }
}
