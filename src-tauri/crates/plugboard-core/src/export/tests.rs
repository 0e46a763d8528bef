//! Write-back over a realistic file of every client (tests/fixtures/export/): comments, a byte-order mark, CRLF,
//! trailing commas, unrelated settings and a literal secret in another entry. Each is connected, connected again,
//! disconnected and restored in a home dir of its own, and refused when broken or changed meanwhile.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::*;
use crate::config::raw::{RawConfigFile, RawServer};
use crate::import::{Os, ParsedEntry, PathContext};

macro_rules! fixture {
    ($path:literal) => {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/export/", $path))
    };
}

const SECRET: &str = "ghp_Zx81u7Qm2LkT0pWv9RbYc3NdHf6GsJ4aEo5K";
const BINARY: &str = "/opt/plugboard/bin/plugboard";

/// Every client with its fixture, and the entries of it Plugboard's servers.json duplicates.
const FIXTURES: &[(&str, &str, &[&str])] = &[
    ("claude-desktop", fixture!("claude_desktop_config.json"), &["github"]),
    ("claude-code", fixture!("claude.json"), &["github"]),
    ("cursor", fixture!("cursor-mcp.json"), &["github", "linear"]),
    ("vscode", fixture!("vscode-mcp.json"), &["github"]),
    ("windsurf", fixture!("windsurf-mcp_config.json"), &["github"]),
    ("cline", fixture!("cline_mcp_settings.json"), &["github"]),
    ("roo", fixture!("roo-mcp_settings.json"), &["github"]),
    ("gemini", fixture!("gemini-settings.json"), &["github"]),
    ("zed", fixture!("zed-settings.json"), &["github"]),
    ("continue", fixture!("continue-config.yaml"), &["github"]),
    ("codex", fixture!("codex-config.toml"), &["github"]),
    ("lmstudio", fixture!("lmstudio-mcp.json"), &["github"]),
    ("copilot", fixture!("copilot-mcp-config.json"), &["github"]),
];

/// A home dir and a data dir of their own, and a servers.json with the GitHub server (its token a reference) and
/// Linear, and a profile.
struct World {
    dir: tempfile::TempDir,
    ctx: ExportContext,
}

impl World {
    fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let home = dir.path().join("home");
        let paths = PathContext {
            os: Os::Linux,
            home,
            app_data: None,
            local_app_data: None,
            xdg_config_home: None,
            projects: Vec::new(),
        };
        let github = RawServer {
            command: Some("npx".into()),
            args: Some(vec!["-y".into(), "@modelcontextprotocol/server-github".into()]),
            env: Some([("GITHUB_PERSONAL_ACCESS_TOKEN".to_owned(), "${secret:github-token}".to_owned())].into()),
            ..RawServer::default()
        };
        let linear = RawServer { url: Some("https://mcp.linear.app/mcp".into()), ..RawServer::default() };
        let servers = RawConfigFile {
            servers: [("github".to_owned(), github), ("linear".to_owned(), linear)].into(),
            profiles: Some(json!({ "coding": { "servers": { "github": {} } } })),
            ..RawConfigFile::default()
        };
        let ctx = ExportContext {
            paths,
            backups_dir: dir.path().join("data").join("client-backups"),
            binary: PathBuf::from(BINARY),
            servers,
            tools: KnownTools(
                [
                    ("github".to_owned(), Some(vec!["create_issue".to_owned(), "search".to_owned()])),
                    ("linear".to_owned(), None),
                ]
                .into(),
            ),
            chosen: ChosenBudgets::default(),
            chosen_file: dir.path().join("data").join("client-budgets.json"),
        };
        Self { dir, ctx }
    }

    /// Puts `text` where `client` keeps its file, and returns the path.
    fn plant(&self, client: &str, text: &str) -> PathBuf {
        let path = self.file(client);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dirs");
        std::fs::write(&path, text).expect("write");
        path
    }

    fn file(&self, client: &str) -> PathBuf {
        target(client).expect("target").file(&self.ctx.paths)
    }

    fn connect(&self, client: &str, profile: Option<&str>, move_duplicates: bool) -> Change {
        let change =
            self.ctx.plan_connect(client, profile, move_duplicates).unwrap_or_else(|e| panic!("{client}: {e}"));
        self.ctx.apply(&change).unwrap_or_else(|e| panic!("{client}: {e}"));
        change
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("read")
}

