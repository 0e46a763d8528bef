//! Managing servers and secrets from the CLI, as a person would: add, rename, disable, remove, secrets via stdin.

use plugboard_core::secrets::Vault;

use crate::support::{Sandbox, stderr, stdout};

const HARNESS: &str = "needs a Secret Service; make test runs it in tests/harness/isolated-env.sh";

/// add (stdio and remote) → list → rename → disable → remove, each persisted in servers.json.
#[test]
fn servers_are_managed_from_the_cli() {
    let sandbox = Sandbox::new();
    let ok = |args: &[&str]| {
        let out = sandbox.run(args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        stdout(&out)
    };
    ok(&["add", "files", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/notes"]);
    ok(&["add", "linear", "--url", "https://mcp.linear.app/mcp", "--transport", "http"]);
    ok(&["rename", "files", "notes"]);
    ok(&["disable", "linear"]);
    let table = ok(&["list"]);
    assert!(
        table.contains("notes") && table.contains("npx -y @modelcontextprotocol/server-filesystem /notes"),
        "{table}"
    );
    assert!(table.lines().any(|l| l.starts_with("linear") && l.contains("disabled")), "{table}");

    let file = std::fs::read_to_string(sandbox.config_dir().join("servers.json")).expect("config");
    let json: serde_json::Value = serde_json::from_str(&file).expect("json");
    assert_eq!(json["mcpServers"]["linear"]["type"], "http");
    assert_eq!(json["mcpServers"]["linear"]["enabled"], false);
    assert!(json["mcpServers"].get("files").is_none());

    ok(&["remove", "notes"]);
    assert!(!ok(&["list"]).contains("notes"));
    let missing = sandbox.run(&["remove", "notes"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(stderr(&missing).contains("no server named \"notes\""), "{}", stderr(&missing));
}

/// A bad entry is refused with the field named, and the file is left as it was.
#[test]
fn invalid_add_is_refused() {
    let sandbox = Sandbox::new();
    let out = sandbox.run(&["add", "bad", "--url", "javascript:alert(1)"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("url"), "{}", stderr(&out));
    assert!(!sandbox.config_dir().join("servers.json").exists());
    assert_eq!(sandbox.run(&["add", "x y", "--", "cmd"]).status.code(), Some(1));
}

/// `config path` prints where servers.json lives.
#[test]
fn config_path_is_printed() {
    let sandbox = Sandbox::new();
    let out = sandbox.run(&["config", "path"]);
    assert_eq!(stdout(&out).trim(), sandbox.config_dir().join("servers.json").display().to_string());
}

/// Without a keychain, storing a secret fails with what to do, and nothing is written anywhere.
#[test]
fn no_keychain_means_no_secret_is_stored() {
    let sandbox = Sandbox::new();
    assert!(sandbox.run(&["add", "gh", "--", "github-mcp"]).status.success());
    let before = std::fs::read_to_string(sandbox.config_dir().join("servers.json")).expect("config");
    let out = sandbox
        .command(&["secret", "set", "gh", "GITHUB_TOKEN"])
        .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/plugboard-no-bus")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("keychain") && err.contains("nothing was changed"), "{err}");

    let leaked = sandbox
        .command(&["add", "leaky", "--env", "API_KEY=sk-live-0123456789abcdef0123456789", "--", "srv"])
        .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/plugboard-no-bus")
        .output()
        .expect("run");
    assert_eq!(leaked.status.code(), Some(1), "{}", stdout(&leaked));
    assert_eq!(std::fs::read_to_string(sandbox.config_dir().join("servers.json")).expect("config"), before);
}

/// `secret set` reads the value from stdin into the real keychain; `remove` deletes it again.
#[test]
#[ignore = "needs a Secret Service; make test runs it in tests/harness/isolated-env.sh"]
fn secret_from_stdin_goes_to_the_keychain() {
    let sandbox = Sandbox::new();
    let server = format!("stdin-{}", std::process::id());
    assert!(sandbox.run(&["add", &server, "--url", "https://x.example/mcp"]).status.success());
    let out = sandbox.run_with_stdin(&["secret", "set", &server, "TOKEN"], "tok-from-stdin-123\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let vault = Vault::keychain().unwrap_or_else(|e| panic!("{HARNESS}: {e}"));
    assert_eq!(vault.get(&server, "TOKEN").expect("get").expect("stored").expose(), "tok-from-stdin-123");
    assert!(sandbox.run(&["remove", &server]).status.success());
    assert_eq!(vault.get(&server, "TOKEN").expect("get"), None);
}

/// Without a keychain, `--insecure-plaintext-secrets` stores the secret in the labelled 0600 file, and only then.
#[test]
fn insecure_file_store_is_explicit_opt_in() {
    let sandbox = Sandbox::new();
    assert!(sandbox.run(&["add", "gh", "--", "github-mcp"]).status.success());
    let mut command = sandbox.command(&["--insecure-plaintext-secrets", "secret", "set", "gh", "TOKEN"]);
    command.env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/plugboard-no-bus");
    let out = crate::support::output_with_stdin(command, "opt-in-value\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let file = sandbox.data_dir().join(plugboard_core::secrets::INSECURE_FILE_NAME);
    let text = std::fs::read_to_string(&file).expect("the opted-in file exists");
    assert!(text.contains("opt-in-value"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&file).expect("meta").permissions().mode() & 0o777, 0o600);
    }
    let config = std::fs::read_to_string(sandbox.config_dir().join("servers.json")).expect("config");
    assert!(!config.contains("opt-in-value"));
}

/// A file the way other clients and people write it: seed 000's `"oauth": true`, one entry of the wrong shape, one
/// with a wrong value, and keys from other clients. `list` shows every usable entry, the bad ones with their field and
/// reason, and a note for each other client's key; `status` lists the bad ones too; an add leaves the bad entries in
/// the file exactly as written.
#[test]
fn every_valid_entry_loads_and_bad_ones_survive_a_save() {
    let sandbox = Sandbox::new();
    let written = r#"{"mcpServers": {
        "acme": {"type": "http", "url": "https://mcp.acme.example/mcp", "oauth": true},
        "shape": {"command": "npx", "args": "-y @scope/server --token sk-live-0123456789"},
        "value": {"url": "ftp://files.example/mcp"},
        "cline": {"command": "uvx", "args": ["tool"], "disabled": true, "timeout": 60, "alwaysAllow": ["read"], "trust": true}
    }}"#;
    let path = sandbox.write_config(written);

    let list = sandbox.run(&["list"]);
    assert!(list.status.success(), "{}", stderr(&list));
    let table = stdout(&list);
    assert!(table.lines().any(|l| l.starts_with("acme") && l.contains("enabled")), "{table}");
    assert!(table.lines().any(|l| l.starts_with("cline") && l.contains("disabled")), "{table}");
    assert!(table.contains("invalid: shape: args: invalid type: a string, expected a sequence"), "{table}");
    assert!(table.contains("invalid: value: url:"), "{table}");
    assert!(!table.contains("sk-live"), "a reason quotes the value: {table}");
    for note in [
        r#"note: cline: "disabled": true is read as "enabled": false"#,
        r#"note: cline: "timeout": 60 is read as seconds ("timeoutMs": 60000)"#,
        r#"note: cline: "alwaysAllow" is kept like "autoApprove""#,
        r#"note: cline: "trust" is not a key Plugboard knows"#,
    ] {
        assert!(table.contains(note), "missing {note:?} in\n{table}");
    }
    let status = sandbox.run(&["status"]);
    assert!(stdout(&status).contains("invalid: shape: args:"), "{}", stdout(&status));

    let added = sandbox.run(&["add", "more", "--", "uvx", "more-tool"]);
    assert!(added.status.success(), "{}", stderr(&added));
    let taken = sandbox.run(&["add", "shape", "--", "uvx", "other"]);
    assert!(!taken.status.success(), "an add replaced an entry Plugboard cannot read");
    let before: serde_json::Value = serde_json::from_str(written).expect("json");
    let after: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("servers.json")).expect("json");
    for name in ["acme", "shape", "value", "cline"] {
        assert_eq!(after["mcpServers"][name], before["mcpServers"][name], "{name} was not kept as written");
    }
    assert_eq!(after["mcpServers"]["more"]["command"], "uvx");
}
