//! `plugboard clients`: list the MCP clients Plugboard can connect (and whether they are), connect one (one
//! `plugboard` entry in its own file, shown as a diff first), disconnect it, or restore its file from the backup.
//! The decisions live in the core's `export`; this file only prints them.

use std::io::Write;

use anyhow::Context;
use clap::{Args, Subcommand};
use plugboard_core::engine::Engine;
use plugboard_core::export::{
    Change, ChangeKind, ClientStatus, Connection, ExportContext, LimitFrom, ToolBudget, Trim,
};

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
    /// Choose how many tools CLIENT should see at most (its tool budget), instead of the limit it documents.
    Limit {
        client: String,
        /// The most tools it should see.
        #[arg(required_unless_present = "documented")]
        tools: Option<u32>,
        /// Go back to the limit the client documents (if any).
        #[arg(long, conflicts_with = "tools")]
        documented: bool,
    },
}

pub fn run(out: &mut impl Write, engine: &Engine, args: ClientsArgs) -> anyhow::Result<()> {
    let binary = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .context("cannot tell where this plugboard binary is")?;
    let export = engine.client_export(crate::window::without_verbatim_prefix(binary));
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
        Some(ClientsAction::Limit { client, tools, documented: _ }) => {
            export.choose_limit(&client, tools)?;
            match tools {
                Some(tools) => writeln!(out, "{client} should see at most {tools} tools through Plugboard.")?,
                None => writeln!(out, "{client} is measured against the limit it documents again.")?,
            }
            Ok(())
        }
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
        write_budget(out, &status.client, &status.budget)?;
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

/// The client's tools through Plugboard against its limit, and when over, the ways under it.
fn write_budget(out: &mut impl Write, client: &str, budget: &ToolBudget) -> anyhow::Result<()> {
    let count = &budget.current;
    let seen = match (&count.profile, count.search) {
        (Some(profile), true) => format!("{} tools (profile {profile}, search mode)", count.tools),
        (Some(profile), false) => format!("{} tools (profile {profile})", count.tools),
        (None, _) => format!("{} tools", count.tools),
    };
    let limit = match (budget.limit, budget.limit_from) {
        (Some(limit), LimitFrom::Chosen) => format!("the limit you chose is {limit}"),
        (Some(limit), _) => format!("its documented limit is {limit}"),
        (None, _) => "no limit (none documented)".to_owned(),
    };
    let verdict = match budget.limit {
        Some(limit) if budget.over => format!(" — OVER by {}", count.tools - limit),
        _ => String::new(),
    };
    writeln!(out, "    tools: {seen} through Plugboard; {limit}{verdict}")?;
    if !count.unknown_servers.is_empty() {
        writeln!(
            out,
            "      not counted yet: {} (connect them once in Plugboard to know their tools)",
            count.unknown_servers.join(", ")
        )?;
    }
    if budget.over {
        if let Some(source) = &budget.documented_source {
            writeln!(out, "      {} ({source})", budget.documented_says)?;
        }
        for trim in &budget.trims {
            match trim {
                Trim::Profile { profile, tools, search } => writeln!(
                    out,
                    "      trim: `plugboard clients connect {client} --profile {profile}` ({tools} tools{})",
                    if *search { ", search mode" } else { "" }
                )?,
                Trim::SearchMode { tools } => writeln!(
                    out,
                    "      trim: give a profile \"mode\": \"search\" in servers.json and connect with it ({tools} tools)"
                )?,
            }
        }
    }
    Ok(())
}

fn state(status: &ClientStatus) -> String {
    if let Some(problem) = &status.problem {
        return format!("error: {problem}");
    }
    let over = if status.budget.over { ", over its tool budget" } else { "" };
    let found = status.looked_at.iter().any(|l| l.found);
    match &status.connection {
        Connection::Current { profile: Some(p) } => format!("connected (profile {p}){over}"),
        Connection::Current { profile: None } => format!("connected{over}"),
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
