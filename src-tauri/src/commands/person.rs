//! Commands of the pending-requests dialogs: what servers are asking the person, and the person's answers.

use std::sync::Arc;

use plugboard_core::person::{FormAction, PendingRequest};
use tauri::State;

use crate::error::CommandError;
use plugboard_cli::browser;
use plugboard_core::engine::Engine;

/// Every request waiting for the person, oldest first (for a window opened after they arrived).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip_all)]
pub async fn pending_requests(engine: State<'_, Arc<Engine>>) -> Result<Vec<PendingRequest>, CommandError> {
    Ok(engine.person().pending())
}

/// Answers a form: `content` (JSON text of an object) to accept, checked against the requested schema.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine, content), err)]
pub async fn answer_elicitation(
    engine: State<'_, Arc<Engine>>,
    id: u32,
    action: FormAction,
    content: Option<String>,
) -> Result<(), CommandError> {
    engine.person().answer_elicitation(id, action, content.as_deref()).map_err(Into::into)
}

/// Answers a link request. To accept, the page is opened in the person's browser first, and only an opened page is
/// reported as accepted; when no browser opens, the request keeps waiting and the error says why (the dialog shows
/// the address to copy).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn answer_link(engine: State<'_, Arc<Engine>>, id: u32, action: FormAction) -> Result<(), CommandError> {
    if action == FormAction::Accept {
        let url = engine.person().link_to_open(id)?;
        browser::open(&url).map_err(|e| CommandError::Internal {
            message: format!("{e}: copy the address and open it yourself, or decline"),
        })?;
    }
    engine.person().answer_link(id, action).map_err(Into::into)
}

/// Answers a sampling request with the person's own reply, or declines it (`null`).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine, reply), err)]
pub async fn answer_sampling(
    engine: State<'_, Arc<Engine>>,
    id: u32,
    reply: Option<String>,
) -> Result<(), CommandError> {
    engine.person().answer_sampling(id, reply).map_err(Into::into)
}

/// Answers a roots request with absolute folder paths, or declines it (`null`).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn answer_roots(
    engine: State<'_, Arc<Engine>>,
    id: u32,
    roots: Option<Vec<String>>,
) -> Result<(), CommandError> {
    engine.person().answer_roots(id, roots.as_deref()).map_err(Into::into)
}
