//! Commands of the tool-call console: run a call with live events, cancel it, and read or clear the call history.

use plugboard_core::console::{CallEvent, HistoryEntry, HistoryPage};
use tauri::State;
use tauri::ipc::Channel;

use crate::commands::engine::parse_arguments;
use crate::error::CommandError;
use crate::state::AppState;

/// Runs a tool call; its progress and the server's log messages stream on `on_event` while it runs. Resolves with
/// the saved history entry, whatever the call's outcome (a tool error, a failure, a cancel).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state, args, on_event), err)]
pub async fn run_tool_call(
    state: State<'_, AppState>,
    call_id: String,
    server: String,
    tool: String,
    args: String,
    on_event: Channel<CallEvent>,
) -> Result<HistoryEntry, CommandError> {
    let send = move |event: CallEvent| drop(on_event.send(event));
    Ok(state.console()?.run(&call_id, &server, &tool, parse_arguments(&args)?, send).await?)
}

/// Cancels the running call `call_id`; false when it is not running (any more).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state), err)]
pub async fn cancel_tool_call(state: State<'_, AppState>, call_id: String) -> Result<bool, CommandError> {
    Ok(state.console()?.cancel(&call_id))
}

/// A page of the call history, newest first, filtered by `query` (server, tool or arguments; any case).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state), err)]
pub async fn call_history(
    state: State<'_, AppState>,
    query: String,
    before_id: Option<u32>,
    limit: u32,
) -> Result<HistoryPage, CommandError> {
    Ok(state.console()?.page(query, before_id, limit).await?)
}

/// One recorded call in full.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state), err)]
pub async fn history_entry(state: State<'_, AppState>, id: u32) -> Result<HistoryEntry, CommandError> {
    Ok(state.console()?.entry(id).await?)
}

/// Forgets every recorded call.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state), err)]
pub async fn clear_call_history(state: State<'_, AppState>) -> Result<(), CommandError> {
    Ok(state.console()?.clear().await?)
}
