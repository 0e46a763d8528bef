//! Commands of the Settings screen: where Plugboard keeps its files, and its version.

use serde::Serialize;

use crate::error::CommandError;

/// Where Plugboard's files are, for the person to find (and back up) them.
#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct AppPaths {
    /// servers.json, the config file.
    pub config_file: String,
    /// Call history, logs and other data.
    pub data_dir: String,
    pub log_dir: String,
    pub version: String,
}

/// The config file, data and log folders, and the app's version.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip_all)]
pub async fn app_paths() -> Result<AppPaths, CommandError> {
    use plugboard_core::{config, paths};
    Ok(AppPaths {
        config_file: config::config_path().display().to_string(),
        data_dir: paths::data_dir().display().to_string(),
        log_dir: paths::log_dir().display().to_string(),
        version: env!("CARGO_PKG_VERSION").to_owned(),
    })
}
