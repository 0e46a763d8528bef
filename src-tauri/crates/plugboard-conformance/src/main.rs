//! The client the MCP conformance suite (`npx @modelcontextprotocol/conformance client`) runs: it is given the
//! scenario's server URL as its last argument and the scenario's name in `MCP_CONFORMANCE_SCENARIO`, and does what
//! the scenario expects of a client through what the app runs, never a path of its own: every scenario's server is a
//! servers.json entry, validated, approved and connected by the supervisor and the live connector over the keychain
//! (entry.rs; 2026-07-28 where the server offers it, else 2025-11-25), and its calls go through the supervisor,
//! multi-round-trip rounds included. What a server asks a person reaches the window's queue, where a stand-in for
//! the person answers (person.rs). A basic scenario's entry is just the URL; an `auth/*` one's has the `oauth`
//! section, with `login_server` and its loopback listener for a browser login (`browser.rs`), the entry's
//! `oauth.grant` for the grants without a browser (`machine.rs`). The default log filter stays at `warn`: rmcp logs
//! the authorization code at debug level under its auth target.
#![allow(clippy::print_stdout, reason = "a command-line tool: its stdout is its report, kept by the suite")]

mod browser;
mod context;
mod entry;
mod machine;
mod person;
mod scenario;

use anyhow::Context;
use serde_json::json;

use context::ScenarioContext;
use entry::Scratch;
use scenario::{Grant, Scenario};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt().with_writer(std::io::stderr).with_env_filter(env_filter()).init();
    let url = std::env::args().skip(1).last().context("usage: plugboard-conformance <server-url>")?;
    let name = std::env::var("MCP_CONFORMANCE_SCENARIO").context("MCP_CONFORMANCE_SCENARIO is not set")?;
    let scenario = Scenario::named(&name)?;
    let context = ScenarioContext::from_env()?;
    // Dropped last: what the scenario kept in the keychain and the approvals' folder leaves with it.
    let scratch = Scratch::open()?;
    match scenario {
        Scenario::Auth(Grant::AuthorizationCode) => browser::run(&url, &context, &scratch).await?,
        Scenario::Auth(grant) => machine::run(&url, grant, &context, &scratch).await?,
        basic => scratch.run(json!({ "url": url }), basic, &context).await?,
    }
    println!("scenario {name}: done");
    Ok(())
}

/// `RUST_LOG` when set, else warnings only (the suite keeps stderr as the client's log).
fn env_filter() -> tracing_subscriber::EnvFilter {
    tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"))
}
