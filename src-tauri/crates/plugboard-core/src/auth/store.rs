//! rmcp's `CredentialStore` over the vault: one server's OAuth credentials in the OS keychain, bound to the resource
//! URL they were issued for, refreshed by Plugboard's rule (`refresh.rs`: a minute ahead, one process at a time), and
//! a volatile `StateStore` for pending authorizations (PKCE verifiers never reach disk).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::transport::auth::{
    AuthError, CredentialRefreshGuard, CredentialStore, StateStore, StoredAuthorizationState, StoredCredentials,
};
use serde::{Deserialize, Serialize};

use super::refresh::{self, RefreshLock};
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
    /// This server's refresh lock file (in the data dir).
    lock_path: PathBuf,
    /// The lock `load` took when it found the token due, kept for the refresh rmcp then makes.
    held: Arc<Mutex<Option<RefreshLock>>>,
    /// Set while rmcp refreshes under the guard: its own `load` must not wait for the lock it holds.
    refreshing: Arc<AtomicBool>,
}

impl VaultCredentialStore {
    /// The credentials of `server` for the resource `resource` (its MCP URL as configured).
    pub fn new(vault: Arc<Vault>, server: impl Into<String>, resource: impl Into<String>) -> Self {
        let server = server.into();
        Self {
            lock_path: refresh::lock_path(&crate::paths::data_dir(), &server),
            vault,
            server,
            resource: resource.into(),
            held: Arc::default(),
            refreshing: Arc::default(),
        }
    }

    /// The same store, its refresh lock in `data_dir` instead of the process's data dir (tests).
    pub fn locking_in(self, data_dir: &Path) -> Self {
        Self { lock_path: refresh::lock_path(data_dir, &self.server), ..self }
    }

    /// The stored credentials as a session uses them (blocking). A token due for a refresh is refreshed by one
    /// process: this waits for the server's refresh lock and reads again; still due, it keeps the lock for the
    /// refresh rmcp makes next (it sees the token as expired); refreshed meanwhile by another process, it is fresh.
    fn load_for_use(&self) -> Result<Option<StoredCredentials>, AuthError> {
        let Some(credentials) = self.load_now()? else { return Ok(None) };
        if self.refreshing.load(Ordering::SeqCst) || !refresh::due(&credentials, refresh::now()) {
            return Ok(Some(credentials));
        }
        let mut held = self.held.lock().map_err(|_| AuthError::CredentialStoreError("refresh lock".into()))?;
        if held.is_none() {
            *held = RefreshLock::acquire(&self.lock_path).map_err(|e| lock_error(&e))?;
        }
        match self.load_now()? {
            Some(latest) if refresh::due(&latest, refresh::now()) => {
                Ok(Some(refresh::as_expired(latest, refresh::now())))
            }
            other => {
                *held = None;
                Ok(other)
            }
        }
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

fn lock_error(e: &std::io::Error) -> AuthError {
    AuthError::CredentialStoreError(format!("the refresh lock in the data dir: {e}"))
}

/// rmcp holds this through a refresh's load, token request and save.
struct RefreshGuard {
    _lock: Option<RefreshLock>,
    refreshing: Arc<AtomicBool>,
}

impl Drop for RefreshGuard {
    fn drop(&mut self) {
        self.refreshing.store(false, Ordering::SeqCst);
    }
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

#[async_trait::async_trait]
impl CredentialStore for VaultCredentialStore {
    async fn load(&self) -> Result<Option<StoredCredentials>, AuthError> {
        self.blocking(|store| store.load_for_use()).await
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

    /// One refresh at a time per server across every process and session (two refreshing at once would each spend
    /// the same rotating refresh token, and the second would be refused): the lock `load` took, or the lock now.
    async fn acquire_refresh_guard(&self) -> Result<Option<CredentialRefreshGuard>, AuthError> {
        let lock = self.blocking(|store| {
            let taken = store.held.lock().map_err(|_| AuthError::CredentialStoreError("refresh lock".into()))?.take();
            match taken {
                Some(lock) => Ok(Some(lock)),
                None => RefreshLock::acquire(&store.lock_path).map_err(|e| lock_error(&e)),
            }
        });
        let lock = lock.await?;
        self.refreshing.store(true, Ordering::SeqCst);
        Ok(Some(CredentialRefreshGuard::new(RefreshGuard { _lock: lock, refreshing: Arc::clone(&self.refreshing) })))
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
