//! Every client Plugboard can write into, as data: where its file is (the importer's own locations, so the two
//! never disagree), the shape of its server map, and what a person does after the change. It must never compute a
//! path from the real environment: a `PathContext` is passed in, so every OS is testable anywhere.

use std::path::PathBuf;

use crate::import::{self, ParseError, ParsedEntry, PathContext};

/// How a client's file holds its servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// JSON or JSONC with an object of servers by name under `servers_key`; `stdio_type` adds `"type": "stdio"`.
    Json { servers_key: &'static str, stdio_type: bool },
    /// Codex's `config.toml`: `[mcp_servers.<name>]` tables.
    Toml,
    /// Continue's `config.yaml`: a `mcpServers:` list of items with a `name`.
    Yaml,
}

/// Where a client keeps the file Plugboard writes to.
#[derive(Debug, Clone, Copy)]
enum Paths {
    /// The importer's user-level files of client `id` (no project files).
    Importer(&'static str),
    /// The same, only those named `file_name` (VS Code's importer also reads settings.json; Plugboard writes mcp.json).
    ImporterNamed(&'static str, &'static str),
    /// A file under the home dir on every OS.
    Home(&'static [&'static str]),
}

/// One client Plugboard can connect.
#[derive(Debug, Clone, Copy)]
pub struct ClientTarget {
    /// The importer's id, or `lmstudio` / `copilot`.
    pub id: &'static str,
    pub label: &'static str,
    pub format: Format,
    paths: Paths,
    /// The importer whose parser reads this file (for its entries, its duplicates, and its parse errors).
    parser: &'static str,
    /// What the person does for the client to see the change.
    pub next_step: &'static str,
}

const MCP_SERVERS: Format = Format::Json { servers_key: "mcpServers", stdio_type: false };

const TARGETS: &[ClientTarget] = &[
    ClientTarget {
        id: "claude-desktop",
        label: "Claude Desktop",
        format: MCP_SERVERS,
        paths: Paths::Importer("claude-desktop"),
        parser: "claude-desktop",
        next_step: "quit Claude Desktop completely (not just its window) and start it again",
    },
    ClientTarget {
        id: "claude-code",
        label: "Claude Code",
        format: Format::Json { servers_key: "mcpServers", stdio_type: true },
        paths: Paths::Importer("claude-code"),
        parser: "claude-code",
        next_step: "start a new Claude Code session (`/mcp` lists the servers)",
    },
    ClientTarget {
        id: "cursor",
        label: "Cursor",
        format: MCP_SERVERS,
        paths: Paths::Importer("cursor"),
        parser: "cursor",
        next_step: "open Cursor's Settings → MCP and turn the plugboard server on (or restart Cursor)",
    },
    ClientTarget {
        id: "vscode",
        label: "VS Code",
        format: Format::Json { servers_key: "servers", stdio_type: true },
        paths: Paths::ImporterNamed("vscode", "mcp.json"),
        parser: "vscode",
        next_step: "run \"MCP: List Servers\" in VS Code and start plugboard (or reload the window)",
    },
    ClientTarget {
        id: "windsurf",
        label: "Windsurf",
        format: MCP_SERVERS,
        paths: Paths::Importer("windsurf"),
        parser: "windsurf",
        next_step: "refresh the MCP servers in Windsurf's Cascade panel (or restart Windsurf)",
    },
    ClientTarget {
        id: "cline",
        label: "Cline",
        format: MCP_SERVERS,
        paths: Paths::Importer("cline"),
        parser: "cline",
        next_step: "Cline reloads its MCP settings on its own; check its MCP Servers view",
    },
    ClientTarget {
        id: "roo",
        label: "Roo Code",
        format: MCP_SERVERS,
        paths: Paths::Importer("roo"),
        parser: "roo",
        next_step: "Roo Code reloads its MCP settings on its own; check its MCP Servers view",
    },
    ClientTarget {
        id: "gemini",
        label: "Gemini CLI",
        format: MCP_SERVERS,
        paths: Paths::Importer("gemini"),
        parser: "gemini",
        next_step: "start Gemini CLI again (`/mcp` lists the servers)",
    },
    ClientTarget {
        id: "zed",
        label: "Zed",
        format: Format::Json { servers_key: "context_servers", stdio_type: false },
        paths: Paths::Importer("zed"),
        parser: "zed",
        next_step: "Zed reloads its settings on its own; check the Agent panel's settings",
    },
    ClientTarget {
        id: "continue",
        label: "Continue",
        format: Format::Yaml,
        paths: Paths::Importer("continue"),
        parser: "continue",
        next_step: "reload the editor window for Continue to read its config again",
    },
    ClientTarget {
        id: "codex",
        label: "Codex",
        format: Format::Toml,
        paths: Paths::Importer("codex"),
        parser: "codex",
        next_step: "start Codex again",
    },
    ClientTarget {
        id: "lmstudio",
        label: "LM Studio",
        format: MCP_SERVERS,
        paths: Paths::Home(&[".lmstudio", "mcp.json"]),
        // Cursor's notation, as LM Studio documents.
        parser: "cursor",
        next_step: "LM Studio reloads mcp.json on its own; check its Program → Integrations tab",
    },
    ClientTarget {
        id: "copilot",
        label: "GitHub Copilot (portable mcp-config.json)",
        format: MCP_SERVERS,
        paths: Paths::Home(&[".copilot", "mcp-config.json"]),
        parser: "cursor",
        next_step: "start a new Copilot CLI session, or reload VS Code",
    },
];

