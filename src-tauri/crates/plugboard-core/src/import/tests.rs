//! The plan → apply flow over real files: outcomes, conflicts, secrets to the vault, atomicity.

use std::path::Path;
use std::sync::Arc;

use super::*;
use crate::config::{ConfigStore, TransportKind};
use crate::registry::Registry;
use crate::secrets::{MemoryStore, Vault};

fn registry(dir: &Path) -> Registry {
    let store = ConfigStore::open(dir.join("plugboard/servers.json")).expect("open");
    Registry::new(store, Arc::new(Vault::with_store(Arc::new(MemoryStore::default()))))
}

fn client(id: &str) -> ClientSource {
    *clients::all().iter().find(|c| c.id == id).expect("known client")
}

fn source_file(dir: &Path, name: &str, client_id: &str, text: &str) -> DetectedFile {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write source");
    DetectedFile { client: client(client_id), path }
}

const CURSOR: &str = r#"{
  // Cursor's global MCP config
  "mcpServers": {
    "github": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"],
                "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_0123456789abcdefghijABCDEFGHIJ012345" } },
    "linear": { "url": "https://mcp.linear.app/sse" },
    "broken": { "args": ["no command"] },
  }
}"#;

/// A plan lists every entry with its outcome and moves literal secrets out, writing nothing.
#[test]
fn plan_reports_outcomes_and_writes_nothing() {
    let dir = tempfile::tempdir().expect("dir");
    let reg = registry(dir.path());
    let files = [source_file(dir.path(), "mcp.json", "cursor", CURSOR)];
    let plan = ImportPlan::build(&files, &reg.store().snapshot());
    let entries = &plan.files[0].entries;
    let outcome = |name: &str| entries.iter().find(|e| e.source_name == name).expect(name).outcome.clone();
    assert_eq!(outcome("github"), EntryOutcome::New);
    assert_eq!(outcome("linear"), EntryOutcome::New);
    assert!(matches!(outcome("broken"), EntryOutcome::Invalid { .. }));
    let github = entries.iter().find(|e| e.source_name == "github").expect("github");
    assert_eq!(github.secrets_moved.len(), 1);
    // What each entry runs, for the review: a command line or a URL, with the transport; none for an invalid one.
    let launch = |name: &str| {
        let entry = entries.iter().find(|e| e.source_name == name).expect(name);
        (entry.transport, entry.target.clone())
    };
    assert_eq!(
        launch("github"),
        (Some(TransportKind::Stdio), Some("npx -y @modelcontextprotocol/server-github".into()))
    );
    assert_eq!(launch("linear"), (Some(TransportKind::Probe), Some("https://mcp.linear.app/sse".into())));
    assert_eq!(launch("broken"), (None, None));
    let json = serde_json::to_string(&plan).expect("serialise");
    assert!(!json.contains("ghp_0123456789"), "the plan shown to people holds no secret: {json}");
    assert!(!reg.store().path().exists(), "planning writes nothing");
}

/// A new entry the person unticked (`Some(Skip)`) is left out, with its secrets: nothing of it reaches the file or
/// the vault, and the summary lists it as skipped.
#[test]
fn an_unticked_new_entry_is_left_out() {
    let dir = tempfile::tempdir().expect("dir");
    let reg = registry(dir.path());
    let files = [source_file(dir.path(), "mcp.json", "cursor", CURSOR)];
    let plan = ImportPlan::build(&files, &reg.store().snapshot());
    let summary =
        apply_plan(&reg, &plan, |_, entry| (entry.name == "github").then_some(ConflictChoice::Skip)).expect("apply");
    assert_eq!(
        (summary.added.as_slice(), summary.skipped.as_slice()),
        (["linear".to_owned()].as_slice(), ["github".to_owned()].as_slice())
    );
    assert_eq!(summary.secrets_moved, 0, "the skipped entry's secret stayed out of the vault");
    let written = std::fs::read_to_string(reg.store().path()).expect("written");
    assert!(!written.contains("\"github\""), "{written}");
}

