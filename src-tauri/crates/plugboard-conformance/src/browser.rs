//! The browser-login scenarios through what the app runs: a servers.json entry with the `oauth` section a person
//! would write (the scenario's pre-registered client, its secret as a reference, and a client ID metadata document),
//! the supervisor and the live connector over the keychain, and `login_server` (what the Log in button and
//! `plugboard login` run) with its loopback listener. Where the app opens the person's browser, a stand-in visits
//! the authorization page and follows its redirect to the listener, as a browser whose person consents would. A
//! server that needs a login, more scope or a fresh login is logged in to again, as the person would, at most
//! [`MAX_AUTHORIZATION_ATTEMPTS`] times. Nothing here prints a token, code, verifier or state.

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use plugboard_core::auth::{LoginContext, MAX_AUTHORIZATION_ATTEMPTS, OpenUrl, PendingFlows, login_server};
use plugboard_core::config::model::ServerConfig;
use plugboard_core::config::raw::RawServer;
use plugboard_core::config::validate_server;
use plugboard_core::net::pooled_http_client;
use plugboard_core::secrets::{Sensitive, Vault};
use plugboard_core::supervisor::{LiveConnector, ServerStatus, Supervisor, SupervisorError, SupervisorEvent};
use plugboard_core::trust::{Approvals, Decision, LaunchDefinition};
use serde_json::json;
use url::Url;

use crate::context::ScenarioContext;
use crate::entry::server_name;

/// The client ID metadata document URL the suite's CIMD scenarios expect (a person would host their own).
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";
/// How long a connection or a login may take here.
const PATIENCE: Duration = Duration::from_secs(20);

/// Connects to `url`, logging in as the server asks, and calls `test-tool` if the server lists it.
pub async fn run(url: &str, context: &ScenarioContext) -> anyhow::Result<()> {
    // The app's own store: `make conformance` runs in the harness's Secret Service, where the keychain is real.
    let vault = Arc::new(Vault::keychain().context("the keychain (run it through `make conformance`)")?);
    let dir = std::env::temp_dir().join(format!("plugboard-conformance-{}", std::process::id()));
    let outcome = run_with(url, context, &vault, &dir).await;
    // The login and the scenario's secret leave with it.
    let _ = plugboard_core::auth::logout(&vault, server_name());
    let _ = vault.delete(server_name(), "client-secret");
    let _ = std::fs::remove_dir_all(&dir);
    outcome
}

async fn run_with(
    url: &str,
    context: &ScenarioContext,
    vault: &Arc<Vault>,
    dir: &std::path::Path,
) -> anyhow::Result<()> {
    let mut oauth = json!({ "clientMetadataUrl": CLIENT_METADATA_URL });
    if let Some(client_id) = context.get("client_id") {
        oauth["clientId"] = client_id.into();
    }
    if let Some(secret) = context.get("client_secret") {
        vault.set(server_name(), "client-secret", &Sensitive::new(secret)).context("keeping the client secret")?;
        oauth["clientSecret"] = "${secret:client-secret}".into();
    }
    println!("servers.json entry: {}", json!({ server_name(): { "url": url, "oauth": oauth } }));
    let raw: RawServer = serde_json::from_value(json!({ "url": url, "oauth": oauth }))?;
    let config = validate_server(server_name(), &raw).map_err(|e| anyhow::anyhow!("the entry is invalid: {e}"))?;

    let approvals = Approvals::at(dir.join("trust.json"));
    // The person's approval of where the entry's secret goes, as the window's dialog records it.
    approvals.record(&LaunchDefinition::of(&config), Decision::Approved).context("approving the entry")?;
    let supervisor = Supervisor::new(Arc::new(LiveConnector::new(Arc::clone(vault), approvals)));
    supervisor.reconcile(vec![config.clone()]).await;
    let outcome = until_called(&supervisor, &config, vault).await;
    supervisor.shutdown().await;
    outcome
}

