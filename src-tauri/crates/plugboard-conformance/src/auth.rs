//! The browser-login scenarios: connect without credentials, and when the server challenges (at the handshake or at
//! the first request) log in through `plugboard_core::auth` with the authorization code grant, reconnect with the tokens, and
//! run the scenario's requests under step-up; a 401 after that is a lost login, and logs in once more as the person
//! would. The user agent follows the authorization redirect itself, where the
//! app would open a browser. Nothing here prints a token, code, verifier or state.

use anyhow::{Context, bail};
use futures::future::BoxFuture;
use plugboard_core::auth::{AuthorizedCallError, LoginError, LoginRequest, StepUp, UserAgent, login};
use plugboard_core::net::pooled_http_client;
use plugboard_core::secrets::Sensitive;
use plugboard_core::transport::{
    ElicitationPolicy, McpSession, RemoteOptions, RemoteSpec, TransportError, connect_remote,
};
use rmcp::model::{CallToolRequestParams, Tool};
use rmcp::transport::auth::{AuthorizationManager, InMemoryCredentialStore, InMemoryStateStore, WWWAuthenticateParams};
use url::Url;

use crate::context::ScenarioContext;
use crate::scenario::Scenario;

/// Where the authorization server is told to send the browser back; the user agent never goes there.
const REDIRECT_URI: &str = "http://127.0.0.1:8976/callback";
/// The client ID metadata document URL the suite's CIMD scenarios expect (the app would use its own).
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";

/// Runs auth scenario `scenario` against `url`.
pub async fn run(url: &str, scenario: Scenario) -> anyhow::Result<()> {
    let context = ScenarioContext::from_env()?;
    let agent = FollowRedirect::new()?;
    let policy = ElicitationPolicy::ApplyDefaults;

    let unauthorized = RemoteOptions::new(pooled_http_client(), policy);
    let challenge = match connect_remote(RemoteSpec::streamable(url), unauthorized).await {
        Err(TransportError::AuthRequired { challenge }) => challenge.context("a 401 without WWW-Authenticate")?,
        Err(e) => return Err(e.into()),
        Ok(remote) => match remote.session.peer().list_all_tools().await {
            Ok(tools) => {
                println!("connected without credentials; tools: {:?}", names(&tools));
                return finish(remote.session, None, &agent, scenario, &tools).await;
            }
            Err(e) => {
                let challenge = e.auth_challenge().map(str::to_owned).with_context(|| format!("tools/list: {e}"))?;
                remote.session.close().await.ok();
                challenge
            }
        },
    };
    let mut challenge = challenge;
    for login in 1..=2 {
        println!("challenged: logging in");
        let manager = log_in(url, &context, challenge, &agent).await.context("logging in")?;
        match logged_in(url, manager, &agent, scenario, policy).await {
            // The app shows "needs login" and the person logs in again, through discovery, which finds the
            // authorization server the resource names now (SEP-2352: a new one is registered with afresh).
            Err(Lost::Login(again)) if login == 1 => {
                println!("the server no longer accepts the login (401): logging in again");
                challenge = again;
            }
            Err(Lost::Login(_)) => bail!("the server refused a fresh login as well"),
            Err(Lost::Other(e)) => return Err(e),
            Ok(()) => return Ok(()),
        }
    }
    unreachable!("the second login's outcome returns")
}

/// Why a logged-in run stopped.
enum Lost {
    /// A request was answered 401 with this challenge: the login no longer holds.
    Login(String),
    Other(anyhow::Error),
}

impl<E: Into<anyhow::Error>> From<E> for Lost {
    fn from(error: E) -> Self {
        Self::Other(error.into())
    }
}

/// Connects with `manager`'s tokens, lists the tools and makes the scenario's call, under step-up.
async fn logged_in(
    url: &str,
    manager: AuthorizationManager,
    agent: &FollowRedirect,
    scenario: Scenario,
    policy: ElicitationPolicy,
) -> Result<(), Lost> {
    let authorized = RemoteOptions::new(pooled_http_client(), policy).with_login(Box::pin(async { Ok(manager) }));
    let remote = connect_remote(RemoteSpec::streamable(url), authorized).await.context("connecting with the token")?;
    let (session, shared) = (remote.session, remote.authorization.context("a login session has its manager")?);
    let step_up = StepUp::after_login(shared, Url::parse(url)?, REDIRECT_URI);
    let peer = session.peer();
    let tools = step_up.call(agent, || peer.list_all_tools()).await.map_err(|e| lost(e, url))?;
    println!("logged in; tools: {:?}", names(&tools));
    finish(session, Some(&step_up), agent, scenario, &tools).await.map_err(|e| match e.downcast() {
        Ok(error) => lost(error, url),
        Err(other) => Lost::Other(other),
    })
}

