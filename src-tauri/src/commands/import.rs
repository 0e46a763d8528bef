//! Commands of the import wizard: detect → plan → apply. The plan is computed again at apply time, so what is
//! applied is what the files say now; choices are keyed by the entry's name in Plugboard.

use std::collections::HashMap;

use plugboard_core::import::{self, ConflictChoice, ImportPlan, ImportSources, ImportSummary, PathContext};
use serde::Deserialize;
use tauri::State;

use crate::error::CommandError;
use crate::state::AppState;

/// The person's choice for one conflicting entry.
#[derive(Debug, Clone, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ImportChoice {
    pub name: String,
    /// The source file the entry is in, so entries of one name in two files are decided apart; without it the
    /// choice holds for every conflicting entry of that name.
    #[serde(default)]
    pub path: Option<String>,
    pub choice: ConflictChoice,
}

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
pub async fn plan_import(state: State<'_, AppState>) -> Result<ImportPlan, CommandError> {
    state.with_registry(|r| Ok(ImportPlan::build(&detected(), &r.store().snapshot()))).await
}

/// Applies the import: entries follow `choices` (by file and name, else by name); an entry not named is added
/// when new and kept as Plugboard has it when it conflicts. A `skip` leaves out a new entry too (unticked).
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip_all, err)]
pub async fn apply_import(
    state: State<'_, AppState>,
    choices: Vec<ImportChoice>,
) -> Result<ImportSummary, CommandError> {
    let choices: HashMap<(Option<String>, String), ConflictChoice> =
        choices.into_iter().map(|c| ((c.path, c.name), c.choice)).collect();
    state
        .with_registry(move |r| {
            let plan = ImportPlan::build(&detected(), &r.store().snapshot());
            import::apply_plan(r, &plan, |file, entry| {
                let of = |path: Option<String>| choices.get(&(path, entry.name.clone())).copied();
                of(Some(file.path.clone())).or_else(|| of(None))
            })
        })
        .await
}

fn detected() -> Vec<import::DetectedFile> {
    import::detect(&PathContext::from_env(Vec::new()), &[])
}
