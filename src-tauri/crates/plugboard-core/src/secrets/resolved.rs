//! The secret values one connection was made with: recorded while a server's `${secret:…}` references are
//! expanded (`RecordingReferences`), and kept by its actor so the console redacts them without reading the keychain
//! again on every call. It must never print a value: its `Debug` lists the names only.

use std::cell::RefCell;
use std::sync::Arc;

use super::Sensitive;
use super::references::ServerReferences;
use crate::config::references::{ReferenceError, ReferenceSource};

/// Names and values of the secrets a server was given; cheap to clone.
#[derive(Clone, Default)]
pub struct ResolvedSecrets(Arc<Vec<(String, Sensitive<String>)>>);

impl std::fmt::Debug for ResolvedSecrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResolvedSecrets").field("names", &self.0.iter().map(|(n, _)| n).collect::<Vec<_>>()).finish()
    }
}

impl ResolvedSecrets {
    /// Each secret's name and value.
    pub fn pairs(&self) -> impl Iterator<Item = (String, Sensitive<String>)> + '_ {
        self.0.iter().cloned()
    }

    /// Whether both are the very same recording (a new session records anew): a cheap test for "unchanged".
    pub fn same_as(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// A server's reference source that remembers every secret it handed out.
pub struct RecordingReferences<'a> {
    inner: ServerReferences<'a>,
    read: RefCell<Vec<(String, Sensitive<String>)>>,
}

impl<'a> RecordingReferences<'a> {
    pub fn new(inner: ServerReferences<'a>) -> Self {
        Self { inner, read: RefCell::default() }
    }

    /// What was handed out, each secret once.
    pub fn into_resolved(self) -> ResolvedSecrets {
        let mut read = self.read.into_inner();
        read.sort_by(|a, b| a.0.cmp(&b.0));
        read.dedup_by(|a, b| a.0 == b.0);
        ResolvedSecrets(Arc::new(read))
    }
}

impl ReferenceSource for RecordingReferences<'_> {
    fn env(&self, var: &str) -> Option<String> {
        self.inner.env(var)
    }

    fn secret(&self, name: &str) -> Result<Option<Sensitive<String>>, ReferenceError> {
        let value = self.inner.secret(name)?;
        if let Some(value) = &value {
            self.read.borrow_mut().push((name.to_owned(), value.clone()));
        }
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::config::references::expand;
    use crate::secrets::{MemoryStore, Vault};

    /// Expanding through the recorder yields the values as usual and remembers each secret once, by name; the
    /// `Debug` text never holds a value.
    #[test]
    fn records_each_secret_handed_out() {
        let vault = Vault::with_store(Arc::new(MemoryStore::default()));
        vault.set("gh", "token", &Sensitive::new("ghp_value_123".to_owned())).expect("set");
        let recorder = RecordingReferences::new(ServerReferences { server: "gh", vault: &vault });
        let header = expand("Bearer ${secret:token}", &recorder).expect("expand");
        assert_eq!(header.value.expose(), "Bearer ghp_value_123");
        expand("${secret:token}", &recorder).expect("again");
        let resolved = recorder.into_resolved();
        let pairs: Vec<(String, String)> = resolved.pairs().map(|(n, v)| (n, v.expose().clone())).collect();
        assert_eq!(pairs, [("token".to_owned(), "ghp_value_123".to_owned())]);
        assert!(!format!("{resolved:?}").contains("ghp_value"), "{resolved:?}");
    }
}
