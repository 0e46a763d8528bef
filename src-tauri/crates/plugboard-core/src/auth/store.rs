//! rmcp's `CredentialStore` over the vault: one server's OAuth credentials in the OS keychain, bound to the resource
//! URL they were issued for, and a volatile `StateStore` for pending authorizations (PKCE verifiers never reach disk).

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};
use std::time::{Duration, Instant};

use rmcp::transport::auth::{
    AuthError, CredentialRefreshGuard, CredentialStore, StateStore, StoredAuthorizationState, StoredCredentials,
};
use serde::{Deserialize, Serialize};

use crate::secrets::{Sensitive, Vault};

/// The vault name of a server's OAuth credentials (client id, tokens, scopes, issuer).
pub const CREDENTIALS_SECRET: &str = "oauth:credentials";
/// The vault name of a pre-registered confidential client's secret.
pub const CLIENT_SECRET_SECRET: &str = "oauth:client-secret";
/// How long a pending authorization (its PKCE verifier and `state`) stays usable.
pub const PENDING_STATE_TTL: Duration = Duration::from_secs(10 * 60);

/// What is stored: the credentials and the resource they belong to, so a server renamed or re-pointed to another
/// URL (a preset's name reused for another host) never receives them.
#[derive(Serialize, Deserialize)]
struct Bound {
    resource: String,
    credentials: StoredCredentials,
}

/// One server's OAuth credentials in the vault. Keychain calls block, so they run on the blocking pool.
#[derive(Clone)]
pub struct VaultCredentialStore {
    vault: Arc<Vault>,
    server: String,
    resource: String,
}

impl VaultCredentialStore {
    /// The credentials of `server` for the resource `resource` (its MCP URL as configured).
    pub fn new(vault: Arc<Vault>, server: impl Into<String>, resource: impl Into<String>) -> Self {
        Self { vault, server: server.into(), resource: resource.into() }
    }

    /// The stored credentials, if any were issued for this resource (blocking).
    pub fn load_now(&self) -> Result<Option<StoredCredentials>, AuthError> {
        let Some(stored) = self.vault.get(&self.server, CREDENTIALS_SECRET).map_err(|e| store_error(&e))? else {
            return Ok(None);
        };
        let bound: Bound = match serde_json::from_str(stored.expose()) {
            Ok(bound) => bound,
            Err(e) => {
                // A damaged entry cannot be repaired: forget it so the person logs in again instead of failing forever.
                tracing::warn!(server = %self.server, error = %e.classify_name(), "stored OAuth credentials are damaged; forgetting them");
                self.vault.delete(&self.server, CREDENTIALS_SECRET).map_err(|e| store_error(&e))?;
                return Ok(None);
            }
        };
        if bound.resource != self.resource {
            tracing::info!(server = %self.server, "stored OAuth credentials were issued for another URL; not using them");
            return Ok(None);
        }
        Ok(Some(bound.credentials))
    }

    fn save_now(&self, credentials: StoredCredentials) -> Result<(), AuthError> {
        let bound = Bound { resource: self.resource.clone(), credentials };
        let json = serde_json::to_string(&bound).map_err(|e| AuthError::CredentialStoreError(e.to_string()))?;
        self.vault.set(&self.server, CREDENTIALS_SECRET, &Sensitive::new(json)).map_err(|e| store_error(&e))
    }

    fn clear_now(&self) -> Result<(), AuthError> {
        self.vault.delete(&self.server, CREDENTIALS_SECRET).map_err(|e| store_error(&e))
    }

    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(Self) -> Result<T, AuthError> + Send + 'static,
    ) -> Result<T, AuthError> {
        let store = self.clone();
        tokio::task::spawn_blocking(move || work(store))
            .await
            .map_err(|e| AuthError::CredentialStoreError(format!("the keychain task failed: {e}")))?
    }
}

/// A vault error as rmcp's store error: it keeps them apart from "log in again".
fn store_error(e: &crate::secrets::VaultError) -> AuthError {
    AuthError::CredentialStoreError(e.to_string())
}

/// Names the kind of a serde error without its text, which could quote a token.
trait ClassifyName {
    fn classify_name(&self) -> &'static str;
}

