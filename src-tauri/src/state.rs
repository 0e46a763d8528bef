//! What the window's commands share beyond the engine itself: running registry work with its error as the UI
//! sees it.

use plugboard_core::engine::Engine;
use plugboard_core::registry::{Registry, RegistryError};

use crate::error::CommandError;

/// Runs `op` on the engine's registry off the async runtime (the keychain and the file system may block).
pub async fn with_registry<T, F>(engine: &Engine, op: F) -> Result<T, CommandError>
where
    T: Send + 'static,
    F: FnOnce(&Registry) -> Result<T, RegistryError> + Send + 'static,
{
    Ok(engine.with_registry(op).await?)
}
