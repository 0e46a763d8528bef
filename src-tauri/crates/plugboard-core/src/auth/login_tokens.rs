//! A stored login's tokens as the secret guard knows them (console/guard.rs): the access and refresh tokens are the
//! person's secrets like any `${secret:…}`, and a call must not carry them to another server. It must never log,
//! print or hand a token to anything but the guard's index.

use std::sync::Arc;

use oauth2::TokenResponse;

use super::store::VaultCredentialStore;
use super::{LoginError, oauth_target};
use crate::config::model::ServerConfig;
use crate::secrets::{Sensitive, Vault};

/// The names the guard gives a login's tokens (they start with `oauth:`, so no `${secret:…}` can name them).
pub const ACCESS_TOKEN: &str = "oauth:access_token";
pub const REFRESH_TOKEN: &str = "oauth:refresh_token";

/// The tokens of `config`'s stored login, by name; none when it has no login (or is not an OAuth server). Blocking.
pub fn login_tokens(config: &ServerConfig, vault: Arc<Vault>) -> Result<Vec<(String, Sensitive<String>)>, LoginError> {
    let Ok((_, url)) = oauth_target(config, &vault) else { return Ok(Vec::new()) };
    let store = VaultCredentialStore::new(vault, config.name.as_str(), url);
    let stored = store.load_now().map_err(|e| LoginError::Store(e.to_string()))?;
    let Some(tokens) = stored.and_then(|credentials| credentials.token_response) else { return Ok(Vec::new()) };
    let mut named = vec![(ACCESS_TOKEN.to_owned(), Sensitive::new(tokens.access_token().secret().clone()))];
    if let Some(refresh) = tokens.refresh_token() {
        named.push((REFRESH_TOKEN.to_owned(), Sensitive::new(refresh.secret().clone())));
    }
    Ok(named)
}
