//! The vault: per-server secrets under `<server>/<name>`, over ONE store chosen once — the keychain when it is
//! reachable, else memory for the session, else (only when the person opted in) the insecure plaintext file. The
//! choice is made at first use, not at start: probing the Secret Service costs a process that never needs a secret
//! (most `serve --stdio` start-ups) ~15 ms and ~6 MiB. It must never switch stores once chosen, and never write a
//! secret anywhere but the chosen store.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use super::locks::with_server_lock;
use super::{InsecureFileStore, KeychainStore, MemoryStore, SecretStore, Sensitive, VaultError, VaultStatus, chunked};

/// Where secrets go when the keychain cannot be reached.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Fallback {
    /// Keep them in memory until Plugboard quits (the default: nothing secret lands on disk).
    #[default]
    MemoryOnly,
    /// INSECURE: keep them in this plaintext file. Only when the person explicitly opted in.
    InsecurePlaintextFile(PathBuf),
}

/// Set to `1` to opt into the insecure plaintext file store when no keychain can be reached (like gh's
/// `--insecure-storage`). Anything else, or unset, keeps secrets in memory only.
pub const INSECURE_OPT_IN_ENV: &str = "PLUGBOARD_INSECURE_PLAINTEXT_SECRETS";

impl Fallback {
    /// The fallback the person chose: the insecure file only with `PLUGBOARD_INSECURE_PLAINTEXT_SECRETS=1`.
    pub fn from_env() -> Self {
        Self::chosen(std::env::var(INSECURE_OPT_IN_ENV).is_ok_and(|v| v.trim() == "1"))
    }

    /// The fallback for an explicit yes or no to the insecure file store.
    pub fn chosen(insecure_file: bool) -> Self {
        if insecure_file { Self::InsecurePlaintextFile(InsecureFileStore::default_path()) } else { Self::MemoryOnly }
    }
}

/// Reads and writes per-server secrets. Cheap to clone; clones share the store (and its one choice). Every call
/// may block on the keychain, the first one on probing it too: call it from `spawn_blocking` in async code.
#[derive(Debug, Clone)]
pub struct Vault {
    inner: Arc<Choice>,
}

/// The store, chosen at most once: `fallback` is what the first use falls back to when the keychain fails.
#[derive(Debug)]
struct Choice {
    chosen: OnceLock<Chosen>,
    fallback: Fallback,
    /// `KeychainStore::open`, but for tests that count the probes.
    probe: fn() -> Result<KeychainStore, VaultError>,
    /// Counts this process's writes and deletes, so whoever keeps values read from the vault knows to read again.
    generation: AtomicU64,
}

#[derive(Debug)]
struct Chosen {
    store: Arc<dyn SecretStore>,
    status: VaultStatus,
    keychain_problem: Option<VaultError>,
}

impl Vault {
    /// The keychain when it is reachable; otherwise `fallback`, with the reason kept in [`Vault::status`] and
    /// [`Vault::keychain_problem`] so the UI can say so. Nothing is probed here: the first call that needs the store (a secret, the status) does it.
    pub fn open(fallback: Fallback) -> Self {
        Self::probing(KeychainStore::open, fallback)
    }

    pub(crate) fn probing(probe: fn() -> Result<KeychainStore, VaultError>, fallback: Fallback) -> Self {
        Self { inner: Arc::new(Choice { chosen: OnceLock::new(), fallback, probe, generation: AtomicU64::new(0) }) }
    }

    /// A vault that chose already, from `keychain` as a probe would have returned it.
    #[cfg(test)]
    pub(crate) fn choose(keychain: Result<KeychainStore, VaultError>, fallback: Fallback) -> Self {
        let chosen = OnceLock::from(Chosen::pick(keychain, &fallback));
        Self { inner: Arc::new(Choice { chosen, fallback, probe: KeychainStore::open, generation: AtomicU64::new(0) }) }
    }

    /// The keychain, or `KeychainUnavailable` (with what to do) for callers that must not run without it.
    pub fn keychain() -> Result<Self, VaultError> {
        KeychainStore::open().map(|store| Self::with_store(Arc::new(store)))
    }

