//! Commands about the configured servers. Entries cross the boundary as JSON text, the way the file holds them.

use plugboard_core::config::raw::RawServer;
use plugboard_core::config::{EntryProblem, ServerList, check_entry_text};
use tauri::State;

use crate::error::CommandError;
use crate::state::AppState;

/// Every configured server, the entries that need fixing and the path of the config file.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip_all, err)]
pub async fn list_servers(state: State<'_, AppState>) -> Result<ServerList, CommandError> {
    state.with_registry(|r| Ok(r.list())).await
}

/// One server's entry as pretty JSON, exactly as it is in the file.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state), err)]
pub async fn get_server(state: State<'_, AppState>, name: String) -> Result<String, CommandError> {
    state.with_registry(move |r| r.get(&name).map(|entry| to_json(&entry))).await
}

/// Adds a server from its JSON entry.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state, entry), err)]
pub async fn add_server(state: State<'_, AppState>, name: String, entry: String) -> Result<(), CommandError> {
    let entry = parse_entry(&name, &entry)?;
    state.with_registry(move |r| r.add(&name, entry)).await
}

/// Replaces a server's entry with this JSON.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state, entry), err)]
pub async fn update_server(state: State<'_, AppState>, name: String, entry: String) -> Result<(), CommandError> {
    let entry = parse_entry(&name, &entry)?;
    state.with_registry(move |r| r.update(&name, entry)).await
}

/// Replaces only a server's tool allowlist: `null` means every tool (no `tools` key), a list exactly those.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state), err)]
pub async fn set_server_tools(
    state: State<'_, AppState>,
    name: String,
    tools: Option<Vec<String>>,
) -> Result<(), CommandError> {
    state.with_registry(move |r| r.set_tools(&name, tools)).await
}

/// Checks an entry's JSON text without saving it: `null` when it is a usable server, else the problem with its
/// field, line and column (for the raw config editor, as the person types).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(entry), err)]
pub async fn check_server_entry(name: String, entry: String) -> Result<Option<EntryProblem>, CommandError> {
    Ok(check_entry_text(&name, &entry).err())
}

/// Removes a server and deletes its secrets; returns how many secrets were deleted.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state), err)]
pub async fn remove_server(state: State<'_, AppState>, name: String) -> Result<u32, CommandError> {
    state.with_registry(move |r| r.remove(&name).map(|n| u32::try_from(n).unwrap_or(u32::MAX))).await
}

/// Renames a server; its secrets move with it.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state), err)]
pub async fn rename_server(state: State<'_, AppState>, from: String, to: String) -> Result<(), CommandError> {
    state.with_registry(move |r| r.rename(&from, &to)).await
}

/// Turns a server on or off.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state), err)]
pub async fn set_server_enabled(state: State<'_, AppState>, name: String, enabled: bool) -> Result<(), CommandError> {
    state.with_registry(move |r| r.set_enabled(&name, enabled)).await
}

fn parse_entry(name: &str, json: &str) -> Result<RawServer, CommandError> {
    serde_json::from_str(json).map_err(|e| CommandError::InvalidConfig {
        field: Some(format!("mcpServers.{name}")),
        message: format!("the entry is not valid JSON for a server: {e}"),
    })
}

fn to_json(entry: &RawServer) -> String {
    serde_json::to_string_pretty(entry).unwrap_or_else(|_| "{}".to_owned())
}
