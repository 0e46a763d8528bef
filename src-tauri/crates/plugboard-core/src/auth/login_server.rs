//! Logging in to a configured server: everything the app and `plugboard login` share — read its OAuth settings, learn
//! its challenge, run its machine grant (`machine.rs`) or pick the redirect (loopback listener or deep link) and run
//! the browser flow, with the keychain store; and forget a login (`logout`).

use std::sync::Arc;
use std::time::Duration;

use super::browser_agent::{BrowserAgent, OpenUrl};
use super::dpop::Dpop;
use super::loopback::LoopbackReceiver;
use super::pending::PendingFlows;
use super::store::{CLIENT_SECRET_SECRET, CREDENTIALS_SECRET, VaultCredentialStore, VolatileStateStore};
use super::{LoginError, LoginRequest, login};
use crate::config::model::{Auth, HttpSpec, OAuthSettings, Redirect, ServerConfig, Transport};
use crate::config::references::expand;
use crate::secrets::{Sensitive, ServerReferences, Vault};

/// The deep-link redirect URI, for pre-registered clients that allow Plugboard's private-use scheme: a reverse
/// domain name and a single slash, as RFC 8252 §7.1 writes it (`crate::OAUTH_REDIRECT_SCHEME`).
pub const DEEP_LINK_REDIRECT: &str = "dev.plugboard.desktop:/oauth/callback";
/// How long a login waits for the person to finish in the browser.
pub const LOGIN_TIMEOUT: Duration = Duration::from_secs(5 * 60);

/// What a login needs from its surroundings.
pub struct LoginContext<'a> {
    pub vault: Arc<Vault>,
    /// The app's one registry of pending flows (the deep-link receiver delivers into it too).
    pub flows: Arc<PendingFlows>,
    /// The app's pooled HTTP client, for learning the server's challenge.
    pub http: reqwest::Client,
    pub open: &'a OpenUrl<'a>,
    pub timeout: Duration,
}

/// The text a server that needs a login shows: the UI says it on the badge, the CLI adds the command.
pub fn login_hint(server: &str) -> String {
    format!("Log in to {server}: `plugboard login {server}` or the Log in button")
}

/// The OAuth settings and resource URL of `config`, or why it has none. A URL server with no credentials of its
/// own (no `oauth`, headers or `bearerTokenEnvVar`) may log in with the defaults, as other clients let it: it is an
/// OAuth server when it answers 401 with a challenge or publishes protected-resource metadata.
pub fn oauth_target(config: &ServerConfig, vault: &Vault) -> Result<(OAuthSettings, String), LoginError> {
    let name = config.name.as_str();
    let (url, settings) = match (&config.transport, &config.auth) {
        (Transport::Http(HttpSpec { url, .. }), Auth::OAuth(settings)) => (url, settings.clone()),
        (Transport::Http(HttpSpec { url, .. }), Auth::None) => (url, OAuthSettings::default()),
        _ => return Err(LoginError::NotOAuth(name.to_owned())),
    };
    let references = ServerReferences { server: name, vault };
    let url =
        expand(url, &references).map_err(|e| LoginError::Refused(format!("its url: {e}")))?.value.expose().clone();
    Ok((settings, url))
}

/// The pre-registered client's secret (blocking): `oauth.clientSecret` (a `${secret:…}` reference, where an import
/// puts it), else the one kept under the login's own name in the keychain.
pub(super) fn client_secret(
    server: &str,
    settings: &OAuthSettings,
    vault: &Vault,
) -> Result<Option<Sensitive<String>>, LoginError> {
    match &settings.client_secret {
        Some(written) => {
            let references = ServerReferences { server, vault };
            let expanded = expand(written, &references)
                .map_err(|e| LoginError::Refused(format!("its oauth.clientSecret: {e}")))?;
            Ok(Some(expanded.value))
        }
        None => vault.get(server, CLIENT_SECRET_SECRET).map_err(|e| LoginError::Store(e.to_string())),
    }
}

