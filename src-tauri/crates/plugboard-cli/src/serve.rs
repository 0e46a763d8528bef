//! `plugboard serve --stdio` (the gateway as an MCP server on stdin/stdout, for any client to launch) and
//! `plugboard serve --http` (the same on 127.0.0.1 behind the bearer token, until Ctrl-C or SIGTERM); see the core's
//! `gateway`. Nothing but MCP may go to stdout.

use std::io::Write;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use plugboard_core::engine::Engine;
use plugboard_core::gateway::http::{DEFAULT_PORT, HttpOptions, serve_http};
use plugboard_core::gateway::{GatewayOptions, serve_stdio};

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Serve MCP on stdin and stdout (how a client such as Claude Desktop or Cursor launches Plugboard).
    #[arg(long, conflicts_with = "http", required_unless_present = "http")]
    stdio: bool,
    /// Serve MCP as Streamable HTTP on this computer only, at http://127.0.0.1:PORT/mcp; clients need the token
    /// `plugboard gateway token` prints.
    #[arg(long)]
    http: bool,
    /// The port for --http (0 picks a free one).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_PORT, requires = "http")]
    port: u16,
    /// The loopback address for --http: 127.0.0.1 or ::1; any other address is refused.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1", requires = "http")]
    bind: IpAddr,
    /// A browser origin (scheme://host:port) allowed to call --http; repeat for more. None by default.
    #[arg(long = "allow-origin", value_name = "ORIGIN", requires = "http")]
    allowed_origins: Vec<String>,
    /// How long the first tools/list waits for servers still connecting, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 5_000)]
    first_list_wait_ms: u64,
    /// Serve only what the profile NAME of servers.json shows ("profiles"; see the README).
    #[arg(long, value_name = "NAME")]
    profile: Option<String>,
}

pub fn run(engine: Engine, args: &ServeArgs) -> anyhow::Result<()> {
    let first_list_wait = Duration::from_millis(args.first_list_wait_ms);
    let options = GatewayOptions { first_list_wait, profile: args.profile.clone() };
    let engine = Arc::new(engine);
    let runtime = super::runtimes::gateway()?;
    if args.stdio {
        return Ok(runtime.block_on(serve_stdio(engine, options))?);
    }
    let http = HttpOptions { bind: args.bind, port: args.port, allowed_origins: args.allowed_origins.clone() };
    // The URL goes to stderr: it is for the person, and stdout stays free for anything MCP-shaped.
    let listening = |endpoint: &plugboard_core::gateway::http::HttpEndpoint| {
        let _ = writeln!(
            std::io::stderr(),
            "Plugboard's gateway is serving {} (send Authorization: Bearer <the token `plugboard gateway token` \
             prints>); Ctrl-C stops it",
            endpoint.url()
        );
    };
    Ok(runtime.block_on(serve_http(engine, options, http, listening, stop_signal()))?)
}

/// Ctrl-C or SIGTERM (what a service manager sends).
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut terminate) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = terminate.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}
