//! One login, start to finish: discover the authorization server from the resource (and its 401 challenge), check
//! the metadata against the spec's MUSTs, register or use the pre-registered client, send the person to the
//! authorization page through a [`UserAgent`], check the callback, exchange the code, and leave the tokens in the
//! caller's credential store, the token bound to the login's DPoP key where the authorization server offers that.
//! Refuses before registering or opening anything when the metadata breaks a MUST; never
//! puts a token, code, verifier or state into an error or a log line.

use std::sync::Arc;

use oauth2::TokenResponse as _;
use rmcp::transport::auth::{
    AuthError, AuthorizationCallback, AuthorizationManager, AuthorizationMetadata, AuthorizationMetadataSource,
    AuthorizationRequest, AuthorizationSession, CredentialStore, StateStore,
};
use url::Url;

use super::browser_url::browser_url;
use super::callback::{IssuerExpectation, check_callback, sent_state};
use super::dpop::{self, Dpop};
use super::error::scrub;
use super::metadata_checks::{check_metadata, discovery_error, guard_endpoints};
use super::oauth_http::authorization_manager_with;
use super::{LoginError, UserAgent, legacy};
use crate::secrets::Sensitive;

/// What a login needs to know about the server and the client Plugboard registers as.
#[derive(Debug, Clone, Default)]
pub struct LoginRequest {
    /// The server's name in Plugboard, for messages.
    pub server: String,
    /// The MCP endpoint exactly as configured (the protected resource).
    pub url: String,
    /// Space-separated scopes to ask for; `None` takes the challenge's `scope`, else the resource's
    /// `scopes_supported`, else asks for none.
    pub scopes: Option<String>,
    /// A pre-registered client id, when the server needs one.
    pub client_id: Option<String>,
    /// The pre-registered client's secret, when it is a confidential client.
    pub client_secret: Option<Sensitive<String>>,
    /// The https URL of Plugboard's client ID metadata document (SEP-991), used as the client id where the
    /// authorization server supports it; otherwise Plugboard registers dynamically.
    pub client_metadata_url: Option<String>,
    /// Where the authorization server sends the browser back to.
    pub redirect_uri: String,
    /// The `WWW-Authenticate` header of the 401 that started this login, if there was one.
    pub challenge: Option<String>,
    /// Per-server override: log in even though the authorization server's metadata does not list
    /// `code_challenge_methods_supported` (Plugboard still sends an S256 challenge). Off by default, as the spec
    /// says to refuse.
    pub allow_missing_pkce_metadata: bool,
    /// The key to bind the token to (RFC 9449) when the authorization server offers DPoP; `None` asks for a bearer
    /// token whatever it offers. Active after the login exactly when the token issued is bound to it.
    pub dpop: Option<Arc<Dpop>>,
}

impl LoginRequest {
    /// A request with no scopes, client or challenge set.
    pub fn new(server: impl Into<String>, url: impl Into<String>, redirect_uri: impl Into<String>) -> Self {
        Self { server: server.into(), url: url.into(), redirect_uri: redirect_uri.into(), ..Self::default() }
    }
}

/// The client name shown on consent screens and sent in dynamic registration.
const CLIENT_NAME: &str = "Plugboard";

/// Logs in to `request.url`; on success the tokens are in `credentials` and the returned manager is authorized.
/// Every check of [`super::metadata_checks`] and [`super::callback`] runs before the step it guards.
pub async fn login<C, S>(
    request: LoginRequest,
    credentials: C,
    states: S,
    agent: &dyn UserAgent,
) -> Result<AuthorizationManager, LoginError>
where
    C: CredentialStore + 'static,
    S: StateStore + 'static,
{
    let (url, mut manager) = manager_with(&request.url, request.dpop.clone()).await?;
    manager.set_credential_store(credentials);
    manager.set_state_store(states);
    let (metadata, source) = discover(&manager, &url, request.challenge.as_deref()).await?;
    check_metadata(&metadata, source, request.allow_missing_pkce_metadata)?;
    if let Some(dpop) = &request.dpop {
        if dpop::offered_by(&metadata) { dpop.activate() } else { dpop.deactivate() }
    }
    let issuer = issuer_expectation(&metadata);
    manager.set_metadata(metadata);

    let session = AuthorizationSession::new(manager, authorization_request(&request)).await.map_err(|(_, e)| {
        let secret = request.client_secret.as_ref().map(|s| s.expose().as_str()).unwrap_or_default();
        match e {
            AuthError::PkceUnsupported => LoginError::Refused("the authorization server does not support S256".into()),
            AuthError::RegistrationFailed(why) => LoginError::Registration(scrub(&why, &[secret])),
            other => LoginError::Authorization(scrub(&other.to_string(), &[secret])),
        }
    })?;

    let callback = round_trip(agent, session.get_authorization_url(), &request.redirect_uri, &issuer).await?;
    exchange(&session.auth_manager, &callback).await?;
    if let Some(dpop) = &request.dpop
        && !holds_dpop_token(&session.auth_manager).await
    {
        // RFC 9449 §5: an authorization server may ignore the proof and issue a bearer token, sent as such.
        dpop.deactivate();
    }
    Ok(session.auth_manager)
}

/// Whether the token `manager` holds is DPoP-bound (its `token_type`).
pub(crate) async fn holds_dpop_token(manager: &AuthorizationManager) -> bool {
    let token = manager.get_credentials().await.ok().and_then(|(_, token)| token);
    token.is_some_and(|token| dpop::is_dpop_token_type(token.token_type().as_ref()))
}

/// The resource URL parsed and a manager for it whose requests pass the network guard: the authorization server,
/// its endpoints and every redirect reach this machine or a private network only on the resource's own host.
pub(crate) async fn manager_for(raw: &str) -> Result<(Url, AuthorizationManager), LoginError> {
    manager_with(raw, None).await
}

