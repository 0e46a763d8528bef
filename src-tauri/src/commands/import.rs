//! Commands of the import wizard: detect → plan → apply, each one call into the engine.

use std::sync::Arc;

use plugboard_core::engine::Engine;
use plugboard_core::import::{
    self, ImportChoice, ImportChoices, ImportPlan, ImportSources, ImportSummary, PathContext,
};
use tauri::State;

use crate::error::CommandError;

/// Which clients' config files exist here, and where the others were looked for (the wizard's first step).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip_all, err)]
pub async fn detect_import_sources() -> Result<ImportSources, CommandError> {
    Ok(ImportSources::scan(&PathContext::from_env(Vec::new())))
}

/// Every client config file found on this machine, each entry with its outcome; nothing is written.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip_all, err)]
pub async fn plan_import(engine: State<'_, Arc<Engine>>) -> Result<ImportPlan, CommandError> {
    Ok(engine.plan_import(detected()).await?)
}

/// Applies the import: entries follow `choices` (by file and name, else by name); an entry not named is added
/// when new and kept as Plugboard has it when it conflicts. A `skip` leaves out a new entry too (unticked).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip_all, err)]
pub async fn apply_import(
    engine: State<'_, Arc<Engine>>,
    choices: Vec<ImportChoice>,
) -> Result<ImportSummary, CommandError> {
    Ok(engine.apply_import(detected(), ImportChoices::per_entry(choices)).await?)
}

fn detected() -> Vec<import::DetectedFile> {
    import::detect(&PathContext::from_env(Vec::new()), &[])
}
