//! The bearer token that opens the gateway's HTTP endpoint: generated once, kept in the keychain (never on disk in
//! plaintext, never in a log), shown by `plugboard gateway token`, rotated on request. A running endpoint notices a
//! rotation made by another process through a marker file in the data dir that holds no secret, only a change.
//! It must never compare tokens in a way whose timing depends on how much of a guess was right.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::secrets::{Sensitive, Vault, VaultError};

/// The vault "server" that holds the token. A ':' can never be in a server's name, so no server's `${secret:…}`
/// reference (which reads only its own server's secrets) can reach it.
const VAULT_OWNER: &str = "plugboard:gateway";
const VAULT_NAME: &str = "http-token";
/// Tokens start with this so a person (and secret scanners) can tell what one is.
const PREFIX: &str = "pbg_";

/// Why the token could not be read, made or kept.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TokenError {
    /// Without a keychain the token would not survive this process, and no client could be given it for later.
    #[error(
        "the gateway's token is kept in the OS keychain, which is not available ({reason}); start the keychain \
         (on Linux a Secret Service such as gnome-keyring) and try again"
    )]
    NoKeychain { reason: String },
    #[error("the keychain refused the gateway's token: {0}")]
    Vault(#[from] VaultError),
    #[error("the system's random number generator failed: {0}")]
    Random(String),
    /// The keychain work did not finish (its thread was stopped).
    #[error("reading the gateway's token did not finish: {0}")]
    Interrupted(String),
}

/// The token's SHA-256: what the endpoint keeps and compares, so the token itself is held only briefly.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct TokenDigest([u8; 32]);

impl TokenDigest {
    pub fn of(token: &str) -> Self {
        Self(Sha256::digest(token.as_bytes()).into())
    }

    /// Constant-time: how long this takes says nothing about the guess.
    pub fn matches(&self, other: &Self) -> bool {
        self.0.ct_eq(&other.0).into()
    }
}

impl std::fmt::Debug for TokenDigest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TokenDigest(…)")
    }
}

/// The gateway token in `vault`, made and stored first if there is none. Blocks on the keychain.
pub fn current_or_new(vault: &Vault) -> Result<Sensitive<String>, TokenError> {
    require_persistent(vault)?;
    if let Some(token) = vault.get(VAULT_OWNER, VAULT_NAME)? {
        return Ok(token);
    }
    store_new(vault)
}

/// Replaces the token: every client holding the old one is refused from now on, by every running endpoint.
pub fn rotate(vault: &Vault) -> Result<Sensitive<String>, TokenError> {
    require_persistent(vault)?;
    store_new(vault)
}

fn store_new(vault: &Vault) -> Result<Sensitive<String>, TokenError> {
    let token = generate()?;
    vault.set(VAULT_OWNER, VAULT_NAME, &token)?;
    // Running endpoints (the window's, another `serve --http`) read the keychain again when this changes.
    if let Err(e) = touch_marker() {
        tracing::warn!(error = %e, "could not tell running gateways that the token changed; restart them");
    }
    Ok(token)
}

fn require_persistent(vault: &Vault) -> Result<(), TokenError> {
    if vault.status().persists {
        return Ok(());
    }
    let reason = vault.keychain_problem().map_or_else(|| "secrets are kept in memory only".into(), |e| e.to_string());
    Err(TokenError::NoKeychain { reason })
}

/// 32 random bytes, hex: 256 bits no one can guess.
fn generate() -> Result<Sensitive<String>, TokenError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| TokenError::Random(e.to_string()))?;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    Ok(Sensitive::new(format!("{PREFIX}{hex}")))
}

/// The file whose modification says "the token changed"; it holds no secret.
fn marker_path() -> PathBuf {
    crate::paths::data_dir().join("gateway-token.changed")
}

fn touch_marker() -> std::io::Result<()> {
    let path = marker_path();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let nanos = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default().as_nanos();
    std::fs::write(path, nanos.to_string())
}

/// What the endpoint accepts: the current token's digest, read again from the keychain when the marker changes.
pub struct TokenCheck {
    vault: Vault,
    state: Mutex<Seen>,
}

struct Seen {
    /// None when the token could not be read after a change: then nothing gets in.
    digest: Option<TokenDigest>,
    /// The marker's contents when the digest was read.
    marker: Option<String>,
}

impl TokenCheck {
    /// The check for `vault`'s token, made first if there is none. Blocks on the keychain.
    pub fn open(vault: Vault) -> Result<Self, TokenError> {
        let marker = read_marker();
        let digest = Some(TokenDigest::of(current_or_new(&vault)?.expose()));
        Ok(Self { vault, state: Mutex::new(Seen { digest, marker }) })
    }

    /// The digest to compare a request's token with, or None when no token may get in. Reads a small file per
    /// request and the keychain only after a rotation.
    pub async fn current(self: &Arc<Self>) -> Option<TokenDigest> {
        let marker = read_marker();
        {
            let seen = self.lock();
            if marker == seen.marker {
                return seen.digest;
            }
        }
        let this = Arc::clone(self);
        tokio::task::spawn_blocking(move || this.reload(marker)).await.unwrap_or(None)
    }

    fn reload(&self, marker: Option<String>) -> Option<TokenDigest> {
        let digest = match self.vault.get(VAULT_OWNER, VAULT_NAME) {
            Ok(Some(token)) => Some(TokenDigest::of(token.expose())),
            // Deleted: nothing may get in with the old token either.
            Ok(None) => None,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the gateway's token after it changed; refusing every client");
                None
            }
        };
        *self.lock() = Seen { digest, marker };
        digest
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Seen> {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Rotates the token from inside this process (the window's Settings): takes effect at once.
    pub fn rotate(&self) -> Result<Sensitive<String>, TokenError> {
        let token = rotate(&self.vault)?;
        *self.lock() = Seen { digest: Some(TokenDigest::of(token.expose())), marker: read_marker() };
        Ok(token)
    }
}

fn read_marker() -> Option<String> {
    std::fs::read_to_string(marker_path()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::memory_vault;

    /// Digests match only the same token, and a token is 256 bits of hex behind its prefix.
    #[test]
    fn tokens_are_long_random_and_compared_by_digest() {
        let a = generate().expect("random");
        let b = generate().expect("random");
        assert_ne!(a.expose(), b.expose());
        assert!(a.expose().starts_with(PREFIX) && a.expose().len() == PREFIX.len() + 64, "{}", a.expose());
        assert!(TokenDigest::of(a.expose()).matches(&TokenDigest::of(a.expose())));
        assert!(!TokenDigest::of(a.expose()).matches(&TokenDigest::of(b.expose())));
    }

    /// Without a keychain there is no token (it could not be handed to a client for later), and the error says
    /// what to do.
    #[test]
    fn a_memory_only_vault_gets_no_token() {
        let error = current_or_new(&memory_vault()).expect_err("memory-only");
        assert!(error.to_string().contains("OS keychain"), "{error}");
    }
}