/// Every client Plugboard can connect, in the order `clients list` shows them.
pub fn all_targets() -> &'static [ClientTarget] {
    TARGETS
}

/// The client with this id.
pub fn target(id: &str) -> Option<&'static ClientTarget> {
    TARGETS.iter().find(|t| t.id == id)
}

impl ClientTarget {
    /// Every file this client may keep its user-level servers in, the one it reads first first.
    pub fn candidate_paths(&self, ctx: &PathContext) -> Vec<PathBuf> {
        let user_only = PathContext { projects: Vec::new(), ..ctx.clone() };
        let importer = |id: &str| import::clients::by_id(id).map(|s| (s.default_paths)(&user_only)).unwrap_or_default();
        match self.paths {
            Paths::Importer(id) => importer(id),
            Paths::ImporterNamed(id, name) => {
                importer(id).into_iter().filter(|p| p.file_name().is_some_and(|n| n == name)).collect()
            }
            Paths::Home(parts) => vec![parts.iter().fold(ctx.home.clone(), |path, part| path.join(part))],
        }
    }

    /// The file Plugboard writes: the first candidate that exists, else the first (created on connect).
    pub fn file(&self, ctx: &PathContext) -> PathBuf {
        let candidates = self.candidate_paths(ctx);
        candidates.iter().find(|p| p.exists()).or(candidates.first()).cloned().unwrap_or_default()
    }

    /// The client's entries in `text`, read by its importer (which also reports a broken file with a position).
    pub fn parse(&self, text: &str) -> Result<Vec<ParsedEntry>, ParseError> {
        match import::clients::by_id(self.parser) {
            Some(source) => (source.parse)(text),
            None => Err(ParseError { message: format!("no reader for {}", self.parser), position: None }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::clients::common::paths::testing;

    /// Ids are unique; every importer's client is a target under the same id; every target names a file on every
    /// OS and a parser that exists.
    #[test]
    fn targets_are_consistent_with_the_importers() {
        let mut ids: Vec<_> = TARGETS.iter().map(|t| t.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), TARGETS.len());
        for source in import::clients::all() {
            assert!(target(source.id).is_some(), "{} has no target", source.id);
        }
        for t in TARGETS {
            assert!(import::clients::by_id(t.parser).is_some(), "{}", t.id);
            for ctx in [testing::linux(), testing::macos(), testing::windows()] {
                let paths = t.candidate_paths(&ctx);
                assert!(!paths.is_empty(), "{} on {:?}", t.id, ctx.os);
                assert!(paths.iter().all(|p| !p.starts_with(&ctx.projects[0])), "{}: a project file", t.id);
            }
        }
    }

    /// The user-level files, from the importer's locations: VS Code's mcp.json (not settings.json), Claude Code's
    /// ~/.claude.json, and the two new ones under the home dir.
    #[test]
    fn files_per_client() {
        let ctx = testing::linux();
        let file = |id: &str| target(id).map(|t| t.file(&ctx)).unwrap_or_default();
        assert_eq!(file("cursor"), testing::p("/home/ada", &[".cursor", "mcp.json"]));
        assert_eq!(file("vscode"), testing::p("/home/ada", &[".config", "Code", "User", "mcp.json"]));
        assert!(target("vscode").is_some_and(|t| t.candidate_paths(&ctx).iter().all(|p| p.ends_with("mcp.json"))));
        assert_eq!(file("claude-code"), testing::p("/home/ada", &[".claude.json"]));
        assert_eq!(
            file("claude-desktop"),
            testing::p("/home/ada", &[".config", "Claude", "claude_desktop_config.json"])
        );
        assert_eq!(file("lmstudio"), testing::p("/home/ada", &[".lmstudio", "mcp.json"]));
        assert_eq!(file("copilot"), testing::p("/home/ada", &[".copilot", "mcp-config.json"]));
        assert_eq!(file("codex"), testing::p("/home/ada", &[".codex", "config.toml"]));
    }
}
