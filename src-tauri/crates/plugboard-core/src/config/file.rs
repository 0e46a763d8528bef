//! Reading the text of `servers.json`: a BOM and an empty file are fine, a broken one is a precise error.

use std::path::{Path, PathBuf};

use super::error::ConfigError;
use super::raw::RawConfigFile;
use crate::paths;

/// The file name inside the config dir.
pub const CONFIG_FILE_NAME: &str = "servers.json";

/// Where the server config lives for this process.
pub fn config_path() -> PathBuf {
    paths::config_dir().join(CONFIG_FILE_NAME)
}

/// Parses the text of a server config that was read from `path`.
pub fn parse_config_text(path: &Path, text: &str) -> Result<RawConfigFile, ConfigError> {
    // Editors on Windows like to write a BOM; it is not part of the JSON.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Ok(RawConfigFile::default());
    }
    serde_json::from_str(text).map_err(|e| ConfigError::Syntax {
        path: path.to_owned(),
        line: e.line(),
        column: e.column(),
        message: strip_position(&e.to_string()),
    })
}

/// The text Plugboard writes: pretty JSON with a final newline, so diffs of a person's file stay readable.
pub fn render_config_text(file: &RawConfigFile) -> String {
    let mut text = serde_json::to_string_pretty(file).unwrap_or_else(|_| unreachable_render());
    text.push('\n');
    text
}

// Serialising maps of strings, numbers and bools cannot fail; an empty object keeps the signature total.
fn unreachable_render() -> String {
    "{}".to_owned()
}

/// serde_json appends " at line L column C"; the error carries those as fields instead.
fn strip_position(message: &str) -> String {
    message.rsplit_once(" at line ").map_or(message, |(head, _)| head).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<RawConfigFile, ConfigError> {
        parse_config_text(Path::new("/cfg/servers.json"), text)
    }

    /// A syntax error carries the line and column a person needs to find it.
    #[test]
    fn syntax_error_has_line_and_column() {
        match parse("{\n  \"mcpServers\": {,}\n}").expect_err("broken") {
            ConfigError::Syntax { line, column, .. } => assert_eq!((line, column), (2, 18)),
            other => panic!("expected a syntax error, got {other:?}"),
        }
    }

    /// A wrong shape of the file itself (`mcpServers` a list) is reported with its position too; a wrong shape
    /// inside one entry is not an error of the file (`lenient.rs` sets the entry apart).
    #[test]
    fn wrong_shape_has_a_position() {
        let err = parse(r#"{"mcpServers":["a"]}"#).expect_err("shape");
        assert!(matches!(err, ConfigError::Syntax { line: 1, .. }), "{err:?}");
        assert!(err.to_string().contains("invalid type"), "{err}");
        let entry = parse(r#"{"mcpServers":{"a":{"command":"x","args":"-y"}}}"#).expect("the file is fine");
        assert!(entry.unreadable.contains_key("a"));
    }

    /// A UTF-8 BOM and an empty file are accepted.
    #[test]
    fn bom_and_empty_file_are_accepted() {
        assert!(parse("\u{feff}{}").expect("bom").servers.is_empty());
        assert!(parse("  \n").expect("empty").servers.is_empty());
    }

    /// Unknown keys, in the file and in entries, survive parse → render → parse.
    #[test]
    fn unknown_keys_round_trip() {
        let text = r#"{"$schema":"x","mcpServers":{"a":{"command":"x","futureKey":{"n":1},"oauth":{"extra":true}}}}"#;
        let once = parse(text).expect("parse");
        let twice = parse(&render_config_text(&once)).expect("reparse");
        assert_eq!(once, twice);
        assert_eq!(twice.other["$schema"], "x");
        assert_eq!(twice.servers["a"].other["futureKey"]["n"], 1);
    }
}
