//! Which MCP Registries Plugboard searches: `registries.json` in the config dir (`{"registries": [{"name", "url"}]}`),
//! the official registry when the file is absent. Organisations and vendors run sub-registries of the same API, so
//! several can be listed. It must never accept a URL that is not https (plain http only to this computer) nor
//! write over a file it could not read.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::RegistryError;

/// The official registry's base URL.
pub const OFFICIAL_REGISTRY: &str = "https://registry.modelcontextprotocol.io";

/// One registry to search.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RegistrySource {
    pub name: String,
    /// The base URL, without `/v0.1/…` and without a trailing slash.
    pub url: String,
}

#[derive(Serialize, Deserialize)]
struct SourcesFile {
    registries: Vec<RegistrySource>,
}

/// The registries file of this user.
pub fn sources_path() -> PathBuf {
    crate::paths::config_dir().join("registries.json")
}

/// The registries listed in `path`; the official one when the file does not exist.
pub fn load_sources(path: &Path) -> Result<Vec<RegistrySource>, RegistryError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(vec![RegistrySource { name: "Official MCP Registry".into(), url: OFFICIAL_REGISTRY.into() }]);
        }
        Err(e) => return Err(RegistryError::Sources(format!("cannot read {}: {e}", path.display()))),
    };
    let file: SourcesFile = serde_json::from_str(&text)
        .map_err(|e| RegistryError::Sources(format!("{} is not a list of registries: {e}", path.display())))?;
    file.registries.into_iter().map(|s| Ok(RegistrySource { url: checked_url(&s.url)?, name: s.name })).collect()
}

/// Adds (or renames) the registry at `url`; returns the list as saved.
pub fn add_source(path: &Path, name: &str, url: &str) -> Result<Vec<RegistrySource>, RegistryError> {
    let url = checked_url(url)?;
    let mut sources = load_sources(path)?;
    sources.retain(|s| s.url != url);
    let name = if name.trim().is_empty() { url.clone() } else { name.trim().to_owned() };
    sources.push(RegistrySource { name, url });
    save(path, &sources)?;
    Ok(sources)
}

/// Removes the registry at `url`; returns the list as saved (it may become empty: no registry is searched).
pub fn remove_source(path: &Path, url: &str) -> Result<Vec<RegistrySource>, RegistryError> {
    let url = url.trim().trim_end_matches('/');
    let mut sources = load_sources(path)?;
    let before = sources.len();
    sources.retain(|s| s.url != url);
    if sources.len() == before {
        return Err(RegistryError::Sources(format!("{url} is not among the registries")));
    }
    save(path, &sources)?;
    Ok(sources)
}

fn save(path: &Path, sources: &[RegistrySource]) -> Result<(), RegistryError> {
    let text = serde_json::to_string_pretty(&SourcesFile { registries: sources.to_vec() })
        .map_err(|e| RegistryError::Sources(e.to_string()))?;
    crate::private_file::write_private_atomically(path, text.as_bytes())
        .map_err(|e| RegistryError::Sources(format!("cannot write {}: {e}", path.display())))
}

/// The base URL as stored: https (or http to a loopback address), no query, fragment or credentials, no trailing
/// slash.
pub fn checked_url(url: &str) -> Result<String, RegistryError> {
    let refuse = |why: &str| RegistryError::Sources(format!("{url:?} cannot be a registry: {why}"));
    let parsed = url::Url::parse(url.trim()).map_err(|e| refuse(&e.to_string()))?;
    let loopback = matches!(parsed.host_str(), Some("127.0.0.1" | "localhost" | "[::1]"));
    if parsed.scheme() != "https" && !(parsed.scheme() == "http" && loopback) {
        return Err(refuse("use https (plain http only on this computer)"));
    }
    if parsed.query().is_some() || parsed.fragment().is_some() || !parsed.username().is_empty() {
        return Err(refuse("give the base URL alone, with no query, fragment or user name"));
    }
    Ok(parsed.as_str().trim_end_matches('/').to_owned())
}
