//! `plugboard registry search|add|sources`: the MCP Registry from the terminal. Search prints each registry's
//! active entries (and what it skipped, and whether the answer is the offline copy); add installs an entry like a
//! preset, so it waits for `plugboard approve`; a secret input comes from stdin only.

use std::io::Write;

use anyhow::Context;
use clap::{Args, Subcommand};
use plugboard_core::mcp_registry::{self, EntryRef, RegistryContext, RegistryResults};
use plugboard_core::presets::Launch;
use plugboard_core::registry::Registry;

use super::presets::{Given, collect_inputs, print_auth_note};
use super::runtimes;

#[derive(Debug, Subcommand)]
pub enum RegistryAction {
    /// Search the registries' active servers whose name holds TEXT.
    Search(SearchArgs),
    /// Add a registry's server: `plugboard registry add io.github.someone/weather --input KEY=VALUE`.
    Add(AddArgs),
    /// List the registries searched, or add or remove one.
    Sources {
        #[command(subcommand)]
        action: Option<SourcesAction>,
    },
}

#[derive(Debug, Args)]
pub struct SearchArgs {
    text: String,
    /// Only this registry (its base URL).
    #[arg(long)]
    registry: Option<String>,
    /// The page that starts here (printed after a page that has more).
    #[arg(long, requires = "registry")]
    cursor: Option<String>,
}

#[derive(Debug, Args)]
pub struct AddArgs {
    /// The entry's registry name, such as `io.github.someone/weather`.
    entry: String,
    /// Only this registry (its base URL).
    #[arg(long)]
    registry: Option<String>,
    #[command(flatten)]
    given: Given,
}

#[derive(Debug, Subcommand)]
pub enum SourcesAction {
    /// Search this registry too: `plugboard registry sources add https://registry.example.com --name Ours`.
    Add {
        url: String,
        #[arg(long, default_value = "")]
        name: String,
    },
    /// Stop searching this registry.
    Remove { url: String },
}

pub fn run(out: &mut impl Write, registry: &Registry, action: RegistryAction) -> anyhow::Result<()> {
    let context = RegistryContext::for_this_user();
    match action {
        RegistryAction::Search(args) => search(out, &context, registry, &args),
        RegistryAction::Add(args) => add(out, &context, registry, args),
        RegistryAction::Sources { action } => sources(out, &context, action),
    }
}

fn search(
    out: &mut impl Write,
    context: &RegistryContext,
    registry: &Registry,
    args: &SearchArgs,
) -> anyhow::Result<()> {
    let results = runtimes::one_shot()?.block_on(mcp_registry::search(
        context,
        registry,
        &args.text,
        args.registry.as_deref(),
        args.cursor.as_deref(),
    ))?;
    if results.is_empty() {
        writeln!(out, "No registry to search: `plugboard registry sources add URL` adds one.")?;
    }
    for result in &results {
        print_results(out, result, &args.text)?;
    }
    Ok(())
}

fn print_results(out: &mut impl Write, result: &RegistryResults, text: &str) -> anyhow::Result<()> {
    writeln!(out, "== {} ({})", result.source.name, result.source.url)?;
    match (&result.problem, result.cached_at) {
        (Some(problem), Some(at)) => writeln!(out, "offline: the results kept at {at} (Unix time); {problem}")?,
        (Some(problem), None) => writeln!(out, "error: {problem}")?,
        _ => {}
    }
    for entry in &result.listings {
        let preset = &entry.listing.preset;
        let target = match &preset.launch {
            Launch::Package { identifier, .. } => identifier.as_str(),
            Launch::Command { command, .. } => command.as_str(),
            Launch::Remote { url, .. } => url.as_str(),
        };
        writeln!(out, "{:<44} {:<12} {} ({target})", preset.name, entry.version, preset.title)?;
    }
    for skipped in &result.skipped {
        writeln!(out, "skipped {}: {}", skipped.name, skipped.reason)?;
    }
    if let Some(cursor) = &result.next_cursor {
        writeln!(out, "more: plugboard registry search {text:?} --registry {} --cursor {cursor:?}", result.source.url)?;
    }
    Ok(())
}

fn add(out: &mut impl Write, context: &RegistryContext, registry: &Registry, args: AddArgs) -> anyhow::Result<()> {
    let results = runtimes::one_shot()?.block_on(mcp_registry::search(
        context,
        registry,
        &args.entry,
        args.registry.as_deref(),
        None,
    ))?;
    let found =
        results.iter().flat_map(|r| &r.listings).find(|l| l.listing.preset.name == args.entry).with_context(|| {
            format!("no registry offers {:?}: `plugboard registry search` shows what they do", args.entry)
        })?;
    let preset = &found.listing.preset;
    let inputs = collect_inputs(registry, preset, &args.given)?;
    let name = args.given.name.unwrap_or_else(|| found.listing.suggested_name.clone());
    let target =
        EntryRef { registry: found.registry.clone(), name: preset.name.clone(), version: found.version.clone() };
    let added = mcp_registry::add(context, registry, &target, &name, &inputs)?;
    writeln!(out, "added {added} from {} {} ({})", preset.name, found.version, found.registry)?;
    print_auth_note(out, preset)?;
    writeln!(out, "it runs once you approve it: plugboard approve {added}")?;
    Ok(())
}

fn sources(out: &mut impl Write, context: &RegistryContext, action: Option<SourcesAction>) -> anyhow::Result<()> {
    let path = &context.sources_path;
    let listed = match action {
        None => mcp_registry::load_sources(path)?,
        Some(SourcesAction::Add { url, name }) => mcp_registry::add_source(path, &name, &url)?,
        Some(SourcesAction::Remove { url }) => mcp_registry::remove_source(path, &url)?,
    };
    for source in listed {
        writeln!(out, "{:<32} {}", source.name, source.url)?;
    }
    Ok(())
}