/// Logs in to the OAuth server `config`; on success its tokens are in the keychain and a connect will use them.
pub async fn login_server(config: &ServerConfig, context: LoginContext<'_>) -> Result<(), LoginError> {
    let name = config.name.as_str();
    let (settings, url) = oauth_target(config, &context.vault)?;
    if super::is_machine_grant(&settings) {
        // No browser: the grant the section names, now rather than at the next connect.
        let challenge = fetch_challenge(&context.http, &url).await;
        super::login_machine(name, &url, &settings, &context.vault, challenge).await?;
        return Ok(());
    }
    let client_secret = {
        let (vault, settings, server) = (Arc::clone(&context.vault), settings.clone(), name.to_owned());
        tokio::task::spawn_blocking(move || client_secret(&server, &settings, &vault))
            .await
            .map_err(|e| LoginError::Store(e.to_string()))??
    };
    let dpop = match settings.bearer_only {
        true => None,
        false => {
            let (vault, server) = (Arc::clone(&context.vault), name.to_owned());
            let key = tokio::task::spawn_blocking(move || Dpop::for_login(&vault, &server))
                .await
                .map_err(|e| LoginError::Store(e.to_string()))?;
            Some(Arc::new(key.map_err(|e| LoginError::Store(format!("its DPoP key: {e}")))?))
        }
    };
    let challenge = fetch_challenge(&context.http, &url).await;
    // A server that demanded more scopes mid-session (a 403) gets them asked for together with what it had.
    let granted = {
        let store = VaultCredentialStore::new(Arc::clone(&context.vault), name, url.clone());
        tokio::task::spawn_blocking(move || store.load_now()).await.ok().and_then(Result::ok).flatten()
    }
    .map(|stored| stored.granted_scopes)
    .unwrap_or_default();
    let scopes =
        super::demanded_scopes::for_login(name, settings.scopes.as_deref(), &granted).or(settings.scopes.clone());

    // The loopback listener lives exactly as long as this login.
    let (redirect_uri, _serving) = match settings.redirect {
        Redirect::Loopback => {
            let receiver = LoopbackReceiver::bind()
                .await
                .map_err(|e| LoginError::Authorization(format!("cannot listen on 127.0.0.1 for the redirect: {e}")))?;
            (receiver.redirect_uri(), Some(receiver.serve(Arc::clone(&context.flows))))
        }
        Redirect::DeepLink => (DEEP_LINK_REDIRECT.to_owned(), None),
    };
    let request = LoginRequest {
        server: name.to_owned(),
        url: url.clone(),
        scopes,
        client_id: settings.client_id.clone(),
        client_secret,
        redirect_uri,
        challenge,
        client_metadata_url: settings.client_metadata_url.clone(),
        allow_missing_pkce_metadata: settings.allow_missing_pkce_metadata,
        dpop: dpop.clone(),
    };
    let states = VolatileStateStore::new();
    let agent = BrowserAgent {
        server: name,
        flows: &context.flows,
        states: &states,
        open: context.open,
        timeout: context.timeout,
    };
    let credentials = VaultCredentialStore::new(Arc::clone(&context.vault), name, url);
    login(request, credentials, states.clone(), &agent).await?;
    super::demanded_scopes::forget(name);
    let (vault, server) = (Arc::clone(&context.vault), name.to_owned());
    // The key stays exactly as long as a token is bound to it.
    tokio::task::spawn_blocking(move || match dpop {
        Some(dpop) if dpop.is_active() => dpop.keep(&vault, &server).map_err(|e| e.to_string()),
        _ => Dpop::forget(&vault, &server).map_err(|e| e.to_string()),
    })
    .await
    .map_err(|e| LoginError::Store(e.to_string()))?
    .map_err(|e| LoginError::Store(format!("its DPoP key could not be kept: {e}")))?;
    Ok(())
}

/// Forgets the login of `server`: its tokens leave the keychain. Returns whether there was one.
pub fn logout(vault: &Vault, server: &str) -> Result<bool, LoginError> {
    let had = vault.get(server, CREDENTIALS_SECRET).map_err(|e| LoginError::Store(e.to_string()))?.is_some();
    vault.delete(server, CREDENTIALS_SECRET).map_err(|e| LoginError::Store(e.to_string()))?;
    Dpop::forget(vault, server).map_err(|e| LoginError::Store(e.to_string()))?;
    Ok(had)
}

/// The `WWW-Authenticate` challenge of an unauthenticated request, which names the resource metadata and the scopes
/// the server wants. `server/discover` is asked first, as every session now opens, then `initialize`: a server may
/// let either through without a token (one that guards everything but `initialize` says its scopes only to the
/// other). `None` when neither is answered 401 (discovery then uses the well-known URLs).
async fn fetch_challenge(http: &reqwest::Client, url: &str) -> Option<String> {
    let client = serde_json::json!({"name": "plugboard", "version": env!("CARGO_PKG_VERSION")});
    let discover = serde_json::json!({"jsonrpc": "2.0", "id": 0, "method": "server/discover", "params": {}});
    let initialize = serde_json::json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": client}
    });
    for request in [discover, initialize] {
        if let Some(challenge) = challenge_to(http, url, &request).await {
            return Some(challenge);
        }
    }
    None
}

/// The challenge a 401 to `request` carries.
async fn challenge_to(http: &reqwest::Client, url: &str, request: &serde_json::Value) -> Option<String> {
    let response = http
        .post(url)
        .header(reqwest::header::ACCEPT, "application/json, text/event-stream")
        .json(request)
        .timeout(Duration::from_secs(15))
        .send()
        .await
        .ok()?;
    if response.status() != reqwest::StatusCode::UNAUTHORIZED {
        return None;
    }
    response.headers().get(reqwest::header::WWW_AUTHENTICATE)?.to_str().ok().map(str::to_owned)
}
