//! `plugboard serve --stdio`: the gateway as an MCP server on stdin/stdout, for any client to launch (see the
//! core's `gateway`). Nothing but MCP may go to stdout.

use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use plugboard_core::engine::Engine;
use plugboard_core::gateway::{GatewayOptions, serve_stdio};

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Serve MCP on stdin and stdout (how a client such as Claude Desktop or Cursor launches Plugboard).
    #[arg(long, required = true)]
    stdio: bool,
    /// How long the first tools/list waits for servers still connecting, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 5_000)]
    first_list_wait_ms: u64,
}

pub fn run(engine: Engine, args: &ServeArgs) -> anyhow::Result<()> {
    let options = GatewayOptions { first_list_wait: Duration::from_millis(args.first_list_wait_ms) };
    Ok(super::runtime()?.block_on(serve_stdio(Arc::new(engine), options))?)
}
