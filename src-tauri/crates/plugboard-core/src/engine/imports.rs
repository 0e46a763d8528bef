//! Importing other clients' servers through the engine: the plan is computed again at apply time, so what is
//! applied is what the files say now, and every front end applies it with the same choices rule.

use super::{Engine, EngineError};
use crate::import::{self, DetectedFile, ImportChoices, ImportPlan, ImportSummary};

impl Engine {
    /// What importing `sources` would do; nothing is written.
    pub async fn plan_import(&self, sources: Vec<DetectedFile>) -> Result<ImportPlan, EngineError> {
        self.with_registry(move |r| Ok(ImportPlan::build(&sources, &r.store().snapshot()))).await
    }

    /// Imports `sources` as `choices` say (secrets to the vault, then one atomic write of servers.json).
    pub async fn apply_import(
        &self,
        sources: Vec<DetectedFile>,
        choices: ImportChoices,
    ) -> Result<ImportSummary, EngineError> {
        self.with_registry(move |r| {
            let plan = ImportPlan::build(&sources, &r.store().snapshot());
            import::apply_plan(r, &plan, |file, entry| choices.for_entry(file, entry))
        })
        .await
    }
}
