//! What is withheld since a server was approved (a new or changed tool, prompt, resource template or instructions:
//! a possible rug pull), for every front end: what changed, as a diff of the definitions, and approving exactly what
//! was shown, which releases it at once. It must never approve a definition the person was not shown.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Engine, EngineError, blocking};
use crate::trust::{PinChange, PinKind, Subject, current_decision};

/// One withheld thing, as the person reviews it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ToolChangeView {
    pub kind: PinKind,
    /// The tool's or prompt's name, the resource template's URI template; empty for the instructions.
    pub name: String,
    pub change: PinChange,
    /// What approving it approves (sent back with the approval).
    pub digest: String,
    /// A unified diff of the definition as approved and as offered now (all added for a new one).
    pub diff: String,
}

impl Engine {
    /// What `name` offers that is withheld since it was approved; none before it was approved or listed.
    pub async fn tool_changes(&self, name: &str) -> Result<Vec<ToolChangeView>, EngineError> {
        let config = self.config(name)?;
        let approvals = self.approvals.clone();
        blocking(move || {
            let (_, digest, _) = current_decision(&approvals, &config)?;
            let Some(pins) = approvals.tool_pins().pins(&digest)? else { return Ok(Vec::new()) };
            let views = pins.pending.iter().map(|(subject, pending)| {
                let before = pins.pinned.get(subject).map(|p| pretty(&p.definition)).unwrap_or_default();
                let diff = similar::TextDiff::from_lines(&before, &pretty(&pending.pin.definition))
                    .unified_diff()
                    .context_radius(2)
                    .header("approved", "offered now")
                    .to_string();
                ToolChangeView {
                    kind: subject.kind,
                    name: subject.name.clone(),
                    change: pending.change,
                    digest: pending.pin.digest.clone(),
                    diff,
                }
            });
            Ok::<_, EngineError>(views.collect())
        })
        .await?
    }

    /// Approves what of `name` is withheld and was `shown` (from [`Engine::tool_changes`]); something that changed
    /// again since stays withheld. Running sessions release what was approved at once. Returns what was approved,
    /// as a person reads it.
    pub async fn approve_tool_changes(&self, name: &str, shown: &[ToolChangeView]) -> Result<Vec<String>, EngineError> {
        let config = self.config(name)?;
        let approvals = self.approvals.clone();
        let shown: BTreeMap<Subject, String> =
            shown.iter().map(|v| (Subject { kind: v.kind, name: v.name.clone() }, v.digest.clone())).collect();
        let approved = blocking(move || {
            let (_, digest, _) = current_decision(&approvals, &config)?;
            Ok::<_, EngineError>(approvals.tool_pins().approve_pending(&digest, &shown)?)
        })
        .await??;
        self.supervisor.review_tools_again().await;
        Ok(approved.iter().map(ToString::to_string).collect())
    }
}

fn pretty(definition: &serde_json::Value) -> String {
    let mut text = serde_json::to_string_pretty(definition).unwrap_or_default();
    text.push('\n');
    text
}
