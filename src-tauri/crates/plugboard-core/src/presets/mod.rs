//! The catalog of one-click integrations: curated `server.json` files (the MCP Registry shape) embedded in the
//! binary, validated, listed with the servers already added from them, and added as a server entry whose secret
//! inputs go to the vault. It must never write a secret value into servers.json nor fetch anything at runtime.

mod convert;
mod error;
mod model;
mod preview;
pub mod raw;
pub(crate) mod validate;

#[cfg(test)]
mod schema_tests;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Serialize;

pub use convert::{Converted, Package, convert, runner};
pub use error::PresetError;
pub use model::{
    InvalidPreset, Launch, NamedTemplate, OAuthTemplate, PackageRegistry, PathKind, Preset, PresetInput,
    RemoteTransport,
};
pub use preview::{PresetPreview, preview_of, preview_preset};
pub use validate::{OAUTH_CLIENT_ID_INPUT, OAUTH_CLIENT_SECRET_INPUT};

use crate::config::model::ServerName;
use crate::config::raw::RawServer;
use crate::config::validate_server;
use crate::import::free_name;
use crate::registry::{Registry, RegistryError};

/// `(default server name, server.json text)` of every curated preset. Each file's `_meta["dev.plugboard/preset"]`
/// lists the publisher's documentation it was checked against, and says in plain words when one-click OAuth cannot
/// work for a client like Plugboard and what the publisher offers instead.
const EMBEDDED: &[(&str, &str)] = &[
    ("everything", include_str!("catalog/everything.json")),
    ("filesystem", include_str!("catalog/filesystem.json")),
    ("memory", include_str!("catalog/memory.json")),
    ("sequential-thinking", include_str!("catalog/sequential-thinking.json")),
    ("fetch", include_str!("catalog/fetch.json")),
    ("git", include_str!("catalog/git.json")),
    ("time", include_str!("catalog/time.json")),
    ("playwright", include_str!("catalog/playwright.json")),
    ("database", include_str!("catalog/database.json")),
    ("github-docker", include_str!("catalog/github-docker.json")),
    ("square-local", include_str!("catalog/square-local.json")),
    ("github", include_str!("catalog/github.json")),
    ("linear", include_str!("catalog/linear.json")),
    ("notion", include_str!("catalog/notion.json")),
    ("sentry", include_str!("catalog/sentry.json")),
    ("atlassian", include_str!("catalog/atlassian.json")),
    ("cloudflare-docs", include_str!("catalog/cloudflare-docs.json")),
    ("stripe", include_str!("catalog/stripe.json")),
    ("context7", include_str!("catalog/context7.json")),
    ("huggingface", include_str!("catalog/huggingface.json")),
    ("neon", include_str!("catalog/neon.json")),
    ("supabase", include_str!("catalog/supabase.json")),
    ("monday", include_str!("catalog/monday.json")),
    ("webflow", include_str!("catalog/webflow.json")),
    ("intercom", include_str!("catalog/intercom.json")),
    ("deepwiki", include_str!("catalog/deepwiki.json")),
    ("asana", include_str!("catalog/asana.json")),
    ("box", include_str!("catalog/box.json")),
    ("figma", include_str!("catalog/figma.json")),
    ("figma-desktop", include_str!("catalog/figma-desktop.json")),
    ("vercel", include_str!("catalog/vercel.json")),
    ("paypal", include_str!("catalog/paypal.json")),
    ("square", include_str!("catalog/square.json")),
    ("zapier", include_str!("catalog/zapier.json")),
    ("canva", include_str!("catalog/canva.json")),
    ("wix", include_str!("catalog/wix.json")),
];

/// A preset of the catalog with the name a server made from it gets by default.
#[derive(Debug, Clone)]
pub struct CatalogEntry {
    pub default_name: &'static str,
    pub preset: Preset,
}

/// Every valid embedded preset (a test keeps them all valid; an invalid one is logged and left out).
pub fn catalog() -> &'static [CatalogEntry] {
    static CATALOG: OnceLock<Vec<CatalogEntry>> = OnceLock::new();
    CATALOG.get_or_init(|| {
        EMBEDDED
            .iter()
            .filter_map(|&(default_name, text)| match Preset::from_json(text) {
                Ok(preset) => Some(CatalogEntry { default_name, preset }),
                Err(e) => {
                    tracing::error!(error = %e, "an embedded preset is invalid and is not offered");
                    None
                }
            })
            .collect()
    })
}

