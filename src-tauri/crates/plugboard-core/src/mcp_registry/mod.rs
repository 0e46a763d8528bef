//! The MCP Registry (`/v0.1/servers`) as a second source of presets: search one or several registries
//! (`sources.rs`), offer their active entries in the same form as the catalog's presets, keep what they answered
//! for offline use (`cache.rs`), and add an entry as a server that waits for approval like any other. A registry
//! is a stranger: its answers are size- and time-limited (`client.rs`), every entry is validated on its own
//! (`wire.rs`) and nothing it says runs before the person approved it.

mod cache;
mod client;
mod sources;
mod wire;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use serde::Serialize;

pub use cache::{Cache, cache_dir};
pub use client::{MAX_PAGE_BYTES, page_url};
pub use sources::{OFFICIAL_REGISTRY, RegistrySource, add_source, load_sources, remove_source, sources_path};
pub use wire::{MalformedPage, Page, PageEntry, Skipped, parse_entry, parse_page};

use crate::presets::{self, PresetError, PresetListing, PresetPreview};
use crate::registry::Registry;

/// Why a registry could not be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RegistryError {
    /// The list of registries is unreadable, or a URL cannot be one.
    #[error("{0}")]
    Sources(String),
    /// The registry did not answer usefully (and nothing was cached for this search).
    #[error("{registry} cannot be searched: {reason}")]
    Unreachable { registry: String, reason: String },
    #[error("{registry}: {source}")]
    Malformed { registry: String, source: MalformedPage },
    /// No search offered this entry, so there is nothing to add.
    #[error("{name} {version} of {registry} is not known here: search for it first")]
    UnknownEntry { registry: String, name: String, version: String },
    #[error(transparent)]
    Preset(#[from] PresetError),
    /// Blocking work (the keychain, the file system) did not finish.
    #[error("adding did not finish: {0}")]
    Interrupted(String),
}

/// Where to look and keep things: the registries file, the cache and an HTTP client.
#[derive(Debug, Clone)]
pub struct RegistryContext {
    pub sources_path: std::path::PathBuf,
    pub cache: Cache,
    pub http: reqwest::Client,
}

impl RegistryContext {
    /// This user's registries and cache, over the app's pooled client (no redirects).
    pub fn for_this_user() -> Self {
        Self { sources_path: sources_path(), cache: Cache::new(cache_dir()), http: crate::net::pooled_http_client() }
    }
}

/// One offered entry, in the catalog's form, and where it comes from.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct RegistryListing {
    /// The registry's base URL.
    pub registry: String,
    pub version: String,
    #[serde(flatten)]
    pub listing: PresetListing,
}

/// What one registry answered to a search.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct RegistryResults {
    pub source: RegistrySource,
    pub listings: Vec<RegistryListing>,
    /// Entries left out, each with why (deprecated, malformed, nothing runnable here).
    pub skipped: Vec<Skipped>,
    /// Where the next page starts, for "more".
    pub next_cursor: Option<String>,
    /// Set when the registry could not be reached and these results are the ones kept from an earlier search:
    /// when they were fetched (seconds since the Unix epoch; 32 bits reach 2106, and the UI's numbers stay exact).
    pub cached_at: Option<u32>,
    /// Why the registry could not be searched (nothing cached either), or why the cached copy is shown.
    pub problem: Option<String>,
}

/// Searches every registry (or only `only`, to fetch the page at `cursor`); each answers or says why not.
pub async fn search(
    context: &RegistryContext,
    registry: &Registry,
    text: &str,
    only: Option<&str>,
    cursor: Option<&str>,
) -> Result<Vec<RegistryResults>, RegistryError> {
    let sources = load_sources(&context.sources_path)?;
    let mut results = Vec::new();
    for source in sources.into_iter().filter(|s| only.is_none_or(|u| u.trim_end_matches('/') == s.url)) {
        results.push(search_one(context, registry, source, text, cursor).await);
    }
    Ok(results)
}