fn names(client: &str, text: &str) -> Vec<String> {
    let entries = target(client).expect("target").parse(text).unwrap_or_else(|e| panic!("{client}: {e}"));
    entries
        .into_iter()
        .map(|e| match e {
            ParsedEntry::Server(s) => s.name,
            ParsedEntry::Invalid { name, .. } => name,
        })
        .collect()
}

fn sorted(mut names: Vec<String>) -> Vec<String> {
    names.sort();
    names
}

/// The lines of `before` that the change removes or rewrites.
fn original_lines_changed(before: &str, after: &str) -> usize {
    similar::TextDiff::from_lines(before, after)
        .iter_all_changes()
        .filter(|c| c.tag() == similar::ChangeTag::Delete)
        .count()
}

/// After connect the file parses, every original entry and setting is deep-equal, exactly one entry (ours, made of
/// the binary and its arguments only) was added, and at most two original lines changed; connecting again changes
/// no byte; disconnect then restore give back the original bytes.
#[test]
fn connect_is_surgical_idempotent_and_reversible() {
    for &(client, original, _) in FIXTURES {
        let world = World::new();
        let path = world.plant(client, original);
        let change = world.connect(client, Some("coding"), false);
        let after = read(&path);
        assert_eq!(Some(&after), change.after.as_ref(), "{client}");
        let format = target(client).expect("target").format;
        let (old_rest, old_servers) = verify::split(format, verify::document(format, original).expect("old"));
        let (new_rest, new_servers) = verify::split(format, verify::document(format, &after).expect("new"));
        assert_eq!(old_rest, new_rest, "{client}: a setting changed");
        let others: Vec<_> = new_servers.iter().filter(|(name, _)| name != ENTRY_NAME).cloned().collect();
        assert_eq!(others, old_servers, "{client}: an entry changed");
        assert_eq!(new_servers.len(), old_servers.len() + 1, "{client}");
        let ours = verify::our_entry(&new_servers).expect("our entry");
        let mut keys: Vec<&str> = ours.as_object().expect("object").keys().map(String::as_str).collect();
        keys.retain(|k| !["type", "name"].contains(k));
        assert_eq!(keys, ["args", "command"], "{client}: {ours}");
        assert_eq!(ours["command"], BINARY, "{client}");
        assert_eq!(ours["args"], json!(["serve", "--stdio", "--profile", "coding"]), "{client}");
        let mut expected_names = names(client, original);
        expected_names.push(ENTRY_NAME.to_owned());
        assert_eq!(sorted(names(client, &after)), sorted(expected_names), "{client}");
        assert!(original_lines_changed(original, &after) <= 2, "{client}:\n{}", change.diff());
        assert_eq!(after.matches(SECRET).count(), original.matches(SECRET).count(), "{client}");
        if original.starts_with('\u{feff}') {
            assert!(after.starts_with('\u{feff}'), "{client}: the byte-order mark is gone");
        }

        let again = world.ctx.plan_connect(client, Some("coding"), false).expect("plans");
        assert!(again.is_noop(), "{client}:\n{}", again.diff());
        world.ctx.apply(&again).expect("no-op");
        assert_eq!(read(&path), after, "{client}");

        let disconnect = world.ctx.plan_disconnect(client).expect("plans");
        world.ctx.apply(&disconnect).expect("disconnects");
        let disconnected = read(&path);
        assert_eq!(names(client, &disconnected), names(client, original), "{client}");
        let restore = world.ctx.plan_restore(client).expect("plans");
        world.ctx.apply(&restore).expect("restores");
        assert_eq!(read(&path), original, "{client}: restore did not give the original bytes back");
        assert!(matches!(world.ctx.plan_restore(client), Err(ExportError::NoBackup { .. })), "{client}");
    }
}

