//! The vault's behaviour over in-memory stores and the Windows size-limit fake; the real keychain is exercised in
//! tests/app/keychain.rs. These tests must never touch the real keychain or write outside a temp dir.

use std::sync::Arc;
use std::thread;

use super::{Fallback, Vault};
use crate::secrets::{
    BackendKind, InsecureFileStore, KeychainStore, MemoryStore, SecretStore, Sensitive, VaultError, VaultStatus,
    WindowsSizeLimitFake,
};

const CANARY: &str = "sk-live-CANARY-value-never-shown";

fn secret(value: &str) -> Sensitive<String> {
    Sensitive::new(value.to_owned())
}

fn unavailable() -> VaultError {
    VaultError::KeychainUnavailable { reason: "Platform failure: no D-Bus session".into() }
}

/// A store that answers every call with the same error, like a locked keychain.
#[derive(Debug)]
struct Refusing(VaultError);

impl SecretStore for Refusing {
    fn kind(&self) -> BackendKind {
        BackendKind::Keychain
    }
    fn get(&self, _: &str) -> Result<Option<Sensitive<String>>, VaultError> {
        Err(self.0.clone())
    }
    fn set(&self, _: &str, _: &str) -> Result<(), VaultError> {
        Err(self.0.clone())
    }
    fn delete(&self, _: &str) -> Result<bool, VaultError> {
        Err(self.0.clone())
    }
}

/// A 10 KB token round-trips through a vault over the Windows size-limit fake; reading an absent secret is
/// `Ok(None)` and deleting twice is fine.
#[test]
fn a_long_token_round_trips_over_the_windows_fake() {
    let vault = Vault::with_store(Arc::new(WindowsSizeLimitFake::new()));
    let token = secret(&format!("{CANARY}-{}", "Ω😀x".repeat(2_500)));
    assert_eq!(vault.get("linear", "oauth").expect("read before"), None);
    vault.set("linear", "oauth", &token).expect("store");
    assert_eq!(vault.get("linear", "oauth").expect("read back"), Some(token));
    vault.delete("linear", "oauth").expect("delete");
    assert_eq!(vault.get("linear", "oauth").expect("read after delete"), None);
    vault.delete("linear", "oauth").expect("deleting twice is not an error");
}

/// The index lists what was set, forgets what was deleted, and is not itself a secret name.
#[test]
fn names_follow_set_and_delete() {
    let vault = Vault::with_store(Arc::new(MemoryStore::new()));
    vault.set("gh", "token", &secret("a")).expect("set");
    vault.set("gh", "oauth/https://issuer.example", &secret("b")).expect("set");
    vault.set("gh", "token", &secret("replaced")).expect("replace");
    assert_eq!(vault.names("gh").expect("names"), ["oauth/https://issuer.example", "token"]);
    vault.delete("gh", "token").expect("delete");
    assert_eq!(vault.names("gh").expect("names"), ["oauth/https://issuer.example"]);
    assert_eq!(vault.names("other").expect("names"), Vec::<String>::new());
}

/// Removing a server deletes every secret it had — chunks, index and names known only from its config — and
/// nothing of another server.
#[test]
fn delete_server_removes_everything_of_that_server_only() {
    let store = Arc::new(WindowsSizeLimitFake::new());
    let vault = Vault::with_store(store.clone());
    vault.set("gone", "token", &secret(&"t".repeat(6_000))).expect("set");
    vault.set("gone", "refresh", &secret("r")).expect("set");
    // Written before indexes existed: only the config still names it.
    store.set("gone/legacy", "l").expect("set");
    vault.set("kept", "token", &secret("k")).expect("set");

    assert_eq!(vault.delete_server("gone", &["legacy", "never-set"]).expect("delete server"), 3);
    for key in ["gone/token", "gone/token#1", "gone/token#6", "gone/token#7", "gone/refresh", "gone/legacy"] {
        assert_eq!(store.get(key).expect("get"), None, "{key}");
    }
    assert_eq!(store.get("gone/.index").expect("get"), None);
    assert_eq!(vault.names("gone").expect("names"), Vec::<String>::new());
    assert_eq!(vault.get("kept", "token").expect("get"), Some(secret("k")));
    assert_eq!(
        format!("{store:?}"),
        "WindowsSizeLimitFake { inner: MemoryStore { entries: 2 } }",
        "kept/token + index"
    );
    assert_eq!(vault.delete_server("gone", &[]).expect("again"), 0);
}