/// Logs in whenever the server needs it, until `test-tool` is called (or the server does not list it).
async fn until_called(supervisor: &Supervisor, config: &ServerConfig, vault: &Arc<Vault>) -> anyhow::Result<()> {
    let mut status = supervisor.settled(server_name(), PATIENCE).await?;
    for login in 1.. {
        let why = match &status {
            ServerStatus::NeedsLogin { hint } => format!("the server needs a login ({hint})"),
            ServerStatus::Ready { protocol_version, .. } => {
                println!("ready (protocol {protocol_version})");
                match call_test_tool(supervisor).await {
                    Err(SupervisorError::AuthRequired { hint, .. }) => hint,
                    outcome => return outcome.context("test-tool"),
                }
            }
            other => bail!("the server did not come up: {other:?}"),
        };
        if login > MAX_AUTHORIZATION_ATTEMPTS {
            bail!("{why}, after {MAX_AUTHORIZATION_ATTEMPTS} logins: giving up");
        }
        println!("{why}: logging in (attempt {login})");
        log_in(config, vault).await.context("logging in")?;
        status = reconnected(supervisor).await?;
    }
    unreachable!("the logins end in a return or a bail")
}

/// Calls `test-tool` if the server lists it.
async fn call_test_tool(supervisor: &Supervisor) -> Result<(), SupervisorError> {
    if !supervisor.tools(server_name())?.iter().any(|t| t.name == "test-tool") {
        return Ok(());
    }
    let result = supervisor.call(server_name(), "test-tool", serde_json::Map::new(), None).await?;
    println!("test-tool answered: {}", serde_json::to_string(&result.content).unwrap_or_default());
    if result.is_error == Some(true) {
        return Err(SupervisorError::Protocol { server: server_name().into(), message: "an error result".into() });
    }
    Ok(())
}

/// What the Log in button runs, with the browser stand-in.
async fn log_in(config: &ServerConfig, vault: &Arc<Vault>) -> anyhow::Result<()> {
    let browser = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).timeout(PATIENCE).build()?;
    let flows = Arc::new(PendingFlows::new());
    let login = Arc::clone(&flows);
    let open: &OpenUrl<'_> = &move |page: &Url| {
        tokio::spawn(consent(browser.clone(), page.clone(), Arc::clone(&login)));
        Ok(())
    };
    let context = LoginContext { vault: Arc::clone(vault), flows, http: pooled_http_client(), open, timeout: PATIENCE };
    login_server(config, context).await?;
    Ok(())
}

/// A browser whose person consents: it loads the authorization page and goes where it redirects (the login's
/// loopback listener). When the listener refuses what the page sent back (a wrong issuer, say), the person reads
/// that in the browser and cancels the login, as they would in the app; a page that does not redirect leaves the
/// login waiting until it times out, as a person who closed the tab would.
async fn consent(browser: reqwest::Client, page: Url, login: Arc<PendingFlows>) {
    let answered = browser.get(page.clone()).send().await;
    let location = answered.ok().and_then(|response| {
        let location = response.headers().get(reqwest::header::LOCATION)?.to_str().ok()?.to_owned();
        page.join(&location).ok()
    });
    let Some(callback) = location else {
        println!("the authorization page did not redirect");
        return;
    };
    let refused = browser.get(callback).send().await.map_or(true, |reply| !reply.status().is_success());
    if refused {
        println!("the login's listener refused the authorization response: cancelling the login");
        login.cancel(server_name());
    }
}

/// Starts the server's session anew (its tokens are in the keychain now) and waits for how it ends up.
async fn reconnected(supervisor: &Supervisor) -> anyhow::Result<ServerStatus> {
    let mut events = supervisor.subscribe();
    supervisor.restart(server_name()).await?;
    tokio::time::timeout(PATIENCE, async {
        loop {
            match events.recv().await {
                Ok(SupervisorEvent::StatusChanged { server, status })
                    if server == server_name() && status.is_settled() && !matches!(status, ServerStatus::Stopped) =>
                {
                    return Ok(status);
                }
                Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(closed) => return Err(anyhow::anyhow!("the supervisor stopped: {closed}")),
            }
        }
    })
    .await
    .context("the server did not settle after the login")?
}