/// A broken file is refused with its file, line and column and stays byte-for-byte, on connect and disconnect.
#[test]
fn broken_files_are_refused_and_untouched() {
    for &(client, original, _) in FIXTURES {
        let world = World::new();
        // Cut in the middle of the first server entry: no format reads that.
        let cut = original.find("github").expect("github") + 12;
        let broken = format!("{}\n{}", &original[..cut], if client == "continue" { "  - name: [\n" } else { "[" });
        let path = world.plant(client, &broken);
        for result in [world.ctx.plan_connect(client, None, false), world.ctx.plan_disconnect(client)] {
            match result {
                Err(ExportError::Parse { path: p, position: Some(_), .. }) => assert_eq!(p, path, "{client}"),
                other => panic!("{client}: {other:?}"),
            }
        }
        assert_eq!(read(&path), broken, "{client}");
    }
}

/// A file changed between reading and writing is not overwritten, and no backup is kept of what was read.
#[test]
fn a_file_changed_meanwhile_is_not_overwritten() {
    for &(client, original, _) in FIXTURES {
        let world = World::new();
        let path = world.plant(client, original);
        let change = world.ctx.plan_connect(client, None, false).expect("plans");
        let edited = original.replacen("github", "github2", 1);
        std::fs::write(&path, &edited).expect("edit");
        let err = world.ctx.apply(&change).expect_err(client);
        assert!(err.is_conflict(), "{client}: {err}");
        assert_eq!(read(&path), edited, "{client}");
        assert!(matches!(world.ctx.plan_restore(client), Err(ExportError::NoBackup { .. })), "{client}");
    }
}

/// A missing file is created, with its folder, holding just the entry; restoring removes it again.
#[test]
fn a_missing_file_is_created_with_just_the_entry() {
    for &(client, _, _) in FIXTURES {
        let world = World::new();
        let path = world.file(client);
        world.connect(client, None, false);
        let text = read(&path);
        let format = target(client).expect("target").format;
        let (rest, servers) = verify::split(format, verify::document(format, &text).expect("parses"));
        assert_eq!(rest, json!({}), "{client}: {text}");
        assert_eq!(servers.len(), 1, "{client}: {text}");
        assert_eq!(names(client, &text), [ENTRY_NAME], "{client}");
        let restore = world.ctx.plan_restore(client).expect("plans");
        world.ctx.apply(&restore).expect("restores");
        assert!(!path.exists(), "{client}");
    }
}

/// `move_duplicates` takes out exactly the entries Plugboard has (by command and arguments, or by URL) in the same
/// write, and with them the literal secret; restore brings them back.
#[test]
fn duplicates_move_only_when_asked() {
    for &(client, original, duplicates) in FIXTURES {
        let world = World::new();
        let path = world.plant(client, original);
        let status = world.ctx.status(target(client).expect("target"));
        assert_eq!(status.duplicates, duplicates, "{client}");
        assert_eq!(status.connection, Connection::NotConnected, "{client}");
        let change = world.connect(client, None, true);
        assert_eq!(change.moved, duplicates, "{client}");
        let after = read(&path);
        let mut expected: Vec<String> =
            names(client, original).into_iter().filter(|n| !duplicates.contains(&n.as_str())).collect();
        expected.push(ENTRY_NAME.to_owned());
        assert_eq!(sorted(names(client, &after)), sorted(expected), "{client}");
        assert!(!after.contains(SECRET), "{client}: the moved entry's secret stayed");
        assert_eq!(world.ctx.status(target(client).expect("target")).duplicates, Vec::<String>::new(), "{client}");
        world.ctx.apply(&world.ctx.plan_restore(client).expect("plans")).expect("restores");
        assert_eq!(read(&path), original, "{client}");
    }
}

