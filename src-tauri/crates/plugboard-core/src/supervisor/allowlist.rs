//! Applying a server's tool allowlist to the tools it offers, and reporting allowlist entries that match nothing
//! (with the names that do exist), because a misspelt entry silently hides a tool.

use crate::config::model::ToolFilter;

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
}
