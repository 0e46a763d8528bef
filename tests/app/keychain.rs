//! The vault against the real Secret Service (gnome-keyring in the harness's private D-Bus session), and without
//! any D-Bus session at all (in a child process, since keyring picks its store once per process).

use std::path::Path;
use std::process::Command;

use plugboard_core::secrets::{
    BackendKind, CHUNK_UTF16_UNITS, Fallback, KEYCHAIN_GUIDANCE, KeychainStore, SecretStore, Sensitive, Vault,
    VaultError,
};

const HARNESS: &str = "needs a Secret Service; make test runs it in tests/harness/isolated-env.sh";

/// Set in the child process that runs [`no_keychain_child`] without a D-Bus session.
const CHILD_ENV: &str = "PLUGBOARD_TEST_NO_KEYCHAIN_CHILD";
/// The value the child stores: it must appear in no file and no output.
const CHILD_CANARY: &str = "sk-no-keychain-CANARY-7f3a";

fn keychain_vault() -> Vault {
    Vault::keychain().unwrap_or_else(|e| panic!("{HARNESS}: {e}"))
}

/// A secret is stored, read back exactly, deleted, and then reads as absent (`Ok(None)`, not an error).
#[test]
#[ignore = "needs a Secret Service; make test runs it in tests/harness/isolated-env.sh"]
fn store_read_delete_round_trip() {
    let vault = keychain_vault();
    assert_eq!(vault.status().backend, BackendKind::Keychain);
    assert!(vault.status().persists);
    let server = format!("smoke-{}", std::process::id());
    let value = Sensitive::new("tok_Ünïcode-secret-1234567890".to_owned());

    assert_eq!(vault.get(&server, "api-token").expect("read before"), None);
    vault.set(&server, "api-token", &value).expect("store");
    assert_eq!(vault.get(&server, "api-token").expect("read back"), Some(value));
    vault.delete(&server, "api-token").expect("delete");
    assert_eq!(vault.get(&server, "api-token").expect("read after delete"), None);
    vault.delete(&server, "api-token").expect("deleting twice is not an error");
}

/// A 10 KB token round-trips through the real keychain as a manifest plus chunks that each fit Windows' limit,
/// and removing the server deletes the manifest, every chunk and the index.
#[test]
#[ignore = "needs a Secret Service; make test runs it in tests/harness/isolated-env.sh"]
fn a_10kb_token_round_trips_in_chunks_and_delete_server_clears_it() {
    let vault = keychain_vault();
    let raw = KeychainStore::open().expect("keychain");
    let server = format!("chunks-{}", std::process::id());
    let token = Sensitive::new(format!("eyJ{}😀", "a1B2c3D4é".repeat(1_137)));
    assert!(token.expose().len() >= 10 * 1024, "a 10 KB token");

    vault.set(&server, "oauth", &token).expect("store");
    vault.set(&server, "api-key", &Sensitive::new("short".to_owned())).expect("store");
    assert_eq!(vault.get(&server, "oauth").expect("read back"), Some(token));

    let head = raw.get(&format!("{server}/oauth")).expect("raw read").expect("manifest entry");
    let count: usize = head
        .expose()
        .strip_prefix("plugboard-chunks:v1:")
        .and_then(|rest| rest.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the entry is a chunk manifest, not the token"));
    assert!(count >= 11, "{count} chunks");
    for index in 1..=count {
        let chunk = raw.get(&format!("{server}/oauth#{index}")).expect("raw read").expect("chunk present");
        assert!(chunk.expose().encode_utf16().count() <= CHUNK_UTF16_UNITS, "chunk {index} fits one Windows entry");
    }
    assert_eq!(vault.names(&server).expect("names"), ["api-key", "oauth"]);

    assert_eq!(vault.delete_server(&server, &[]).expect("delete server"), 2);
    let mut keys = vec![format!("{server}/oauth"), format!("{server}/api-key"), format!("{server}/.index")];
    keys.extend((1..=count + 1).map(|index| format!("{server}/oauth#{index}")));
    for key in keys {
        assert_eq!(raw.get(&key).expect("raw read"), None, "{key} was deleted");
    }
    assert_eq!(vault.get(&server, "oauth").expect("read after"), None);
}

/// Without a D-Bus session the vault reports `KeychainUnavailable` with what to do, works memory-only, and
/// writes nothing under the (isolated) home, config, data or cache dirs — checked in a child process.
#[test]
fn without_a_session_bus_the_vault_is_memory_only_and_writes_nothing() {
    let sandbox = tempfile::tempdir().expect("temp dir");
    let dir = |name: &str| {
        let path = sandbox.path().join(name);
        std::fs::create_dir_all(&path).expect("dir");
        path
    };
    let exe = std::env::current_exe().expect("the test binary");
    let output = Command::new(exe)
        .args(["keychain::no_keychain_child", "--exact", "--include-ignored", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, "1")
        .env("DBUS_SESSION_BUS_ADDRESS", format!("unix:path={}", sandbox.path().join("no-such-bus").display()))
        .env("HOME", dir("home"))
        .env("XDG_CONFIG_HOME", dir("home/.config"))
        .env("XDG_DATA_HOME", dir("home/.local/share"))
        .env("XDG_CACHE_HOME", dir("home/.cache"))
        .env("XDG_RUNTIME_DIR", dir("run"))
        .env("PLUGBOARD_CONFIG_DIR", dir("config"))
        .env("PLUGBOARD_DATA_DIR", dir("data"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("GNOME_KEYRING_CONTROL")
        .output()
        .expect("run the child");
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "child failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("1 passed"), "the child test really ran:\n{stdout}");
    assert!(!stdout.contains(CHILD_CANARY) && !stderr.contains(CHILD_CANARY), "a secret reached the output");
    let files = files_under(sandbox.path()).expect("walk the sandbox");
    assert!(files.is_empty(), "the memory-only vault wrote {files:?}");
}

/// The child half of the test above; it does nothing unless started by it.
#[test]
#[ignore = "runs in a child process started by without_a_session_bus_the_vault_is_memory_only_and_writes_nothing"]
fn no_keychain_child() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    let err = Vault::keychain().expect_err("no D-Bus session, so no keychain");
    assert!(matches!(err, VaultError::KeychainUnavailable { .. }), "{err:?}");
    assert!(err.to_string().contains(KEYCHAIN_GUIDANCE), "the error says what to do: {err}");
    assert!(!err.is_transient());

    let vault = Vault::open(Fallback::MemoryOnly);
    assert!(matches!(vault.keychain_problem(), Some(VaultError::KeychainUnavailable { .. })));
    let status = vault.status();
    assert_eq!(status.backend, BackendKind::MemoryOnly);
    assert!(!status.persists);
    assert!(status.keychain_unavailable_reason.is_some(), "{status:?}");
    assert!(status.what_to_do.as_deref().is_some_and(|s| s.contains(KEYCHAIN_GUIDANCE)), "{status:?}");

    let token = Sensitive::new(format!("{CHILD_CANARY}{}", "x".repeat(4_000)));
    vault.set("srv", "token", &token).expect("memory-only set");
    assert_eq!(vault.get("srv", "token").expect("memory-only get"), Some(token));
    assert_eq!(vault.delete_server("srv", &[]).expect("delete server"), 1);
    assert_eq!(vault.get("srv", "token").expect("get"), None);
}

/// Every regular file under `root`, recursively.
fn files_under(root: &Path) -> std::io::Result<Vec<String>> {
    let mut files = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path.display().to_string());
            }
        }
    }
    Ok(files)
}
