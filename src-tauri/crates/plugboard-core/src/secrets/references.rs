//! Where `${…}` references of one server get their values: the process environment and that server's secrets.

use super::{Sensitive, Vault};
use crate::config::references::{ReferenceError, ReferenceSource};

/// The reference source for the server `server`.
pub struct ServerReferences<'a> {
    pub server: &'a str,
    pub vault: &'a Vault,
}

impl ReferenceSource for ServerReferences<'_> {
    fn env(&self, var: &str) -> Option<String> {
        std::env::var(var).ok()
    }

    fn secret(&self, name: &str) -> Result<Option<Sensitive<String>>, ReferenceError> {
        self.vault
            .get(self.server, name)
            .map_err(|e| ReferenceError::SecretUnreadable { name: name.to_owned(), reason: e.to_string() })
    }
}