    /// A vault over any store: tests, the Windows size-limit fake, a deliberately memory-only session.
    pub fn with_store(store: Arc<dyn SecretStore>) -> Self {
        let chosen = OnceLock::from(Chosen::over(store));
        Self {
            inner: Arc::new(Choice {
                chosen,
                fallback: Fallback::MemoryOnly,
                probe: KeychainStore::open,
                generation: AtomicU64::new(0),
            }),
        }
    }

    /// The store, probing the keychain the first time.
    fn chosen(&self) -> &Chosen {
        self.inner.chosen.get_or_init(|| Chosen::pick((self.inner.probe)(), &self.inner.fallback))
    }

    fn store(&self) -> &dyn SecretStore {
        self.chosen().store.as_ref()
    }
}

impl Chosen {
    fn over(store: Arc<dyn SecretStore>) -> Self {
        let status = status_of(store.as_ref(), None);
        Self { store, status, keychain_problem: None }
    }

    fn pick(keychain: Result<KeychainStore, VaultError>, fallback: &Fallback) -> Self {
        let problem = match keychain {
            Ok(store) => return Self::over(Arc::new(store)),
            Err(problem) => problem,
        };
        let store: Arc<dyn SecretStore> = match fallback {
            Fallback::MemoryOnly => Arc::new(MemoryStore::new()),
            Fallback::InsecurePlaintextFile(path) => Arc::new(InsecureFileStore::new(path.clone())),
        };
        tracing::warn!(
            error = %problem,
            backend = ?store.kind(),
            "the OS keychain is unavailable; secrets go to the fallback store for this session"
        );
        let reason = match &problem {
            VaultError::KeychainUnavailable { reason } => reason.clone(),
            other => other.to_string(),
        };
        let status = status_of(store.as_ref(), Some(reason));
        Self { store, status, keychain_problem: Some(problem) }
    }
}

impl Vault {
    /// Where secrets live this session, for the UI (asking is a first use: the keychain is probed if it was not).
    pub fn status(&self) -> &VaultStatus {
        &self.chosen().status
    }

    /// Why the keychain is not in use, when it was tried and failed: usually `KeychainUnavailable` (asking is a
    /// first use, like [`Vault::status`]).
    pub fn keychain_problem(&self) -> Option<&VaultError> {
        self.chosen().keychain_problem.as_ref()
    }

    /// Whether the store has been chosen yet (the keychain probed), without choosing it.
    pub fn is_chosen(&self) -> bool {
        self.inner.chosen.get().is_some()
    }

    /// The secret `name` of `server`, or `Ok(None)` when there is none.
    pub fn get(&self, server: &str, name: &str) -> Result<Option<Sensitive<String>>, VaultError> {
        let key = secret_key(server, name)?;
        with_server_lock(server, || chunked::read(self.store(), &key))
    }

    /// Stores (or replaces) the secret `name` of `server`. A failure is returned as it is: nothing falls back to
    /// another store.
    pub fn set(&self, server: &str, name: &str, value: &Sensitive<String>) -> Result<(), VaultError> {
        let key = secret_key(server, name)?;
        self.writing(server, || {
            // The index is written first: a crash in between leaves a listed name with no secret, which is harmless,
            // rather than a secret that removing the server would not find.
            let mut names = self.index(server)?;
            if names.insert(name.to_owned()) {
                self.write_index(server, &names)?;
            }
            chunked::write(self.store(), &key, value.expose())
        })
    }

    /// Deletes the secret; deleting one that does not exist is not an error.
    pub fn delete(&self, server: &str, name: &str) -> Result<(), VaultError> {
        let key = secret_key(server, name)?;
        self.writing(server, || {
            chunked::delete(self.store(), &key)?;
            match self.index(server) {
                Ok(mut names) => match names.remove(name) {
                    true => self.write_index(server, &names),
                    false => Ok(()),
                },
                // The secret is gone, which is what was asked; removing the server clears the damaged index.
                Err(e @ VaultError::Corrupt { .. }) => {
                    tracing::warn!(server, error = %e, "deleted a secret but could not update the server's index");
                    Ok(())
                }
                Err(e) => Err(e),
            }
        })
    }

    /// How many writes and deletes this process finished so far (a failed one counts too: it may have done half):
    /// a reader that kept values compares it with what it saw.
    pub fn generation(&self) -> u64 {
        self.inner.generation.load(Ordering::Acquire)
    }

