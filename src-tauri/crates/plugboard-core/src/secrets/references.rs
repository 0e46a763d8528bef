//! Where `${…}` references of one server get their values: the process environment and that server's secrets.

use super::{Sensitive, Vault};
use crate::config::references::{ReferenceError, ReferenceSource};

/// The reference source for the server `server`.
pub struct ServerReferences<'a> {
    pub server: &'a str,
    pub vault: &'a Vault,
}

/// Vault names starting with this are Plugboard's own (OAuth logins live under `oauth:credentials` and
/// `oauth:client-secret`); `${secret:…}` references cannot read them. The vault's naming rule, kept here so the
/// secrets module depends on nothing above it.
pub const RESERVED_SECRET_PREFIX: &str = "oauth:";

impl ReferenceSource for ServerReferences<'_> {
    fn env(&self, var: &str) -> Option<String> {
        std::env::var(var).ok()
    }

    fn secret(&self, name: &str) -> Result<Option<Sensitive<String>>, ReferenceError> {
        // OAuth tokens are handed only to the resource they were issued for, never spliced into a header or argv.
        if name.starts_with(RESERVED_SECRET_PREFIX) {
            return Err(ReferenceError::SecretUnreadable {
                name: name.to_owned(),
                reason: "names starting with \"oauth:\" hold Plugboard's logins and cannot be referenced".into(),
            });
        }
        self.vault.get(self.server, name).map_err(|e| match e {
            super::VaultError::Locked { reason } => ReferenceError::KeychainLocked { name: name.to_owned(), reason },
            other => ReferenceError::SecretUnreadable { name: name.to_owned(), reason: other.to_string() },
        })
    }
}
