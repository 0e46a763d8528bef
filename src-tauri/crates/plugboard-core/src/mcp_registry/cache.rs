//! What the registries answered, kept in the data dir (`registry-cache/`) so that a search still answers offline
//! and an entry can be added later without the network: each page's text by (registry, search, cursor), and each
//! offered entry's `server.json` by (registry, name, version). Nothing here is a secret; it must never be trusted
//! more than a fresh answer (it is parsed and validated again when read).

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The cache of this user.
pub fn cache_dir() -> PathBuf {
    crate::paths::data_dir().join("registry-cache")
}

#[derive(Serialize, Deserialize)]
struct CachedPage {
    /// Seconds since the Unix epoch.
    fetched_at: u64,
    text: String,
}

/// The cache folder.
#[derive(Debug, Clone)]
pub struct Cache {
    dir: PathBuf,
}

impl Cache {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    /// Keeps a page's text; a failure only costs the offline copy, so it is logged, not returned.
    pub fn store_page(&self, registry: &str, search: &str, cursor: Option<&str>, text: &str) {
        let now = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or_default();
        let page = CachedPage { fetched_at: now, text: text.to_owned() };
        if let Ok(bytes) = serde_json::to_vec(&page) {
            self.write(&self.page_path(registry, search, cursor), &bytes);
        }
    }

    /// A page kept earlier, with when it was fetched (seconds since the epoch).
    pub fn load_page(&self, registry: &str, search: &str, cursor: Option<&str>) -> Option<(String, u64)> {
        let bytes = std::fs::read(self.page_path(registry, search, cursor)).ok()?;
        let page: CachedPage = serde_json::from_slice(&bytes).ok()?;
        Some((page.text, page.fetched_at))
    }

    /// Keeps an offered entry's `server.json`.
    pub fn store_entry(&self, registry: &str, name: &str, version: &str, server_json: &serde_json::Value) {
        if let Ok(bytes) = serde_json::to_vec(server_json) {
            self.write(&self.entry_path(registry, name, version), &bytes);
        }
    }

    /// An entry's `server.json` kept by an earlier search.
    pub fn load_entry(&self, registry: &str, name: &str, version: &str) -> Option<serde_json::Value> {
        serde_json::from_slice(&std::fs::read(self.entry_path(registry, name, version)).ok()?).ok()
    }

    fn page_path(&self, registry: &str, search: &str, cursor: Option<&str>) -> PathBuf {
        self.dir.join("pages").join(key(&[registry, search, cursor.unwrap_or_default()]))
    }

    fn entry_path(&self, registry: &str, name: &str, version: &str) -> PathBuf {
        self.dir.join("entries").join(key(&[registry, name, version]))
    }

    fn write(&self, path: &Path, bytes: &[u8]) {
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| crate::private_file::write_private_atomically(path, bytes));
        if let Err(e) = written {
            tracing::warn!(path = %path.display(), "cannot keep the registry's answer for offline use: {e}");
        }
    }
}

/// A file name for a tuple of texts (each part separated by a NUL, so no two tuples collide by concatenation).
fn key(parts: &[&str]) -> String {
    let digest = Sha256::digest(parts.join("\u{0}").as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("{hex}.json")
}