/// A 401 (not a 403 for more scope, which step-up handles) ends the login; anything else is the scenario's failure.
fn lost(error: AuthorizedCallError, url: &str) -> Lost {
    if let AuthorizedCallError::Service(service) = &error
        && let Some(challenge) = service.auth_challenge()
        && Url::parse(url).is_ok_and(|base| !WWWAuthenticateParams::parse(challenge, &base).is_insufficient_scope())
    {
        return Lost::Login(challenge.to_owned());
    }
    Lost::Other(error.into())
}

/// Calls the scenario's tool if listed (under step-up when logged in), then closes.
async fn finish(
    session: McpSession,
    step_up: Option<&StepUp>,
    agent: &FollowRedirect,
    scenario: Scenario,
    tools: &[Tool],
) -> anyhow::Result<()> {
    let calls = scenario.calls(tools, &ScenarioContext::empty());
    for call in calls.into_iter().filter(|c| tools.iter().any(|t| t.name == c.tool)) {
        let peer = session.peer();
        let request =
            || peer.call_tool(CallToolRequestParams::new(call.tool.clone()).with_arguments(call.arguments.clone()));
        let result = match step_up {
            Some(step_up) => step_up.call(agent, request).await?,
            None => request().await?,
        };
        println!("{} answered: {}", call.tool, serde_json::to_string(&result.content).unwrap_or_default());
        if result.is_error == Some(true) {
            bail!("{} returned an error result", call.tool);
        }
    }
    if let Some(step_up) = step_up {
        println!("authorization attempts: {}", step_up.attempts());
    }
    session.close().await.context("closing the session")?;
    Ok(())
}

/// The authorization code flow, with the pre-registered client the scenario may give and Plugboard's client ID
/// metadata document.
async fn log_in(
    url: &str,
    context: &ScenarioContext,
    challenge: String,
    agent: &FollowRedirect,
) -> Result<AuthorizationManager, LoginError> {
    let request = LoginRequest {
        client_id: context.get("client_id"),
        client_secret: context.get("client_secret").map(Sensitive::new),
        client_metadata_url: Some(CLIENT_METADATA_URL.into()),
        challenge: Some(challenge),
        ..LoginRequest::new("conformance", url, REDIRECT_URI)
    };
    login(request, InMemoryCredentialStore::new(), InMemoryStateStore::new(), agent).await
}

fn names(tools: &[Tool]) -> Vec<&str> {
    tools.iter().map(|t| t.name.as_ref()).collect()
}

/// A user agent that visits the authorization page and reads the redirect it answers with, instead of a person
/// in a browser. It never follows the redirect: the callback URL is the result.
struct FollowRedirect {
    http: reqwest::Client,
}

impl FollowRedirect {
    fn new() -> anyhow::Result<Self> {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(std::time::Duration::from_secs(10))
            .build()?;
        Ok(Self { http })
    }
}

impl UserAgent for FollowRedirect {
    fn authorize<'a>(&'a self, authorization_url: &'a Url) -> BoxFuture<'a, Result<Url, LoginError>> {
        Box::pin(async move {
            let failed = |why: String| LoginError::Authorization(why);
            let response = self
                .http
                .get(authorization_url.clone())
                .send()
                .await
                .map_err(|e| failed(format!("the authorization page did not answer ({})", e.without_url())))?;
            if !response.status().is_redirection() {
                return Err(failed(format!(
                    "the authorization page answered {} instead of a redirect",
                    response.status()
                )));
            }
            let location = response
                .headers()
                .get(reqwest::header::LOCATION)
                .and_then(|l| l.to_str().ok())
                .ok_or_else(|| failed("the redirect has no Location".into()))?;
            authorization_url.join(location).map_err(|_| failed("the redirect's Location is not a URL".into()))
        })
    }
}
