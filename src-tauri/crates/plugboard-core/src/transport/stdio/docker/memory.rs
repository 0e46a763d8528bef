//! Which images turned out to serve HTTP (and on which port and path), so the next start of such an image goes
//! straight to running it on a loopback port instead of probing stdio again. Kept in this process and in
//! `docker-images.json` in the data dir (0600, replaced atomically). A file that does not parse is ignored and
//! rewritten; it never holds anything but image names, ports and paths.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

use serde::{Deserialize, Serialize};

/// Where an image serves MCP over HTTP, inside its container.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct HttpImage {
    pub port: u16,
    pub path: String,
}

#[derive(Default, Serialize, Deserialize)]
struct File {
    #[serde(default)]
    http: BTreeMap<String, HttpImage>,
}

/// The remembered decisions, loaded from `path` on first use.
pub(crate) struct Memory {
    path: Option<PathBuf>,
    known: Mutex<Option<File>>,
}

impl Memory {
    /// The app's: `docker-images.json` in the data dir.
    pub(crate) fn app() -> &'static Memory {
        static APP: std::sync::OnceLock<Memory> = std::sync::OnceLock::new();
        APP.get_or_init(|| Memory::at(Some(crate::paths::data_dir().join("docker-images.json"))))
    }

    /// A memory kept in `path` (`None`: this process only).
    pub(crate) fn at(path: Option<PathBuf>) -> Self {
        Self { path, known: Mutex::new(None) }
    }

    fn with<T>(&self, f: impl FnOnce(&mut File) -> T) -> T {
        let mut known = self.known.lock().unwrap_or_else(PoisonError::into_inner);
        let file = known.get_or_insert_with(|| {
            let read = self.path.as_ref().and_then(|p| std::fs::read(p).ok());
            read.and_then(|bytes| serde_json::from_slice(&bytes).ok()).unwrap_or_default()
        });
        f(file)
    }

    /// Where `image` serves HTTP, if it was found to.
    pub(crate) fn http(&self, image: &str) -> Option<HttpImage> {
        self.with(|file| file.http.get(image).cloned())
    }

    /// Remembers that `image` serves HTTP there (in the file too, when it can be written).
    pub(crate) fn remember_http(&self, image: &str, found: HttpImage) {
        let bytes = self.with(|file| {
            file.http.insert(image.to_owned(), found);
            serde_json::to_vec_pretty(file).ok()
        });
        if let (Some(path), Some(bytes)) = (&self.path, bytes) {
            let written = path
                .parent()
                .map_or(Ok(()), std::fs::create_dir_all)
                .and_then(|()| crate::private_file::write_private_atomically(path, &bytes));
            if let Err(e) = written {
                tracing::warn!(error = %e, "could not remember which images serve HTTP");
            }
        }
    }

    /// Forgets `image` (it no longer came up over HTTP).
    pub(crate) fn forget(&self, image: &str) {
        self.with(|file| file.http.remove(image));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A decision survives into another process's memory through the file; a broken file is ignored.
    #[test]
    fn a_decision_is_kept_in_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("docker-images.json");
        let found = HttpImage { port: 3001, path: "/mcp".into() };
        Memory::at(Some(path.clone())).remember_http("mcp/x:1", found.clone());
        assert_eq!(Memory::at(Some(path.clone())).http("mcp/x:1"), Some(found));
        assert_eq!(Memory::at(Some(path.clone())).http("mcp/y:1"), None);
        std::fs::write(&path, b"{not json").unwrap();
        assert_eq!(Memory::at(Some(path)).http("mcp/x:1"), None);
    }
}
