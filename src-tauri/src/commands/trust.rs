//! Commands of the approval dialog and the changed-tools review: what each server waiting for approval would run
//! (or where its secrets would go), the tools withheld since a server was approved, and the person's decision on
//! exactly what they were shown. The core checks and records it, refusing what changed since it was shown.

use std::sync::Arc;

use plugboard_core::engine::{Engine, ToolChangeView};
use plugboard_core::trust::{ApprovalRequest, Decision};
use tauri::State;

use crate::error::CommandError;

/// Every enabled server whose current definition is not approved: new, changed, or refused before.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip_all, err)]
pub async fn pending_approvals(engine: State<'_, Arc<Engine>>) -> Result<Vec<ApprovalRequest>, CommandError> {
    engine.pending_approvals().await.map_err(Into::into)
}

/// Records the person's decision on `server`'s definition as shown (`digest`); an approved server starts.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn decide_approval(
    engine: State<'_, Arc<Engine>>,
    server: String,
    digest: String,
    decision: Decision,
) -> Result<(), CommandError> {
    engine.decide(&server, &digest, decision).await.map_err(Into::into)
}

/// What `server` offers that is withheld since it was approved (new or changed tools, prompts, resource templates,
/// instructions), each with a diff.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn tool_changes(engine: State<'_, Arc<Engine>>, server: String) -> Result<Vec<ToolChangeView>, CommandError> {
    engine.tool_changes(&server).await.map_err(Into::into)
}

/// Approves what of `server` is withheld as `shown` (something that changed again since stays withheld); returns
/// what was approved, which clients get at once.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine, shown), err)]
pub async fn approve_tool_changes(
    engine: State<'_, Arc<Engine>>,
    server: String,
    shown: Vec<ToolChangeView>,
) -> Result<Vec<String>, CommandError> {
    engine.approve_tool_changes(&server, &shown).await.map_err(Into::into)
}
