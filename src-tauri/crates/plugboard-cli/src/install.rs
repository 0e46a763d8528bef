//! `plugboard install URL`: an "Add to Plugboard" link from the terminal. It prints exactly what the link would add
//! (the command or URL, environment and header names, the trust flags, the values it asks for), adds nothing
//! without a yes (typed, or `--yes`), takes a secret from stdin only, and the server then waits for
//! `plugboard approve` like any other.

use std::io::{BufRead, Write};

use anyhow::Context;
use clap::Args;
use plugboard_core::install;
use plugboard_core::registry::Registry;

use super::presets::{Given, collect_inputs};

#[derive(Debug, Args)]
pub struct InstallArgs {
    /// A `plugboard://install?…` link.
    target: String,
    /// Add without asking (needed when stdin carries a secret).
    #[arg(long)]
    yes: bool,
    #[command(flatten)]
    given: Given,
}

pub fn run(out: &mut impl Write, registry: &Registry, args: InstallArgs) -> anyhow::Result<()> {
    if args.target.ends_with(".mcpb") {
        anyhow::bail!(".mcpb bundles cannot be installed yet: only plugboard://install links can");
    }
    let offer = install::offer(registry, &args.target)?;
    writeln!(out, "The link offers the server {:?}:", offer.suggested_name)?;
    let verb = if offer.preview.target.starts_with("http") { "connect to" } else { "run" };
    writeln!(out, "  it would {verb}: {}", offer.preview.target)?;
    for named in offer.preview.env.iter().chain(&offer.preview.headers) {
        writeln!(out, "  {} = {}", named.name, named.template)?;
    }
    for flag in &offer.flags {
        writeln!(out, "  worth a second look: {}", flag.message)?;
    }
    for input in &offer.preset.inputs {
        let how = if input.secret { "a secret: --secret-stdin" } else { "--input" };
        writeln!(out, "  it asks for {} ({how} {})", input.key, input.key)?;
    }
    let inputs = collect_inputs(registry, &offer.preset, &args.given)?;
    if args.given.secret_stdin.is_some() && !args.yes {
        anyhow::bail!("stdin carries the secret, so it cannot carry your answer too: add --yes to add it");
    }
    if !args.yes && !confirmed(out)? {
        writeln!(out, "Nothing was added.")?;
        return Ok(());
    }
    let name = args.given.name.unwrap_or(offer.suggested_name);
    let added = install::add(registry, &args.target, &name, &inputs)?;
    writeln!(out, "added {added}; it runs once you approve it: plugboard approve {added}")?;
    Ok(())
}

/// Asks on stdin; only `y` or `yes` adds.
fn confirmed(out: &mut impl Write) -> anyhow::Result<bool> {
    write!(out, "Add it? [y/N] ")?;
    out.flush()?;
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer).context("cannot read the answer")?;
    Ok(matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes"))
}
