//! Why a registry operation failed.

use crate::config::{ConfigError, EntryError};
use crate::secrets::VaultError;

/// A failed operation on the server registry; nothing was half-done.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RegistryError {
    #[error("there is no server named {name:?}")]
    NotFound { name: String },
    #[error("a server named {name:?} already exists")]
    AlreadyExists { name: String },
    #[error(transparent)]
    Invalid(#[from] EntryError),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Vault(#[from] VaultError),
}

impl RegistryError {
    pub(crate) fn not_found(name: &str) -> Self {
        Self::NotFound { name: name.to_owned() }
    }
}
