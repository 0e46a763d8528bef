//! The check every edit passes before it is written: the new text is parsed again and compared with the old one,
//! value by value. Everything but the server map must be deep-equal, every server but Plugboard's (and the
//! duplicates the person asked to move) must be deep-equal and in the same order, and Plugboard's entry must be
//! exactly the one intended. It must never accept an edit it cannot parse back.

use serde_json::{Map, Value};

use super::change::Edit;
use super::entry::ENTRY_NAME;
use super::targets::Format;
use crate::import::ParseError;
use crate::import::clients::common::node::{Node, parse_jsonc, parse_toml, parse_yaml};

/// Why an edit was not accepted, in words for the error message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Mismatch(pub(crate) String);

/// A file's text as a format-neutral value; a blank text is an empty document.
pub(crate) fn document(format: Format, text: &str) -> Result<Value, ParseError> {
    if text.trim_start_matches('\u{feff}').trim().is_empty() {
        return Ok(Value::Object(Map::new()));
    }
    let node = match format {
        Format::Json { .. } => parse_jsonc(text)?,
        Format::Toml => parse_toml(text)?,
        Format::Yaml => parse_yaml(text)?,
    };
    Ok(match node {
        // A document of comments only holds no settings.
        Node::Null => Value::Object(Map::new()),
        node => node.into_json(),
    })
}

/// The document without its server map, and the servers by name in the order the file has them.
pub(crate) fn split(format: Format, mut doc: Value) -> (Value, Vec<(String, Value)>) {
    let key = match format {
        Format::Json { servers_key, .. } => servers_key,
        Format::Toml => "mcp_servers",
        Format::Yaml => "mcpServers",
    };
    let servers = doc.as_object_mut().and_then(|fields| fields.remove(key));
    let servers = match servers {
        Some(Value::Object(fields)) => fields.into_iter().collect(),
        Some(Value::Array(items)) => items
            .into_iter()
            .enumerate()
            .map(|(i, item)| (item.get("name").and_then(Value::as_str).map_or(format!("#{i}"), str::to_owned), item))
            .collect(),
        // Absent or empty (`mcpServers:` with nothing under it) are both no servers.
        Some(Value::Null) | None => Vec::new(),
        Some(other) => vec![(String::new(), other)],
    };
    (doc, servers)
}

/// Plugboard's entry in a document, if it has one.
pub(crate) fn our_entry(servers: &[(String, Value)]) -> Option<&Value> {
    servers.iter().rev().find(|(name, _)| name == ENTRY_NAME).map(|(_, v)| v)
}

/// Passes when `after` is `before` with exactly `edit` applied.
pub(crate) fn check(format: Format, before: &str, after: &str, edit: &Edit<'_>) -> Result<(), Mismatch> {
    let old = document(format, before).map_err(|e| Mismatch(format!("the old text does not parse: {e}")))?;
    let new = document(format, after).map_err(|e| Mismatch(format!("the new text does not parse: {e}")))?;
    let (old_rest, old_servers) = split(format, old);
    let (new_rest, new_servers) = split(format, new);
    if old_rest != new_rest {
        return Err(Mismatch("a setting outside the server map differs".into()));
    }
    let kept = |servers: &[(String, Value)], drop_moved: bool| -> Vec<(String, Value)> {
        servers
            .iter()
            .filter(|(name, _)| name != ENTRY_NAME && !(drop_moved && edit.remove.contains(name)))
            .cloned()
            .collect()
    };
    if kept(&old_servers, true) != kept(&new_servers, false) {
        return Err(Mismatch("another server entry differs".into()));
    }
    let ours: Vec<&Value> = new_servers.iter().filter(|(n, _)| n == ENTRY_NAME).map(|(_, v)| v).collect();
    match (edit.set, ours.as_slice()) {
        (Some(expected), [written]) if *written == expected => Ok(()),
        (None, []) => Ok(()),
        _ => Err(Mismatch(format!("the {ENTRY_NAME} entry is not the one intended"))),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const JSON: Format = Format::Json { servers_key: "mcpServers", stdio_type: false };

    /// An edit that touches another entry, a setting, or writes a different entry is caught.
    #[test]
    fn catches_every_kind_of_collateral_change() {
        let before = r#"{"theme": "dark", "mcpServers": {"a": {"command": "x"}}}"#;
        let entry = json!({ "command": "/pb" });
        let edit = Edit { set: Some(&entry), remove: &[] };
        let good = r#"{"theme": "dark", "mcpServers": {"a": {"command": "x"}, "plugboard": {"command": "/pb"}}}"#;
        assert_eq!(check(JSON, before, good, &edit), Ok(()));
        for bad in [
            r#"{"theme": "light", "mcpServers": {"a": {"command": "x"}, "plugboard": {"command": "/pb"}}}"#,
            r#"{"theme": "dark", "mcpServers": {"a": {"command": "y"}, "plugboard": {"command": "/pb"}}}"#,
            r#"{"theme": "dark", "mcpServers": {"plugboard": {"command": "/pb"}}}"#,
            r#"{"theme": "dark", "mcpServers": {"a": {"command": "x"}, "plugboard": {"command": "/other"}}}"#,
            r#"{"theme": "dark", "mcpServers": {"a": {"command": "x"}}"#,
        ] {
            assert!(check(JSON, before, bad, &edit).is_err(), "{bad}");
        }
        let moved = ["a".to_owned()];
        let moving = Edit { set: Some(&entry), remove: &moved };
        assert_eq!(
            check(JSON, before, r#"{"theme": "dark", "mcpServers": {"plugboard": {"command": "/pb"}}}"#, &moving),
            Ok(())
        );
    }

    /// Continue's list is compared in order, by item.
    #[test]
    fn yaml_lists_are_compared_in_order() {
        let before = "mcpServers:\n  - name: a\n  - name: b\n";
        let edit = Edit { set: None, remove: &[] };
        assert_eq!(check(Format::Yaml, before, before, &edit), Ok(()));
        assert!(check(Format::Yaml, before, "mcpServers:\n  - name: b\n  - name: a\n", &edit).is_err());
    }
}
