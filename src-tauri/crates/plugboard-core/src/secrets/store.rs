//! `SecretStore`: the one thing the vault needs from a backend — get, set and delete a string by key.
//! A store must never log, format or persist a value anywhere but its own backend.

use std::fmt;
use std::path::Path;

use super::{BackendKind, Sensitive, VaultError};

/// A place that keeps secret strings by key. Keys are `<server>/<name>` and the vault's own chunk and index keys;
/// a store treats them as opaque. Calls may block (the keychain is a D-Bus or OS call): async callers use
/// `spawn_blocking`.
///
/// Implementations must never put a value in a log line, an error or their `Debug` output.
pub trait SecretStore: Send + Sync + fmt::Debug {
    /// Which kind of backend this is, for [`VaultStatus`](super::VaultStatus).
    fn kind(&self) -> BackendKind;

    /// Where the secrets live on disk, for a store that keeps them in a file.
    fn location(&self) -> Option<&Path> {
        None
    }

    /// The value stored under `key`, or `Ok(None)` when there is none.
    fn get(&self, key: &str) -> Result<Option<Sensitive<String>>, VaultError>;

    /// Stores (or replaces) the value under `key`.
    fn set(&self, key: &str, value: &str) -> Result<(), VaultError>;

    /// Deletes the value under `key`; `Ok(false)` when there was none, which is not an error.
    fn delete(&self, key: &str) -> Result<bool, VaultError>;
}
