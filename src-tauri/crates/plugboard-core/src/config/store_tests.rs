//! Tests of `ConfigStore` against real files in a temp dir: atomicity, backups, external edits, broken files.

use std::fs;

use proptest::prelude::*;

use super::raw::{RawConfigFile, RawServer};
use super::{ConfigError, ConfigEvent, ConfigStore, backup_path, parse_config_text, render_config_text};

fn server(command: &str) -> RawServer {
    RawServer { command: Some(command.into()), ..RawServer::default() }
}

fn add(store: &ConfigStore, name: &str, command: &str) -> Result<(), ConfigError> {
    store.modify(|file| {
        file.servers.insert(name.into(), server(command));
        Ok::<_, ConfigError>(())
    })
}

/// A first write creates the file (0600), a second keeps the first as the backup, and no temp file is left.
#[test]
fn writes_are_atomic_with_a_backup() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("plugboard/servers.json");
    let store = ConfigStore::open(&path).expect("open");
    add(&store, "a", "one").expect("first write");
    let first = fs::read_to_string(&path).expect("written");
    add(&store, "b", "two").expect("second write");
    assert_eq!(fs::read_to_string(backup_path(&path)).expect("backup"), first);
    let names: Vec<_> = fs::read_dir(path.parent().expect("dir"))
        .expect("ls")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains(".tmp-")), "{names:?}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(fs::metadata(&path).expect("meta").permissions().mode() & 0o777, 0o600);
    }
    let reread = ConfigStore::open(&path).expect("reopen").snapshot();
    assert_eq!(reread.servers.keys().collect::<Vec<_>>(), ["a", "b"]);
}

/// An external edit is detected at write time: the write is refused, the edit is adopted and announced.
#[test]
fn external_edit_is_reloaded_not_overwritten() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("servers.json");
    let store = ConfigStore::open(&path).expect("open");
    let mut events = store.subscribe();
    add(&store, "a", "one").expect("write");
    assert_eq!(events.try_recv().expect("saved"), ConfigEvent::Saved);

    let external = r#"{"mcpServers":{"edited":{"command":"by-hand"}}}"#;
    fs::write(&path, external).expect("external edit");
    let err = add(&store, "b", "two").expect_err("must not overwrite");
    assert!(matches!(err, ConfigError::ChangedOnDisk { .. }), "{err:?}");
    assert_eq!(fs::read_to_string(&path).expect("read"), external);
    assert_eq!(events.try_recv().expect("reloaded"), ConfigEvent::Reloaded);
    assert_eq!(store.snapshot().servers.keys().collect::<Vec<_>>(), ["edited"]);

    add(&store, "b", "two").expect("a retry on the fresh version works");
    assert_eq!(store.snapshot().servers.keys().collect::<Vec<_>>(), ["b", "edited"]);
}

/// A file that does not parse is never overwritten; the last good version stays in use and the problem is told.
#[test]
fn broken_file_is_never_overwritten() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("servers.json");
    let store = ConfigStore::open(&path).expect("open");
    add(&store, "a", "one").expect("write");
    let mut events = store.subscribe();

    let broken = "{ \"mcpServers\": { \"a\": ";
    fs::write(&path, broken).expect("break it");
    assert!(store.reload().expect("reload"));
    assert!(matches!(events.try_recv().expect("event"), ConfigEvent::BrokenOnDisk { .. }));
    assert!(store.problem().expect("problem").contains("line 1"));
    assert_eq!(store.snapshot().servers.keys().collect::<Vec<_>>(), ["a"], "last good version kept");

    let err = add(&store, "b", "two").expect_err("refused");
    assert!(matches!(err, ConfigError::BrokenOnDisk { .. }), "{err:?}");
    assert_eq!(fs::read_to_string(&path).expect("read"), broken);

    let opened = ConfigStore::open(&path).expect("a broken file still opens");
    assert!(opened.problem().is_some() && opened.snapshot().servers.is_empty());
}

/// A failing change writes nothing.
#[test]
fn failed_change_writes_nothing() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("servers.json");
    let store = ConfigStore::open(&path).expect("open");
    let result: Result<(), ConfigError> = store.modify(|file| {
        file.servers.insert("a".into(), server("x"));
        Err(ConfigError::ChangedOnDisk { path: "nope".into() })
    });
    assert!(result.is_err());
    assert!(!path.exists());
    assert!(store.snapshot().servers.is_empty());
}

/// Reloading an unchanged file reports no change and emits nothing.
#[test]
fn reload_without_change_is_quiet() {
    let dir = tempfile::tempdir().expect("dir");
    let store = ConfigStore::open(dir.path().join("servers.json")).expect("open");
    add(&store, "a", "x").expect("write");
    let mut events = store.subscribe();
    assert!(!store.reload().expect("reload"));
    assert!(events.try_recv().is_err());
}

/// An unreadable path (a directory where the file should be) is an error, not an empty config.
#[test]
fn directory_in_place_of_the_file_is_an_error() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("servers.json");
    fs::create_dir(&path).expect("dir as file");
    assert!(matches!(ConfigStore::open(&path), Err(ConfigError::Unreadable { .. })));
}

fn arb_server() -> impl Strategy<Value = RawServer> {
    let text = "[a-zA-Z0-9 _./:${}-]{0,12}";
    (
        proptest::option::of(text),
        proptest::option::of(proptest::collection::vec(text, 0..4)),
        proptest::option::of(proptest::collection::btree_map("[A-Z_]{1,8}", text, 0..3)),
        proptest::option::of(any::<bool>()),
        proptest::option::of(1u64..100_000),
        proptest::option::of(proptest::collection::vec("[a-z_]{1,8}", 0..3)),
    )
        .prop_map(|(command, args, env, enabled, timeout_ms, tools)| RawServer {
            command,
            args,
            env,
            enabled,
            timeout_ms,
            tools,
            ..RawServer::default()
        })
}

proptest! {
    /// Any model survives render → parse unchanged (the file round-trips).
    #[test]
    fn random_models_round_trip(servers in proptest::collection::btree_map("[a-z0-9_-]{1,10}", arb_server(), 0..5)) {
        let file = RawConfigFile { servers, ..RawConfigFile::default() };
        let reparsed = parse_config_text("/x".as_ref(), &render_config_text(&file)).expect("parse");
        prop_assert_eq!(reparsed, file);
    }
}

/// The gateway's `profiles` survive Plugboard's own writes (the window and the CLI write through `modify`), exactly
/// as the person wrote them, malformed ones included.
#[test]
fn profiles_survive_a_write() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("servers.json");
    let profiles = r#"{"coding": {"mode": "search", "servers": {"a": {"tools": ["x"]}}}, "broken": {"servers": 1}}"#;
    let text = format!(r#"{{"mcpServers": {{"a": {{"command": "one"}}}}, "profiles": {profiles}}}"#);
    fs::write(&path, text).expect("seed");
    let store = ConfigStore::open(&path).expect("open");
    add(&store, "b", "two").expect("write");
    let written: serde_json::Value = serde_json::from_str(&fs::read_to_string(&path).expect("read")).expect("json");
    let expected: serde_json::Value = serde_json::from_str(profiles).expect("json");
    assert_eq!(written["profiles"], expected);
    assert_eq!(written["mcpServers"]["b"]["command"], "two");
}
