//! DPoP (RFC 9449, SEP-1932): one server's proof-of-possession key and the proofs it signs, for the token requests
//! (`oauth_http.rs`) and every MCP request (`transport/dpop_http.rs`) of a login whose token is bound to it. The key
//! is an ES256 pair kept in the keychain beside the login (`oauth:dpop-key`), so every process using the token can
//! prove it holds the key. It must never put the private key in a proof, a log line or an error.

use std::collections::HashMap;
use std::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use ring::rand::SystemRandom;
use ring::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair as _};
use rmcp::transport::auth::AuthorizationMetadata;
use sha2::{Digest, Sha256};
use url::Url;

use crate::secrets::{Sensitive, Vault, VaultError};

/// The vault name of a server's DPoP private key (PKCS#8, base64).
pub const DPOP_KEY_SECRET: &str = "oauth:dpop-key";
/// The one algorithm Plugboard signs proofs with; the authorization server must list it.
const ALGORITHM: &str = "ES256";

/// A P-256 key pair that signs DPoP proofs.
pub struct DpopKey {
    pair: EcdsaKeyPair,
    pkcs8: Sensitive<Vec<u8>>,
    /// The public key as the proofs' `jwk` header carries it: `crv`, `kty`, `x`, `y`, in RFC 7638's order.
    jwk: serde_json::Value,
}

/// Why a key could not be made or read.
#[derive(Debug, thiserror::Error)]
pub enum DpopKeyError {
    #[error("the DPoP key could not be generated")]
    Generate,
    #[error("the stored DPoP key is damaged")]
    Damaged,
    #[error("a DPoP proof could not be signed")]
    Sign,
    #[error(transparent)]
    Vault(#[from] VaultError),
}

impl DpopKey {
    /// A new key pair.
    pub fn generate() -> Result<Self, DpopKeyError> {
        let document = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &SystemRandom::new())
            .map_err(|_| DpopKeyError::Generate)?;
        Self::from_pkcs8(document.as_ref().to_vec())
    }

    /// The key pair whose PKCS#8 document this is.
    pub fn from_pkcs8(pkcs8: Vec<u8>) -> Result<Self, DpopKeyError> {
        let pair = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &pkcs8, &SystemRandom::new())
            .map_err(|_| DpopKeyError::Damaged)?;
        // An uncompressed point: 0x04, then x and y of 32 bytes each.
        let point = pair.public_key().as_ref();
        let (x, y) = point[1..].split_at(32);
        let jwk = serde_json::json!({
            "crv": "P-256", "kty": "EC", "x": URL_SAFE_NO_PAD.encode(x), "y": URL_SAFE_NO_PAD.encode(y)
        });
        Ok(Self { pair, pkcs8: Sensitive::new(pkcs8), jwk })
    }

    /// The RFC 7638 thumbprint of the public key: what a bound token's `cnf.jkt` names.
    pub fn thumbprint(&self) -> String {
        // serde_json writes an object's keys sorted, without spaces: the canonical form RFC 7638 asks for.
        URL_SAFE_NO_PAD.encode(Sha256::digest(self.jwk.to_string().as_bytes()))
    }

    /// The public key as a JWK.
    pub fn public_jwk(&self) -> &serde_json::Value {
        &self.jwk
    }

    /// A fresh proof for `method` on `url` (its query and fragment left out, as RFC 9449 §4.2 asks), bound to
    /// `access_token` when one is presented with it and carrying the server's `nonce` when it asked for one.
    pub fn proof(
        &self,
        method: &str,
        url: &str,
        access_token: Option<&str>,
        nonce: Option<&str>,
    ) -> Result<String, DpopKeyError> {
        let header = serde_json::json!({"typ": "dpop+jwt", "alg": ALGORITHM, "jwk": self.jwk});
        let mut claims = serde_json::json!({
            "jti": random_id()?, "htm": method, "htu": target_uri(url), "iat": now_secs()
        });
        if let Some(token) = access_token {
            claims["ath"] = URL_SAFE_NO_PAD.encode(Sha256::digest(token.as_bytes())).into();
        }
        if let Some(nonce) = nonce {
            claims["nonce"] = nonce.into();
        }
        let signing_input =
            format!("{}.{}", URL_SAFE_NO_PAD.encode(header.to_string()), URL_SAFE_NO_PAD.encode(claims.to_string()));
        let signature =
            self.pair.sign(&SystemRandom::new(), signing_input.as_bytes()).map_err(|_| DpopKeyError::Sign)?;
        Ok(format!("{signing_input}.{}", URL_SAFE_NO_PAD.encode(signature.as_ref())))
    }
}

/// One login's DPoP state, shared by its token requests and its MCP requests: the key, whether the login's token is
/// bound to it (`active`), and the last nonce each server (by origin) supplied.
pub struct Dpop {
    key: DpopKey,
    active: AtomicBool,
    nonces: Mutex<HashMap<String, String>>,
}

