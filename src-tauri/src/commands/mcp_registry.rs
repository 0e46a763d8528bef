//! Commands of the MCP Registry: search the configured registries, preview and add an entry (it then waits for
//! approval like any other server), and choose which registries are searched.

use std::collections::BTreeMap;
use std::sync::Arc;

use plugboard_core::engine::Engine;
use plugboard_core::mcp_registry::{self, EntryRef, RegistryContext, RegistryResults, RegistrySource};
use plugboard_core::presets::PresetPreview;
use tauri::State;

use crate::error::CommandError;

/// Every registry's page of active servers matching `text` (or only `registry`'s page at `cursor`); a registry
/// that cannot be reached answers with its offline copy or says why.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn search_registry(
    engine: State<'_, Arc<Engine>>,
    text: String,
    registry: Option<String>,
    cursor: Option<String>,
) -> Result<Vec<RegistryResults>, CommandError> {
    let context = RegistryContext::for_this_user();
    Ok(mcp_registry::search(&context, engine.registry(), &text, registry.as_deref(), cursor.as_deref()).await?)
}

/// What adding the entry with these inputs would run; a filled secret input may be sent as any text.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(inputs), err)]
pub async fn preview_registry_entry(
    entry: EntryRef,
    inputs: BTreeMap<String, String>,
) -> Result<PresetPreview, CommandError> {
    Ok(mcp_registry::preview(&RegistryContext::for_this_user(), &entry, &inputs)?)
}

/// Adds the entry as the server `name`; secret inputs go to the keychain. Returns the server's name.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine, inputs), err)]
pub async fn add_registry_entry(
    engine: State<'_, Arc<Engine>>,
    entry: EntryRef,
    name: String,
    inputs: BTreeMap<String, String>,
) -> Result<String, CommandError> {
    let registry = Arc::clone(engine.registry());
    Ok(mcp_registry::add_blocking(RegistryContext::for_this_user(), registry, entry, name, inputs).await?)
}

/// The registries searched (the official one unless the person chose others).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(err)]
pub async fn list_registry_sources() -> Result<Vec<RegistrySource>, CommandError> {
    Ok(mcp_registry::load_sources(&mcp_registry::sources_path())?)
}

/// Searches `url` too (https only); returns the list as saved.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(err)]
pub async fn add_registry_source(name: String, url: String) -> Result<Vec<RegistrySource>, CommandError> {
    Ok(mcp_registry::add_source(&mcp_registry::sources_path(), &name, &url)?)
}

/// Stops searching `url`; returns the list as saved.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(err)]
pub async fn remove_registry_source(url: String) -> Result<Vec<RegistrySource>, CommandError> {
    Ok(mcp_registry::remove_source(&mcp_registry::sources_path(), &url)?)
}
