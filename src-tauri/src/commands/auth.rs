//! Commands of OAuth login: log in (opens the browser, returns when the redirect arrived and the server connected),
//! cancel a login, log out, and the refused links of a cold start.

use tauri::{AppHandle, State};

use crate::deep_link::MissedRejections;
use crate::error::CommandError;
use crate::events::DeepLinkRejected;
use crate::login;
use crate::state::AppState;

/// Logs in to an OAuth server, then connects it. Resolves once the browser came back (or the login failed).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(app, state), err)]
pub async fn login_server(app: AppHandle, state: State<'_, AppState>, name: String) -> Result<(), CommandError> {
    login::login_and_connect(&app, &state, &name).await
}

/// Cancels a login that is waiting for the browser; `false` when none was waiting.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state))]
pub async fn cancel_login(state: State<'_, AppState>, name: String) -> Result<bool, CommandError> {
    Ok(state.flows.cancel(&name))
}

/// Forgets a server's login (its tokens leave the keychain) and disconnects it; `false` when it had none.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state), err)]
pub async fn logout_server(state: State<'_, AppState>, name: String) -> Result<bool, CommandError> {
    login::logout_and_disconnect(&state, &name).await
}

/// A server's login as the person may see it: issuer, scopes, expiry, never a token; `null` without OAuth.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(state), err)]
pub async fn server_login_state(
    state: State<'_, AppState>,
    name: String,
) -> Result<Option<plugboard_core::auth::LoginState>, CommandError> {
    login::login_state(&state, &name).await
}

/// The `plugboard://` links the app was started with and refused before the page could listen; each is returned once.
#[tauri::command]
#[specta::specta]
pub async fn missed_deep_link_rejections(
    missed: State<'_, MissedRejections>,
) -> Result<Vec<DeepLinkRejected>, CommandError> {
    Ok(missed.take())
}
