//! What adding a preset would run, shown to the person BEFORE anything is written: the exact command line or URL,
//! with secrets as their `${secret:KEY}` references and required inputs not yet given as `<key>`.

use std::collections::BTreeMap;

use serde::Serialize;

use super::error::PresetError;
use super::model::{NamedTemplate, Preset};
use super::{convert, find};

/// The command line (or URL) and the environment variables or headers that go with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PresetPreview {
    /// `npx -y pkg@1.0.0 /home/me` or `https://mcp.example/mcp`; an argument with spaces is single-quoted.
    pub target: String,
    pub env: Vec<NamedTemplate>,
    pub headers: Vec<NamedTemplate>,
}

/// Converts as adding would, except that a required input left empty shows as `<key>` instead of failing. Only
/// whether a secret input is filled matters: its value never appears.
pub fn preview_preset(preset: &str, inputs: &BTreeMap<String, String>) -> Result<PresetPreview, PresetError> {
    preview_of(find(preset)?, inputs)
}

/// [`preview_preset`] of any preset (a registry entry, a link, a bundle).
pub fn preview_of(preset: &Preset, inputs: &BTreeMap<String, String>) -> Result<PresetPreview, PresetError> {
    let mut filled = inputs.clone();
    for input in preset.inputs.iter().filter(|i| i.required) {
        let slot = filled.entry(input.key.clone()).or_default();
        if slot.trim().is_empty() && input.default.as_deref().is_none_or(str::is_empty) {
            *slot = format!("<{}>", input.key);
        }
    }
    let entry = convert(preset, &filled)?.entry;
    let named = |map: Option<BTreeMap<String, String>>| -> Vec<NamedTemplate> {
        map.into_iter().flatten().map(|(name, template)| NamedTemplate { name, template }).collect()
    };
    let target = match (&entry.command, &entry.url) {
        (Some(command), _) => {
            std::iter::once(command).chain(entry.args.iter().flatten()).map(|a| quoted(a)).collect::<Vec<_>>().join(" ")
        }
        (None, url) => url.clone().unwrap_or_default(),
    };
    Ok(PresetPreview { target, env: named(entry.env), headers: named(entry.headers) })
}

/// An argument as a POSIX shell would need it to be one word (Plugboard itself never runs a shell).
fn quoted(arg: &str) -> String {
    let plain = !arg.is_empty() && arg.chars().all(|c| c.is_ascii_alphanumeric() || "-_./@=:,+%<>${}".contains(c));
    if plain { arg.to_owned() } else { format!("'{}'", arg.replace('\'', "'\\''")) }
}