    /// A write or delete under the server's lock, counted once it is over.
    fn writing<T>(&self, server: &str, op: impl FnOnce() -> Result<T, VaultError>) -> Result<T, VaultError> {
        let done = with_server_lock(server, op);
        self.inner.generation.fetch_add(1, Ordering::AcqRel);
        done
    }

    /// The names of the secrets stored for `server`, sorted.
    pub fn names(&self, server: &str) -> Result<Vec<String>, VaultError> {
        validate_server(server)?;
        with_server_lock(server, || Ok(self.index(server)?.into_iter().collect()))
    }

    /// Deletes every secret of `server`: the ones its index lists plus `known_names` (e.g. the `${secret:…}`
    /// references in its config), and the index itself. Returns how many secrets were deleted.
    pub fn delete_server(&self, server: &str, known_names: &[&str]) -> Result<usize, VaultError> {
        validate_server(server)?;
        let mut names = BTreeSet::new();
        for name in known_names {
            validate_name(name)?;
            names.insert((*name).to_owned());
        }
        self.writing(server, || {
            match self.index(server) {
                Ok(listed) => names.extend(listed),
                Err(e @ VaultError::Corrupt { .. }) => {
                    tracing::warn!(server, error = %e, "the server's index is damaged; deleting the secrets named in its config");
                }
                Err(e) => return Err(e),
            }
            let mut deleted = 0;
            for name in &names {
                if chunked::delete(self.store(), &format!("{server}/{name}"))? {
                    deleted += 1;
                }
            }
            chunked::delete(self.store(), &index_key(server))?;
            Ok(deleted)
        })
    }

    /// The names the server's index lists; empty when it has none.
    fn index(&self, server: &str) -> Result<BTreeSet<String>, VaultError> {
        let key = index_key(server);
        let Some(text) = chunked::read(self.store(), &key)? else { return Ok(BTreeSet::new()) };
        serde_json::from_str(text.expose())
            .map_err(|_| VaultError::Corrupt { key, reason: "the list of this server's secrets is not valid".into() })
    }

    fn write_index(&self, server: &str, names: &BTreeSet<String>) -> Result<(), VaultError> {
        let key = index_key(server);
        if names.is_empty() {
            return chunked::delete(self.store(), &key).map(drop);
        }
        let text = serde_json::to_string(names)
            .map_err(|_| VaultError::Backend { reason: "cannot encode the server's index".into() })?;
        chunked::write(self.store(), &key, &text)
    }
}

fn status_of(store: &dyn SecretStore, keychain_unavailable: Option<String>) -> VaultStatus {
    let path = store.location().map(|p| p.display().to_string());
    VaultStatus::new(store.kind(), path, keychain_unavailable)
}

/// `<server>/<name>`: the entry a secret is filed under, as before chunking and indexes existed.
fn secret_key(server: &str, name: &str) -> Result<String, VaultError> {
    validate_server(server)?;
    validate_name(name)?;
    Ok(format!("{server}/{name}"))
}

/// `<server>/.index`: secret names cannot start with a dot, so this never collides with a secret.
fn index_key(server: &str) -> String {
    format!("{server}/.index")
}

/// A server name has no `/` (so the first `/` of a key ends it) and no `#` (chunk keys end in `#<n>`).
fn validate_server(server: &str) -> Result<(), VaultError> {
    let reason = if server.is_empty() {
        "a server name cannot be empty"
    } else if server.contains(['/', '#']) {
        "a server name cannot contain '/' or '#'"
    } else if server.chars().any(char::is_control) {
        "a server name cannot contain control characters"
    } else {
        return Ok(());
    };
    Err(VaultError::InvalidName { name: server.to_owned(), reason })
}

/// A secret name may contain `/` (e.g. an issuer), but no `#` (chunk keys) and no leading `.` (the vault's own).
fn validate_name(name: &str) -> Result<(), VaultError> {
    let reason = if name.is_empty() {
        "a secret name cannot be empty"
    } else if name.contains('#') {
        "a secret name cannot contain '#'"
    } else if name.starts_with('.') {
        "a secret name cannot start with '.'"
    } else if name.chars().any(char::is_control) {
        "a secret name cannot contain control characters"
    } else {
        return Ok(());
    };
    Err(VaultError::InvalidName { name: name.to_owned(), reason })
}

#[cfg(test)]
#[path = "vault_tests.rs"]
mod tests;
