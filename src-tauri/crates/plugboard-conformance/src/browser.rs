//! The browser-login scenarios through what the app runs: a servers.json entry with the `oauth` section a person
//! would write (the scenario's pre-registered client, its secret as a reference, and a client ID metadata document),
//! run as the app runs it (entry.rs), and `login_server` (what the Log in button and `plugboard login` run) with its
//! loopback listener. Where the app opens the person's browser, a stand-in visits the authorization page and follows
//! its redirect to the listener, as a browser whose person consents would. A server that needs a login, more scope or
//! a fresh login is logged in to again, as the person would, at most [`MAX_AUTHORIZATION_ATTEMPTS`] times. Nothing
//! here prints a token, code, verifier or state.

use std::sync::Arc;

use anyhow::{Context, bail};
use plugboard_core::auth::{LoginContext, MAX_AUTHORIZATION_ATTEMPTS, OpenUrl, PendingFlows, login_server};
use plugboard_core::config::model::ServerConfig;
use plugboard_core::net::pooled_http_client;
use plugboard_core::secrets::Vault;
use plugboard_core::supervisor::{ServerStatus, Supervisor, SupervisorError, SupervisorEvent};
use serde_json::json;
use url::Url;

use crate::context::ScenarioContext;
use crate::entry::{PATIENCE, Scratch, Served, report_ready, server_name};
use crate::scenario::{Grant, Scenario};

/// The client ID metadata document URL the suite's CIMD scenarios expect (a person would host their own).
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";

/// Connects to `url`, logging in as the server asks, and calls `test-tool` if the server lists it.
pub async fn run(url: &str, context: &ScenarioContext, scratch: &Scratch) -> anyhow::Result<()> {
    let mut oauth = json!({ "clientMetadataUrl": CLIENT_METADATA_URL });
    if let Some(client_id) = context.get("client_id") {
        oauth["clientId"] = client_id.into();
    }
    if let Some(secret) = context.get("client_secret") {
        oauth["clientSecret"] = scratch.keep("client-secret", secret)?.into();
    }
    let vault = scratch.vault();
    scratch
        .serve(json!({ "url": url, "oauth": oauth }), async |served| until_called(served, context, vault).await)
        .await
}

/// Logs in whenever the server needs it, until `test-tool` is called (or the server does not list it).
async fn until_called(served: &Served, context: &ScenarioContext, vault: &Arc<Vault>) -> anyhow::Result<()> {
    let mut status = served.settled().await?;
    for login in 1.. {
        let why = match &status {
            ServerStatus::NeedsLogin { hint } => format!("the server needs a login ({hint})"),
            ServerStatus::Ready { .. } => {
                report_ready(&status);
                let called = served.make_calls(Scenario::Auth(Grant::AuthorizationCode), context).await;
                match called.as_ref().map_err(|e| e.downcast_ref::<SupervisorError>()) {
                    Err(Some(SupervisorError::AuthRequired { hint, .. })) => hint.clone(),
                    _ => return called,
                }
            }
            other => bail!("the server did not come up: {other:?}"),
        };
        if login > MAX_AUTHORIZATION_ATTEMPTS {
            bail!("{why}, after {MAX_AUTHORIZATION_ATTEMPTS} logins: giving up");
        }
        println!("{why}: logging in (attempt {login})");
        log_in(&served.config, vault).await.context("logging in")?;
        status = reconnected(&served.supervisor).await?;
    }
    unreachable!("the logins end in a return or a bail")
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