/// A damaged index does not stop a server's removal: the names from its config and the index itself go.
#[test]
fn delete_server_survives_a_damaged_index() {
    let store = Arc::new(MemoryStore::new());
    let vault = Vault::with_store(store.clone());
    vault.set("srv", "token", &secret("t")).expect("set");
    store.set("srv/.index", "not json").expect("damage");
    assert!(matches!(vault.set("srv", "other", &secret("o")), Err(VaultError::Corrupt { .. })));
    assert_eq!(vault.delete_server("srv", &["token"]).expect("delete server"), 1);
    assert_eq!(format!("{store:?}"), "MemoryStore { entries: 0 }");
}

/// Names that would make keys ambiguous (or collide with chunk and index keys) are refused before any store call.
#[test]
fn ambiguous_names_are_refused() {
    let vault = Vault::with_store(Arc::new(Refusing(VaultError::Backend { reason: "must not be called".into() })));
    for (server, name) in
        [("", "n"), ("a/b", "n"), ("a#1", "n"), ("s", ""), ("s", "n#1"), ("s", ".index"), ("s\n", "n")]
    {
        let err = vault.get(server, name).expect_err("invalid");
        assert!(matches!(err, VaultError::InvalidName { .. }), "{server:?}/{name:?}: {err:?}");
    }
    assert!(matches!(vault.delete_server("s", &["#"]), Err(VaultError::InvalidName { .. })));
}

/// A locked keychain is returned as `Locked` (retryable) from every call, and nothing is written anywhere else.
#[test]
fn a_locked_keychain_is_transient_and_never_falls_back() {
    let vault = Vault::with_store(Arc::new(Refusing(VaultError::Locked { reason: "collection is locked".into() })));
    let set = vault.set("srv", "token", &secret(CANARY)).expect_err("locked");
    assert!(set.is_transient(), "{set:?}");
    assert!(vault.get("srv", "token").expect_err("locked").is_transient());
    assert!(vault.delete_server("srv", &["token"]).expect_err("locked").is_transient());
    assert_eq!(vault.status().backend, BackendKind::Keychain, "the vault did not switch stores");
}

/// Without a keychain the vault says why and what to do, and keeps secrets in memory for the session.
#[test]
fn no_keychain_means_memory_only_with_guidance() {
    let vault = Vault::choose(Err(unavailable()), Fallback::MemoryOnly);
    let status = vault.status();
    assert_eq!(status.backend, BackendKind::MemoryOnly);
    assert!(!status.persists);
    assert_eq!(status.keychain_unavailable_reason.as_deref(), Some("Platform failure: no D-Bus session"));
    assert!(status.what_to_do.as_deref().is_some_and(|s| s.contains("Secret Service")), "{status:?}");
    assert!(matches!(vault.keychain_problem(), Some(VaultError::KeychainUnavailable { .. })));
    vault.set("srv", "token", &secret(CANARY)).expect("memory works");
    assert_eq!(vault.get("srv", "token").expect("get"), Some(secret(CANARY)));
}

/// The insecure file is used only when opted into, and only then does anything reach the disk.
#[test]
fn the_insecure_file_is_used_only_when_opted_into() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(crate::secrets::INSECURE_FILE_NAME);
    let vault = Vault::choose(Err(unavailable()), Fallback::InsecurePlaintextFile(path.clone()));
    assert_eq!(vault.status().backend, BackendKind::InsecurePlaintextFile);
    assert_eq!(vault.status().insecure_file_path.as_deref(), Some(path.display().to_string().as_str()));
    assert!(vault.status().summary.contains("INSECURE"), "{:?}", vault.status());
    vault.set("srv", "token", &secret(&"f".repeat(3_000))).expect("set");
    let reopened = Vault::choose(Err(unavailable()), Fallback::InsecurePlaintextFile(path));
    assert_eq!(reopened.get("srv", "token").expect("get"), Some(secret(&"f".repeat(3_000))), "it persists");

    let memory = Vault::choose(Err(unavailable()), Fallback::MemoryOnly);
    memory.set("srv", "token", &secret(CANARY)).expect("set");
    let files: Vec<_> = std::fs::read_dir(dir.path()).expect("dir").collect();
    assert_eq!(files.len(), 1, "only the opted-in file exists");
}

/// A store that pauses in every call, so that unserialised writers would interleave their chunks.
#[derive(Debug, Default)]
struct Slow(WindowsSizeLimitFake);

impl SecretStore for Slow {
    fn kind(&self) -> BackendKind {
        self.0.kind()
    }
    fn get(&self, key: &str) -> Result<Option<Sensitive<String>>, VaultError> {
        thread::sleep(std::time::Duration::from_micros(200));
        self.0.get(key)
    }
    fn set(&self, key: &str, value: &str) -> Result<(), VaultError> {
        thread::sleep(std::time::Duration::from_micros(200));
        self.0.set(key, value)
    }
    fn delete(&self, key: &str) -> Result<bool, VaultError> {
        self.0.delete(key)
    }
}

