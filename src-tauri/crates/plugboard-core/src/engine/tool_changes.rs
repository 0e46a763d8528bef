//! Tools withheld since a server was approved (new, or changed: a possible rug pull), for every front end: what
//! changed, as a diff of the definitions, and approving exactly what was shown, which releases them at once. It
//! must never approve a tool definition the person was not shown.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Engine, EngineError, blocking};
use crate::trust::{ToolChange, current_decision};

/// One withheld tool, as the person reviews it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ToolChangeView {
    pub tool: String,
    pub change: ToolChange,
    /// What approving it approves (sent back with the approval).
    pub digest: String,
    /// A unified diff of the definition as approved and as offered now (all added for a new tool).
    pub diff: String,
}

impl Engine {
    /// The tools `name` offers that are withheld since it was approved; none before it was approved or listed.
    pub async fn tool_changes(&self, name: &str) -> Result<Vec<ToolChangeView>, EngineError> {
        let config = self.config(name)?;
        let approvals = self.approvals.clone();
        blocking(move || {
            let (_, digest, _) = current_decision(&approvals, &config)?;
            let Some(pins) = approvals.tool_pins().pins(&digest)? else { return Ok(Vec::new()) };
            let views = pins.pending.iter().map(|(tool, pending)| {
                let before = pins.tools.get(tool).map(|p| pretty(&p.definition)).unwrap_or_default();
                let change = if pins.tools.contains_key(tool) { ToolChange::Changed } else { ToolChange::New };
                let diff = similar::TextDiff::from_lines(&before, &pretty(&pending.definition))
                    .unified_diff()
                    .context_radius(2)
                    .header("approved", "offered now")
                    .to_string();
                ToolChangeView { tool: tool.clone(), change, digest: pending.digest.clone(), diff }
            });
            Ok::<_, EngineError>(views.collect())
        })
        .await?
    }

    /// Approves the withheld tools of `name` that were `shown` (from [`Engine::tool_changes`]); a tool that changed
    /// again since stays withheld. Running sessions release what was approved at once. Returns the tools approved.
    pub async fn approve_tool_changes(&self, name: &str, shown: &[ToolChangeView]) -> Result<Vec<String>, EngineError> {
        let config = self.config(name)?;
        let approvals = self.approvals.clone();
        let shown: BTreeMap<String, String> = shown.iter().map(|v| (v.tool.clone(), v.digest.clone())).collect();
        let approved = blocking(move || {
            let (_, digest, _) = current_decision(&approvals, &config)?;
            Ok::<_, EngineError>(approvals.tool_pins().approve_pending(&digest, &shown)?)
        })
        .await??;
        self.supervisor.review_tools_again().await;
        Ok(approved)
    }
}

fn pretty(definition: &serde_json::Value) -> String {
    let mut text = serde_json::to_string_pretty(definition).unwrap_or_default();
    text.push('\n');
    text
}
