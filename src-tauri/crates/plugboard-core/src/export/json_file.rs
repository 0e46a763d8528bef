//! The one-entry edit of a JSON or JSONC file, through jsonc-parser's concrete syntax tree: comments, a byte-order
//! mark, indentation, key order and trailing commas of everything else stay as they were. It must never build the
//! file again from parsed values.

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstInputValue, CstObject, CstRootNode};
use serde_json::Value;

use super::change::Edit;
use super::entry::{ENTRY_NAME, ordered_fields};
use super::error::Refusal;

const BOM: &str = "\u{feff}";

/// `text` with `edit` applied to the object of servers under `servers_key` (created when absent).
pub(crate) fn apply(text: &str, servers_key: &str, edit: &Edit<'_>) -> Result<String, Refusal> {
    // The parser does not know byte-order marks; one is put back exactly where it was.
    let (bom, body) = match text.strip_prefix(BOM) {
        Some(body) => (BOM, body),
        None => ("", text),
    };
    let body = if body.trim().is_empty() { "{}\n" } else { body };
    let root = CstRootNode::parse(body, &ParseOptions::default()).map_err(|e| Refusal::Parse {
        message: e.kind().to_string(),
        position: Some((e.line_display(), e.column_display())),
    })?;
    let document = match root.value() {
        None => root.object_value_or_set(),
        Some(value) => value.as_object().ok_or_else(|| Refusal::unsupported("the file is not a JSON object"))?,
    };
    let servers = match (document.get(servers_key), edit.set) {
        (Some(prop), _) => prop
            .value()
            .and_then(|v| v.as_object())
            .ok_or_else(|| Refusal::unsupported(format!("\"{servers_key}\" is not an object of servers")))?,
        (None, Some(_)) => document
            .object_value_or_create(servers_key)
            .ok_or_else(|| Refusal::unsupported(format!("\"{servers_key}\" cannot be created")))?,
        // Nothing to remove from a map that is not there.
        (None, None) => return Ok(text.to_owned()),
    };
    for name in edit.remove {
        remove_all(&servers, name);
    }
    match edit.set {
        Some(entry) => match servers.properties().into_iter().rfind(|p| is_named(p, ENTRY_NAME)) {
            Some(prop) => prop.set_value(entry_input(entry)),
            None => {
                servers.append(ENTRY_NAME, entry_input(entry));
            }
        },
        None => remove_all(&servers, ENTRY_NAME),
    }
    Ok(format!("{bom}{root}"))
}

fn is_named(prop: &jsonc_parser::cst::CstObjectProp, name: &str) -> bool {
    prop.name().and_then(|n| n.decoded_value().ok()).is_some_and(|n| n == name)
}

/// Every property named `name` (a file can name one twice).
fn remove_all(object: &CstObject, name: &str) {
    for prop in object.properties().into_iter().filter(|p| is_named(p, name)) {
        prop.remove();
    }
}

/// The entry, its fields in the written order.
fn entry_input(entry: &Value) -> CstInputValue {
    CstInputValue::Object(ordered_fields(entry).into_iter().map(|(k, v)| (k.to_owned(), input(v))).collect())
}

fn input(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(input).collect()),
        Value::Object(fields) => CstInputValue::Object(fields.iter().map(|(k, v)| (k.clone(), input(v))).collect()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn set(text: &str, entry: &Value) -> String {
        apply(text, "mcpServers", &Edit { set: Some(entry), remove: &[] }).expect("edits")
    }

    /// An entry is added after the others with the file's own indentation, and the comments, the trailing commas
    /// and the byte-order mark stay.
    #[test]
    fn adds_the_entry_in_the_files_style() {
        let text =
            "\u{feff}{\n    // mine\n    \"mcpServers\": {\n        \"a\": { \"command\": \"x\" }, // a\n    },\n}\n";
        let out = set(text, &json!({ "command": "/bin/pb", "args": ["serve"] }));
        assert!(
            out.starts_with("\u{feff}{\n    // mine\n    \"mcpServers\": {\n        \"a\": { \"command\": \"x\" },"),
            "{out}"
        );
        assert!(out.contains("// a"), "{out}");
        assert!(out.contains("\n        \"plugboard\": {\n"), "{out}");
    }

    /// An existing entry is replaced in place, and removing it takes only it.
    #[test]
    fn replaces_and_removes_only_the_entry() {
        let text = "{\n  \"mcpServers\": {\n    \"plugboard\": { \"command\": \"/old\" },\n    \"b\": { \"command\": \"y\" }\n  }\n}\n";
        let out = set(text, &json!({ "command": "/new" }));
        assert!(out.find("plugboard") < out.find("\"b\""), "{out}");
        assert!(out.contains("/new") && !out.contains("/old"), "{out}");
        let removed = apply(&out, "mcpServers", &Edit { set: None, remove: &[] }).expect("removes");
        assert_eq!(removed, "{\n  \"mcpServers\": {\n    \"b\": { \"command\": \"y\" }\n  }\n}\n");
    }

    /// A missing or empty file becomes an object holding just the map; a non-object is refused.
    #[test]
    fn empty_files_and_wrong_shapes() {
        let out = set("", &json!({ "command": "/pb" }));
        let parsed: Value = serde_json::from_str(&out).expect("json");
        assert_eq!(parsed, json!({ "mcpServers": { "plugboard": { "command": "/pb" } } }));
        assert!(matches!(
            apply("[1]", "mcpServers", &Edit { set: Some(&json!({})), remove: &[] }),
            Err(Refusal::Unsupported(_))
        ));
        let err = apply("{\n  \"a\": \n", "mcpServers", &Edit { set: Some(&json!({})), remove: &[] });
        assert!(matches!(err, Err(Refusal::Parse { position: Some(_), .. })), "{err:?}");
    }

    /// An empty map written on one line opens up for the entry; a map that is not an object is refused.
    #[test]
    fn one_line_maps_and_odd_values() {
        let out = set("{ \"theme\": 1, \"mcpServers\": {} }", &json!({ "command": "/pb" }));
        let parsed: Value = jsonc_parser::parse_to_serde_value(&out, &ParseOptions::default()).expect("parses");
        assert_eq!(parsed, json!({ "theme": 1, "mcpServers": { "plugboard": { "command": "/pb" } } }), "{out}");
        assert!(out.starts_with("{ \"theme\": 1, \"mcpServers\": {"), "{out}");
        let null = apply("{\"mcpServers\": null}", "mcpServers", &Edit { set: Some(&json!({})), remove: &[] });
        assert!(matches!(null, Err(Refusal::Unsupported(_))), "{null:?}");
    }

    /// A line comment after the last entry stays with it, and the comma goes before the comment, not into it.
    #[test]
    fn a_comment_after_the_last_entry_keeps_its_place() {
        let text = "{\n  \"mcpServers\": {\n    \"a\": { \"command\": \"x\" } // the one\n  }\n}\n";
        let out = set(text, &json!({ "command": "/pb" }));
        assert!(out.contains("\"a\": { \"command\": \"x\" }, // the one\n"), "{out}");
        let parsed: Value = jsonc_parser::parse_to_serde_value(&out, &ParseOptions::default()).expect("parses");
        assert_eq!(parsed["mcpServers"]["plugboard"], json!({ "command": "/pb" }), "{out}");
    }
}