impl ClassifyName for serde_json::Error {
    fn classify_name(&self) -> &'static str {
        match self.classify() {
            serde_json::error::Category::Io => "io",
            serde_json::error::Category::Syntax => "syntax",
            serde_json::error::Category::Data => "shape",
            serde_json::error::Category::Eof => "truncated",
        }
    }
}

/// One refresh at a time per server across every session of this process: two sessions refreshing at once would
/// each spend the same rotating refresh token, and the second would be rejected.
static REFRESH_LOCKS: LazyLock<Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>> = LazyLock::new(Mutex::default);

#[async_trait::async_trait]
impl CredentialStore for VaultCredentialStore {
    async fn load(&self) -> Result<Option<StoredCredentials>, AuthError> {
        self.blocking(|store| store.load_now()).await
    }

    async fn save(&self, credentials: StoredCredentials) -> Result<(), AuthError> {
        self.blocking(move |store| store.save_now(credentials)).await
    }

    async fn clear(&self) -> Result<(), AuthError> {
        self.blocking(|store| store.clear_now()).await
    }

    async fn on_refresh_token_rejected(&self, _credentials: &StoredCredentials) -> Result<(), AuthError> {
        // The refresh token is dead: the server goes to NeedsLogin once, instead of retrying it on every connect.
        tracing::info!(server = %self.server, "the authorization server rejected the refresh token; log in again");
        self.clear().await
    }

    async fn acquire_refresh_guard(&self) -> Result<Option<CredentialRefreshGuard>, AuthError> {
        let lock = {
            let mut locks = REFRESH_LOCKS.lock().map_err(|_| AuthError::CredentialStoreError("refresh lock".into()))?;
            Arc::clone(locks.entry(self.server.clone()).or_default())
        };
        Ok(Some(CredentialRefreshGuard::new(lock.lock_owned().await)))
    }
}

/// Pending authorizations in memory only, each usable for [`PENDING_STATE_TTL`] and then gone.
#[derive(Clone)]
pub struct VolatileStateStore {
    states: Arc<Mutex<HashMap<String, (Instant, StoredAuthorizationState)>>>,
    ttl: Duration,
}

impl Default for VolatileStateStore {
    fn default() -> Self {
        Self::with_ttl(PENDING_STATE_TTL)
    }
}

impl VolatileStateStore {
    pub fn new() -> Self {
        Self::default()
    }

    /// A store whose states expire after `ttl` (tests use a short one).
    pub fn with_ttl(ttl: Duration) -> Self {
        Self { states: Arc::default(), ttl }
    }

    fn with_states<T>(
        &self,
        f: impl FnOnce(&mut HashMap<String, (Instant, StoredAuthorizationState)>) -> T,
    ) -> Result<T, AuthError> {
        let mut states =
            self.states.lock().map_err(|_| AuthError::InternalError("the state store is poisoned".into()))?;
        let ttl = self.ttl;
        states.retain(|_, (created, _)| created.elapsed() < ttl);
        Ok(f(&mut states))
    }
}

impl VolatileStateStore {
    /// What the callback of the pending authorization `csrf_token` must carry (RFC 9207 `iss`), as rmcp recorded it.
    pub fn expectation(&self, csrf_token: &str) -> super::Expectation {
        self.with_states(|states| {
            states.get(csrf_token).map(|(_, state)| super::Expectation {
                issuer: state.expected_issuer.clone(),
                require_issuer: state.require_issuer,
            })
        })
        .ok()
        .flatten()
        .unwrap_or_default()
    }
}

#[async_trait::async_trait]
impl StateStore for VolatileStateStore {
    async fn save(&self, csrf_token: &str, state: StoredAuthorizationState) -> Result<(), AuthError> {
        self.with_states(|states| {
            states.insert(csrf_token.to_owned(), (Instant::now(), state));
        })
    }

    async fn load(&self, csrf_token: &str) -> Result<Option<StoredAuthorizationState>, AuthError> {
        self.with_states(|states| states.get(csrf_token).map(|(_, state)| state.clone()))
    }

    async fn delete(&self, csrf_token: &str) -> Result<(), AuthError> {
        self.with_states(|states| {
            states.remove(csrf_token);
        })
    }
}

#[cfg(test)]
#[path = "store_tests.rs"]
mod tests;
