//! `plugboard secret set|delete SERVER NAME`: the value comes from stdin, never from argv (argv leaks into
//! shell history and `ps`).

use std::io::{Read, Write};

use clap::Subcommand;
use plugboard_core::registry::Registry;
use plugboard_core::secrets::Sensitive;

/// The largest secret read from stdin (OAuth token sets are a few KB).
const MAX_SECRET_BYTES: u64 = 64 * 1024;

#[derive(Debug, Subcommand)]
pub enum SecretAction {
    /// Store a secret read from stdin (one trailing newline is dropped): `printf %s "$TOKEN" | plugboard secret set gh GITHUB_TOKEN`.
    Set { server: String, name: String },
    /// Delete a secret.
    Delete { server: String, name: String },
}

pub fn run(out: &mut impl Write, registry: &Registry, action: SecretAction) -> anyhow::Result<()> {
    match action {
        SecretAction::Set { server, name } => {
            super::require_persistent_secrets(registry)?;
            let value = read_stdin_secret()?;
            registry.set_secret(&server, &name, &value)?;
            writeln!(out, "stored {name} for {server} in the keychain")?;
        }
        SecretAction::Delete { server, name } => {
            registry.delete_secret(&server, &name)?;
            writeln!(out, "deleted {name} of {server}")?;
        }
    }
    Ok(())
}

/// A secret piped on stdin (one trailing newline dropped); empty or oversized is an error.
pub(super) fn read_stdin_secret() -> anyhow::Result<Sensitive<String>> {
    let mut value = String::new();
    std::io::stdin().take(MAX_SECRET_BYTES + 1).read_to_string(&mut value)?;
    anyhow::ensure!(value.len() as u64 <= MAX_SECRET_BYTES, "the secret is longer than {MAX_SECRET_BYTES} bytes");
    let value = value.strip_suffix('\n').map(|v| v.strip_suffix('\r').unwrap_or(v)).unwrap_or(&value).to_owned();
    anyhow::ensure!(
        !value.is_empty(),
        "no secret on stdin: pipe it in, e.g. `printf %s \"$TOKEN\" | plugboard secret set …`"
    );
    Ok(Sensitive::new(value))
}
