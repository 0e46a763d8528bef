//! Write-back through the engine: connecting other clients is planned over this engine's servers.json (its servers
//! are the duplicates, its profiles the valid `--profile`), the tools last approved for each server (what a client's
//! tool budget counts), the person's machine and Plugboard's data dir, so every front end connects a client the
//! same way. Nothing here writes; `ExportContext::apply` does.

use std::path::PathBuf;

use super::Engine;
use crate::config::model::ServerConfig;
use crate::export::{ChosenBudgets, ExportContext, KnownTools};
use crate::import::PathContext;
use crate::supervisor::curate;
use crate::trust::{LaunchDefinition, PinKind, ToolPins};

/// The data dir's file of the tool limits the person chose per client.
const CHOSEN_LIMITS_FILE: &str = "client-budgets.json";

impl Engine {
    /// Write-back for the entry that launches `binary` (the absolute path of the `plugboard` command).
    pub fn client_export(&self, binary: PathBuf) -> ExportContext {
        let data_dir = crate::paths::data_dir();
        let chosen_file = data_dir.join(CHOSEN_LIMITS_FILE);
        let chosen = crate::export::load_chosen(&chosen_file).unwrap_or_else(|e| {
            // Shown as the documented limits meanwhile; choosing a limit reports the file's problem.
            tracing::warn!("the chosen tool limits cannot be read: {e}");
            ChosenBudgets::default()
        });
        ExportContext {
            paths: PathContext::from_env(Vec::new()),
            backups_dir: data_dir.join("client-backups"),
            binary,
            servers: self.registry.store().snapshot(),
            tools: known_tools(&self.registry.configs(), &self.approvals.tool_pins()),
            chosen,
            chosen_file,
        }
    }
}

/// Each enabled server's curated tools from its pins (the tools approved under its definition as it is now);
/// a server never approved and listed under this definition is not known. Servers that are off are left out.
fn known_tools(configs: &[ServerConfig], pins: &ToolPins) -> KnownTools {
    let tools = configs
        .iter()
        .filter(|config| config.enabled)
        .map(|config| {
            let server = config.name.as_str();
            let digest = LaunchDefinition::of(config).digest();
            let pinned = pins.pins(&digest).ok().flatten().map(|pinned| {
                let names: Vec<String> = pinned
                    .pinned
                    .into_keys()
                    .filter(|subject| subject.kind == PinKind::Tool)
                    .map(|subject| subject.name)
                    .collect();
                curate(server, &names, &config.tools).allowed
            });
            (server.to_owned(), pinned)
        })
        .collect();
    KnownTools(tools)
}
