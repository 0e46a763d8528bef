//! One login, start to finish: discover the authorization server from the resource (and its 401 challenge), register
//! or use the pre-registered client, send the person to the authorization page through a [`UserAgent`], exchange the
//! code, and leave the tokens in the caller's credential store. Refuses before opening anything when the metadata
//! breaks a MUST of the spec.

use rmcp::transport::auth::{
    AuthError, AuthorizationManager, AuthorizationRequest, AuthorizationSession, CredentialStore, StateStore,
};
use url::Url;

use super::{LoginError, UserAgent};
use crate::secrets::Sensitive;

/// What a login needs to know about the server and the client Plugboard registers as.
#[derive(Debug, Clone)]
pub struct LoginRequest {
    /// The server's name in Plugboard, for messages.
    pub server: String,
    /// The MCP endpoint exactly as configured (the protected resource).
    pub url: String,
    /// Space-separated scopes to ask for; `None` lets the challenge or `scopes_supported` decide.
    pub scopes: Option<String>,
    /// A pre-registered client id, when the server needs one.
    pub client_id: Option<String>,
    /// The pre-registered client's secret, when it is a confidential client.
    pub client_secret: Option<Sensitive<String>>,
    /// Where the authorization server sends the browser back to.
    pub redirect_uri: String,
    /// The `WWW-Authenticate` header of the 401 that started this login, if there was one.
    pub challenge: Option<String>,
}

/// The client name shown on consent screens and sent in dynamic registration.
const CLIENT_NAME: &str = "Plugboard";

/// Logs in to `request.url`; on success the tokens are in `credentials` and the returned manager is authorized.
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
    let discovery = |e: AuthError| LoginError::Discovery { url: request.url.clone(), reason: e.to_string() };
    let mut manager = AuthorizationManager::new(request.url.as_str()).await.map_err(discovery)?;
    manager.set_credential_store(credentials);
    manager.set_state_store(states);
    let resolution = manager.resolve_metadata_from_challenge(request.challenge.as_deref()).await.map_err(discovery)?;
    manager.set_metadata(resolution.metadata);

    let mut authorization = AuthorizationRequest::new(request.redirect_uri.clone()).with_client_name(CLIENT_NAME);
    if let Some(challenge) = &request.challenge {
        authorization = authorization.with_challenge(challenge.clone());
    }
    if let Some(scopes) = &request.scopes {
        authorization = authorization.with_scopes(scopes.split_whitespace());
    }
    if let Some(client_id) = &request.client_id {
        authorization = authorization.with_preregistered_client(client_id.clone());
        if let Some(secret) = &request.client_secret {
            authorization = authorization.with_client_secret(secret.expose().clone());
        }
    }
    let session = AuthorizationSession::new(manager, authorization)
        .await
        .map_err(|(_, e)| LoginError::Registration(e.to_string()))?;

    let authorization_url = browser_url(session.get_authorization_url())?;
    let callback = agent.authorize(&authorization_url).await?;
    session.handle_callback_url(callback.as_str()).await.map_err(|e| LoginError::TokenExchange(e.to_string()))?;
    Ok(session.auth_manager)
}

/// The authorization URL, if it may be handed to a browser: http(s) only (the mcp-remote CVE-2025-6514 class was an
/// endpoint like `file:` or a shell command reaching the opener).
fn browser_url(raw: &str) -> Result<Url, LoginError> {
    let url = Url::parse(raw).map_err(|e| LoginError::Refused(format!("the authorization URL is not a URL ({e})")))?;
    match url.scheme() {
        "https" | "http" => Ok(url),
        other => Err(LoginError::Refused(format!("the authorization endpoint uses the `{other}:` scheme, not https"))),
    }
}
