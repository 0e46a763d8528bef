//! One module per client format, and the registry that lists them all. Every parser is pure (text in, entries
//! out) and every path list is computed from a `PathContext` only; reading the files is the caller's job.

/// A fixture file under `tests/fixtures/import/`, compiled into the test so parsing stays pure.
#[cfg(test)]
macro_rules! fixture {
    ($path:literal) => {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/import/", $path))
    };
}

pub(crate) mod common;

pub mod claude_code;
pub mod claude_desktop;
pub mod cline;
pub mod codex;
pub mod continue_dev;
pub mod cursor;
pub mod gemini;
pub mod roo;
pub mod vscode;
pub mod windsurf;
pub mod zed;

use super::ClientSource;

/// Every client Plugboard knows how to import from, in the order the UI lists them.
pub fn all() -> &'static [ClientSource] {
    &[
        claude_desktop::SOURCE,
        claude_code::SOURCE,
        cursor::SOURCE,
        vscode::SOURCE,
        windsurf::SOURCE,
        cline::SOURCE,
        roo::SOURCE,
        gemini::SOURCE,
        zed::SOURCE,
        continue_dev::SOURCE,
        codex::SOURCE,
    ]
}

/// The client with this id (`--from cursor`).
pub fn by_id(id: &str) -> Option<&'static ClientSource> {
    all().iter().find(|source| source.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::clients::common::paths::testing;

    /// Ids are unique, lowercase and stable enough for a CLI flag, and every source lists paths on every OS.
    #[test]
    fn registry_is_consistent() {
        let ids: Vec<_> = all().iter().map(|s| s.id).collect();
        let mut unique = ids.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), ids.len(), "{ids:?}");
        for source in all() {
            assert!(source.id.chars().all(|c| c.is_ascii_lowercase() || c == '-'), "{}", source.id);
            for ctx in [testing::linux(), testing::macos(), testing::windows()] {
                assert!(!(source.default_paths)(&ctx).is_empty(), "{} on {:?}", source.id, ctx.os);
            }
            assert_eq!(by_id(source.id).map(|s| s.label), Some(source.label));
        }
    }

    /// Every parser refuses an unparseable file with a position instead of panicking or returning nothing.
    #[test]
    fn every_parser_reports_broken_files() {
        for source in all() {
            let broken = if source.id == "codex" {
                "[mcp_servers.x\ncommand = 1"
            } else if source.id == "continue" {
                "mcpServers:\n  - name: [unclosed\n"
            } else {
                "{\n  \"mcpServers\": {\n    \"a\": { \"command\": \"x\" \n  \n"
            };
            let err = (source.parse)(broken).expect_err(source.id);
            assert!(err.position.is_some(), "{}: {err}", source.id);
        }
    }

    /// Every parser treats an empty file as a whole-file error, never as a panic.
    #[test]
    fn every_parser_rejects_empty_files() {
        for source in all() {
            assert!((source.parse)("").is_err(), "{}", source.id);
        }
    }

    /// Every fixture, parsed and scanned: exactly the literal secrets are moved (none of the references, paths or
    /// settings beside them), which pins the scan's false-positive and false-negative rate on realistic files.
    #[test]
    fn fixtures_lose_exactly_their_literal_secrets() {
        let files = [
            ("claude-desktop", fixture!("claude-desktop/claude_desktop_config.json")),
            ("cursor", fixture!("cursor/mcp.json")),
            ("claude-code", fixture!("claude-code/claude.json")),
            ("claude-code", fixture!("claude-code/mcp.json")),
            ("vscode", fixture!("vscode/mcp.json")),
            ("vscode", fixture!("vscode/settings.json")),
            ("windsurf", fixture!("windsurf/mcp_config.json")),
            ("cline", fixture!("cline/cline_mcp_settings.json")),
            ("roo", fixture!("roo/mcp_settings.json")),
            ("gemini", fixture!("gemini/settings.json")),
            ("zed", fixture!("zed/settings.json")),
            ("continue", fixture!("continue/config.yaml")),
            ("codex", fixture!("codex/config.toml")),
        ];
        let mut moved = Vec::new();
        for (id, text) in files {
            let source = by_id(id).unwrap_or_else(|| panic!("{id}"));
            for entry in (source.parse)(text).unwrap_or_else(|e| panic!("{id}: {e}")) {
                if let crate::import::ParsedEntry::Server(mut imported) = entry {
                    for found in crate::import::move_literal_secrets(&imported.name, &mut imported.server) {
                        moved.push(format!("{id}/{}: {} <- {}", imported.name, found.name, found.location));
                    }
                }
            }
        }
        assert_eq!(
            moved,
            [
                "claude-desktop/github: GITHUB_PERSONAL_ACCESS_TOKEN <- env.GITHUB_PERSONAL_ACCESS_TOKEN",
                "claude-desktop/brave-search: BRAVE_API_KEY <- env.BRAVE_API_KEY",
                "cursor/acme: oauth-client-secret <- oauth client secret",
                "gemini/google-workspace: oauth-client-secret <- oauth client secret",
            ]
        );
    }

    /// Every JSON-based client accepts JSONC (comments, trailing commas), a BOM and CRLF, with the same result.
    #[test]
    fn every_json_client_accepts_jsonc_bom_and_crlf() {
        let key = |id: &str| match id {
            "vscode" => "servers",
            "zed" => "context_servers",
            _ => "mcpServers",
        };
        for source in all().iter().filter(|s| !["continue", "codex"].contains(&s.id)) {
            let k = key(source.id);
            let plain = format!(
                r#"{{"{k}": {{"a": {{"command": "npx", "args": ["-y", "pkg"]}}, "b": {{"url": "https://x.example/mcp"}}}}}}"#
            );
            let jsonc = format!(
                "\u{feff}// exported by hand\r\n{{\r\n  \"{k}\": {{\r\n    /* local */ \"a\": {{ \"command\": \"npx\", \
                 \"args\": [\"-y\", \"pkg\",], }},\r\n    \"b\": {{ \"url\": \"https://x.example/mcp\", }}, // remote\r\n  }},\r\n}}\r\n"
            );
            let expected = (source.parse)(&plain).unwrap_or_else(|e| panic!("{}: {e}", source.id));
            assert_eq!(expected.len(), 2, "{}", source.id);
            assert_eq!((source.parse)(&jsonc), Ok(expected), "{}", source.id);
        }
    }
}
