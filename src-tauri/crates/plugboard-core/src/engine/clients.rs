//! Write-back through the engine: connecting other clients is planned over this engine's servers.json (its servers
//! are the duplicates, its profiles the valid `--profile`), the person's machine and Plugboard's data dir, so every
//! front end connects a client the same way. Nothing here writes; `ExportContext::apply` does.

use std::path::PathBuf;

use super::Engine;
use crate::export::ExportContext;
use crate::import::PathContext;

impl Engine {
    /// Write-back for the entry that launches `binary` (the absolute path of the `plugboard` command).
    pub fn client_export(&self, binary: PathBuf) -> ExportContext {
        ExportContext {
            paths: PathContext::from_env(Vec::new()),
            backups_dir: crate::paths::data_dir().join("client-backups"),
            binary,
            servers: self.registry.store().snapshot(),
        }
    }
}
