//! Commands of the preset catalog: list the one-click integrations, add one as a server.

use std::sync::Arc;

use std::collections::BTreeMap;

use plugboard_core::presets::{self, PresetListing, PresetPreview};
use tauri::State;

use crate::error::CommandError;
use crate::state::with_registry;
use plugboard_core::engine::Engine;

/// The catalog, each preset with the servers already added from it and a free name to suggest.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip_all, err)]
pub async fn list_presets(engine: State<'_, Arc<Engine>>) -> Result<Vec<PresetListing>, CommandError> {
    with_registry(&engine, |r| Ok(presets::list_presets(r))).await
}

/// Adds the preset `preset` as the server `name`; secret inputs go to the keychain. Returns the server's name.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine, inputs), err)]
pub async fn add_preset(
    engine: State<'_, Arc<Engine>>,
    preset: String,
    name: String,
    inputs: BTreeMap<String, String>,
) -> Result<String, CommandError> {
    with_registry(&engine, move |r| Ok(presets::add_preset(r, &preset, &name, &inputs))).await?.map_err(Into::into)
}

/// What adding the preset with these inputs would run (command line or URL), before anything is written. Send
/// any text for a filled secret input: only whether it is filled matters, so its value need not cross.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(inputs), err)]
pub async fn preview_preset(preset: String, inputs: BTreeMap<String, String>) -> Result<PresetPreview, CommandError> {
    presets::preview_preset(&preset, &inputs).map_err(Into::into)
}
