//! Tools that attack the client's limits: `endless_line` writes a message that never ends (megabytes on stdout
//! without a newline) and `flood` sends notifications as fast as the pipe takes them. Each stops when the client
//! stops reading.

use std::io::Write;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ErrorData, Peer, RoleServer, schemars, tool, tool_router};
use serde::Deserialize;

use crate::server::TestServer;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct EndlessArgs {
    /// How many MiB to write without a newline.
    mib: usize,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct FloodArgs {
    /// How many log notifications to send.
    count: u32,
}

/// `mib` MiB of `x` on stdout, no newline; false once the reader went away.
fn write_endless(mib: usize) -> bool {
    let chunk = vec![b'x'; 64 << 10];
    let mut out = std::io::stdout();
    (0..mib * 16).all(|_| out.write_all(&chunk).and_then(|()| out.flush()).is_ok())
}

#[tool_router(router = hostile_router, vis = "pub(crate)")]
impl TestServer {
    #[tool(description = "Writes `mib` MiB to stdout without a newline, then never answers")]
    async fn endless_line(&self, Parameters(EndlessArgs { mib }): Parameters<EndlessArgs>) -> String {
        // rmcp writes nothing meanwhile: this call is the only one in flight and it never answers.
        let _ = tokio::task::spawn_blocking(move || write_endless(mib)).await;
        std::future::pending().await
    }

    #[tool(description = "Sends `count` log notifications as fast as possible, then answers")]
    #[allow(deprecated, reason = "logging is deprecated by SEP-2577; servers of 2025-11-25 still send it")]
    async fn flood(
        &self,
        Parameters(FloodArgs { count }): Parameters<FloodArgs>,
        peer: Peer<RoleServer>,
    ) -> Result<String, ErrorData> {
        use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
        for n in 0..count {
            let line = LoggingMessageNotificationParam::new(LoggingLevel::Info, format!("flood {n}").into());
            peer.notify_logging_message(line).await.map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        }
        Ok(format!("sent {count}"))
    }
}
