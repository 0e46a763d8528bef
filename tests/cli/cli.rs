//! The headless CLI, run as a separate process with no display, the way a shell or a script uses it.

use std::path::Path;

use crate::support::{Sandbox, copy_executable, stderr, stdout, write_executable};

/// `--version` and `--help` work without a display and name the subcommands.
#[test]
fn version_and_help_need_no_display() {
    let sandbox = Sandbox::new();
    let version = sandbox.run(&["--version"]);
    assert!(version.status.success(), "{}", stderr(&version));
    assert_eq!(stdout(&version).trim(), format!("plugboard {}", env!("CARGO_PKG_VERSION")));

    let help = sandbox.run(&["--help"]);
    assert!(help.status.success(), "{}", stderr(&help));
    assert!(stdout(&help).contains("list"), "{}", stdout(&help));
    assert!(stdout(&help).contains("no arguments to open the window"), "{}", stdout(&help));
}

/// With no config file yet, `list` says so and names the path it reads; it logs nothing, so it makes no log file
/// (the file is opened by the first line written, see engine_cli.rs for one that is).
#[test]
fn list_without_config_shows_the_empty_state() {
    let sandbox = Sandbox::new();
    let out = sandbox.run(&["list"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let expected = sandbox.config_dir().join("servers.json");
    assert!(stdout(&out).contains("No servers configured yet"), "{}", stdout(&out));
    assert!(stdout(&out).contains(&expected.display().to_string()), "{}", stdout(&out));
    assert!(!expected.exists(), "listing must not create the config file");
    assert!(!sandbox.data_dir().join("logs").exists(), "a command that logs nothing opens no log file");
}

/// `list` prints each server with its inferred transport; `--json` prints the same data as JSON.
#[test]
fn list_shows_configured_servers() {
    let sandbox = Sandbox::new();
    sandbox.write_config(
        r#"{ "mcpServers": {
            "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/notes"] },
            "linear": { "type": "http", "url": "https://mcp.linear.app/mcp", "enabled": false } } }"#,
    );
    let table = sandbox.run(&["list"]);
    assert!(table.status.success(), "{}", stderr(&table));
    let text = stdout(&table);
    let rows: Vec<_> = text.lines().collect();
    assert_eq!(rows.len(), 3, "{text}");
    assert!(rows[1].starts_with("files") && rows[1].contains("stdio") && rows[1].contains("enabled"), "{text}");
    assert!(rows[2].starts_with("linear") && rows[2].contains("streamable-http") && rows[2].contains("disabled"));

    let json = sandbox.run(&["list", "--json"]);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).expect("valid JSON");
    assert_eq!(value["servers"][0]["name"], "files");
    assert_eq!(value["servers"][0]["transport"], "stdio");
    assert_eq!(value["servers"][1]["transport"], "streamableHttp");
    assert_eq!(value["servers"][1]["enabled"], false);
}

/// A broken config file fails with its position and leaves the file exactly as it was.
#[test]
fn broken_config_is_reported_and_untouched() {
    let sandbox = Sandbox::new();
    let broken = "{\n  \"mcpServers\": { \"a\": { \"command\": \"x\" }, }\n";
    let path = sandbox.write_config(broken);
    let out = sandbox.run(&["list"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("line 2"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(path).expect("still there"), broken);
}

/// An unknown subcommand is a usage error (exit 2) that never opens a window.
#[test]
fn unknown_subcommand_is_a_usage_error() {
    let out = Sandbox::new().run(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("frobnicate"), "{}", stderr(&out));
}

/// `plugboard` alone, or with a plugboard:// link, starts the window binary installed beside it with exactly those
/// arguments; without one beside it, it says so and fails. (The window is a stand-in script here: the real one is
/// driven by the WebDriver suite.)
#[test]
fn without_a_subcommand_it_starts_the_window_beside_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cli = dir.path().join("plugboard");
    copy_executable(Path::new(env!("CARGO_BIN_EXE_plugboard")), &cli);

    let alone = std::process::Command::new(&cli).output().expect("run");
    assert!(!alone.status.success());
    assert!(stderr(&alone).contains("is not installed next to this command"), "{}", stderr(&alone));

    let received = dir.path().join("window-argv");
    let window = dir.path().join("plugboard-desktop");
    let script =
        format!("#!/bin/sh\n# Stand-in window: records its argv.\nprintf '%s\\n' \"$@\" > '{}'\n", received.display());
    write_executable(&window, &script);
    let link = "dev.plugboard.desktop:/oauth/callback?code=x&state=y";
    let opened = std::process::Command::new(&cli).arg(link).output().expect("run");
    assert!(opened.status.success(), "{}", stderr(&opened));
    assert_eq!(std::fs::read_to_string(&received).expect("the window ran"), format!("{link}\n"));

    let plain = std::process::Command::new(&cli).output().expect("run");
    assert!(plain.status.success(), "{}", stderr(&plain));
    assert_eq!(std::fs::read_to_string(&received).expect("the window ran"), "\n", "no arguments passed on");
}
