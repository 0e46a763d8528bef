//! One server entry as JSON text (what the raw config editor holds) → a validated server, or the problem with the
//! line and column it is at, so an editor can point at it. It only reads the text: it never writes the config.

use serde::Serialize;

use super::model::ServerConfig;
use super::raw::RawServer;
use super::validate::validate_server;

/// Why an entry's text is not a usable server, and where in the text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
#[error("line {line}, column {column}: {message}")]
pub struct EntryProblem {
    /// The field as written in the file (`url`, `oauth.redirect`); absent when the text is not valid JSON for an
    /// entry at all.
    pub field: Option<String>,
    pub message: String,
    /// 1-based line of the problem: of the syntax error, or of the field's key (1 when the key is not written).
    pub line: u32,
    /// 1-based column, counted in characters, as editors show it.
    pub column: u32,
}

/// Parses and validates the entry `text` of server `name`; returns both the raw entry and the server it makes.
pub fn check_entry_text(name: &str, text: &str) -> Result<(RawServer, ServerConfig), EntryProblem> {
    let raw: RawServer = serde_json::from_str(text).map_err(|e| EntryProblem {
        field: None,
        message: syntax_message(&e),
        line: clamp(e.line()),
        column: clamp(e.column()),
    })?;
    let server = validate_server(name, &raw).map_err(|e| {
        let (line, column) = locate_field(text, &e.field).unwrap_or((1, 1));
        EntryProblem { field: Some(e.field), message: e.message, line, column }
    })?;
    Ok((raw, server))
}

/// serde's message without its own " at line L column C" suffix (the position travels separately).
fn syntax_message(e: &serde_json::Error) -> String {
    let full = e.to_string();
    match full.rfind(" at line ") {
        Some(at) => full[..at].to_owned(),
        None => full,
    }
}

/// Where the key of `field` (`oauth.redirect`: the `redirect` key after the `oauth` key) is written in `text`.
fn locate_field(text: &str, field: &str) -> Option<(u32, u32)> {
    let mut from = 0;
    for part in field.split('.') {
        from += find_key(&text[from..], part)?;
    }
    let before = &text[..from];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Some((clamp(line), clamp(column)))
}

/// The byte offset of `"key"` used as an object key (followed by a colon) in `text`.
fn find_key(text: &str, key: &str) -> Option<usize> {
    let quoted = format!("\"{key}\"");
    let mut start = 0;
    while let Some(found) = text[start..].find(&quoted) {
        let at = start + found;
        let rest = text[at + quoted.len()..].trim_start();
        if rest.starts_with(':') {
            return Some(at);
        }
        start = at + quoted.len();
    }
    None
}

fn clamp(n: usize) -> u32 {
    u32::try_from(n.max(1)).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(text: &str) -> EntryProblem {
        check_entry_text("s", text).expect_err("a problem")
    }

    /// A valid entry gives back the raw entry and the validated server.
    #[test]
    fn valid_entry() {
        let (raw, server) = check_entry_text("s", r#"{ "command": "npx", "tools": ["echo"] }"#).expect("valid");
        assert_eq!(raw.command.as_deref(), Some("npx"));
        assert_eq!(server.name.as_str(), "s");
    }

    /// A syntax error has no field, and the line and column serde found, without serde's position suffix.
    #[test]
    fn syntax_error_has_a_position() {
        let p = problem("{\n  \"command\": \"npx\",\n  \"args\": [1, }\n}");
        assert_eq!((p.field.as_deref(), p.line), (None, 3));
        assert!(p.column > 1, "{p:?}");
        assert!(!p.message.contains(" at line "), "{}", p.message);
        let not_object = problem("[1, 2]");
        assert_eq!((not_object.line, not_object.field), (1, None::<String>));
    }

    /// A validation error names the field and points at its key, nested keys included.
    #[test]
    fn field_error_points_at_the_key() {
        let p = problem("{\n  \"args\": [\"url\"],\n    \"url\": \"ftp://x\"\n}");
        assert_eq!((p.field.as_deref(), p.line, p.column), (Some("url"), 3, 5));
        let p = problem("{ \"url\": \"https://a\",\n\"oauth\": {\n \"redirect\": \"email\" } }");
        assert_eq!((p.field.as_deref(), p.line, p.column), (Some("oauth.redirect"), 3, 2));
        let missing = problem("{}");
        assert_eq!((missing.field.as_deref(), missing.line, missing.column), (Some("command"), 1, 1));
    }
}
