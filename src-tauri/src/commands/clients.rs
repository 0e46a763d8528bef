//! Commands of the Clients screen: every client with its state, files and tool budget; a change planned and shown
//! as a diff before anything is written; the same change applied only if it is still exactly what was shown (the
//! confirmation carries the plan's digest); and the tool limit the person chooses per client.

use std::sync::Arc;

use plugboard_core::engine::Engine;
use plugboard_core::export::{ChangePreview, ChangeRequest, ClientStatus};
use tauri::State;

use crate::command_path::CommandPath;
use crate::error::CommandError;

/// Every client Plugboard can connect, with the files looked at, its connection and its tool budget.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip_all, err)]
pub async fn list_clients(
    engine: State<'_, Arc<Engine>>,
    command: State<'_, CommandPath>,
) -> Result<Vec<ClientStatus>, CommandError> {
    Ok(command.export(&engine)?.statuses())
}

/// The change `request` would make, as a diff with its digest; nothing is written.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine, command), err)]
pub async fn plan_client_change(
    engine: State<'_, Arc<Engine>>,
    command: State<'_, CommandPath>,
    request: ChangeRequest,
) -> Result<ChangePreview, CommandError> {
    Ok(command.export(&engine)?.plan_request(&request)?.preview())
}

/// Makes the change `request` asks, only if planning it now gives the plan whose digest the person confirmed.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine, command), err)]
pub async fn apply_client_change(
    engine: State<'_, Arc<Engine>>,
    command: State<'_, CommandPath>,
    request: ChangeRequest,
    digest: String,
) -> Result<ChangePreview, CommandError> {
    Ok(command.export(&engine)?.apply_as_shown(&request, &digest)?)
}

/// Chooses how many tools `client` should see at most (`None`: the limit it documents).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine, command), err)]
pub async fn choose_client_limit(
    engine: State<'_, Arc<Engine>>,
    command: State<'_, CommandPath>,
    client: String,
    limit: Option<u32>,
) -> Result<(), CommandError> {
    Ok(command.export(&engine)?.choose_limit(&client, limit)?)
}
