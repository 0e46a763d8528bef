//! A server's tools after discovery: every tool it offers, which ones the allowlist lets through, and the names
//! they are exposed under.

use std::collections::{BTreeMap, HashSet};

use rmcp::model::Tool;
use serde::Serialize;

use super::allowlist::{curate, unknown_report};
use super::naming::expose;
use crate::config::model::ToolFilter;
use crate::trust::ToolChange;

/// One tool as the UI and `plugboard tools` show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ToolInfo {
    /// The name the server uses (what the console shows and calls).
    pub name: String,
    /// The name other clients see through Plugboard: `mcp__<server>__<tool>`.
    pub exposed_name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    /// Whether the allowlist lets it through.
    pub allowed: bool,
    /// Set when it is new or changed since the server was approved: then no client can call it until the person
    /// approves the change, whatever the allowlist says.
    pub withheld: Option<ToolChange>,
    /// What its title or description holds that a person cannot see but a model reads (see
    /// `trust::hidden_content`).
    pub hidden_content: Vec<String>,
    /// The JSON Schema of its arguments, as JSON text.
    pub input_schema: String,
}

/// Everything discovered about a server's tools.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolSet {
    pub tools: Vec<ToolInfo>,
    /// Allowlist entries that match no tool, with the names that exist (for the person).
    pub warnings: Vec<String>,
    /// The allowlist entries (as written) that match no offered tool.
    pub unknown_entries: Vec<String>,
    /// The allowed raw names, for the per-call check (a tool list can hold hundreds of tools).
    allowed_names: HashSet<String>,
    /// The allowed tools' definitions as the server sent them (schemas, annotations), for the gateway.
    definitions: Vec<Tool>,
}

/// Hidden content in what a model reads of `tool` besides its schema.
fn hidden_in(tool: &Tool) -> Vec<String> {
    let text =
        [tool.title.as_deref(), tool.description.as_deref()].into_iter().flatten().collect::<Vec<_>>().join("\n");
    crate::trust::hidden_content(&text)
}

impl ToolInfo {
    /// Allowed by the allowlist and not withheld as changed.
    pub fn usable(&self) -> bool {
        self.allowed && self.withheld.is_none()
    }
}

impl ToolSet {
    /// Builds the set for `server` from what it offers, its allowlist, and what is withheld (see `trust::ToolPins`).
    pub fn build(server: &str, offered: &[Tool], filter: &ToolFilter, withheld: &BTreeMap<String, ToolChange>) -> Self {
        let names: Vec<String> = offered.iter().map(|t| t.name.to_string()).collect();
        let curated = curate(server, &names, filter);
        let exposed = expose(&names.iter().map(|n| (server.to_owned(), n.clone())).collect::<Vec<_>>());
        let mut warnings: Vec<String> = unknown_report(server, &curated, &names).into_iter().collect();
        warnings.extend(exposed.iter().filter_map(|e| {
            e.renamed_because.as_ref().map(|why| format!("{server}: {} is exposed as {} ({why})", e.tool, e.exposed))
        }));
        let tools = offered
            .iter()
            .zip(exposed)
            .map(|(tool, exposed)| ToolInfo {
                name: tool.name.to_string(),
                exposed_name: exposed.exposed,
                title: tool.title.clone(),
                description: tool.description.as_ref().map(ToString::to_string),
                allowed: curated.allowed.iter().any(|a| *a == tool.name),
                withheld: withheld.get(tool.name.as_ref()).copied(),
                hidden_content: hidden_in(tool),
                input_schema: serde_json::to_string(&*tool.input_schema).unwrap_or_else(|_| "{}".into()),
            })
            .collect::<Vec<ToolInfo>>();
        warnings.extend(tools.iter().filter(|t| !t.hidden_content.is_empty()).map(|t| {
            format!(
                "{server}: the tool {:?} describes itself with {}; look at it before letting a model use it",
                t.name,
                t.hidden_content.join(", ")
            )
        }));
        let allowed_names: HashSet<String> = tools.iter().filter(|t| t.usable()).map(|t| t.name.clone()).collect();
        let definitions = offered.iter().filter(|t| allowed_names.contains(t.name.as_ref())).cloned().collect();
        Self { tools, warnings, unknown_entries: curated.unknown_entries, allowed_names, definitions }
    }

    /// Whether `name` (raw) is offered and allowed.
    pub fn is_allowed(&self, name: &str) -> bool {
        self.allowed_names.contains(name)
    }

    /// The tools clients may call: allowed and not withheld.
    pub fn allowed(&self) -> impl Iterator<Item = &ToolInfo> {
        self.tools.iter().filter(|t| t.usable())
    }

    /// The allowed tools' definitions, as the server sent them.
    pub fn allowed_definitions(&self) -> &[Tool] {
        &self.definitions
    }

    /// Whether the server says running `name` twice does no harm: annotated `readOnlyHint` or `idempotentHint`.
    pub fn repeatable(&self, name: &str) -> bool {
        self.definitions
            .iter()
            .find(|t| t.name == name)
            .and_then(|t| t.annotations.as_ref())
            .is_some_and(|a| a.read_only_hint == Some(true) || a.idempotent_hint == Some(true))
    }

    pub fn allowed_count(&self) -> u32 {
        u32::try_from(self.allowed().count()).unwrap_or(u32::MAX)
    }
}
