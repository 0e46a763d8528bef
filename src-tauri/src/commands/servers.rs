//! Commands about the configured servers. Entries cross the boundary as JSON text, the way the file holds them.

use std::sync::Arc;

use plugboard_core::config::raw::RawServer;
use plugboard_core::config::{EntryProblem, ServerList, check_entry_text};
use plugboard_core::secrets::Sensitive;
use plugboard_core::transport::resolve_program;
use serde::Deserialize;
use tauri::State;

use crate::error::CommandError;
use crate::state::with_registry;
use plugboard_core::engine::Engine;

/// Every configured server, the entries that need fixing and the path of the config file.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip_all, err)]
pub async fn list_servers(engine: State<'_, Arc<Engine>>) -> Result<ServerList, CommandError> {
    with_registry(&engine, |r| Ok(r.list())).await
}

/// One server's entry as pretty JSON, exactly as it is in the file (one Plugboard cannot read too, to fix it).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn get_server(engine: State<'_, Arc<Engine>>, name: String) -> Result<String, CommandError> {
    with_registry(&engine, move |r| r.entry_text(&name)).await
}

/// A secret typed into the Add server form: its value goes to the keychain, the entry holds `${secret:NAME}`.
#[derive(Debug, Clone, Deserialize, specta::Type)]
pub struct NewSecret {
    pub name: String,
    pub value: String,
}

/// Adds a server from its JSON entry, with the secrets its `${secret:…}` references name (stored first; a failure
/// leaves neither).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine, entry, secrets), err)]
pub async fn add_server(
    engine: State<'_, Arc<Engine>>,
    name: String,
    entry: String,
    secrets: Vec<NewSecret>,
) -> Result<(), CommandError> {
    let entry = parse_entry(&name, &entry)?;
    let secrets: Vec<(String, Sensitive<String>)> =
        secrets.into_iter().map(|s| (s.name, Sensitive::new(s.value))).collect();
    // A token pasted without marking it secret still goes to the keychain, never into servers.json.
    with_registry(&engine, move |r| r.add_moving_secrets(&name, entry, &secrets).map(drop)).await
}

/// Whether the program of a local server can be found the way Plugboard will start it (the login shell's PATH):
/// `null` when it can, else what is wrong and what to install, for the Add server form before saving.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(err)]
pub async fn check_server_program(command: String) -> Result<Option<String>, CommandError> {
    let found = tauri::async_runtime::spawn_blocking(move || {
        resolve_program(std::path::Path::new(command.trim()), &std::collections::BTreeMap::new())
    })
    .await
    .map_err(|e| CommandError::Internal { message: format!("the check did not finish: {e}") })?;
    Ok(found.err().map(|e| e.to_string()))
}

/// Replaces a server's entry with this JSON.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine, entry), err)]
pub async fn update_server(engine: State<'_, Arc<Engine>>, name: String, entry: String) -> Result<(), CommandError> {
    let entry = parse_entry(&name, &entry)?;
    // The raw editor's entry: a literal token typed into it goes to the keychain behind a `${secret:…}`.
    with_registry(&engine, move |r| r.update_moving_secrets(&name, entry).map(drop)).await
}

/// Replaces only a server's tool allowlist: `null` means every tool (no `tools` key), a list exactly those.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn set_server_tools(
    engine: State<'_, Arc<Engine>>,
    name: String,
    tools: Option<Vec<String>>,
) -> Result<(), CommandError> {
    with_registry(&engine, move |r| r.set_tools(&name, tools)).await
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
#[tracing::instrument(skip(engine), err)]
pub async fn remove_server(engine: State<'_, Arc<Engine>>, name: String) -> Result<u32, CommandError> {
    with_registry(&engine, move |r| r.remove(&name).map(|n| u32::try_from(n).unwrap_or(u32::MAX))).await
}

/// Renames a server; its secrets move with it.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn rename_server(engine: State<'_, Arc<Engine>>, from: String, to: String) -> Result<(), CommandError> {
    with_registry(&engine, move |r| r.rename(&from, &to)).await
}

/// Turns a server on or off.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn set_server_enabled(
    engine: State<'_, Arc<Engine>>,
    name: String,
    enabled: bool,
) -> Result<(), CommandError> {
    with_registry(&engine, move |r| r.set_enabled(&name, enabled)).await
}

fn parse_entry(name: &str, json: &str) -> Result<RawServer, CommandError> {
    serde_json::from_str(json).map_err(|e| CommandError::InvalidConfig {
        field: Some(format!("mcpServers.{name}")),
        message: format!("the entry is not valid JSON for a server: {e}"),
    })
}
