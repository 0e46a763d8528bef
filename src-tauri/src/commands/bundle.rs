//! Commands of `.mcpb` bundles dropped onto the window or opened with Plugboard: the ones the app was started with,
//! what one is (the offer), what installing it would run, and installing it (unpacked into the data dir; the server
//! then waits for approval). The page only hands the path back: the core reads and checks the file again each time.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use plugboard_core::bundle::{self, BundleOffer};
use plugboard_core::engine::Engine;
use plugboard_core::presets::PresetPreview;
use tauri::State;

use crate::bundle_drop::MissedBundles;
use crate::error::CommandError;
use crate::events::BundleDropped;
use crate::state::with_registry;

/// The bundles the app was started with (opened with Plugboard from a file manager), known before the page could
/// listen; each is returned once.
#[tauri::command]
#[specta::specta]
pub async fn missed_bundles(missed: State<'_, MissedBundles>) -> Result<Vec<BundleDropped>, CommandError> {
    Ok(missed.take())
}

/// The bundle at `path` as the install dialog shows it; a bad bundle is refused with the reason.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn open_bundle(engine: State<'_, Arc<Engine>>, path: String) -> Result<BundleOffer, CommandError> {
    with_registry(&engine, move |r| Ok(bundle::offer(r, &PathBuf::from(path), &bundle::bundles_dir())))
        .await?
        .map_err(Into::into)
}

/// What installing the bundle with these inputs would run; a filled secret input may be sent as any text.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(inputs), err)]
pub async fn preview_bundle(path: String, inputs: BTreeMap<String, String>) -> Result<PresetPreview, CommandError> {
    Ok(bundle::preview(&PathBuf::from(path), &bundle::bundles_dir(), &inputs)?)
}

/// Installs the bundle as the server `name`; secret inputs go to the keychain. Returns the server's name.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine, inputs), err)]
pub async fn add_bundle(
    engine: State<'_, Arc<Engine>>,
    path: String,
    name: String,
    inputs: BTreeMap<String, String>,
) -> Result<String, CommandError> {
    with_registry(&engine, move |r| {
        Ok(bundle::install(r, &PathBuf::from(path), &bundle::bundles_dir(), &name, &inputs))
    })
    .await?
    .map_err(Into::into)
}
