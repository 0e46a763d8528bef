//! What the window's commands share: the registry (config file + vault), opened once at start.

use std::sync::Arc;

use plugboard_core::auth::PendingFlows;
use plugboard_core::console::{Console, HistoryError};
use plugboard_core::person::PersonRequests;
use plugboard_core::registry::{Registry, RegistryError};
use plugboard_core::secrets::Vault;
use plugboard_core::supervisor::Supervisor;

use crate::error::CommandError;

/// Managed Tauri state.
pub struct AppState {
    pub registry: Arc<Registry>,
    pub supervisor: Arc<Supervisor>,
    pub vault: Arc<Vault>,
    /// Logins waiting for their redirect: the loopback receiver and deep links both deliver here.
    pub flows: Arc<PendingFlows>,
    /// The tool-call console, or why its history could not be opened (the rest of the app works without it).
    pub console: Result<Arc<Console>, HistoryError>,
    /// Servers' requests waiting for the person (forms, sampling, roots).
    pub person: Arc<PersonRequests>,
}

impl AppState {
    /// The console, or the reason its history is unavailable.
    pub fn console(&self) -> Result<&Console, CommandError> {
        self.console.as_deref().map_err(|e| CommandError::from(e.clone()))
    }

    /// Runs `op` on the registry off the async runtime: the keychain and the file system may block.
    pub async fn with_registry<T, F>(&self, op: F) -> Result<T, CommandError>
    where
        T: Send + 'static,
        F: FnOnce(&Registry) -> Result<T, RegistryError> + Send + 'static,
    {
        let registry = Arc::clone(&self.registry);
        tauri::async_runtime::spawn_blocking(move || op(&registry))
            .await
            .map_err(|e| CommandError::Internal { message: format!("the operation did not finish: {e}") })?
            .map_err(Into::into)
    }
}
