//! `plugboard install URL|FILE.mcpb`: an "Add to Plugboard" link or a bundle from the terminal. It prints exactly
//! what would be added (a bundle's name, author, declared tools and signature; the command or URL, environment and
//! header names, the trust flags, the values it asks for), adds nothing without a yes (typed, or `--yes`), takes a
//! secret from stdin only, and the server then waits for `plugboard approve` like any other.

use std::io::{BufRead, Write};

use anyhow::Context;
use clap::Args;
use plugboard_core::bundle::{self, Signature};
use plugboard_core::install;
use plugboard_core::presets::{Preset, PresetPreview};
use plugboard_core::registry::Registry;
use plugboard_core::trust::ReviewFlag;

use super::presets::{Given, collect_inputs};

#[derive(Debug, Args)]
pub struct InstallArgs {
    /// A `plugboard://install?…` link, or a `.mcpb` bundle file.
    target: String,
    /// Add without asking (needed when stdin carries a secret).
    #[arg(long)]
    yes: bool,
    #[command(flatten)]
    given: Given,
}

pub fn run(out: &mut impl Write, registry: &Registry, args: &InstallArgs) -> anyhow::Result<()> {
    if args.target.ends_with(".mcpb") {
        return install_bundle(out, registry, args);
    }
    let offer = install::offer(registry, &args.target)?;
    writeln!(out, "The link offers the server {:?}:", offer.suggested_name)?;
    let Some((name, inputs)) = consent(out, registry, args, &offer.preset, &offer.preview, &offer.flags)? else {
        return Ok(());
    };
    let name = name.unwrap_or(offer.suggested_name);
    let added = install::add(registry, &args.target, &name, &inputs)?;
    writeln!(out, "added {added}; it runs once you approve it: plugboard approve {added}")?;
    Ok(())
}

fn install_bundle(out: &mut impl Write, registry: &Registry, args: &InstallArgs) -> anyhow::Result<()> {
    let path = std::path::PathBuf::from(&args.target);
    let dir = bundle::bundles_dir();
    let offer = bundle::offer(registry, &path, &dir)?;
    writeln!(out, "The bundle {} {} by {} ({}):", offer.display_name, offer.version, offer.author, offer.description)?;
    let signature = signature_text(&offer.signature);
    writeln!(out, "  manifest {}; {signature}; {}", offer.spec, offer.compatibility)?;
    for tool in &offer.tools {
        writeln!(
            out,
            "  declares the tool {}{}",
            tool.name,
            tool.description.as_ref().map(|d| format!(": {d}")).unwrap_or_default()
        )?;
    }
    let Some((name, inputs)) = consent(out, registry, args, &offer.preset, &offer.preview, &offer.flags)? else {
        return Ok(());
    };
    let name = name.unwrap_or(offer.suggested_name);
    let added = bundle::install(registry, &path, &dir, &name, &inputs)?;
    writeln!(out, "added {added}; it runs once you approve it: plugboard approve {added}")?;
    Ok(())
}

/// The signature as checked, in words (the signer's names are their certificate's own text, quoted).
fn signature_text(signature: &Signature) -> String {
    match signature {
        Signature::Verified { signer } => format!(
            "signed by {:?}, vouched for by {:?}, a certificate authority this computer trusts (certificate SHA-256 {})",
            signer.publisher, signer.issuer, signer.fingerprint
        ),
        Signature::SelfSigned { signer } => format!(
            "self-signed by {:?}: unchanged since that key signed it, but nobody vouches for who holds the key \
             (certificate SHA-256 {})",
            signer.publisher, signer.fingerprint
        ),
        Signature::Untrusted { signer, reason } => {
            format!("signed by {:?}, but {reason}: trust it no more than an unsigned one", signer.publisher)
        }
        Signature::Unsigned => "unsigned: nothing shows who made it, or that it is unchanged since".to_owned(),
    }
}

/// The server's name if the person gave one, and the inputs.
type Consented = (Option<String>, std::collections::BTreeMap<String, String>);

/// Prints what would run and what is asked for, gathers the inputs, and asks; `None` when the person said no.
fn consent(
    out: &mut impl Write,
    registry: &Registry,
    args: &InstallArgs,
    preset: &Preset,
    preview: &PresetPreview,
    flags: &[ReviewFlag],
) -> anyhow::Result<Option<Consented>> {
    let verb = if preview.target.starts_with("http") { "connect to" } else { "run" };
    writeln!(out, "  it would {verb}: {}", preview.target)?;
    for named in preview.env.iter().chain(&preview.headers) {
        writeln!(out, "  {} = {}", named.name, named.template)?;
    }
    for flag in flags {
        writeln!(out, "  worth a second look: {}", flag.message)?;
    }
    for input in &preset.inputs {
        let how = if input.secret { "a secret: --secret-stdin" } else { "--input" };
        writeln!(out, "  it asks for {} ({how} {})", input.key, input.key)?;
    }
    let inputs = collect_inputs(registry, preset, &args.given)?;
    if args.given.secret_stdin.is_some() && !args.yes {
        anyhow::bail!("stdin carries the secret, so it cannot carry your answer too: add --yes to add it");
    }
    if !args.yes && !confirmed(out)? {
        writeln!(out, "Nothing was added.")?;
        return Ok(None);
    }
    Ok(Some((args.given.name.clone(), inputs)))
}

/// Asks on stdin; only `y` or `yes` adds.
fn confirmed(out: &mut impl Write) -> anyhow::Result<bool> {
    write!(out, "Add it? [y/N] ")?;
    out.flush()?;
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer).context("cannot read the answer")?;
    Ok(matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes"))
}
