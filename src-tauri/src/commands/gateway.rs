//! Commands of the Settings screen's gateway panel: the window's HTTP endpoint (on/off, port, its URL) and its
//! token, which crosses IPC only to be copied into a client and is never shown or logged.

use plugboard_core::gateway::http::{EndpointControl, EndpointSettings, EndpointStatus};
use tauri::{AppHandle, State};

use crate::error::CommandError;

/// Whether the window's endpoint is on, where it listens, and why it is not running when it should be.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip_all)]
pub async fn gateway_endpoint(control: State<'_, EndpointControl>) -> Result<EndpointStatus, CommandError> {
    Ok(control.status().await)
}

/// Saves the endpoint's settings and starts, stops or moves it to match (the tray says where it now runs).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(app, control), err)]
pub async fn set_gateway_endpoint(
    app: AppHandle,
    control: State<'_, EndpointControl>,
    settings: EndpointSettings,
) -> Result<EndpointStatus, CommandError> {
    let status = control.apply(settings).await.map_err(|e| CommandError::Internal { message: e.to_string() })?;
    crate::tray::gateway_changed(&app, &status);
    Ok(status)
}

/// The token an HTTP client sends as its bearer (made on first use), for the person to copy into that client.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip_all, err)]
pub async fn gateway_token(control: State<'_, EndpointControl>) -> Result<String, CommandError> {
    control.token().await.map(|t| t.expose().clone()).map_err(Into::into)
}

/// Replaces the token: every client holding the old one is refused from now on.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip_all, err)]
pub async fn rotate_gateway_token(control: State<'_, EndpointControl>) -> Result<String, CommandError> {
    control.rotate_token().await.map(|t| t.expose().clone()).map_err(Into::into)
}