/// Concurrent writers and readers of one long secret — over two vaults sharing a store — never leave or see a
/// torn value: every read is absent or one of the values written whole, and so is the value left at the end.
#[test]
fn concurrent_writes_are_serialised_per_entry() {
    for round in 0..20 {
        let store: Arc<dyn SecretStore> = Arc::new(Slow::default());
        let vaults = [Vault::with_store(store.clone()), Vault::with_store(store)];
        // Equal lengths, so that every writer's last write overlaps the others'.
        let values: Vec<String> = (0..4).map(|i| format!("{i}").repeat(2_500)).collect();
        let check = |read: Option<Sensitive<String>>| {
            let read = read.expect("a value was written");
            assert!(values.contains(read.expose()), "round {round}: a torn value");
        };
        thread::scope(|scope| {
            for (i, value) in values.iter().enumerate() {
                let vault = &vaults[i % 2];
                scope.spawn(move || {
                    for _ in 0..4 {
                        vault.set("srv", "token", &secret(value)).expect("set");
                    }
                });
            }
            scope.spawn(|| {
                for _ in 0..10 {
                    match vaults[1].get("srv", "token") {
                        Ok(None) => {}
                        Ok(read) => check(read),
                        Err(e) => panic!("round {round}: {e}"),
                    }
                }
            });
        });
        check(vaults[0].get("srv", "token").unwrap_or_else(|e| panic!("round {round}: final read: {e}")));
    }
}

/// No public type's Debug (nor an error's Display) shows a stored value.
#[test]
fn debug_of_every_public_type_shows_no_secret() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = InsecureFileStore::new(dir.path().join("f.json"));
    file.set("s/n", CANARY).expect("set");
    let fake = WindowsSizeLimitFake::new();
    fake.set("s/n", CANARY).expect("set");
    let memory = MemoryStore::new();
    memory.set("s/n", CANARY).expect("set");
    let vault = Vault::choose(Err(unavailable()), Fallback::MemoryOnly);
    vault.set("s", "n", &secret(CANARY)).expect("set");
    let chunked = Vault::with_store(Arc::new(WindowsSizeLimitFake::new()));
    chunked.set("s", "n", &secret(&CANARY.repeat(200))).expect("set");
    let errors = [
        VaultError::Corrupt { key: "s/n".into(), reason: "chunk 2 of 3 is missing".into() },
        VaultError::TooLong { key: "s/n".into(), limit_bytes: 2_560 },
        unavailable(),
        VaultError::from(keyring::Error::BadEncoding(CANARY.as_bytes().to_vec())),
        VaultError::from(keyring::Error::BadDataFormat(CANARY.as_bytes().to_vec(), "bad".into())),
    ];
    let shown = [
        format!("{file:?}"),
        format!("{fake:?}"),
        format!("{memory:?}"),
        format!("{vault:?} {:?}", vault.get("s", "n").expect("get")),
        format!("{chunked:?}"),
        format!("{:?}", KeychainStore::unverified_for_tests()),
        format!("{:?} {:?}", vault.status(), Fallback::default()),
        format!("{:?}", VaultStatus::new(BackendKind::Keychain, None, None)),
        format!("{errors:?} {}", errors.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")),
        format!("{:?} {}", secret(CANARY), secret(CANARY)),
    ];
    for text in shown {
        assert!(!text.contains("CANARY"), "{text}");
    }
}

static PROBES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn counted_unreachable_keychain() -> Result<crate::secrets::KeychainStore, VaultError> {
    PROBES.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    Err(unavailable())
}

/// Opening a vault probes nothing; the first use (here the status, asked by the UI) probes once and says truly
/// why the keychain is not used; later uses, from any clone and any thread, never probe again.
#[test]
fn the_keychain_is_probed_at_first_use_and_once() {
    let probes = || PROBES.load(std::sync::atomic::Ordering::SeqCst);
    let vault = Vault::probing(counted_unreachable_keychain, Fallback::MemoryOnly);
    let clone = vault.clone();
    assert_eq!((probes(), vault.is_chosen()), (0, false));

    assert!(!clone.status().persists);
    assert_eq!(clone.status().backend, BackendKind::MemoryOnly);
    assert!(matches!(vault.keychain_problem(), Some(VaultError::KeychainUnavailable { .. })));
    assert_eq!((probes(), vault.is_chosen()), (1, true));

    let handles: Vec<_> = (0..4)
        .map(|i| {
            let vault = vault.clone();
            thread::spawn(move || vault.set("s", &format!("n{i}"), &secret("v")).expect("set"))
        })
        .collect();
    handles.into_iter().for_each(|h| h.join().expect("thread"));
    assert_eq!(vault.names("s").expect("names").len(), 4, "one store shared by every clone");
    assert_eq!(probes(), 1);
}
