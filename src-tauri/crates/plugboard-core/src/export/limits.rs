//! How many tools each client documents it takes, from that client's own documentation. A client that documents no
//! number has none here: a number is never guessed. Kept as data beside the targets, one row per client id.

/// What one client's documentation says about how many tools it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DocumentedLimit {
    pub client: &'static str,
    /// The number it documents, or `None` when its documentation names none.
    pub tools: Option<u32>,
    /// Where it says so (for a person to check).
    pub source: Option<&'static str>,
    /// What it says, in one sentence.
    pub says: &'static str,
}

const VSCODE_TOOLS: &str = "https://code.visualstudio.com/docs/copilot/agents/agent-tools";

const LIMITS: &[DocumentedLimit] = &[
    DocumentedLimit {
        client: "claude-desktop",
        tools: None,
        source: None,
        says: "Claude Desktop documents no limit on the number of tools",
    },
    DocumentedLimit {
        client: "claude-code",
        tools: None,
        source: None,
        says: "Claude Code documents no limit on the number of tools",
    },
    DocumentedLimit {
        client: "cursor",
        tools: Some(40),
        source: Some("https://docs.cursor.com/context/model-context-protocol"),
        says: "Cursor's MCP documentation says it sends only the first 40 tools to the Agent (its newer pages name \
               no number)",
    },
    DocumentedLimit {
        client: "vscode",
        tools: Some(128),
        source: Some(VSCODE_TOOLS),
        says: "VS Code takes at most 128 tools in a chat request, its built-in tools included",
    },
    DocumentedLimit {
        client: "windsurf",
        tools: Some(100),
        source: Some("https://docs.windsurf.com/windsurf/cascade/mcp"),
        says: "Windsurf's Cascade has access to at most 100 tools at any given time",
    },
    DocumentedLimit {
        client: "cline",
        tools: None,
        source: None,
        says: "Cline documents no limit on the number of tools",
    },
    DocumentedLimit {
        client: "roo",
        tools: None,
        source: None,
        says: "Roo Code documents no limit on the number of tools",
    },
    DocumentedLimit {
        client: "gemini",
        tools: None,
        source: None,
        says: "Gemini CLI documents no limit on the number of tools",
    },
    DocumentedLimit { client: "zed", tools: None, source: None, says: "Zed documents no limit on the number of tools" },
    DocumentedLimit {
        client: "continue",
        tools: None,
        source: None,
        says: "Continue documents no limit on the number of tools",
    },
    DocumentedLimit {
        client: "codex",
        tools: None,
        source: None,
        says: "Codex documents no limit on the number of tools",
    },
    DocumentedLimit {
        client: "lmstudio",
        tools: None,
        source: None,
        says: "LM Studio documents no limit on the number of tools",
    },
    DocumentedLimit {
        client: "copilot",
        tools: Some(128),
        source: Some(VSCODE_TOOLS),
        says: "VS Code reads this file too, and takes at most 128 tools in a chat request, its built-in tools included",
    },
];

/// What `client`'s documentation says (every target has a row; see the test).
pub fn documented_limit(client: &str) -> DocumentedLimit {
    LIMITS.iter().find(|l| l.client == client).copied().unwrap_or(DocumentedLimit {
        client: "",
        tools: None,
        source: None,
        says: "this client documents no limit on the number of tools",
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::all_targets;

    /// Every client has exactly one row; a number always comes with where it is documented, and no number with none.
    #[test]
    fn every_client_has_one_row_with_its_source() {
        for target in all_targets() {
            assert_eq!(LIMITS.iter().filter(|l| l.client == target.id).count(), 1, "{}", target.id);
        }
        assert_eq!(LIMITS.len(), all_targets().len());
        for limit in LIMITS {
            assert_eq!(limit.tools.is_some(), limit.source.is_some(), "{}", limit.client);
        }
        assert_eq!(documented_limit("cursor").tools, Some(40));
        assert_eq!(documented_limit("vscode").tools, Some(128));
        assert_eq!(documented_limit("windsurf").tools, Some(100));
        assert_eq!(documented_limit("claude-desktop").tools, None);
    }
}
