//! Registry operations over a real config file and an in-memory vault.

use std::sync::Arc;

use super::*;
use crate::config::ConfigError;
use crate::secrets::{MemoryStore, Vault};

fn registry() -> (tempfile::TempDir, Registry) {
    let dir = tempfile::tempdir().expect("dir");
    let store = ConfigStore::open(dir.path().join("servers.json")).expect("open");
    let vault = Arc::new(Vault::with_store(Arc::new(MemoryStore::default())));
    (dir, Registry::new(store, vault))
}

fn entry(json: &str) -> RawServer {
    serde_json::from_str(json).expect("entry")
}

fn secret(value: &str) -> Sensitive<String> {
    Sensitive::new(value.to_owned())
}

/// add → list → update → disable → remove, each persisted; names are unique and entries validated.
#[test]
fn lifecycle() {
    let (_dir, reg) = registry();
    reg.add("files", entry(r#"{"command":"npx","args":["-y","fs"]}"#)).expect("add");
    assert!(matches!(reg.add("files", entry(r#"{"command":"x"}"#)), Err(RegistryError::AlreadyExists { .. })));
    assert!(matches!(reg.add("bad", entry(r#"{"url":"ftp://x"}"#)), Err(RegistryError::Invalid(_))));
    assert!(matches!(reg.add("bad name", entry(r#"{"command":"x"}"#)), Err(RegistryError::Invalid(_))));

    reg.update("files", entry(r#"{"command":"node","args":["server.js"]}"#)).expect("update");
    reg.set_enabled("files", false).expect("disable");
    let list = reg.list();
    assert_eq!(list.servers.len(), 1);
    assert_eq!((list.servers[0].target.as_str(), list.servers[0].enabled), ("node server.js", false));

    let reopened = ConfigStore::open(reg.store().path()).expect("reopen").snapshot();
    assert_eq!(reopened.servers["files"].enabled, Some(false));

    assert_eq!(reg.remove("files").expect("remove"), 0);
    assert!(reg.list().servers.is_empty());
    assert!(matches!(reg.remove("files"), Err(RegistryError::NotFound { .. })));
    assert!(matches!(reg.set_enabled("ghost", true), Err(RegistryError::NotFound { .. })));
}

/// Removing a server deletes the secrets it referred to; other servers' secrets stay.
#[test]
fn remove_deletes_the_servers_secrets() {
    let (_dir, reg) = registry();
    reg.add("gh", entry(r#"{"command":"x","env":{"GITHUB_TOKEN":"${secret:GITHUB_TOKEN}"}}"#)).expect("add");
    reg.add("other", entry(r#"{"command":"y"}"#)).expect("add");
    reg.set_secret("gh", "GITHUB_TOKEN", &secret("ghp_abc")).expect("set");
    reg.set_secret("other", "K", &secret("keep")).expect("set");
    assert!(reg.remove("gh").expect("remove") >= 1);
    assert_eq!(reg.vault().get("gh", "GITHUB_TOKEN").expect("get"), None);
    assert_eq!(reg.vault().get("other", "K").expect("get"), Some(secret("keep")));
}

/// Renaming moves the entry and its secrets; the old name has nothing left.
#[test]
fn rename_moves_secrets() {
    let (_dir, reg) = registry();
    reg.add("old", entry(r#"{"url":"https://x","headers":{"Authorization":"Bearer ${secret:token}"}}"#)).expect("add");
    reg.set_secret("old", "token", &secret("t0k")).expect("set");
    reg.add("taken", entry(r#"{"command":"x"}"#)).expect("add");
    assert!(matches!(reg.rename("old", "taken"), Err(RegistryError::AlreadyExists { .. })));
    reg.rename("old", "new").expect("rename");
    assert!(reg.get("old").is_err());
    assert!(reg.get("new").is_ok());
    assert_eq!(reg.vault().get("new", "token").expect("get"), Some(secret("t0k")));
    assert_eq!(reg.vault().get("old", "token").expect("get"), None);
}

/// A secret can only be set for a server that exists.
#[test]
fn secrets_need_a_server() {
    let (_dir, reg) = registry();
    assert!(matches!(reg.set_secret("ghost", "k", &secret("v")), Err(RegistryError::NotFound { .. })));
}

/// An external edit between two operations is adopted, not overwritten.
#[test]
fn external_edits_are_respected() {
    let (_dir, reg) = registry();
    reg.add("a", entry(r#"{"command":"x"}"#)).expect("add");
    std::fs::write(reg.store().path(), r#"{"mcpServers":{"z":{"command":"hand"}}}"#).expect("edit");
    let err = reg.add("b", entry(r#"{"command":"y"}"#)).expect_err("changed");
    assert!(matches!(err, RegistryError::Config(ConfigError::ChangedOnDisk { .. })), "{err:?}");
    assert_eq!(reg.list().servers.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["z"]);
}

/// `secret_names` finds references in every field that may hold one.
#[test]
fn secret_names_are_collected() {
    let e = entry(
        r#"{"command":"${secret:cmd}","args":["--k=${secret:arg}"],"env":{"A":"${secret:env}","B":"${env:HOME}"},
            "url":"https://x/${secret:path}","headers":{"H":"${secret:env}"}}"#,
    );
    assert_eq!(secret_names(&e), ["arg", "cmd", "env", "path"]);
}

/// Setting the allowlist touches only `tools`: a list is written as given, `None` removes the key (all tools),
/// an invalid list is refused without writing, and an unknown server is NotFound.
#[test]
fn set_tools_writes_only_the_allowlist() {
    let (_dir, reg) = registry();
    reg.add("files", entry(r#"{"command":"npx","args":["-y","fs"],"timeoutMs":5000,"x-note":"kept"}"#)).expect("add");

    reg.set_tools("files", Some(vec!["read_file".into(), "mcp__files__list".into()])).expect("list");
    let text = std::fs::read_to_string(reg.store().path()).expect("read");
    let file: serde_json::Value = serde_json::from_str(&text).expect("json");
    let files = &file["mcpServers"]["files"];
    assert_eq!(files["tools"], serde_json::json!(["read_file", "mcp__files__list"]));
    assert_eq!((files["timeoutMs"].as_u64(), files["x-note"].as_str()), (Some(5000), Some("kept")));

    reg.set_tools("files", Some(vec![])).expect("none");
    assert_eq!(reg.get("files").expect("get").tools, Some(vec![]));

    assert!(matches!(reg.set_tools("files", Some(vec!["*".into(), "a".into()])), Err(RegistryError::Invalid(_))));
    assert_eq!(reg.get("files").expect("get").tools, Some(vec![]), "a refused list is not written");

    reg.set_tools("files", None).expect("all");
    let text = std::fs::read_to_string(reg.store().path()).expect("read");
    assert!(!text.contains("\"tools\""), "no tools key means all tools: {text}");
    assert!(matches!(reg.set_tools("nope", None), Err(RegistryError::NotFound { .. })));
}

/// Adding with secrets stores each in the vault and only its reference in the file; the page then sees them
/// stored. A secret no reference uses, or a taken name, writes nothing and stores nothing.
#[test]
fn add_with_secrets_keeps_values_out_of_the_file() {
    let (_dir, reg) = registry();
    let server = entry(r#"{"command":"npx","args":["-y","gh"],"env":{"GITHUB_TOKEN":"${secret:GITHUB_TOKEN}"}}"#);
    reg.add_with_secrets("gh", server.clone(), &[("GITHUB_TOKEN".into(), secret("ghp_value_1234567890"))])
        .expect("add");
    let written = std::fs::read_to_string(reg.store().path()).expect("file");
    assert!(written.contains("${secret:GITHUB_TOKEN}") && !written.contains("ghp_value"), "{written}");
    assert_eq!(reg.secret_states("gh").expect("states"), [SecretState { name: "GITHUB_TOKEN".into(), stored: true }]);

    let unused = reg.add_with_secrets("other", server.clone(), &[("NOT_USED".into(), secret("x"))]);
    assert!(matches!(unused, Err(RegistryError::Invalid(ref e)) if e.field == "secrets"), "{unused:?}");
    assert!(reg.get("other").is_err(), "nothing was written");
    assert_eq!(reg.vault().get("other", "NOT_USED").expect("vault"), None, "nothing was stored");

    let taken = reg.add_with_secrets("gh", server, &[("GITHUB_TOKEN".into(), secret("overwritten"))]);
    assert!(matches!(taken, Err(RegistryError::AlreadyExists { .. })), "{taken:?}");
    let kept = reg.vault().get("gh", "GITHUB_TOKEN").expect("vault").expect("kept");
    assert_eq!(kept.expose(), "ghp_value_1234567890", "the existing server's secret was not replaced");
}

/// A server's page lists the secrets its entry refers to, set or not, and never their values.
#[test]
fn secret_states_name_set_and_missing_secrets() {
    let (_dir, reg) = registry();
    reg.add("api", entry(r#"{"url":"https://x.example/mcp","headers":{"Authorization":"Bearer ${secret:TOKEN}","X-Team":"${secret:TEAM}"}}"#))
        .expect("add");
    reg.set_secret("api", "TEAM", &secret("blue")).expect("set");
    let states = reg.secret_states("api").expect("states");
    assert_eq!(
        states,
        [SecretState { name: "TEAM".into(), stored: true }, SecretState { name: "TOKEN".into(), stored: false }]
    );
}

/// A token pasted into an entry (a header on add, an env value in the raw editor) goes to the vault: servers.json
/// and its backup hold only `${secret:…}`, the vault holds the value, and each move is reported by where it was.
#[test]
fn literal_secrets_never_reach_the_file_or_its_backup() {
    const TOKEN: &str = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
    let (dir, reg) = registry();
    let added = reg
        .add_moving_secrets(
            "github",
            entry(&format!(r#"{{"url":"https://api.example/mcp","headers":{{"Authorization":"Bearer {TOKEN}"}}}}"#)),
            &[],
        )
        .expect("add");
    assert_eq!(added, ["headers.Authorization"]);
    let updated = reg
        .update_moving_secrets(
            "github",
            entry(&format!(r#"{{"command":"gh-mcp","env":{{"GITHUB_TOKEN":"{TOKEN}"}}}}"#)),
        )
        .expect("update");
    assert_eq!(updated, ["env.GITHUB_TOKEN"]);

    for file in ["servers.json", "servers.json.bak"] {
        let text = std::fs::read_to_string(dir.path().join(file)).expect(file);
        assert!(!text.contains(TOKEN), "{file} holds the token: {text}");
    }
    let saved = reg.get("github").expect("entry");
    let reference = saved.env.as_ref().and_then(|env| env.get("GITHUB_TOKEN")).cloned().unwrap_or_default();
    let name = reference.strip_prefix("${secret:").and_then(|r| r.strip_suffix('}')).expect("a reference");
    assert_eq!(reg.vault().get("github", name).expect("vault").map(|v| v.expose().clone()).as_deref(), Some(TOKEN));
}