/// Applying stores the secret in the vault, writes references only, and records the origin.
#[test]
fn apply_moves_secrets_to_the_vault() {
    let dir = tempfile::tempdir().expect("dir");
    let reg = registry(dir.path());
    let files = [source_file(dir.path(), "mcp.json", "cursor", CURSOR)];
    let plan = ImportPlan::build(&files, &reg.store().snapshot());
    let summary = apply_plan(&reg, &plan, |_, _| None).expect("apply");
    assert_eq!(summary.added, ["github", "linear"]);
    assert_eq!((summary.invalid, summary.secrets_moved), (1, 1));

    let written = std::fs::read_to_string(reg.store().path()).expect("written");
    assert!(!written.contains("ghp_0123456789"), "{written}");
    assert!(written.contains("${secret:"), "{written}");
    let github = reg.get("github").expect("github");
    assert_eq!(github.origin.as_ref().map(|o| o.client.as_str()), Some("cursor"));
    let names = crate::registry::secret_names(&github);
    assert_eq!(names.len(), 1);
    let stored = reg.vault().get("github", &names[0]).expect("vault").expect("stored");
    assert_eq!(stored.expose(), "ghp_0123456789abcdefghijABCDEFGHIJ012345");
}

/// Importing the same file again finds every entry identical; a changed entry is a conflict with its difference.
#[test]
fn reimport_is_identical_and_changes_conflict() {
    let dir = tempfile::tempdir().expect("dir");
    let reg = registry(dir.path());
    let files = [source_file(dir.path(), "mcp.json", "cursor", CURSOR)];
    apply_plan(&reg, &ImportPlan::build(&files, &reg.store().snapshot()), |_, _| None).expect("apply");

    let again = ImportPlan::build(&files, &reg.store().snapshot());
    assert_eq!(again.count(|o| *o == EntryOutcome::Identical), 2);

    let changed = CURSOR.replace("https://mcp.linear.app/sse", "https://mcp.linear.app/mcp");
    let files = [source_file(dir.path(), "mcp.json", "cursor", &changed)];
    let plan = ImportPlan::build(&files, &reg.store().snapshot());
    let linear = plan.files[0].entries.iter().find(|e| e.name == "linear").expect("linear");
    match &linear.outcome {
        EntryOutcome::Conflict { differences } => {
            assert!(differences.iter().any(|d| d.starts_with("url:") && d.contains("/mcp")), "{differences:?}");
        }
        other => panic!("expected a conflict, got {other:?}"),
    }

    let kept = apply_plan(&reg, &plan, |_, _| None).expect("skip");
    assert_eq!(kept.skipped, ["linear"]);
    assert_eq!(reg.get("linear").expect("linear").url.as_deref(), Some("https://mcp.linear.app/sse"));

    let both = apply_plan(&reg, &plan, |_, _| Some(ConflictChoice::Rename)).expect("rename");
    assert_eq!(both.renamed, [("linear".to_owned(), "linear-2".to_owned())]);
    assert_eq!(reg.get("linear-2").expect("renamed").url.as_deref(), Some("https://mcp.linear.app/mcp"));

    let plan = ImportPlan::build(&files, &reg.store().snapshot());
    let replaced = apply_plan(&reg, &plan, |_, _| Some(ConflictChoice::Overwrite)).expect("overwrite");
    assert_eq!(replaced.overwritten, ["linear"]);
    assert_eq!(reg.get("linear").expect("linear").url.as_deref(), Some("https://mcp.linear.app/mcp"));
}

/// A bad file gets its own error line while the other files still import; nothing else is touched.
#[test]
fn a_bad_file_does_not_stop_the_others() {
    let dir = tempfile::tempdir().expect("dir");
    let reg = registry(dir.path());
    let broken = source_file(dir.path(), "broken.json", "claude-desktop", "{ \"mcpServers\": { ");
    let empty = source_file(dir.path(), "empty.json", "claude-desktop", "");
    let folder = DetectedFile { client: client("cursor"), path: dir.path().to_owned() };
    let good = source_file(dir.path(), "mcp.json", "cursor", CURSOR);
    let plan = ImportPlan::build(&[broken, empty, folder, good], &reg.store().snapshot());
    let errors: Vec<_> = plan.files.iter().map(|f| f.error.is_some()).collect();
    assert_eq!(errors, [true, true, true, false]);
    assert!(plan.files[0].error.as_deref().is_some_and(|e| e.contains("line")), "{:?}", plan.files[0].error);
    let summary = apply_plan(&reg, &plan, |_, _| None).expect("apply");
    assert_eq!((summary.file_errors, summary.added.len()), (3, 2));
}

