//! What the consent dialog shows for an install link before anything is added: the parsed server in the catalog's
//! form, a free name, the exact command or URL with its environment or header names, and the trust flags its
//! launch definition raises. Adding parses the link again (nothing of the first parse is trusted across the gap)
//! and the new server then waits for the person's approval like any other.

use std::collections::BTreeMap;

use serde::Serialize;

use super::link::{LinkError, parse};
use crate::config::validate_server;
use crate::presets::{self, Preset, PresetError, PresetPreview};
use crate::registry::Registry;
use crate::trust::{ApprovalRequest, LaunchDefinition, ReviewFlag};

/// An install link as the person is asked about it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct InstallOffer {
    /// The link itself, handed back to add (parsed again then).
    pub link: String,
    pub preset: Preset,
    /// The link's name, or a free variant of it.
    pub suggested_name: String,
    pub preview: PresetPreview,
    /// What deserves a second look (sudo, rm -rf, an unpinned package, a host mount, …).
    pub flags: Vec<ReviewFlag>,
}

/// Why adding from a link failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InstallError {
    #[error("The install link was refused: {0}.")]
    Link(#[from] LinkError),
    #[error(transparent)]
    Preset(#[from] PresetError),
}

/// The offer of `link`, with a name free among `registry`'s servers.
pub fn offer(registry: &Registry, link: &str) -> Result<InstallOffer, InstallError> {
    let parsed = parse(link)?;
    let taken: Vec<String> = registry.store().snapshot().servers.into_keys().collect();
    let suggested_name = presets::suggest_name(&parsed.name, &taken);
    let preview = presets::preview_of(&parsed.preset, &BTreeMap::new())?;
    let flags = flags_of(&parsed.preset, &suggested_name);
    Ok(InstallOffer { link: link.to_owned(), preset: parsed.preset, suggested_name, preview, flags })
}

/// Adds the link's server as `name` with `inputs` (secrets to the vault); it waits for approval.
pub fn add(
    registry: &Registry,
    link: &str,
    name: &str,
    inputs: &BTreeMap<String, String>,
) -> Result<String, InstallError> {
    Ok(presets::add_from(registry, &parse(link)?.preset, name, inputs)?)
}

/// What adding with `inputs` would run.
pub fn preview(link: &str, inputs: &BTreeMap<String, String>) -> Result<PresetPreview, InstallError> {
    Ok(presets::preview_of(&parse(link)?.preset, inputs)?)
}

/// The trust flags of the definition the preset would have, every input shown as `<key>`; none when it cannot be
/// worked out yet (a URL made of inputs).
pub fn flags_of(preset: &Preset, name: &str) -> Vec<ReviewFlag> {
    let inputs: BTreeMap<String, String> =
        preset.inputs.iter().map(|i| (i.key.clone(), format!("<{}>", i.key))).collect();
    let Ok(converted) = presets::convert(preset, &inputs) else { return Vec::new() };
    let Ok(config) = validate_server(name, &converted.entry) else { return Vec::new() };
    let definition = LaunchDefinition::of(&config);
    ApprovalRequest::new(&definition, &definition.digest(), None).flags
}
