//! What a person may know about a server's login without seeing a secret: whether there is one, who issued it, the
//! scopes granted and when the access token expires. Never returns or logs a token, client secret or code.

use std::time::{SystemTime, UNIX_EPOCH};

use oauth2::TokenResponse;
use rmcp::transport::auth::StoredCredentials;
use serde::Serialize;

use super::store::VaultCredentialStore;
use super::{LoginError, oauth_target};
use crate::config::model::{Auth, ServerConfig};
use crate::secrets::Vault;

/// A server's OAuth login as the UI shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct LoginState {
    /// Whether tokens for this server's URL are in the keychain.
    pub logged_in: bool,
    /// The authorization server that issued them, when it said.
    pub issuer: Option<String>,
    /// The scopes granted (empty when the authorization server did not say).
    pub scopes: Vec<String>,
    /// When the access token expires (unix ms), if the token response gave a lifetime.
    pub expires_at_ms: Option<f64>,
    /// Whether a refresh token lets Plugboard renew the access token without the person.
    pub renews_by_itself: bool,
    /// The client id Plugboard is registered under at the authorization server.
    pub client_id: Option<String>,
    /// Whether the access token is bound to this computer's DPoP key (RFC 9449): a copy of it is useless without
    /// the key. `false` for a bearer token, which works for whoever holds it.
    pub bound_to_key: bool,
}

impl LoginState {
    /// No login stored.
    pub fn logged_out() -> Self {
        Self {
            logged_in: false,
            issuer: None,
            scopes: Vec::new(),
            expires_at_ms: None,
            renews_by_itself: false,
            client_id: None,
            bound_to_key: false,
        }
    }

    /// The facts of stored credentials; tokens are looked at only for their presence and lifetime.
    pub fn from_credentials(credentials: &StoredCredentials) -> Self {
        let Some(tokens) = &credentials.token_response else {
            // Registered (a client id is kept for the next login) but never received tokens.
            return Self { client_id: Some(credentials.client_id.clone()), ..Self::logged_out() };
        };
        let scopes = if credentials.granted_scopes.is_empty() {
            tokens.scopes().map(|s| s.iter().map(|scope| scope.to_string()).collect()).unwrap_or_default()
        } else {
            credentials.granted_scopes.clone()
        };
        let expires_at_ms = match (credentials.token_received_at, tokens.expires_in()) {
            (Some(received), Some(lifetime)) => Some((received.saturating_add(lifetime.as_secs())) as f64 * 1000.0),
            _ => None,
        };
        Self {
            logged_in: true,
            issuer: credentials.issuer.clone(),
            scopes,
            expires_at_ms,
            renews_by_itself: tokens.refresh_token().is_some(),
            client_id: Some(credentials.client_id.clone()),
            bound_to_key: super::dpop::is_dpop_token_type(tokens.token_type().as_ref()),
        }
    }

    /// Whether the access token has expired at `now` (a token without a lifetime never does, as far as we know).
    pub fn expired_at(&self, now: SystemTime) -> bool {
        let now_ms = now.duration_since(UNIX_EPOCH).map(|d| d.as_millis() as f64).unwrap_or(0.0);
        self.expires_at_ms.is_some_and(|at| at <= now_ms)
    }
}

/// The login state of `config`, read from the keychain (blocking). `NotOAuth` for a server that does not use OAuth,
/// and for a URL server without an `oauth` section that has not logged in (nothing to show for a public server).
pub fn login_state(config: &ServerConfig, vault: std::sync::Arc<Vault>) -> Result<LoginState, LoginError> {
    let (_, url) = oauth_target(config, &vault)?;
    let store = VaultCredentialStore::new(vault, config.name.as_str(), url);
    let stored = store.load_now().map_err(|e| LoginError::Store(e.to_string()))?;
    match stored {
        Some(credentials) => Ok(LoginState::from_credentials(&credentials)),
        None if matches!(config.auth, Auth::OAuth(_)) => Ok(LoginState::logged_out()),
        None => Err(LoginError::NotOAuth(config.name.to_string())),
    }
}

#[cfg(test)]
#[path = "login_state_tests.rs"]
mod tests;
