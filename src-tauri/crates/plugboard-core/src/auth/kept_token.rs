//! Keeping a bearer token Plugboard got outside rmcp's own flows (cross-app access, workload identity) the way
//! rmcp keeps its own: as `StoredCredentials` in the caller's store, with the metadata it came from set on the
//! manager that will serve it. It must never put the token into an error.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rmcp::transport::auth::{
    AuthorizationManager, AuthorizationMetadata, CredentialStore, OAuthTokenResponse, StoredCredentials,
};

use super::LoginError;

/// A token as the authorization server answered it.
pub(super) struct BearerToken<'a> {
    pub access_token: &'a str,
    pub expires_in: Option<Duration>,
    pub scopes: Vec<String>,
    /// The client id it was issued to (empty when none was named).
    pub client_id: String,
}

/// Saves `token` in `credentials` and hands `manager` the store and `metadata`: it then serves the token.
pub(super) async fn keep_bearer_token<C>(
    token: BearerToken<'_>,
    credentials: C,
    mut manager: AuthorizationManager,
    metadata: AuthorizationMetadata,
) -> Result<AuthorizationManager, LoginError>
where
    C: CredentialStore + 'static,
{
    let mut response = serde_json::json!({ "access_token": token.access_token, "token_type": "Bearer" });
    if let Some(expires_in) = token.expires_in {
        response["expires_in"] = expires_in.as_secs().into();
    }
    let response: OAuthTokenResponse =
        serde_json::from_value(response).map_err(|_| LoginError::Grant("the access token could not be kept".into()))?;
    let now = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or_default();
    let stored = StoredCredentials::new(token.client_id, Some(response), token.scopes, Some(now))
        .with_issuer(metadata.issuer.clone());
    credentials.save(stored).await.map_err(|e| LoginError::Store(e.to_string()))?;
    manager.set_metadata(metadata);
    manager.set_credential_store(credentials);
    Ok(manager)
}
