//! Cross-app access (SEP-990, enterprise-managed authorization): the person's enterprise identity provider already
//! issued Plugboard an ID token; it is exchanged at the IdP for an ID-JAG bound to the MCP server (RFC 8693), and
//! the ID-JAG at the server's authorization server for an access token (RFC 7523 JWT bearer), with no browser.
//! rmcp's `enterprise` module does both exchanges; Plugboard discovers the authorization server (with the browser
//! flow's checks) and keeps the token in the caller's credential store. No token or secret goes into an error.

use oauth2::ClientSecret;
use rmcp::transport::auth::enterprise::{EmaAuthorizationServer, EmaClientAuthentication, EmaExchangeRequest};
use rmcp::transport::auth::{AuthorizationManager, CredentialStore};
use url::Url;

use super::LoginError;
use super::flow::{discover, manager_for};
use super::kept_token::{BearerToken, keep_bearer_token};
use super::metadata_checks::{check_client_credentials_metadata, secure_endpoint};
use super::oauth_http::GuardedOAuthClient;
use crate::net::{ApprovedHosts, GuardedClient};
use crate::secrets::Sensitive;

/// The enterprise identity provider and Plugboard's registration with it.
#[derive(Debug, Clone)]
pub struct IdentityProvider {
    /// Its issuer identifier.
    pub issuer: String,
    /// Its token endpoint, where the ID token is exchanged.
    pub token_endpoint: String,
    /// Plugboard's client id there.
    pub client_id: String,
    /// Plugboard's client secret there, for a confidential registration (sent with HTTP Basic).
    pub client_secret: Option<Sensitive<String>>,
}

/// What a cross-app access login needs.
#[derive(Debug, Clone)]
pub struct CrossAppRequest {
    /// The MCP endpoint exactly as configured (the protected resource).
    pub url: String,
    /// Plugboard's client id at the MCP server's authorization server.
    pub client_id: String,
    /// Plugboard's client secret there (sent with HTTP Basic).
    pub client_secret: Sensitive<String>,
    /// The identity provider that issued `id_token`.
    pub identity_provider: IdentityProvider,
    /// The person's ID token from the identity provider.
    pub id_token: Sensitive<String>,
    /// Space-separated scopes to ask for, if any.
    pub scopes: Option<String>,
    /// The `WWW-Authenticate` header of the 401 that started this login, if there was one.
    pub challenge: Option<String>,
}

/// Exchanges the ID token for an access token to `request.url`; on success it is in `credentials` and the returned
/// manager serves it.
pub async fn login_cross_app<C>(request: CrossAppRequest, credentials: C) -> Result<AuthorizationManager, LoginError>
where
    C: CredentialStore + 'static,
{
    let (url, manager) = manager_for(&request.url).await?;
    let (metadata, source) = discover(&manager, &url, request.challenge.as_deref()).await?;
    check_client_credentials_metadata(&metadata, source)?;
    let idp = &request.identity_provider;
    secure_endpoint("identity provider issuer", &idp.issuer)?;
    let idp_endpoint = secure_endpoint("identity provider token endpoint", &idp.token_endpoint)?;
    let Some(issuer) = metadata.issuer.clone() else {
        return Err(LoginError::Refused("the authorization server's metadata names no issuer".into()));
    };

    let idp_server = {
        let server = EmaAuthorizationServer::new(&idp.issuer, &idp.token_endpoint, &idp.client_id);
        match &idp.client_secret {
            Some(secret) => server.with_client_authentication(EmaClientAuthentication::ClientSecretBasic(
                ClientSecret::new(secret.expose().clone()),
            )),
            None => server,
        }
    };
    let resource_server = EmaAuthorizationServer::new(&issuer, &metadata.token_endpoint, &request.client_id)
        .with_client_authentication(EmaClientAuthentication::ClientSecretBasic(ClientSecret::new(
            request.client_secret.expose().clone(),
        )));
    let scopes: Vec<&str> = request.scopes.as_deref().unwrap_or_default().split_whitespace().collect();
    // Each exchange through the guard: the identity provider was configured by the person, so its host is the
    // approved one there; the authorization server's token endpoint was discovered from the MCP server's, whose
    // host is the approved one for it.
    let guarded = |approved: &Url| {
        GuardedClient::new(ApprovedHosts::of(approved))
            .map(GuardedOAuthClient::from)
            .map_err(|e| LoginError::Grant(e.to_string()))
    };
    let (idp_http, resource_http) = (guarded(&idp_endpoint)?, guarded(&url)?);
    // rmcp's errors here are sanitized: stage and OAuth error code only.
    let token =
        EmaExchangeRequest::new_with_id_token(idp_server, resource_server, url.as_str(), request.id_token.expose())
            .with_scopes(scopes)
            .exchange(&idp_http, &resource_http)
            .await
            .map_err(|e| LoginError::Grant(e.to_string()))?;

    let kept = BearerToken {
        access_token: token.access_token.secret(),
        expires_in: token.expires_in,
        scopes: token.scopes.into_iter().collect(),
        client_id: request.client_id.clone(),
    };
    keep_bearer_token(kept, credentials, manager, metadata).await
}