/// Status tells current from stale: this binary and a known profile is current; another binary, or a profile
/// servers.json no longer has, is stale; an unknown profile is refused with the known ones.
#[test]
fn status_tells_current_from_stale() {
    let world = World::new();
    world.plant("cursor", fixture!("cursor-mcp.json"));
    world.connect("cursor", Some("coding"), false);
    let cursor = target("cursor").expect("target");
    assert_eq!(world.ctx.status(cursor).connection, Connection::Current { profile: Some("coding".into()) });
    let moved = ExportContext { binary: PathBuf::from("/elsewhere/plugboard"), ..world.ctx.clone() };
    assert!(matches!(moved.status(cursor).connection, Connection::Stale { .. }));
    let no_profiles = ExportContext { servers: RawConfigFile::default(), ..world.ctx.clone() };
    assert!(matches!(no_profiles.status(cursor).connection, Connection::Stale { .. }));
    match world.ctx.plan_connect("cursor", Some("nope"), false) {
        Err(e @ ExportError::UnknownProfile { .. }) => assert!(e.to_string().contains("coding"), "{e}"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(world.ctx.plan_connect("notepad", None, false), Err(ExportError::UnknownClient { .. })));
}

/// The new file keeps the old one's permissions (a 0640 file stays 0640), and a symlinked file stays a link.
#[cfg(unix)]
#[test]
fn permissions_and_symlinks_are_kept() {
    use std::os::unix::fs::PermissionsExt;
    let world = World::new();
    let real = world.dir.path().join("dotfiles").join("mcp.json");
    std::fs::create_dir_all(real.parent().expect("parent")).expect("dirs");
    std::fs::write(&real, fixture!("cursor-mcp.json")).expect("write");
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    let link = world.file("cursor");
    std::fs::create_dir_all(link.parent().expect("parent")).expect("dirs");
    std::os::unix::fs::symlink(&real, &link).expect("link");
    world.connect("cursor", None, false);
    assert!(std::fs::symlink_metadata(&link).expect("meta").file_type().is_symlink());
    assert_eq!(std::fs::metadata(&real).expect("meta").permissions().mode() & 0o777, 0o640);
    assert!(read(&real).contains(BINARY));
}

/// Nothing of Plugboard's own config reaches a client's file: only the binary path and the arguments are written,
/// even when servers.json holds literal values.
#[test]
fn no_secret_is_written() {
    let mut world = World::new();
    let leaky = RawServer {
        command: Some("tool".into()),
        env: Some([("API_KEY".to_owned(), "sk-live-0123456789abcdef".to_owned())].into()),
        ..RawServer::default()
    };
    world.ctx.servers.servers.insert("leaky".into(), leaky);
    for &(client, _, _) in FIXTURES {
        let change = world.ctx.plan_connect(client, None, false).expect("plans");
        let after = change.after.unwrap_or_default();
        assert!(!after.contains("sk-live") && !after.contains("secret:"), "{client}: {after}");
        let value: Value =
            target(client).map(|t| PlugboardEntry { binary: BINARY.into(), profile: None }.value(t.format)).expect("t");
        assert!(value.get("env").is_none() && value.get("headers").is_none(), "{client}");
    }
}

/// When the backup cannot be kept, the client's file is not written either.
#[test]
fn no_write_without_a_backup() {
    let mut world = World::new();
    let path = world.plant("cursor", fixture!("cursor-mcp.json"));
    let blocker = world.dir.path().join("not-a-dir");
    std::fs::write(&blocker, "").expect("write");
    world.ctx.backups_dir = blocker.join("client-backups");
    let change = world.ctx.plan_connect("cursor", None, false).expect("plans");
    let err = world.ctx.apply(&change).expect_err("refused");
    assert!(err.to_string().contains("backup"), "{err}");
    assert_eq!(read(&path), fixture!("cursor-mcp.json"));
}

/// A confirmation applies exactly the change that was shown: planned again, the same digest writes; a file edited
/// since the diff was shown is left as the edit made it, with nothing backed up, and asks for a new look.
#[test]
fn a_confirmation_applies_only_what_was_shown() {
    let world = World::new();
    let path = world.plant("cursor", fixture!("cursor-mcp.json"));
    let request = ChangeRequest::Connect { client: "cursor".into(), profile: None, move_duplicates: false };
    let shown = world.ctx.plan_request(&request).expect("plans").preview();
    assert!(shown.diff.lines().any(|l| l.starts_with('+') && l.contains("\"plugboard\"")), "{}", shown.diff);
    assert_eq!((shown.noop, shown.creates, shown.removes), (false, false, false));

    let edited = fixture!("cursor-mcp.json").replacen("linear", "linear2", 1);
    std::fs::write(&path, &edited).expect("edit");
    let err = world.ctx.apply_as_shown(&request, &shown.digest).expect_err("not what was shown");
    assert!(matches!(err, ExportError::NotAsShown { .. }) && err.is_conflict(), "{err}");
    assert_eq!(read(&path), edited);
    assert!(matches!(world.ctx.plan_restore("cursor"), Err(ExportError::NoBackup { .. })));

    let again = world.ctx.plan_request(&request).expect("plans").preview();
    assert_ne!(again.digest, shown.digest);
    let applied = world.ctx.apply_as_shown(&request, &again.digest).expect("applies");
    assert_eq!(applied.digest, again.digest);
    assert!(read(&path).contains(BINARY));
    let disconnect = ChangeRequest::Disconnect { client: "cursor".into() };
    let shown = world.ctx.plan_request(&disconnect).expect("plans").preview();
    world.ctx.apply_as_shown(&disconnect, &shown.digest).expect("disconnects");
    assert_eq!(names("cursor", &read(&path)), names("cursor", &edited));
}

/// A client with no file shows a change that creates one; a restore to no file shows that it removes it.
#[test]
fn previews_say_when_a_file_is_created_or_removed() {
    let world = World::new();
    let request =
        ChangeRequest::Connect { client: "windsurf".into(), profile: Some("coding".into()), move_duplicates: false };
    let shown = world.ctx.plan_request(&request).expect("plans").preview();
    assert!(shown.creates && !shown.removes, "{shown:?}");
    world.ctx.apply_as_shown(&request, &shown.digest).expect("connects");
    let restore = ChangeRequest::Restore { client: "windsurf".into() };
    let shown = world.ctx.plan_request(&restore).expect("plans").preview();
    assert!(shown.removes && !shown.creates, "{shown:?}");
    world.ctx.apply_as_shown(&restore, &shown.digest).expect("restores");
    assert!(!world.file("windsurf").exists());
}

/// The status counts the client's tools through its entry's profile; a limit the person chooses is kept in the
/// data dir and is what the budget is measured against from then on; a limit of 0 is refused.
#[test]
fn status_carries_the_budget_and_a_chosen_limit() {
    let world = World::new();
    world.plant("cursor", fixture!("cursor-mcp.json"));
    world.connect("cursor", Some("coding"), false);
    let status = world.ctx.status(target("cursor").expect("target"));
    assert_eq!((status.budget.current.profile.as_deref(), status.budget.current.tools), (Some("coding"), 2));
    assert_eq!((status.budget.limit, status.budget.over), (Some(40), false));
    world.ctx.choose_limit("cursor", Some(1)).expect("chooses");
    assert!(matches!(world.ctx.choose_limit("cursor", Some(0)), Err(ExportError::InvalidLimit { limit: 0 })));
    let chosen = load_chosen(&world.ctx.chosen_file).expect("loads");
    let tight = ExportContext { chosen, ..world.ctx.clone() };
    let budget = tight.status(target("cursor").expect("target")).budget;
    assert_eq!((budget.limit, budget.limit_from, budget.over), (Some(1), LimitFrom::Chosen, true));
    assert_eq!(budget.trims, [Trim::SearchMode { tools: 3 }]);
    world.ctx.choose_limit("cursor", None).expect("takes it back");
    assert_eq!(load_chosen(&world.ctx.chosen_file).expect("loads"), ChosenBudgets::default());
}
