//! Commands of the connection engine: live statuses, connect/disconnect, tools and tool calls.

use std::sync::Arc;

use plugboard_core::doctor::{Step, diagnose};
use plugboard_core::supervisor::{AllowlistView, ServerStatus, ToolInfo};
use serde::Serialize;
use tauri::State;

use crate::error::CommandError;
use crate::state::with_registry;
use plugboard_core::engine::Engine;

/// One server's live status.
#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ServerStatusEntry {
    pub server: String,
    pub status: ServerStatus,
}

/// Every server's live status.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip_all)]
pub async fn server_statuses(engine: State<'_, Arc<Engine>>) -> Result<Vec<ServerStatusEntry>, CommandError> {
    Ok(engine
        .supervisor()
        .statuses()
        .into_iter()
        .map(|(server, status)| ServerStatusEntry { server, status })
        .collect())
}

/// Connects a server (also after a failure or a disconnect).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn connect_server(engine: State<'_, Arc<Engine>>, name: String) -> Result<(), CommandError> {
    engine.supervisor().connect(&name).await.map_err(Into::into)
}

/// Disconnects a server; it stays disconnected until connected again.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn disconnect_server(engine: State<'_, Arc<Engine>>, name: String) -> Result<(), CommandError> {
    engine.supervisor().disconnect(&name).await.map_err(Into::into)
}

/// Stops a server and starts it again (a new process or session), forgiving past failures.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn restart_server(engine: State<'_, Arc<Engine>>, name: String) -> Result<(), CommandError> {
    engine.supervisor().restart(&name).await.map_err(Into::into)
}

/// Walks every step of connecting a server (config, references, program or network, handshake, login) apart from
/// its running session, and says which step fails and what to do.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn diagnose_server(engine: State<'_, Arc<Engine>>, name: String) -> Result<Vec<Step>, CommandError> {
    let entry = with_registry(&engine, {
        let name = name.clone();
        move |r| r.get(&name)
    });
    Ok(diagnose(&name, &entry.await?, Arc::clone(engine.vault())).await)
}

/// A server's tools, each marked allowed or hidden by the allowlist.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn server_tools(engine: State<'_, Arc<Engine>>, name: String) -> Result<Vec<ToolInfo>, CommandError> {
    engine.supervisor().refresh_stale_tools(Some(&name), plugboard_core::supervisor::STALE_LIST_WAIT).await;
    engine.supervisor().tools(&name).map_err(Into::into)
}

/// A server's allowlist as its running config has it, next to every tool it offers (the allowlist editor's data).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn server_allowlist(engine: State<'_, Arc<Engine>>, name: String) -> Result<AllowlistView, CommandError> {
    engine.supervisor().refresh_stale_tools(Some(&name), plugboard_core::supervisor::STALE_LIST_WAIT).await;
    engine.supervisor().allowlist(&name).map_err(Into::into)
}

/// Calls a tool with JSON object arguments; returns the MCP result as JSON text (content blocks, structured
/// content, isError) for the console to render.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine, args), err)]
pub async fn call_tool(
    engine: State<'_, Arc<Engine>>,
    server: String,
    tool: String,
    args: String,
) -> Result<String, CommandError> {
    let arguments = parse_arguments(&args)?;
    let result = engine.supervisor().call(&server, &tool, arguments, None).await?;
    serde_json::to_string(&result).map_err(|e| CommandError::Internal { message: e.to_string() })
}

pub(crate) fn parse_arguments(json: &str) -> Result<rmcp::model::JsonObject, CommandError> {
    match serde_json::from_str(json) {
        Ok(serde_json::Value::Object(map)) => Ok(map),
        _ => Err(CommandError::InvalidArguments { message: "the arguments must be a JSON object".into() }),
    }
}
