//! Commands of the Settings screen: where Plugboard keeps its files, and its version; and why Plugboard could not
//! start, which the page shows in place of the app.

use plugboard_core::engine::StartupProblem;
use serde::Serialize;
use tauri::State;

use crate::error::CommandError;
use crate::window::Startup;

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

/// Why Plugboard's engine could not start (what is wrong and what to do), or nothing when it runs.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip_all)]
pub async fn startup_problem(startup: State<'_, Startup>) -> Result<Option<StartupProblem>, CommandError> {
    Ok(startup.0.clone())
}
