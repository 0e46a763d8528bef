//! The keychain-backed vault: `service = "plugboard"`, `user = "<server>/<secret name>"`.

use super::{Sensitive, VaultError};

/// The keychain service name every Plugboard entry is filed under.
pub const KEYCHAIN_SERVICE: &str = "plugboard";

/// Reads and writes per-server secrets in the OS keychain.
#[derive(Debug, Clone, Copy, Default)]
pub struct Vault;

impl Vault {
    /// Checks that a keychain is reachable, so the UI can say so before anyone types a secret.
    pub fn status(self) -> Result<(), VaultError> {
        keyring::Entry::store_status()
            .as_ref()
            .map(|_| ())
            .map_err(|e| VaultError::KeychainUnavailable { reason: e.to_string() })
    }

    /// The secret `name` of `server`, or `Ok(None)` when there is none.
    pub fn get(self, server: &str, name: &str) -> Result<Option<Sensitive<String>>, VaultError> {
        match entry(server, name)?.get_password() {
            Ok(value) => Ok(Some(Sensitive::new(value))),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// Stores (or replaces) the secret `name` of `server`.
    pub fn set(self, server: &str, name: &str, value: &Sensitive<String>) -> Result<(), VaultError> {
        Ok(entry(server, name)?.set_password(value.expose())?)
    }

    /// Deletes the secret; deleting one that does not exist is not an error.
    pub fn delete(self, server: &str, name: &str) -> Result<(), VaultError> {
        match entry(server, name)?.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(e.into()),
        }
    }
}

fn entry(server: &str, name: &str) -> Result<keyring::Entry, VaultError> {
    Ok(keyring::Entry::new(KEYCHAIN_SERVICE, &format!("{server}/{name}"))?)
}
