//! Commands about secrets: where they live, and setting or deleting one. Values only ever travel UI → core.

use std::sync::Arc;

use plugboard_core::registry::SecretState;
use plugboard_core::secrets::{Sensitive, VaultStatus};
use tauri::State;

use crate::error::CommandError;
use crate::state::with_registry;
use plugboard_core::engine::Engine;

/// Where secrets live this session (keychain, memory only, or the insecure file) and what to do about it.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip_all, err)]
pub async fn vault_status(engine: State<'_, Arc<Engine>>) -> Result<VaultStatus, CommandError> {
    with_registry(&engine, |r| Ok(r.vault().status().clone())).await
}

/// Stores a server's secret (what `${secret:NAME}` in its entry resolves to).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine, value), err)]
pub async fn set_secret(
    engine: State<'_, Arc<Engine>>,
    server: String,
    name: String,
    value: String,
) -> Result<(), CommandError> {
    let value = Sensitive::new(value);
    with_registry(&engine, move |r| r.set_secret(&server, &name, &value)).await
}

/// Deletes a server's secret.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn delete_secret(engine: State<'_, Arc<Engine>>, server: String, name: String) -> Result<(), CommandError> {
    with_registry(&engine, move |r| r.delete_secret(&server, &name)).await
}

/// The secrets a server's entry refers to (`${secret:NAME}`), each with whether it is stored; never a value.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(engine), err)]
pub async fn server_secrets(engine: State<'_, Arc<Engine>>, server: String) -> Result<Vec<SecretState>, CommandError> {
    with_registry(&engine, move |r| r.secret_states(&server)).await
}
