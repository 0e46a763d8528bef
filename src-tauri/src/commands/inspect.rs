//! Commands that look inside a ready server for its detail page: what it said about itself, its resources and
//! prompts, and its recent log. Everything they return that the server wrote is for inert display.

use std::sync::Arc;

use std::collections::BTreeMap;

use plugboard_core::supervisor::{
    PromptInfo, PromptOutcome, ResourceContent, ResourceInfo, ResourceTemplateInfo, ServerInfo, ServerLogEntry,
};
use tauri::State;

use crate::error::CommandError;
use plugboard_core::engine::Engine;

/// What the server said about itself when it connected: protocol version, name, version, capabilities, instructions.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn server_info(engine: State<'_, Arc<Engine>>, name: String) -> Result<ServerInfo, CommandError> {
    engine.supervisor().server_info(&name).await.map_err(Into::into)
}

/// Every resource the server lists (all pages).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn server_resources(engine: State<'_, Arc<Engine>>, name: String) -> Result<Vec<ResourceInfo>, CommandError> {
    engine.supervisor().resources(&name).await.map_err(Into::into)
}

/// Every resource template the server lists (all pages).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn server_resource_templates(
    engine: State<'_, Arc<Engine>>,
    name: String,
) -> Result<Vec<ResourceTemplateInfo>, CommandError> {
    engine.supervisor().resource_templates(&name).await.map_err(Into::into)
}

/// Reads one resource by URI.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn read_resource(
    engine: State<'_, Arc<Engine>>,
    name: String,
    uri: String,
) -> Result<Vec<ResourceContent>, CommandError> {
    engine.supervisor().read_resource(&name, &uri).await.map_err(Into::into)
}

/// Every prompt the server offers (all pages), with its declared arguments.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn server_prompts(engine: State<'_, Arc<Engine>>, name: String) -> Result<Vec<PromptInfo>, CommandError> {
    engine.supervisor().prompts(&name).await.map_err(Into::into)
}

/// Gets a prompt filled in with string arguments.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine, args), err)]
pub async fn get_prompt(
    engine: State<'_, Arc<Engine>>,
    name: String,
    prompt: String,
    args: BTreeMap<String, String>,
) -> Result<PromptOutcome, CommandError> {
    engine.supervisor().get_prompt(&name, &prompt, args).await.map_err(Into::into)
}

/// The server's recent log (its messages and Plugboard's warnings about it), oldest first; `ServerMessaged`
/// events bring the lines after it.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn server_log(engine: State<'_, Arc<Engine>>, name: String) -> Result<Vec<ServerLogEntry>, CommandError> {
    engine.supervisor().log(&name).map_err(Into::into)
}
