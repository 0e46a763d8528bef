//! `plugboard clients` as a person runs it, on a HOME with a Cursor file: the dry run shows the diff and writes
//! nothing, a broken file is refused with where it breaks, an unknown profile with the known ones.

use crate::support::{Sandbox, everything, stderr, stdout};

const CURSOR: &str = ".cursor/mcp.json";
const CURSOR_TEXT: &str =
    "{\n  // mine\n  \"mcpServers\": {\n    \"docs\": { \"url\": \"https://docs.example/mcp\" },\n  },\n}\n";

/// `--dry-run` prints a diff that adds the entry launching this binary, and the file keeps every byte.
#[test]
fn dry_run_prints_the_diff_and_writes_nothing() {
    let sandbox = Sandbox::new();
    let path = sandbox.write_home_file(CURSOR, CURSOR_TEXT);
    let out = sandbox.run(&["clients", "connect", "cursor", "--dry-run"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let diff = stdout(&out);
    let binary = std::fs::canonicalize(env!("CARGO_BIN_EXE_plugboard")).expect("binary");
    assert!(diff.contains(&format!("+      \"command\": \"{}\",", binary.display())), "{diff}");
    assert!(diff.contains("+      \"args\": [\"serve\", \"--stdio\"],"), "{diff}");
    assert!(diff.contains("Dry run: nothing was written."), "{diff}");
    assert_eq!(std::fs::read_to_string(&path).expect("read"), CURSOR_TEXT);
    let list = stdout(&sandbox.run(&["clients"]));
    assert!(list.contains("cursor") && list.contains("found, not connected"), "{list}");
}

/// A file that does not parse is named with its line and column, and stays as it was.
#[test]
fn a_broken_file_is_refused_with_its_position() {
    let sandbox = Sandbox::new();
    let broken = "{\n  \"mcpServers\": {\n    \"docs\": { \"url\": \n";
    let path = sandbox.write_home_file(CURSOR, broken);
    let out = sandbox.run(&["clients", "connect", "cursor"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains(&path.display().to_string()) && err.contains("(line 3, column "), "{err}");
    assert_eq!(std::fs::read_to_string(&path).expect("read"), broken);
}

/// An unknown profile is refused with the profiles servers.json has; an unknown client with the known clients.
#[test]
fn unknown_profiles_and_clients_are_refused_with_the_known_ones() {
    let sandbox = Sandbox::new();
    sandbox.write_config(r#"{"mcpServers": {}, "profiles": {"coding": {"servers": {}}}}"#);
    let out = sandbox.run(&["clients", "connect", "cursor", "--profile", "nope"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("no profile \"nope\"") && stderr(&out).contains("known: coding"), "{}", stderr(&out));
    let out = sandbox.run(&["clients", "connect", "notepad"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("claude-desktop") && stderr(&out).contains("lmstudio"), "{}", stderr(&out));
    assert!(!sandbox.home().join(CURSOR).exists());
}

/// The tool budget counts the tools a server was approved with (after one listing), against the limit the person
/// chose; over it, the list says so and offers search mode; `--json` carries the same figures.
#[test]
#[ignore = "needs the npm reference servers; make test installs them into tests/node_modules"]
fn the_budget_counts_approved_tools_against_the_chosen_limit() {
    let sandbox = Sandbox::new();
    assert!(sandbox.run(&["add", "everything", "--", &everything(), "stdio"]).status.success());
    sandbox.approve_all();
    let listed = sandbox.run(&["tools", "everything"]);
    assert!(listed.status.success(), "{}", stderr(&listed));
    let offered = stdout(&listed).lines().filter(|l| l.contains("mcp__everything__")).count();
    assert!(offered > 3, "{}", stdout(&listed));

    let chosen = sandbox.run(&["clients", "limit", "cursor", "3"]);
    assert!(chosen.status.success(), "{}", stderr(&chosen));
    let list = stdout(&sandbox.run(&["clients"]));
    let cursor: String = list.lines().skip_while(|l| !l.starts_with("cursor ")).take(8).collect::<Vec<_>>().join("\n");
    assert!(
        cursor.contains(&format!(
            "tools: {offered} tools through Plugboard; the limit you chose is 3 — OVER by {}",
            offered - 3
        )),
        "{cursor}"
    );
    assert!(cursor.contains("\"mode\": \"search\""), "{cursor}");
    let json: serde_json::Value = serde_json::from_str(&stdout(&sandbox.run(&["clients", "--json"]))).expect("json");
    let budget = &json.as_array().expect("array").iter().find(|c| c["client"] == "cursor").expect("cursor")["budget"];
    assert_eq!((budget["limit"].as_u64(), budget["over"].as_bool()), (Some(3), Some(true)));
    assert_eq!(budget["current"]["tools"].as_u64(), Some(offered as u64));
    assert_eq!(budget["documented"].as_u64(), Some(40));

    assert!(sandbox.run(&["clients", "limit", "cursor", "--documented"]).status.success());
    let list = stdout(&sandbox.run(&["clients"]));
    assert!(list.contains("its documented limit is 40"), "{list}");
}
