//! Commands about the configured servers.

use plugboard_core::config::{self, ServerList};

use crate::error::CommandError;

/// Every configured server and the path of the config file (an empty list when the file does not exist yet).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(err)]
pub async fn list_servers() -> Result<ServerList, CommandError> {
    config::load_server_list(&config::config_path()).map_err(Into::into)
}
