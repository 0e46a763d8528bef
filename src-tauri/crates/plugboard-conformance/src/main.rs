//! The client the MCP conformance suite (`npx @modelcontextprotocol/conformance client`) runs: it is given the
//! scenario's server URL as its last argument and the scenario's name in `MCP_CONFORMANCE_SCENARIO`, connects with
//! Plugboard's pooled HTTP client and Streamable HTTP session (2026-07-28 where the server offers it, else
//! 2025-11-25), and does what the scenario
//! expects of a client. It answers elicitation by applying the form's defaults, which the app itself must never do.
//! The `auth/*` scenarios go through what the app runs: a servers.json entry, the supervisor and the live connector
//! over the keychain, and for a browser login `login_server` with its loopback listener (`browser.rs`), for the
//! grants without a browser (client credentials, workload identity, enterprise-managed cross-app access) the
//! entry's `oauth.grant` (`machine.rs`). The default log filter stays at
//! `warn`: rmcp logs the authorization code at debug level under its auth target.
#![allow(clippy::print_stdout, reason = "a command-line tool: its stdout is its report, kept by the suite")]

mod browser;
mod context;
mod entry;
mod machine;
mod scenario;

use anyhow::{Context, bail};
use plugboard_core::net::pooled_http_client;
use plugboard_core::transport::{ElicitationPolicy, RemoteOptions, RemoteSpec, connect_remote};

use context::ScenarioContext;
use scenario::{Grant, Scenario};

/// How long to let rmcp's standalone SSE stream connect before the scenario's tool call (see its use).
const STANDALONE_STREAM_GRACE: std::time::Duration = std::time::Duration::from_millis(300);

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt().with_writer(std::io::stderr).with_env_filter(env_filter()).init();
    let url = std::env::args().skip(1).last().context("usage: plugboard-conformance <server-url>")?;
    let name = std::env::var("MCP_CONFORMANCE_SCENARIO").context("MCP_CONFORMANCE_SCENARIO is not set")?;
    let scenario = Scenario::named(&name)?;
    if let Scenario::Auth(grant) = scenario {
        match grant {
            Grant::ClientCredentials | Grant::WorkloadIdentity | Grant::CrossApp => {
                machine::run(&url, grant, &ScenarioContext::from_env()?).await?;
            }
            Grant::AuthorizationCode => browser::run(&url, &ScenarioContext::from_env()?).await?,
        }
        println!("scenario {name}: done");
        return Ok(());
    }

    let options = RemoteOptions::new(pooled_http_client(), ElicitationPolicy::ApplyDefaults);
    let mut session = connect_remote(RemoteSpec::streamable(url.as_str()), options)
        .await
        .with_context(|| format!("connecting to {url}"))?
        .session;
    println!(
        "connected to {} (protocol {})",
        session.server_name().unwrap_or_else(|| "an unnamed server".into()),
        session.protocol_version().unwrap_or_default()
    );
    // Taken so the notices the scenario's server sends are printed below rather than dropped.
    let mut notices = session.take_notices();

    let tools = session.list_tools().await.context("tools/list")?;
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    println!("tools: {names:?}");

    let calls = scenario.calls(&tools, &ScenarioContext::from_env()?);
    if !calls.is_empty() {
        // rmcp opens the standalone GET stream in the background after `initialized` and gives no signal when it is
        // up. A server that sends its request (the elicitation) on that stream before it exists loses it, and the
        // call then hangs for the server's 60 s timeout; about 1 run in 12 did without this pause.
        tokio::time::sleep(STANDALONE_STREAM_GRACE).await;
    }
    for call in calls {
        if !names.contains(&call.tool.as_str()) {
            bail!("the server does not list the tool `{}` this scenario calls", call.tool);
        }
        let result =
            session.call_tool(&call.tool, call.arguments).await.with_context(|| format!("calling {}", call.tool))?;
        let text = serde_json::to_string(&result.content).unwrap_or_default();
        println!("{} answered: {text}", call.tool);
        if result.is_error == Some(true) {
            bail!("{} returned an error result", call.tool);
        }
    }

    if let Some(notices) = notices.as_mut() {
        while let Ok(notice) = notices.try_recv() {
            println!("notice: {notice:?}");
        }
    }
    session.close().await.context("closing the session")?;
    println!("scenario {name}: done");
    Ok(())
}

/// `RUST_LOG` when set, else warnings only (the suite keeps stderr as the client's log).
fn env_filter() -> tracing_subscriber::EnvFilter {
    tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"))
}
