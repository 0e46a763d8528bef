//! `KeychainStore`: the OS keychain through keyring, every entry filed under `service = "plugboard"`.
//! It must never fall back to anything else: when the keychain fails, the caller gets the error.

use std::fmt;

use super::{BackendKind, SecretStore, Sensitive, VaultError};

/// The keychain service name every Plugboard entry is filed under.
pub const KEYCHAIN_SERVICE: &str = "plugboard";

/// A user name no vault key can take (vault keys always contain a `/`), read once to prove the keychain answers.
const PROBE_USER: &str = "plugboard-reachability-probe";

/// The OS keychain. Construct it with [`KeychainStore::open`], which proves the keychain is reachable.
pub struct KeychainStore {
    // Only `open` makes one, so holding a KeychainStore means the keychain answered at least once.
    _reachable: (),
}

impl KeychainStore {
    /// Connects to the OS keychain and reads one absent entry to prove it answers.
    /// `KeychainUnavailable` (with what to do) when there is no keychain; a locked keychain still counts as
    /// reachable, since unlocking it later is all it takes.
    pub fn open() -> Result<Self, VaultError> {
        // keyring picks and connects its default store once per process; this is that one attempt's result.
        if let Err(e) = keyring::Entry::store_status() {
            return Err(VaultError::KeychainUnavailable { reason: e.to_string() });
        }
        match entry(PROBE_USER)?.get_password() {
            Ok(_) | Err(keyring::Error::NoEntry | keyring::Error::NoStorageAccess(_)) => Ok(Self { _reachable: () }),
            Err(e @ keyring::Error::PlatformFailure(_)) => {
                Err(VaultError::KeychainUnavailable { reason: e.to_string() })
            }
            Err(e) => Err(e.into()),
        }
    }

    #[cfg(test)]
    pub(crate) fn unverified_for_tests() -> Self {
        Self { _reachable: () }
    }
}

impl fmt::Debug for KeychainStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeychainStore").field("service", &KEYCHAIN_SERVICE).finish()
    }
}

impl SecretStore for KeychainStore {
    fn kind(&self) -> BackendKind {
        BackendKind::Keychain
    }

    fn get(&self, key: &str) -> Result<Option<Sensitive<String>>, VaultError> {
        match entry(key)?.get_password() {
            Ok(value) => Ok(Some(Sensitive::new(value))),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(keyring::Error::BadEncoding(_)) => {
                Err(VaultError::Corrupt { key: key.to_owned(), reason: "the keychain entry is not UTF-8 text".into() })
            }
            Err(e) => Err(e.into()),
        }
    }

    fn set(&self, key: &str, value: &str) -> Result<(), VaultError> {
        Ok(entry(key)?.set_password(value)?)
    }

    fn delete(&self, key: &str) -> Result<bool, VaultError> {
        match entry(key)?.delete_credential() {
            Ok(()) => Ok(true),
            Err(keyring::Error::NoEntry) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }
}

fn entry(user: &str) -> Result<keyring::Entry, VaultError> {
    Ok(keyring::Entry::new(KEYCHAIN_SERVICE, user)?)
}
