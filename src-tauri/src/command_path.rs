//! Where the `plugboard` command is, beside this window binary: a client's entry launches it (`serve --stdio`), never
//! the window. Found once at start; when it is missing, connecting a client says so instead of writing a path that
//! does not run.

use plugboard_core::engine::Engine;
use plugboard_core::export::ExportContext;

use crate::error::CommandError;

/// The `plugboard` command beside the window, if it is installed there.
pub struct CommandPath(Option<std::path::PathBuf>);

impl CommandPath {
    /// Looks beside the running window binary.
    pub fn beside_this_window() -> Self {
        Self(std::env::current_exe().ok().and_then(|exe| plugboard_cli::window::command_beside(&exe)))
    }

    /// Write-back over `engine` for entries that launch this command.
    pub fn export(&self, engine: &Engine) -> Result<ExportContext, CommandError> {
        match &self.0 {
            Some(path) => Ok(engine.client_export(path.clone())),
            None => Err(CommandError::NotFound {
                message: format!(
                    "the `{}` command is not installed next to the Plugboard window, so no client can launch it; \
                     reinstall Plugboard",
                    plugboard_cli::window::COMMAND_BINARY
                ),
            }),
        }
    }
}