impl fmt::Debug for Dpop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Dpop").field("thumbprint", &self.key.thumbprint()).field("active", &self.is_active()).finish()
    }
}

impl Dpop {
    /// Inactive state over `key`: no proof is sent until [`Dpop::activate`].
    pub fn new(key: DpopKey) -> Self {
        Self { key, active: AtomicBool::new(false), nonces: Mutex::default() }
    }

    /// The key kept for `server` (blocking), if it has one.
    pub fn stored(vault: &Vault, server: &str) -> Result<Option<Self>, DpopKeyError> {
        let Some(encoded) = vault.get(server, DPOP_KEY_SECRET)? else { return Ok(None) };
        let pkcs8 = STANDARD.decode(encoded.expose().trim()).map_err(|_| DpopKeyError::Damaged)?;
        Ok(Some(Self::new(DpopKey::from_pkcs8(pkcs8)?)))
    }

    /// The key kept for `server`, or a new one not yet kept (blocking): a login binds its token to it and keeps
    /// it with [`Dpop::keep`] only when the authorization server issued a bound token.
    pub fn for_login(vault: &Vault, server: &str) -> Result<Self, DpopKeyError> {
        match Self::stored(vault, server) {
            Ok(Some(kept)) => Ok(kept),
            // A damaged key is replaced; the login that follows binds its token to the new one.
            Ok(None) | Err(DpopKeyError::Damaged) => Ok(Self::new(DpopKey::generate()?)),
            Err(other) => Err(other),
        }
    }

    /// Keeps the key for `server` in the keychain (blocking).
    pub fn keep(&self, vault: &Vault, server: &str) -> Result<(), DpopKeyError> {
        let encoded = STANDARD.encode(self.key.pkcs8.expose());
        Ok(vault.set(server, DPOP_KEY_SECRET, &Sensitive::new(encoded))?)
    }

    /// Forgets the key of `server` (blocking): its login is no longer bound to one.
    pub fn forget(vault: &Vault, server: &str) -> Result<(), VaultError> {
        vault.delete(server, DPOP_KEY_SECRET)
    }

    /// From now on, token requests and MCP requests carry proofs.
    pub fn activate(&self) {
        self.active.store(true, Ordering::SeqCst);
    }

    /// Proofs stop: the token turned out not to be bound (the authorization server ignored the proof).
    pub fn deactivate(&self) {
        self.active.store(false, Ordering::SeqCst);
    }

    pub fn is_active(&self) -> bool {
        self.active.load(Ordering::SeqCst)
    }

    /// A proof for a request to `url`, with the nonce its server last supplied.
    pub fn proof_for(&self, method: &str, url: &str, access_token: Option<&str>) -> Result<String, DpopKeyError> {
        let nonce = self.nonce_of(url);
        self.key.proof(method, url, access_token, nonce.as_deref())
    }

    /// The nonce the server at `url` last supplied.
    pub fn nonce_of(&self, url: &str) -> Option<String> {
        let origin = origin(url)?;
        self.nonces.lock().ok()?.get(&origin).cloned()
    }

    /// Remembers the nonce the server at `url` supplied; returns whether it is new (a retry with it may pass).
    pub fn learn_nonce(&self, url: &str, nonce: &str) -> bool {
        let (Some(origin), Ok(mut nonces)) = (origin(url), self.nonces.lock()) else { return false };
        nonces.insert(origin, nonce.to_owned()).as_deref() != Some(nonce)
    }
}

/// Whether the authorization server accepts proofs Plugboard can sign (`dpop_signing_alg_values_supported`).
pub fn offered_by(metadata: &AuthorizationMetadata) -> bool {
    metadata
        .additional_fields
        .get("dpop_signing_alg_values_supported")
        .and_then(serde_json::Value::as_array)
        .is_some_and(|algorithms| algorithms.iter().any(|a| a.as_str() == Some(ALGORITHM)))
}

/// Whether a token type is DPoP's (RFC 9449 §5: `token_type` is case-insensitive).
pub fn is_dpop_token_type(token_type: &str) -> bool {
    token_type.eq_ignore_ascii_case("DPoP")
}

/// Whether a `WWW-Authenticate` challenge or an OAuth error body asks for a nonce (RFC 9449 §8, §9).
pub fn asks_for_nonce(text: &str) -> bool {
    text.contains("use_dpop_nonce")
}

/// `url` without its query and fragment: a proof's `htu`.
fn target_uri(url: &str) -> String {
    match Url::parse(url) {
        Ok(mut parsed) => {
            parsed.set_query(None);
            parsed.set_fragment(None);
            parsed.to_string()
        }
        Err(_) => url.split(['?', '#']).next().unwrap_or(url).to_owned(),
    }
}

fn origin(url: &str) -> Option<String> {
    Url::parse(url).ok().map(|u| u.origin().ascii_serialization())
}

fn random_id() -> Result<String, DpopKeyError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|_| DpopKeyError::Sign)?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

fn now_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or_default()
}

#[cfg(test)]
#[path = "dpop_tests.rs"]
mod tests;