async fn search_one(
    context: &RegistryContext,
    registry: &Registry,
    source: RegistrySource,
    text: &str,
    cursor: Option<&str>,
) -> RegistryResults {
    let (page_text, cached_at, problem) = match client::fetch_page(&context.http, &source.url, text, cursor).await {
        Ok(page) => {
            context.cache.store_page(&source.url, text, cursor, &page);
            (Some(page), None, None)
        }
        Err(e) => match context.cache.load_page(&source.url, text, cursor) {
            Some((page, fetched_at)) => (Some(page), u32::try_from(fetched_at).ok(), Some(e.to_string())),
            None => (None, None, Some(e.to_string())),
        },
    };
    let empty = |problem: Option<String>| RegistryResults {
        source: source.clone(),
        listings: Vec::new(),
        skipped: Vec::new(),
        next_cursor: None,
        cached_at,
        problem,
    };
    let Some(page_text) = page_text else { return empty(problem) };
    let page = match parse_page(&page_text) {
        Ok(page) => page,
        Err(e) => return empty(Some(RegistryError::Malformed { registry: source.url.clone(), source: e }.to_string())),
    };
    for entry in &page.entries {
        context.cache.store_entry(&source.url, &entry.name, &entry.version, &entry.server_json);
    }
    let named: Vec<(String, &presets::Preset)> =
        page.entries.iter().map(|e| (default_server_name(&e.name), &e.preset)).collect();
    let named: Vec<(&str, &presets::Preset)> = named.iter().map(|(n, p)| (n.as_str(), *p)).collect();
    let listings = presets::listings(registry, &named)
        .into_iter()
        .zip(&page.entries)
        .map(|(listing, entry)| RegistryListing {
            registry: source.url.clone(),
            version: entry.version.clone(),
            listing,
        })
        .collect();
    RegistryResults { listings, skipped: page.skipped, next_cursor: page.next_cursor, ..empty(problem) }
}

/// The name a server added from `io.github.someone/weather` gets by default: `weather`.
pub fn default_server_name(registry_name: &str) -> String {
    registry_name.rsplit('/').next().unwrap_or(registry_name).to_owned()
}

/// The entry a search offered, validated again from the cache.
pub fn entry(
    context: &RegistryContext,
    registry_url: &str,
    name: &str,
    version: &str,
) -> Result<PageEntry, RegistryError> {
    let unknown = || RegistryError::UnknownEntry {
        registry: registry_url.to_owned(),
        name: name.to_owned(),
        version: version.to_owned(),
    };
    let server_json = context.cache.load_entry(registry_url, name, version).ok_or_else(unknown)?;
    let response = serde_json::json!({ "server": server_json });
    parse_entry(response).map_err(|(_, reason)| RegistryError::Sources(format!("{name} {version}: {reason}")))
}

/// What adding the entry with `inputs` would run.
pub fn preview(
    context: &RegistryContext,
    target: &EntryRef,
    inputs: &BTreeMap<String, String>,
) -> Result<PresetPreview, RegistryError> {
    Ok(presets::preview_of(&entry(context, &target.registry, &target.name, &target.version)?.preset, inputs)?)
}

/// Adds the entry as the server `server` with `inputs` (secrets to the vault); it waits for approval.
pub fn add(
    context: &RegistryContext,
    registry: &Registry,
    target: &EntryRef,
    server: &str,
    inputs: &BTreeMap<String, String>,
) -> Result<String, RegistryError> {
    let entry = entry(context, &target.registry, &target.name, &target.version)?;
    Ok(presets::add_from(registry, &entry.preset, server, inputs)?)
}

/// [`add`] off the async runtime (the keychain and the file system may block).
pub async fn add_blocking(
    context: RegistryContext,
    registry: std::sync::Arc<Registry>,
    target: EntryRef,
    server: String,
    inputs: BTreeMap<String, String>,
) -> Result<String, RegistryError> {
    tokio::task::spawn_blocking(move || add(&context, &registry, &target, &server, &inputs))
        .await
        .map_err(|e| RegistryError::Interrupted(e.to_string()))?
}

/// Which entry of which registry.
#[derive(Debug, Clone, serde::Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct EntryRef {
    pub registry: String,
    pub name: String,
    pub version: String,
}
