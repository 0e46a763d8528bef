//! Reading `servers.json` from the config dir: a missing file is an empty registry, a broken one a precise error.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use super::error::ConfigError;
use super::raw::RawConfigFile;
use super::summary::{ServerList, ServerSummary};
use crate::paths;

/// The file name inside the config dir.
pub const CONFIG_FILE_NAME: &str = "servers.json";

/// Where the server config lives for this process.
pub fn config_path() -> PathBuf {
    paths::config_dir().join(CONFIG_FILE_NAME)
}

/// Reads the server list from `path`; a file that does not exist yet means no servers.
pub fn load_server_list(path: &Path) -> Result<ServerList, ConfigError> {
    match std::fs::read_to_string(path) {
        Ok(text) => parse_server_list(path, &text),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(empty_list(path)),
        Err(source) => Err(ConfigError::Unreadable { path: path.to_owned(), source }),
    }
}

/// Parses the text of a server config that was read from `path`.
pub fn parse_server_list(path: &Path, text: &str) -> Result<ServerList, ConfigError> {
    // Editors on Windows like to write a BOM; it is not part of the JSON.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Ok(empty_list(path));
    }
    let raw: RawConfigFile = serde_json::from_str(text).map_err(|e| to_config_error(path, &e))?;
    let servers = raw
        .servers
        .iter()
        .map(|(name, entry)| {
            ServerSummary::from_raw(name, entry).ok_or_else(|| ConfigError::Invalid {
                path: path.to_owned(),
                field: format!("mcpServers.{name}"),
                message: "needs either \"command\" (a local server) or \"url\" (a remote one)".into(),
            })
        })
        .collect::<Result<_, _>>()?;
    Ok(ServerList { config_path: path.display().to_string(), servers })
}

fn empty_list(path: &Path) -> ServerList {
    ServerList { config_path: path.display().to_string(), servers: Vec::new() }
}

fn to_config_error(path: &Path, e: &serde_json::Error) -> ConfigError {
    let path = path.to_owned();
    match e.classify() {
        serde_json::error::Category::Data => {
            ConfigError::Invalid { path, field: "mcpServers".into(), message: strip_position(&e.to_string()) }
        }
        _ => ConfigError::Syntax { path, line: e.line(), column: e.column(), message: strip_position(&e.to_string()) },
    }
}

/// serde_json appends " at line L column C"; the error carries those as fields instead.
fn strip_position(message: &str) -> String {
    message.rsplit_once(" at line ").map_or(message, |(head, _)| head).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::TransportKind;

    fn parse(text: &str) -> Result<ServerList, ConfigError> {
        parse_server_list(Path::new("/cfg/servers.json"), text)
    }

    /// A missing file is an empty registry, not an error: a first run has no config yet.
    #[test]
    fn missing_file_is_an_empty_list() {
        let dir = tempfile::tempdir().expect("tempdir");
        let list = load_server_list(&dir.path().join("servers.json")).expect("empty list");
        assert!(list.servers.is_empty());
        assert!(list.config_path.ends_with("servers.json"));
    }

    /// Each transport is inferred as DESIGN.md says, and a remote entry never becomes stdio.
    #[test]
    fn transports_are_inferred_from_the_entry() {
        let list = parse(
            r#"{ "mcpServers": {
                "a": { "command": "npx", "args": ["-y", "pkg"] },
                "b": { "type": "http", "url": "https://x/mcp" },
                "c": { "type": "sse", "url": "https://x/sse" },
                "d": { "url": "https://x/" , "command": "ignored", "enabled": false } } }"#,
        )
        .expect("valid");
        let kinds: Vec<_> = list.servers.iter().map(|s| (s.name.as_str(), s.transport, s.enabled)).collect();
        assert_eq!(
            kinds,
            [
                ("a", TransportKind::Stdio, true),
                ("b", TransportKind::StreamableHttp, true),
                ("c", TransportKind::Sse, true),
                ("d", TransportKind::Probe, false),
            ]
        );
        assert_eq!(list.servers[0].target, "npx -y pkg");
    }

    /// A syntax error carries the line and column a person needs to find it.
    #[test]
    fn syntax_error_has_line_and_column() {
        let err = parse("{\n  \"mcpServers\": {,}\n}").expect_err("broken");
        match err {
            ConfigError::Syntax { line, column, .. } => assert_eq!((line, column), (2, 18)),
            other => panic!("expected a syntax error, got {other:?}"),
        }
    }

    /// An entry with neither command nor url names the server in its error.
    #[test]
    fn entry_without_target_is_named() {
        let err = parse(r#"{ "mcpServers": { "ghost": { "args": [] } } }"#).expect_err("invalid");
        assert_eq!(err.field(), Some("mcpServers.ghost"));
    }

    /// A UTF-8 BOM and an empty file are accepted.
    #[test]
    fn bom_and_empty_file_are_accepted() {
        assert_eq!(parse("\u{feff}{}").expect("bom").servers.len(), 0);
        assert_eq!(parse("  \n").expect("empty").servers.len(), 0);
    }
}