/// A preset as the catalog page shows it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct PresetListing {
    pub preset: Preset,
    /// The configured servers that run this preset's package or URL.
    pub added_as: Vec<String>,
    /// A free server name to offer (the preset's default name, or `name-2`, … when it is taken).
    pub suggested_name: String,
}

/// The catalog, each preset with the servers already added from it and a free name to suggest.
pub fn list_presets(registry: &Registry) -> Vec<PresetListing> {
    let listed: Vec<(&str, &Preset)> = catalog().iter().map(|e| (e.default_name, &e.preset)).collect();
    listings(registry, &listed)
}

/// Each `(default name, preset)` with the configured servers that run it and a free name to suggest.
pub fn listings(registry: &Registry, presets: &[(&str, &Preset)]) -> Vec<PresetListing> {
    let servers = registry.store().snapshot().servers;
    let taken: Vec<String> = servers.keys().cloned().collect();
    presets
        .iter()
        .map(|(default_name, preset)| PresetListing {
            added_as: servers.iter().filter(|(_, s)| runs_preset(s, preset)).map(|(n, _)| n.clone()).collect(),
            suggested_name: suggest_name(default_name, &taken),
            preset: (*preset).clone(),
        })
        .collect()
}

/// Adds the catalog's preset `preset` as the server `name` with `inputs`; returns the server's name.
pub fn add_preset(
    registry: &Registry,
    preset: &str,
    name: &str,
    inputs: &BTreeMap<String, String>,
) -> Result<String, PresetError> {
    add_from(registry, find(preset)?, name, inputs)
}

/// Adds `preset` (from the catalog, a registry, a link or a bundle) as the server `name` with `inputs`; returns the
/// server's name. Secret inputs are stored in the vault first and removed again when the write fails. Nothing runs:
/// the new server waits for the person's approval like any other.
pub fn add_from(
    registry: &Registry,
    preset: &Preset,
    name: &str,
    inputs: &BTreeMap<String, String>,
) -> Result<String, PresetError> {
    let Converted { entry, secrets } = convert(preset, inputs)?;
    validate_server(name, &entry).map_err(RegistryError::from)?;
    let taken = || -> Vec<String> { registry.store().snapshot().servers.into_keys().collect() };
    let name_taken =
        |name: &str| PresetError::NameTaken { name: name.to_owned(), suggestion: suggest_name(name, &taken()) };
    if taken().iter().any(|n| n == name) {
        return Err(name_taken(name));
    }
    let secrets: Vec<(&str, &str, _)> = secrets.iter().map(|(key, value)| (name, key.as_str(), value)).collect();
    let written = registry.write_with_secrets(&secrets, |file| {
        if file.servers.contains_key(name) {
            return Err(RegistryError::AlreadyExists { name: name.to_owned() });
        }
        file.servers.insert(name.to_owned(), entry);
        Ok(())
    });
    match written {
        Ok(()) => Ok(name.to_owned()),
        // Another program took the name between the check and the write.
        Err(RegistryError::AlreadyExists { .. }) => Err(name_taken(name)),
        Err(e) => Err(e.into()),
    }
}

/// The catalog's preset named `name`.
fn find(name: &str) -> Result<&'static Preset, PresetError> {
    catalog()
        .iter()
        .find(|e| e.preset.name == name)
        .map(|e| &e.preset)
        .ok_or_else(|| PresetError::UnknownPreset { name: name.to_owned() })
}

/// `base` when it is free (and a valid name), else the first free `base-2`, `base-3`, …
pub fn suggest_name(base: &str, taken: &[String]) -> String {
    let base = ServerName::sanitize(base).to_string();
    if taken.contains(&base) { free_name(&base, taken) } else { base }
}

/// Whether a configured entry runs the preset: the same package (any version) or the same URL.
fn runs_preset(server: &RawServer, preset: &Preset) -> bool {
    match &preset.launch {
        Launch::Package { identifier, .. } => server.args.iter().flatten().any(|arg| {
            arg == identifier
                || arg
                    .strip_prefix(identifier.as_str())
                    .is_some_and(|rest| rest.starts_with('@') || rest.starts_with("==") || rest.starts_with(':'))
        }),
        // A link's or a bundle's program is never listed among the catalog's.
        Launch::Command { .. } => false,
        Launch::Remote { url, .. } => {
            server.url.as_deref().is_some_and(|u| u.trim_end_matches('/') == url.trim_end_matches('/'))
        }
    }
}
