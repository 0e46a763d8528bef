//! "Show in folder": opens the folder of one of Plugboard's own files, or of a client's config file, in the
//! person's file manager. The webview names a place, never a path: the path is worked out here, so a page cannot
//! ask to open anything else. The folder is opened as one argument to the platform's opener, never through a shell.

use std::path::{Path, PathBuf};

use plugboard_core::export::target;
use plugboard_core::import::PathContext;
use serde::Deserialize;

use crate::error::CommandError;

/// A place the Settings and Clients screens can show in the file manager.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, specta::Type)]
#[serde(tag = "place", rename_all = "camelCase")]
pub enum Place {
    /// The folder of servers.json.
    ConfigFile,
    /// The data folder (history, approvals, backups).
    DataDir,
    LogDir,
    /// The folder of the file Plugboard writes for this client.
    ClientFile {
        client: String,
    },
}

impl Place {
    /// The folder to open.
    pub fn folder(&self, paths: &PathContext) -> Result<PathBuf, CommandError> {
        let folder = match self {
            Self::ConfigFile => parent(&plugboard_core::config::config_path()),
            Self::DataDir => plugboard_core::paths::data_dir(),
            Self::LogDir => plugboard_core::paths::log_dir(),
            Self::ClientFile { client } => {
                let target = target(client)
                    .ok_or_else(|| CommandError::NotFound { message: format!("unknown client {client:?}") })?;
                parent(&target.file(paths))
            }
        };
        if !folder.is_dir() {
            return Err(CommandError::NotFound { message: format!("{} does not exist yet", folder.display()) });
        }
        Ok(folder)
    }

    /// Opens the folder in the file manager.
    pub fn show(&self) -> Result<(), CommandError> {
        let folder = self.folder(&PathContext::from_env(Vec::new()))?;
        opener::open(&folder).map_err(|e| CommandError::Internal {
            message: format!("{} could not be shown in a file manager: {e}", folder.display()),
        })
    }
}

fn parent(file: &Path) -> PathBuf {
    file.parent().map(Path::to_path_buf).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use plugboard_core::import::Os;

    fn home(dir: &Path) -> PathContext {
        PathContext {
            os: Os::Linux,
            home: dir.to_path_buf(),
            app_data: None,
            local_app_data: None,
            xdg_config_home: None,
            projects: Vec::new(),
        }
    }

    /// A client's place is the folder of its file, once that folder exists; an unknown client or a folder not made
    /// yet is NotFound. A place is only ever one of these: the webview cannot name a path (no such variant parses).
    #[test]
    fn a_place_is_a_known_folder_and_never_a_path_from_the_page() {
        let dir = tempfile::tempdir().expect("dir");
        let cursor = Place::ClientFile { client: "cursor".into() };
        assert!(matches!(cursor.folder(&home(dir.path())), Err(CommandError::NotFound { .. })));
        std::fs::create_dir_all(dir.path().join(".cursor")).expect("dir");
        assert_eq!(cursor.folder(&home(dir.path())).expect("folder"), dir.path().join(".cursor"));
        let unknown = Place::ClientFile { client: "../../etc".into() };
        assert!(matches!(unknown.folder(&home(dir.path())), Err(CommandError::NotFound { .. })));
        let path: Result<Place, _> = serde_json::from_value(serde_json::json!({ "place": "path", "path": "/etc" }));
        assert!(path.is_err());
        let extra: Place =
            serde_json::from_value(serde_json::json!({ "place": "dataDir", "path": "/etc" })).expect("parses");
        assert_eq!(extra, Place::DataDir);
    }
}
