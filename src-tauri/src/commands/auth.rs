//! Commands of OAuth login: log in (opens the browser, returns when the redirect arrived and the server connected),
//! cancel a login, log out, and the refused links of a cold start.

use std::sync::Arc;

use plugboard_core::engine::Engine;
use tauri::{AppHandle, State};

use crate::deep_link::MissedRejections;
use crate::error::CommandError;
use crate::events::DeepLinkRejected;
use crate::login;

/// Logs in to an OAuth server, then connects it. Resolves once the browser came back (or the login failed).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(app, engine), err)]
pub async fn login_server(app: AppHandle, engine: State<'_, Arc<Engine>>, name: String) -> Result<(), CommandError> {
    Ok(engine.login_and_connect(&name, &|url| login::open_for(&app, &name, url)).await?)
}

/// Cancels a login that is waiting for the browser; `false` when none was waiting.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine))]
pub async fn cancel_login(engine: State<'_, Arc<Engine>>, name: String) -> Result<bool, CommandError> {
    Ok(engine.flows().cancel(&name))
}

/// Forgets a server's login (its tokens leave the keychain) and disconnects it; `false` when it had none.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn logout_server(engine: State<'_, Arc<Engine>>, name: String) -> Result<bool, CommandError> {
    Ok(engine.logout_and_disconnect(&name).await?.had_login)
}

/// A server's login as the person may see it: issuer, scopes, expiry, never a token; `null` without OAuth.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn server_login_state(
    engine: State<'_, Arc<Engine>>,
    name: String,
) -> Result<Option<plugboard_core::auth::LoginState>, CommandError> {
    Ok(engine.login_state(&name).await?)
}

/// The `plugboard://` links the app was started with and refused before the page could listen; each is returned once.
#[tauri::command]
#[specta::specta]
pub async fn missed_deep_link_rejections(
    missed: State<'_, MissedRejections>,
) -> Result<Vec<DeepLinkRejected>, CommandError> {
    Ok(missed.take())
}
