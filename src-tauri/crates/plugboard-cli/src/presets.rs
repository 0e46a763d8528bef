//! `plugboard presets list|add`: the preset catalog from the terminal. A secret input is read from stdin only,
//! never from argv (argv leaks into shell history and `ps`).

use std::collections::BTreeMap;
use std::io::Write;

use anyhow::Context;
use clap::{Args, Subcommand};
use plugboard_core::presets::{self, CatalogEntry, Launch, Preset};
use plugboard_core::registry::Registry;

#[derive(Debug, Subcommand)]
pub enum PresetsAction {
    /// List the presets: short name, how it runs, and the servers already added from it.
    List {
        /// Only the presets whose title, name, description, package or URL hold every word of TEXT.
        #[arg(long, value_name = "TEXT")]
        search: Option<String>,
    },
    /// Add a preset as a server: `plugboard presets add filesystem --input allowed_folder=$HOME/notes`.
    Add(AddArgs),
}

#[derive(Debug, Args)]
pub struct AddArgs {
    /// The preset's short name (as `presets list` shows it) or its registry name.
    preset: String,
    #[command(flatten)]
    given: Given,
}

/// What the person gives when adding a preset or a registry entry.
#[derive(Debug, Args)]
pub struct Given {
    /// The server's name; the preset's short name (or a free variant of it) when omitted.
    #[arg(long)]
    pub name: Option<String>,
    /// A non-secret input, `KEY=VALUE`; repeat for several.
    #[arg(long = "input", value_name = "KEY=VALUE")]
    pub inputs: Vec<String>,
    /// The secret input whose value is piped on stdin: `printf %s "$TOKEN" | plugboard presets add … --secret-stdin KEY`.
    #[arg(long, value_name = "KEY")]
    pub secret_stdin: Option<String>,
}

pub fn run(out: &mut impl Write, registry: &Registry, action: PresetsAction) -> anyhow::Result<()> {
    match action {
        PresetsAction::List { search } => list(out, registry, search.as_deref().unwrap_or_default()),
        PresetsAction::Add(args) => add(out, registry, args),
    }
}

fn list(out: &mut impl Write, registry: &Registry, search: &str) -> anyhow::Result<()> {
    let listed = presets::catalog().iter().zip(presets::list_presets(registry));
    let mut shown = 0;
    for (entry, listing) in listed.filter(|(entry, _)| entry.preset.matches(search)) {
        shown += 1;
        let target = match &entry.preset.launch {
            Launch::Package { identifier, .. } => identifier.clone(),
            Launch::Command { command, .. } => command.clone(),
            Launch::Remote { url, .. } => url.clone(),
        };
        let added = if listing.added_as.is_empty() {
            String::new()
        } else {
            format!("  (added as {})", listing.added_as.join(", "))
        };
        writeln!(out, "{:<20} {:<28} {target}{added}", entry.default_name, entry.preset.title)?;
    }
    if shown == 0 {
        writeln!(out, "No preset matches {search:?}.")?;
    }
    Ok(())
}

/// The inputs to add `preset` with: `KEY=VALUE` pairs from argv (a secret there is refused: argv leaks into shell
/// history and `ps`) and the one secret piped on stdin.
pub(crate) fn collect_inputs(
    registry: &Registry,
    preset: &Preset,
    given: &Given,
) -> anyhow::Result<BTreeMap<String, String>> {
    let mut inputs = BTreeMap::new();
    for pair in &given.inputs {
        let (key, value) = pair.split_once('=').with_context(|| format!("--input {pair:?}: write KEY=VALUE"))?;
        if preset.input(key).is_some_and(|i| i.secret) {
            anyhow::bail!("{key} is a secret: pipe it on stdin with --secret-stdin {key}, never on the command line");
        }
        inputs.insert(key.to_owned(), value.to_owned());
    }
    if let Some(key) = &given.secret_stdin {
        super::require_persistent_secrets(registry)?;
        let value = super::secret::read_stdin_secret()?;
        // The core takes inputs as text; the value goes straight on to the vault and is never printed.
        inputs.insert(key.clone(), value.expose().clone());
    }
    Ok(inputs)
}

fn add(out: &mut impl Write, registry: &Registry, args: AddArgs) -> anyhow::Result<()> {
    let entry = find(&args.preset)?;
    let inputs = collect_inputs(registry, &entry.preset, &args.given)?;
    let name = match args.given.name {
        Some(name) => name,
        None => presets::list_presets(registry)
            .into_iter()
            .find(|l| l.preset.name == entry.preset.name)
            .map(|l| l.suggested_name)
            .unwrap_or_else(|| entry.default_name.to_owned()),
    };
    let added = presets::add_preset(registry, &entry.preset.name, &name, &inputs)?;
    writeln!(out, "added {added} from the preset {}", entry.preset.title)?;
    print_auth_note(out, &entry.preset)?;
    writeln!(out, "it runs once you approve it: plugboard approve {added}")?;
    Ok(())
}

/// The preset's words on logging in, when it has any.
pub(crate) fn print_auth_note(out: &mut impl Write, preset: &Preset) -> anyhow::Result<()> {
    if let Some(note) = &preset.auth_note {
        writeln!(out, "note: {note}")?;
    }
    Ok(())
}

fn find(preset: &str) -> anyhow::Result<&'static CatalogEntry> {
    presets::catalog()
        .iter()
        .find(|e| e.default_name == preset || e.preset.name == preset)
        .with_context(|| format!("there is no preset named {preset:?}: `plugboard presets list` shows them"))
}
