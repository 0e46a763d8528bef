//! Commands of the tool-call console: run a call with live events, cancel it, and read or clear the call history.

use std::sync::Arc;

use plugboard_core::console::{HistoryEntry, HistoryPage};
use plugboard_core::supervisor::CallEvent;
use tauri::State;
use tauri::ipc::Channel;

use crate::commands::engine::parse_arguments;
use crate::commands::event_batches::EventBatches;
use crate::error::CommandError;
use plugboard_core::engine::Engine;

/// Runs a tool call; its progress and the server's log messages stream on `on_event` while it runs, in batches a
/// frame apart (`event_batches`). Resolves with the saved history entry, whatever the call's outcome (a tool error, a
/// failure, a cancel), once every event is sent.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine, args, on_event), err)]
pub async fn run_tool_call(
    engine: State<'_, Arc<Engine>>,
    call_id: String,
    server: String,
    tool: String,
    args: String,
    on_event: Channel<Vec<CallEvent>>,
) -> Result<HistoryEntry, CommandError> {
    let (console, arguments) = (engine.console()?, parse_arguments(&args)?);
    let batches = EventBatches::new(move |batch| drop(on_event.send(batch)));
    Ok(batches.drive(console.run(&call_id, &server, &tool, arguments, batches.sink())).await?)
}

/// Cancels the running call `call_id`; false when it is not running (any more).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn cancel_tool_call(engine: State<'_, Arc<Engine>>, call_id: String) -> Result<bool, CommandError> {
    Ok(engine.console()?.cancel(&call_id))
}

/// A page of the call history, newest first, filtered by `query` (server, tool or arguments; any case).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn call_history(
    engine: State<'_, Arc<Engine>>,
    query: String,
    before_id: Option<u32>,
    limit: u32,
) -> Result<HistoryPage, CommandError> {
    Ok(engine.console()?.page(query, before_id, limit).await?)
}

/// One recorded call in full.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn history_entry(engine: State<'_, Arc<Engine>>, id: u32) -> Result<HistoryEntry, CommandError> {
    Ok(engine.console()?.entry(id).await?)
}

/// Forgets every recorded call.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn clear_call_history(engine: State<'_, Arc<Engine>>) -> Result<(), CommandError> {
    Ok(engine.console()?.clear().await?)
}
