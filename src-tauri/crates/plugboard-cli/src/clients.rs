//! `plugboard clients`: list the MCP clients Plugboard can connect (and whether they are), connect one (one
//! `plugboard` entry in its own file, shown as a diff first), disconnect it, or restore its file from the backup.
//! The decisions live in the core's `export`; this file only prints them.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Subcommand};
use plugboard_core::engine::Engine;
use plugboard_core::export::{Change, ChangeKind, ClientStatus, Connection, ExportContext};

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ClientsArgs {
    /// Print the list as JSON.
    #[arg(long)]
    json: bool,
    #[command(subcommand)]
    action: Option<ClientsAction>,
}

#[derive(Debug, Subcommand)]
enum ClientsAction {
    /// Every client Plugboard knows: its files, whether it launches this Plugboard, its duplicate servers.
    List {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Put one `plugboard` entry (this binary, `serve --stdio`) into CLIENT's own config file; prints the diff.
    Connect {
        /// claude-desktop, claude-code, cursor, vscode, windsurf, cline, roo, gemini, zed, continue, codex, lmstudio
        /// or copilot.
        client: String,
        /// The client sees only what this profile of servers.json shows.
        #[arg(long, value_name = "NAME")]
        profile: Option<String>,
        /// Print the diff and write nothing.
        #[arg(long)]
        dry_run: bool,
        /// Also remove the client's own entries for servers Plugboard already has, so it does not see them twice.
        #[arg(long)]
        move_duplicates: bool,
    },
    /// Remove the `plugboard` entry from CLIENT's file (and nothing else).
    Disconnect {
        client: String,
        /// Print the diff and write nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Put CLIENT's file back as it was before Plugboard first changed it.
    Restore {
        client: String,
        /// Print the diff and write nothing.
        #[arg(long)]
        dry_run: bool,
    },
}

pub fn run(out: &mut impl Write, engine: &Engine, args: ClientsArgs) -> anyhow::Result<()> {
    let binary = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .context("cannot tell where this plugboard binary is")?;
    let export = engine.client_export(without_verbatim_prefix(binary));
    match args.action {
        None => list(out, &export, args.json),
        Some(ClientsAction::List { json }) => list(out, &export, json || args.json),
        Some(ClientsAction::Connect { client, profile, dry_run, move_duplicates }) => {
            let change = export.plan_connect(&client, profile.as_deref(), move_duplicates)?;
            write_change(out, &export, &change, dry_run)
        }
        Some(ClientsAction::Disconnect { client, dry_run }) => {
            write_change(out, &export, &export.plan_disconnect(&client)?, dry_run)
        }
        Some(ClientsAction::Restore { client, dry_run }) => {
            write_change(out, &export, &export.plan_restore(&client)?, dry_run)
        }
    }
}

/// A canonical Windows path starts with `\\?\`, which some clients cannot launch; a drive path does without it.
fn without_verbatim_prefix(path: PathBuf) -> PathBuf {
    match path.to_str().and_then(|p| p.strip_prefix(r"\\?\")) {
        Some(rest) if !rest.starts_with("UNC\\") => PathBuf::from(rest),
        _ => path,
    }
}

fn list(out: &mut impl Write, export: &ExportContext, json: bool) -> anyhow::Result<()> {
    let statuses = export.statuses();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&statuses)?)?;
        return Ok(());
    }
    for status in &statuses {
        writeln!(out, "{:<15} {:<42} {}", status.client, status.label, state(status))?;
        writeln!(out, "    file: {}", status.file)?;
        let others: Vec<_> = status.looked_at.iter().filter(|l| l.path != status.file).collect();
        // Another copy that exists matters (the client may read it instead); the empty places are only counted.
        for other in others.iter().filter(|l| l.found) {
            writeln!(out, "    also found: {} (not changed by connect)", other.path)?;
        }
        let empty = others.iter().filter(|l| !l.found).count();
        if empty > 0 {
            writeln!(out, "    also looked in {empty} other place(s) with no file (`--json` lists them)")?;
        }
        if !status.duplicates.is_empty() {
            writeln!(
                out,
                "    {} of its own entries duplicate Plugboard's servers: {} (connect --move-duplicates moves them)",
                status.duplicates.len(),
                status.duplicates.join(", ")
            )?;
        }
    }
    Ok(())
}

fn state(status: &ClientStatus) -> String {
    if let Some(problem) = &status.problem {
        return format!("error: {problem}");
    }
    let found = status.looked_at.iter().any(|l| l.found);
    match &status.connection {
        Connection::Current { profile: Some(p) } => format!("connected (profile {p})"),
        Connection::Current { profile: None } => "connected".to_owned(),
        Connection::Stale { reason } => format!("stale: {reason} (connect again to update it)"),
        Connection::NotConnected if found => "found, not connected".to_owned(),
        Connection::NotConnected => "no config file".to_owned(),
    }
}

fn write_change(out: &mut impl Write, export: &ExportContext, change: &Change, dry_run: bool) -> anyhow::Result<()> {
    let label = change.client.label;
    let path = change.path.display();
    if change.is_noop() {
        let message = match change.kind {
            ChangeKind::Connect => format!("{label} already launches this Plugboard ({path}); nothing to change."),
            ChangeKind::Disconnect => format!("{label} has no plugboard entry ({path}); nothing to change."),
            ChangeKind::Restore => format!("{path} already holds the backup; nothing to change."),
        };
        writeln!(out, "{message}")?;
        if !dry_run {
            // A restore to the same bytes still uses up the backup.
            export.apply(change)?;
        }
        return Ok(());
    }
    write!(out, "{}", change.diff())?;
    if !change.moved.is_empty() {
        writeln!(out, "Moved out of {label}'s file (Plugboard serves them): {}", change.moved.join(", "))?;
    }
    if dry_run {
        writeln!(out, "Dry run: nothing was written.")?;
        return Ok(());
    }
    export.apply(change)?;
    let id = change.client.id;
    match change.kind {
        ChangeKind::Connect => writeln!(
            out,
            "Connected {label}: {path} (its previous version is kept; `plugboard clients restore {id}` puts it back).\nNext: {}.",
            change.client.next_step
        )?,
        ChangeKind::Disconnect => {
            writeln!(out, "Disconnected {label}: {path}.\nNext: {}.", change.client.next_step)?;
        }
        ChangeKind::Restore => writeln!(out, "Restored {path}.\nNext: {}.", change.client.next_step)?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A verbatim drive path loses its `\\?\`; a verbatim UNC path and a Unix path are left alone.
    #[test]
    fn verbatim_prefixes_are_dropped_from_drive_paths_only() {
        let strip = |p: &str| without_verbatim_prefix(PathBuf::from(p)).display().to_string();
        assert_eq!(strip(r"\\?\C:\Program Files\Plugboard\plugboard.exe"), r"C:\Program Files\Plugboard\plugboard.exe");
        assert_eq!(strip(r"\\?\UNC\server\share\plugboard.exe"), r"\\?\UNC\server\share\plugboard.exe");
        assert_eq!(strip("/usr/bin/plugboard"), "/usr/bin/plugboard");
    }
}