/// Names that are not valid server names are sanitised and the person is told.
#[test]
fn names_are_sanitised_with_a_note() {
    let dir = tempfile::tempdir().expect("dir");
    let reg = registry(dir.path());
    let text = r#"{"mcpServers":{"My Notes (local)":{"command":"node","args":["notes.js"]}}}"#;
    let plan = ImportPlan::build(&[source_file(dir.path(), "c.json", "claude-desktop", text)], &reg.store().snapshot());
    let entry = &plan.files[0].entries[0];
    assert_eq!(entry.name, "My-Notes-local");
    assert!(entry.notes.iter().any(|n| n.contains("renamed from")), "{:?}", entry.notes);
}

/// The wizard's first step lists the file that exists, and every other client with the paths looked at.
#[test]
fn scan_lists_found_files_and_clients_not_found() {
    let home = tempfile::tempdir().expect("home");
    std::fs::create_dir_all(home.path().join(".cursor")).expect("dir");
    std::fs::write(home.path().join(".cursor/mcp.json"), CURSOR).expect("write");
    let ctx = PathContext {
        os: Os::Linux,
        home: home.path().to_owned(),
        app_data: None,
        local_app_data: None,
        xdg_config_home: None,
        projects: Vec::new(),
    };
    let sources = ImportSources::scan(&ctx);
    let found: Vec<_> = sources.found.iter().map(|f| (f.client.as_str(), f.path.clone())).collect();
    assert_eq!(found, [("cursor", home.path().join(".cursor/mcp.json").display().to_string())]);
    assert_eq!(sources.not_found.len(), clients::all().len() - 1);
    assert!(sources.not_found.iter().all(|c| c.client != "cursor" && !c.looked_in.is_empty()));
    let claude = sources.not_found.iter().find(|c| c.client == "claude-desktop").expect("claude desktop");
    assert!(claude.looked_in.iter().all(|p| p.starts_with(&home.path().display().to_string())), "{claude:?}");
}

/// A choice can name the file: two files holding one conflicting name are decided apart.
#[test]
fn conflicts_of_one_name_in_two_files_are_chosen_per_file() {
    let dir = tempfile::tempdir().expect("dir");
    let reg = registry(dir.path());
    let files = [source_file(dir.path(), "mcp.json", "cursor", CURSOR)];
    apply_plan(&reg, &ImportPlan::build(&files, &reg.store().snapshot()), |_, _| None).expect("apply");

    let cursor = source_file(dir.path(), "mcp.json", "cursor", &CURSOR.replace("/sse", "/a"));
    let project = source_file(dir.path(), "project.json", "cursor", &CURSOR.replace("/sse", "/b"));
    let plan = ImportPlan::build(&[cursor, project], &reg.store().snapshot());
    let conflicts = plan.count(|o| matches!(o, EntryOutcome::Conflict { .. }));
    assert_eq!(conflicts, 2, "linear conflicts in both files");
    let summary = apply_plan(&reg, &plan, |file, _| {
        Some(if file.path.ends_with("mcp.json") { ConflictChoice::Skip } else { ConflictChoice::Rename })
    })
    .expect("apply");
    assert_eq!((summary.skipped.as_slice(), summary.renamed.len()), (["linear".to_owned()].as_slice(), 1));
    assert_eq!(reg.get("linear").expect("linear").url.as_deref(), Some("https://mcp.linear.app/sse"));
    assert_eq!(reg.get("linear-2").expect("renamed").url.as_deref(), Some("https://mcp.linear.app/b"));
}
