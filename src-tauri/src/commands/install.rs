//! Commands of install links and sharing: the offers a cold start received, the preview of and adding from a link
//! (parsed again in the core each time: the page only hands the link back), and a server as a link or as another
//! client's config with references instead of secrets.

use std::collections::BTreeMap;
use std::sync::Arc;

use plugboard_core::engine::Engine;
use plugboard_core::install::{self, ClientShape};
use plugboard_core::presets::PresetPreview;
use tauri::State;

use crate::deep_link::MissedOffers;
use crate::error::CommandError;
use crate::events::InstallOffered;
use crate::state::with_registry;

/// The install links the app was started with, offered before the page could listen; each is returned once.
#[tauri::command]
#[specta::specta]
pub async fn missed_install_offers(missed: State<'_, MissedOffers>) -> Result<Vec<InstallOffered>, CommandError> {
    Ok(missed.take())
}

/// What adding from `link` with these inputs would run; a filled secret input may be sent as any text.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip_all, err)]
pub async fn preview_install_link(
    link: String,
    inputs: BTreeMap<String, String>,
) -> Result<PresetPreview, CommandError> {
    Ok(install::preview(&link, &inputs)?)
}

/// Adds the link's server as `name` once the person confirmed; secret inputs go to the keychain. It then waits for
/// approval. Returns the server's name.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine, link, inputs), err)]
pub async fn add_from_install_link(
    engine: State<'_, Arc<Engine>>,
    link: String,
    name: String,
    inputs: BTreeMap<String, String>,
) -> Result<String, CommandError> {
    with_registry(&engine, move |r| Ok(install::add(r, &link, &name, &inputs))).await?.map_err(Into::into)
}

/// The server as a `plugboard://install` link (each secret asked for again, never carried).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn install_link_for(engine: State<'_, Arc<Engine>>, server: String) -> Result<String, CommandError> {
    let entry = engine.registry().get(&server)?;
    Ok(install::install_link(&server, &entry)?)
}

/// The server as `client`'s config takes it, with that client's references in place of secrets.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn client_config_for(
    engine: State<'_, Arc<Engine>>,
    server: String,
    client: ClientShape,
) -> Result<String, CommandError> {
    let entry = engine.registry().get(&server)?;
    Ok(install::client_config(&server, &entry, client)?)
}
