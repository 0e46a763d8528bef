//! Applying a server's tool allowlist to the tools it offers, and reporting allowlist entries that match nothing
//! (with the names that do exist), because a misspelt entry silently hides a tool.

use serde::Serialize;

use super::tools::{ToolInfo, ToolSet};
use crate::config::model::ToolFilter;

/// A server's allowlist next to the tools it offers: what the allowlist editor shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct AllowlistView {
    /// The entries as the running config has them (raw or namespaced names); no list allows every tool, including
    /// ones the server adds later (no `tools` key, or `["*"]`).
    pub entries: Option<Vec<String>>,
    /// Every tool the server offers as last discovered (empty before it is first ready), each marked allowed or
    /// not, with the name it is exposed under.
    pub tools: Vec<ToolInfo>,
    /// The entries that match no offered tool (meaningful once the tools were discovered).
    pub unknown_entries: Vec<String>,
    /// What the server offers besides tools that is withheld since it was approved (prompts, resource templates,
    /// its instructions), reviewed with the withheld tools.
    pub withheld_besides_tools: Vec<String>,
}

impl AllowlistView {
    /// The view of `filter` over the tools discovered under it.
    pub fn new(filter: &ToolFilter, discovered: &ToolSet) -> Self {
        Self {
            entries: match filter {
                ToolFilter::All => None,
                ToolFilter::Only(entries) => Some(entries.clone()),
            },
            tools: discovered.tools.clone(),
            unknown_entries: discovered.unknown_entries.clone(),
            withheld_besides_tools: discovered.withheld_besides_tools.clone(),
        }
    }
}

/// Which tools pass the filter, and which filter entries matched no tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Curated {
    pub allowed: Vec<String>,
    pub unknown_entries: Vec<String>,
}

/// Filters `tools` (raw names) by `filter`, whose entries may be raw names or exposed `mcp__<server>__<tool>` names.
pub fn curate(server: &str, tools: &[String], filter: &ToolFilter) -> Curated {
    let ToolFilter::Only(entries) = filter else {
        return Curated { allowed: tools.to_vec(), unknown_entries: Vec::new() };
    };
    let prefix = format!("mcp__{server}__");
    let raw = |entry: &str| entry.strip_prefix(&prefix).unwrap_or(entry).to_owned();
    let wanted: Vec<String> = entries.iter().map(|e| raw(e)).collect();
    Curated {
        allowed: tools.iter().filter(|t| wanted.contains(t)).cloned().collect(),
        unknown_entries: entries.iter().filter(|e| !tools.contains(&raw(e))).cloned().collect(),
    }
}

/// The person-facing report of unknown entries, naming the tools that exist.
pub fn unknown_report(server: &str, curated: &Curated, tools: &[String]) -> Option<String> {
    (!curated.unknown_entries.is_empty()).then(|| {
        format!(
            "{server}: the allowlist names {} that the server does not offer; it offers: {}",
            curated.unknown_entries.join(", "),
            if tools.is_empty() { "no tools".to_owned() } else { tools.join(", ") }
        )
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use rmcp::model::Tool;

    use super::*;

    fn tools() -> Vec<String> {
        ["echo", "add", "longRunningOperation"].map(str::to_owned).to_vec()
    }

    /// No allowlist (or `*`) passes every tool; `[]` passes none.
    #[test]
    fn all_and_none() {
        assert_eq!(curate("s", &tools(), &ToolFilter::All).allowed, tools());
        assert!(curate("s", &tools(), &ToolFilter::Only(vec![])).allowed.is_empty());
    }

    /// Raw and namespaced entries both match, in the server's order; unknown entries are reported with the real names.
    #[test]
    fn entries_match_raw_or_namespaced() {
        let filter = ToolFilter::Only(vec!["mcp__s__add".into(), "echo".into(), "ecco".into()]);
        let curated = curate("s", &tools(), &filter);
        assert_eq!(curated.allowed, ["echo", "add"]);
        assert_eq!(curated.unknown_entries, ["ecco"]);
        let report = unknown_report("s", &curated, &tools()).expect("report");
        assert!(report.contains("ecco") && report.contains("longRunningOperation"), "{report}");
    }

    /// The editor's view keeps "all tools" (no list) apart from an explicit list, and carries the exposed names
    /// and the entries that match nothing from the discovered set.
    #[test]
    fn view_of_all_and_of_a_list() {
        let offered: Vec<Tool> =
            tools().into_iter().map(|name| Tool::new(name, "d", Arc::new(serde_json::Map::new()))).collect();
        let all =
            AllowlistView::new(&ToolFilter::All, &ToolSet::build("s", &offered, &ToolFilter::All, &Default::default()));
        assert_eq!(all.entries, None);
        assert!(all.tools.iter().all(|t| t.allowed));
        assert_eq!(all.tools[0].exposed_name, "mcp__s__echo");

        let filter = ToolFilter::Only(vec!["echo".into(), "ecco".into()]);
        let only = AllowlistView::new(&filter, &ToolSet::build("s", &offered, &filter, &Default::default()));
        assert_eq!(only.entries, Some(vec!["echo".to_owned(), "ecco".to_owned()]));
        assert_eq!(only.tools.iter().filter(|t| t.allowed).map(|t| t.name.as_str()).collect::<Vec<_>>(), ["echo"]);
        assert_eq!(only.unknown_entries, ["ecco"]);
    }
}
