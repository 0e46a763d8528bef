//! `plugboard list | add | remove | rename | enable | disable`.

use std::collections::BTreeMap;
use std::io::Write;

use anyhow::Context;
use clap::Args;
use plugboard_core::config::raw::RawServer;
use plugboard_core::config::{ServerList, TransportKind};
use plugboard_core::import::secrets_scan::move_literal_secrets;
use plugboard_core::registry::Registry;

/// What `plugboard add` takes.
#[derive(Debug, Args)]
pub struct AddArgs {
    /// The server's name (letters, digits, '-', '_', '.').
    name: String,
    /// A remote server's URL (instead of a command after `--`).
    #[arg(long, conflicts_with = "command")]
    url: Option<String>,
    /// The remote transport: http (Streamable HTTP) or sse; without it Plugboard probes.
    #[arg(long, value_parser = ["http", "sse"], requires = "url")]
    transport: Option<String>,
    /// A header for a remote server, `NAME=VALUE` (repeatable). Put secrets in with `${secret:NAME}`.
    #[arg(long = "header", value_name = "NAME=VALUE", requires = "url")]
    headers: Vec<String>,
    /// An environment variable for a local server, `NAME=VALUE` (repeatable).
    #[arg(long = "env", value_name = "NAME=VALUE")]
    env: Vec<String>,
    /// Add it turned off.
    #[arg(long)]
    disabled: bool,
    /// The local server's command and arguments, after `--`.
    #[arg(last = true, value_name = "COMMAND")]
    command: Vec<String>,
}

pub fn list(out: &mut impl Write, registry: &Registry, json: bool) -> anyhow::Result<()> {
    let list = registry.list();
    if let Some(problem) = &list.file_problem {
        anyhow::bail!("{problem}");
    }
    if json {
        serde_json::to_writer_pretty(&mut *out, &list)?;
        writeln!(out)?;
        return Ok(());
    }
    write_table(out, &list)?;
    Ok(())
}

fn write_table(out: &mut impl Write, list: &ServerList) -> std::io::Result<()> {
    if list.servers.is_empty() && list.invalid.is_empty() {
        return writeln!(out, "No servers configured yet. Plugboard reads them from {}", list.config_path);
    }
    let width = list.servers.iter().map(|s| s.name.chars().count()).max().unwrap_or(0).max(4);
    if !list.servers.is_empty() {
        writeln!(out, "{:width$}  {:<15}  {:<8}  TARGET", "NAME", "TRANSPORT", "STATE")?;
    }
    for server in &list.servers {
        let state = if server.enabled { "enabled" } else { "disabled" };
        let transport = transport_label(server.transport);
        writeln!(out, "{:width$}  {transport:<15}  {state:<8}  {}", server.name, server.target)?;
    }
    write_notes_and_invalid(out, list)
}

/// The notes on entries (other clients' keys, unknown keys) and the entries that cannot be used, with why: what
/// `list` and `status` both end with.
pub(crate) fn write_notes_and_invalid(out: &mut impl Write, list: &ServerList) -> std::io::Result<()> {
    for server in &list.servers {
        for note in &server.notes {
            writeln!(out, "note: {}: {note}", server.name)?;
        }
    }
    for bad in &list.invalid {
        writeln!(out, "invalid: {}: {}: {}", bad.name, bad.field, bad.message)?;
    }
    Ok(())
}

fn transport_label(kind: TransportKind) -> &'static str {
    match kind {
        TransportKind::Stdio => "stdio",
        TransportKind::StreamableHttp => "streamable-http",
        TransportKind::Sse => "sse",
        TransportKind::Probe => "http (probe)",
    }
}

pub fn add(out: &mut impl Write, registry: &Registry, args: AddArgs) -> anyhow::Result<()> {
    let mut server =
        RawServer { env: pairs("--env", &args.env)?, enabled: args.disabled.then_some(false), ..RawServer::default() };
    match (args.url, args.command.split_first()) {
        (Some(url), _) => {
            server.url = Some(url);
            server.kind = args.transport;
            server.headers = pairs("--header", &args.headers)?;
        }
        (None, Some((command, rest))) => {
            server.command = Some(command.clone());
            server.args = (!rest.is_empty()).then(|| rest.to_vec());
        }
        (None, None) => anyhow::bail!("give a command after `--` (a local server) or --url (a remote one)"),
    }
    // A token typed on the command line still belongs in the keychain, not in servers.json.
    let secrets = move_literal_secrets(&args.name, &mut server);
    if !secrets.is_empty() {
        super::require_persistent_secrets(registry)?;
    }
    registry.add(&args.name, server)?;
    for secret in &secrets {
        registry.vault().set(&args.name, &secret.name, &secret.value)?;
        writeln!(out, "moved the secret in {} to the keychain", secret.location)?;
    }
    writeln!(out, "added {}", args.name)?;
    // Adding is not approving: servers.json is written by other programs too, so the approval is its own step.
    writeln!(out, "it runs once approved: `plugboard approve {}` shows what it runs and asks", args.name)?;
    Ok(())
}

fn pairs(flag: &str, items: &[String]) -> anyhow::Result<Option<BTreeMap<String, String>>> {
    if items.is_empty() {
        return Ok(None);
    }
    items
        .iter()
        .map(|item| {
            let (k, v) = item.split_once('=').with_context(|| format!("{flag} takes NAME=VALUE, got {item:?}"))?;
            Ok((k.trim().to_owned(), v.to_owned()))
        })
        .collect::<anyhow::Result<_>>()
        .map(Some)
}

pub fn remove(out: &mut impl Write, registry: &Registry, name: &str) -> anyhow::Result<()> {
    let deleted = registry.remove(name)?;
    writeln!(out, "removed {name} and {deleted} secret(s)")?;
    Ok(())
}

pub fn rename(out: &mut impl Write, registry: &Registry, from: &str, to: &str) -> anyhow::Result<()> {
    registry.rename(from, to)?;
    writeln!(out, "renamed {from} to {to}")?;
    Ok(())
}

pub fn set_enabled(out: &mut impl Write, registry: &Registry, name: &str, enabled: bool) -> anyhow::Result<()> {
    registry.set_enabled(name, enabled)?;
    writeln!(out, "{} {name}", if enabled { "enabled" } else { "disabled" })?;
    Ok(())
}
