//! The window's side of a login: the core flow with the browser opener, the page's URL sent to the UI, and the
//! server connected once the tokens are in the keychain.

use std::sync::Arc;

use plugboard_core::auth::{self, LoginContext};
use plugboard_core::supervisor::pooled_http_client;
use tauri::AppHandle;
use tauri_specta::Event;
use url::Url;

use crate::browser;
use crate::error::CommandError;
use crate::events::LoginStarted;
use crate::state::AppState;

pub async fn login_and_connect(app: &AppHandle, state: &AppState, name: &str) -> Result<(), CommandError> {
    let config = state
        .registry
        .configs()
        .into_iter()
        .find(|c| c.name.as_str() == name)
        .ok_or_else(|| CommandError::NotFound { message: format!("there is no valid server named {name:?}") })?;
    let open = |url: &Url| -> Result<(), auth::BrowserUnavailable> {
        let opened = browser::open(url);
        let started = LoginStarted {
            server: name.to_owned(),
            authorization_url: url.to_string(),
            browser_problem: opened.as_ref().err().map(ToString::to_string),
        };
        let _ = started.emit(app);
        opened
    };
    let context = LoginContext {
        vault: Arc::clone(&state.vault),
        flows: Arc::clone(&state.flows),
        http: pooled_http_client(),
        open: &open,
        timeout: auth::LOGIN_TIMEOUT,
    };
    auth::login_server(&config, context).await?;
    state.supervisor.connect(name).await.map_err(Into::into)
}

pub async fn logout_and_disconnect(state: &AppState, name: &str) -> Result<bool, CommandError> {
    let config = state.registry.configs().into_iter().find(|c| c.name.as_str() == name);
    let had = match config.filter(|c| auth::oauth_target(c, &state.vault).is_ok()) {
        Some(config) => {
            let outcome = auth::logout_server(&config, Arc::clone(&state.vault)).await?;
            if let auth::Revocation::Failed(why) = &outcome.revocation {
                tracing::warn!(server = name, %why, "logged out, but revoking the tokens failed");
            }
            outcome.had_login
        }
        None => {
            let vault = Arc::clone(&state.vault);
            let server = name.to_owned();
            tauri::async_runtime::spawn_blocking(move || auth::logout(&vault, &server))
                .await
                .map_err(|e| CommandError::Internal { message: format!("the logout did not finish: {e}") })??
        }
    };
    // Its session still holds a token in memory: end it, so "logged out" means no more authorized requests.
    state.supervisor.disconnect(name).await?;
    Ok(had)
}

/// The login facts of `name` (issuer, scopes, expiry); `None` for a server that does not log in with OAuth.
pub async fn login_state(state: &AppState, name: &str) -> Result<Option<auth::LoginState>, CommandError> {
    let Some(config) = state.registry.configs().into_iter().find(|c| c.name.as_str() == name) else {
        return Err(CommandError::NotFound { message: format!("there is no valid server named {name:?}") });
    };
    let vault = Arc::clone(&state.vault);
    // The keychain blocks; a server without OAuth simply has no login to show.
    match tauri::async_runtime::spawn_blocking(move || auth::login_state(&config, vault))
        .await
        .map_err(|e| CommandError::Internal { message: format!("reading the login did not finish: {e}") })?
    {
        Ok(facts) => Ok(Some(facts)),
        Err(auth::LoginError::NotOAuth(_)) => Ok(None),
        Err(other) => Err(other.into()),
    }
}
