//! `MemoryStore`: secrets held in this process only, for a session without a keychain.
//! It must never write anything to disk, and its `Debug` shows how many entries it holds, never what they are.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::{BackendKind, SecretStore, Sensitive, VaultError};

/// Keeps secrets in memory; everything is gone when the process exits.
#[derive(Default)]
pub struct MemoryStore {
    entries: Mutex<HashMap<String, Sensitive<String>>>,
}

impl MemoryStore {
    pub fn new() -> Self {
        Self::default()
    }

    fn entries(&self) -> MutexGuard<'_, HashMap<String, Sensitive<String>>> {
        // A panic elsewhere while holding the lock cannot leave a HashMap half-updated in a way that matters here.
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl fmt::Debug for MemoryStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemoryStore").field("entries", &self.entries().len()).finish()
    }
}

impl SecretStore for MemoryStore {
    fn kind(&self) -> BackendKind {
        BackendKind::MemoryOnly
    }

    fn get(&self, key: &str) -> Result<Option<Sensitive<String>>, VaultError> {
        Ok(self.entries().get(key).cloned())
    }

    fn set(&self, key: &str, value: &str) -> Result<(), VaultError> {
        self.entries().insert(key.to_owned(), Sensitive::new(value.to_owned()));
        Ok(())
    }

    fn delete(&self, key: &str) -> Result<bool, VaultError> {
        Ok(self.entries().remove(key).is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::{MemoryStore, SecretStore};

    /// Set, get, replace and delete behave like a map; a missing key is `Ok(None)` and deleting it is `Ok(false)`.
    #[test]
    fn behaves_like_a_map() {
        let store = MemoryStore::new();
        assert_eq!(store.get("s/a").expect("get"), None);
        store.set("s/a", "one").expect("set");
        store.set("s/a", "two").expect("replace");
        assert_eq!(store.get("s/a").expect("get").map(|v| v.expose().clone()), Some("two".to_owned()));
        assert!(store.delete("s/a").expect("delete"));
        assert!(!store.delete("s/a").expect("delete again"));
        assert_eq!(store.get("s/a").expect("get"), None);
    }

    /// Debug shows a count, never a key's value.
    #[test]
    fn debug_shows_no_value() {
        let store = MemoryStore::new();
        store.set("s/a", "sk-canary-memory").expect("set");
        let shown = format!("{store:?}");
        assert_eq!(shown, "MemoryStore { entries: 1 }");
    }
}