/// The same, its token requests signed with `dpop`'s key while that is active.
async fn manager_with(raw: &str, dpop: Option<Arc<Dpop>>) -> Result<(Url, AuthorizationManager), LoginError> {
    let discovery = |reason: String| LoginError::Discovery { url: raw.to_owned(), reason };
    let url = Url::parse(raw).map_err(|e| discovery(format!("the server URL is not a URL ({e})")))?;
    let manager = authorization_manager_with(url.clone(), dpop).await.map_err(|e| discovery(e.to_string()))?;
    Ok((url, manager))
}

/// Discovery shared by every grant: rmcp's (protected-resource metadata, then the authorization server's, then
/// the 2025-03-26 default endpoints), its errors in words, and the 2025-03-26 metadata fallback where rmcp's strict
/// issuer comparison rejects a server on that revision. The endpoints found are held to the network guard at once.
pub(crate) async fn discover(
    manager: &AuthorizationManager,
    url: &Url,
    challenge: Option<&str>,
) -> Result<(AuthorizationMetadata, AuthorizationMetadataSource), LoginError> {
    let (metadata, source) = discover_metadata(manager, url, challenge).await?;
    guard_endpoints(&metadata, url)?;
    Ok((metadata, source))
}

async fn discover_metadata(
    manager: &AuthorizationManager,
    url: &Url,
    challenge: Option<&str>,
) -> Result<(AuthorizationMetadata, AuthorizationMetadataSource), LoginError> {
    match manager.resolve_metadata_from_challenge(challenge).await {
        Ok(resolution) => Ok((resolution.metadata, resolution.source)),
        Err(error @ AuthError::AuthorizationServerMismatch { .. }) => {
            if legacy::is_legacy_server(url, challenge).await {
                let metadata = legacy::legacy_metadata(url).await?;
                Ok((metadata, AuthorizationMetadataSource::AuthorizationServerMetadata))
            } else {
                Err(discovery_error(url.as_str(), error))
            }
        }
        Err(error) => Err(discovery_error(url.as_str(), error)),
    }
}

/// What the callback's `iss` must be, from the metadata about to be used.
pub(crate) fn issuer_expectation(metadata: &AuthorizationMetadata) -> IssuerExpectation {
    let required = metadata
        .additional_fields
        .get("authorization_response_iss_parameter_supported")
        .and_then(serde_json::Value::as_bool)
        .unwrap_or(false);
    IssuerExpectation { issuer: metadata.issuer.clone(), required }
}

fn authorization_request(request: &LoginRequest) -> AuthorizationRequest {
    let mut authorization = AuthorizationRequest::new(request.redirect_uri.clone()).with_client_name(CLIENT_NAME);
    if let Some(challenge) = &request.challenge {
        authorization = authorization.with_challenge(challenge.clone());
    }
    // The spec's order: the configured scopes, else the challenge's `scope`, else the protected resource's
    // `scopes_supported`, else none (rmcp's initial selection; its other selector would fall back to the
    // authorization server's list, which the spec does not ask for).
    authorization = match request.scopes.as_deref().map(str::split_whitespace) {
        Some(scopes) if scopes.clone().next().is_some() => authorization.with_scopes(scopes),
        _ => authorization.with_initial_scope_selection(),
    };
    if let Some(client_id) = &request.client_id {
        authorization = authorization.with_preregistered_client(client_id.clone());
        if let Some(secret) = &request.client_secret {
            authorization = authorization.with_client_secret(secret.expose().clone());
        }
    }
    if let Some(metadata_url) = &request.client_metadata_url {
        authorization = authorization.with_client_metadata_url(metadata_url.clone());
    }
    authorization
}

/// Sends the person to `authorization_url` (after the opener check) and returns the checked callback.
pub(crate) async fn round_trip(
    agent: &dyn UserAgent,
    authorization_url: &str,
    redirect_uri: &str,
    issuer: &IssuerExpectation,
) -> Result<AuthorizationCallback, LoginError> {
    let url = browser_url(authorization_url)?;
    let state = sent_state(&url).ok_or_else(|| LoginError::Refused("the authorization URL carries no state".into()))?;
    let callback = agent.authorize(&url).await?;
    check_callback(&callback, redirect_uri, &state, issuer)?;
    AuthorizationCallback::from_redirect_url(callback.as_str())
        .map_err(|_| LoginError::CallbackRejected("it could not be read".into()))
}

/// Exchanges the callback's code with `manager` (rmcp checks state, PKCE and `iss` again) and stores the tokens.
pub(crate) async fn exchange(
    manager: &AuthorizationManager,
    callback: &AuthorizationCallback,
) -> Result<(), LoginError> {
    manager
        .exchange_code_for_token_with_issuer(&callback.code, &callback.csrf_token, callback.issuer.as_deref())
        .await
        .map(|_| ())
        .map_err(|e| {
            let secrets = [callback.code.as_str(), callback.csrf_token.as_str()];
            match e {
                AuthError::AuthorizationServerMismatch { expected_issuer, received_issuer } => {
                    LoginError::CallbackRejected(format!(
                        "it names the issuer `{received_issuer}` instead of `{expected_issuer}` (RFC 9207)"
                    ))
                }
                AuthError::AuthorizationServerMissingIssuer { .. } => {
                    LoginError::CallbackRejected("the authorization server promised an `iss` and sent none".into())
                }
                AuthError::CredentialStoreError(why) => LoginError::Store(scrub(&why, &secrets)),
                other => LoginError::TokenExchange(scrub(&other.to_string(), &secrets)),
            }
        })
}
