//! `plugboard import`: show the plan (every file and entry with its outcome), then apply it unless `--dry-run`.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use plugboard_core::engine::Engine;
use plugboard_core::import::{
    self, ConflictChoice, DetectedFile, EntryOutcome, ImportChoices, ImportPlan, ImportSummary, PathContext,
};

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// Only these clients (repeatable): claude-desktop, cursor, claude-code, vscode, windsurf, cline, roo, gemini,
    /// zed, continue, codex.
    #[arg(long = "from", value_name = "CLIENT")]
    from: Vec<String>,
    /// Import this file instead of detecting (repeatable); its format is guessed from its name unless --from says.
    #[arg(long = "file", value_name = "PATH")]
    files: Vec<PathBuf>,
    /// A project folder whose project-level files count too (default: the current folder).
    #[arg(long = "project", value_name = "DIR")]
    projects: Vec<PathBuf>,
    /// Show the plan and change nothing.
    #[arg(long)]
    dry_run: bool,
    /// What to do when a server of the same name exists and differs.
    #[arg(long, value_enum, default_value_t = OnConflict::Skip)]
    on_conflict: OnConflict,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum OnConflict {
    Skip,
    Overwrite,
    Rename,
}

pub fn run(out: &mut impl Write, engine: &Engine, args: &ImportArgs) -> anyhow::Result<()> {
    let registry = engine.registry();
    let sources = sources(args)?;
    if sources.is_empty() {
        writeln!(out, "No MCP client config files found. Name one with --file PATH.")?;
        return Ok(());
    }
    let plan = ImportPlan::build(&sources, &registry.store().snapshot());
    write_plan(out, &plan)?;
    if args.dry_run {
        writeln!(out, "Dry run: nothing was changed. Run without --dry-run to apply.")?;
        return Ok(());
    }
    let moves_secrets = plan.files.iter().flat_map(|f| &f.entries).any(|e| !e.secrets_moved.is_empty());
    if moves_secrets {
        super::require_persistent_secrets(registry)?;
    }
    let choice = match args.on_conflict {
        OnConflict::Skip => ConflictChoice::Skip,
        OnConflict::Overwrite => ConflictChoice::Overwrite,
        OnConflict::Rename => ConflictChoice::Rename,
    };
    // The flag decides conflicts only: new entries are always added.
    let summary =
        super::runtimes::one_shot()?.block_on(engine.apply_import(sources, ImportChoices::EveryConflict(choice)))?;
    write_summary(out, &summary, &registry.store().path().display().to_string())?;
    Ok(())
}

fn sources(args: &ImportArgs) -> anyhow::Result<Vec<DetectedFile>> {
    if !args.files.is_empty() {
        return args
            .files
            .iter()
            .map(|path| {
                let client = match args.from.as_slice() {
                    [] => import::guess_client(path),
                    [id] => import::clients::all().iter().find(|c| c.id == id).copied(),
                    _ => anyhow::bail!("with --file, give at most one --from"),
                };
                let client = client.ok_or_else(|| anyhow::anyhow!("unknown client {:?}", args.from.join(",")))?;
                Ok(DetectedFile { client, path: path.clone() })
            })
            .collect();
    }
    for id in &args.from {
        anyhow::ensure!(
            import::clients::all().iter().any(|c| c.id == id),
            "unknown client {id:?}; known: {}",
            import::clients::all().iter().map(|c| c.id).collect::<Vec<_>>().join(", ")
        );
    }
    let projects =
        if args.projects.is_empty() { std::env::current_dir().into_iter().collect() } else { args.projects.clone() };
    Ok(import::detect(&PathContext::from_env(projects), &args.from))
}

fn write_plan(out: &mut impl Write, plan: &ImportPlan) -> std::io::Result<()> {
    for file in &plan.files {
        writeln!(out, "{} — {}", file.client_label, file.path)?;
        if let Some(error) = &file.error {
            writeln!(out, "  error: {error}")?;
            continue;
        }
        if file.entries.is_empty() {
            writeln!(out, "  (no servers)")?;
        }
        for entry in &file.entries {
            let (mark, word) = match &entry.outcome {
                EntryOutcome::New => ('+', "new"),
                EntryOutcome::Identical => ('=', "identical"),
                EntryOutcome::Conflict { .. } => ('!', "conflict"),
                EntryOutcome::Invalid { .. } => ('x', "invalid"),
            };
            let scope = entry.scope.as_deref().map(|s| format!(" [{s}]")).unwrap_or_default();
            writeln!(out, "  {mark} {:<24} {word}{scope}", entry.name)?;
            match &entry.outcome {
                EntryOutcome::Conflict { differences } => {
                    for d in differences {
                        writeln!(out, "      {d}")?;
                    }
                }
                EntryOutcome::Invalid { reason } => writeln!(out, "      {reason}")?,
                EntryOutcome::New | EntryOutcome::Identical => {}
            }
            for location in &entry.secrets_moved {
                writeln!(out, "      secret in {location}: moved to the keychain")?;
            }
            for note in &entry.notes {
                writeln!(out, "      note: {note}")?;
            }
        }
    }
    let count = |pick: fn(&EntryOutcome) -> bool| plan.count(pick);
    writeln!(
        out,
        "Plan: {} new, {} identical, {} conflict(s), {} invalid, {} file error(s).",
        count(|o| *o == EntryOutcome::New),
        count(|o| *o == EntryOutcome::Identical),
        count(|o| matches!(o, EntryOutcome::Conflict { .. })),
        count(|o| matches!(o, EntryOutcome::Invalid { .. })),
        plan.files.iter().filter(|f| f.error.is_some()).count(),
    )
}

fn write_summary(out: &mut impl Write, s: &ImportSummary, path: &str) -> std::io::Result<()> {
    writeln!(
        out,
        "Imported into {path}: {} added, {} overwritten, {} renamed, {} skipped; {} secret(s) moved to the keychain.",
        s.added.len(),
        s.overwritten.len(),
        s.renamed.len(),
        s.skipped.len(),
        s.secrets_moved
    )?;
    for (from, to) in &s.renamed {
        writeln!(out, "  {from} was added as {to}")?;
    }
    Ok(())
}
