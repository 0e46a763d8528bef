//! The one-entry edit of Codex's `config.toml` through toml_edit, which keeps comments, blank lines and the order
//! of every other table. It must never serialise the file again from parsed values.

use serde_json::Value;
use toml_edit::{Array, DocumentMut, Item, Table, value};

use super::change::Edit;
use super::entry::{ENTRY_NAME, ordered_fields};
use super::error::Refusal;
use crate::import::clients::common::node::line_and_column;

const SERVERS_KEY: &str = "mcp_servers";

/// `text` with `edit` applied to the `[mcp_servers.*]` tables.
pub(crate) fn apply(text: &str, edit: &Edit<'_>) -> Result<String, Refusal> {
    let mut doc: DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| Refusal::Parse {
        message: e.message().trim().to_owned(),
        position: e.span().map(|span| line_and_column(text, span.start)),
    })?;
    if doc.get(SERVERS_KEY).is_none() {
        if edit.set.is_none() {
            return Ok(text.to_owned());
        }
        let mut servers = Table::new();
        // Only `[mcp_servers.plugboard]` is written, not an empty `[mcp_servers]` above it.
        servers.set_implicit(true);
        doc.insert(SERVERS_KEY, Item::Table(servers));
    }
    let servers = doc
        .get_mut(SERVERS_KEY)
        .and_then(Item::as_table_mut)
        .ok_or_else(|| Refusal::unsupported("`mcp_servers` is not written as [mcp_servers.<name>] tables"))?;
    for name in edit.remove {
        servers.remove(name);
    }
    match edit.set {
        None => {
            servers.remove(ENTRY_NAME);
        }
        Some(entry) => {
            let fields = ordered_fields(entry);
            match servers.get_mut(ENTRY_NAME).and_then(Item::as_table_mut) {
                // Updated in place, so it keeps its position among the tables.
                Some(table) => {
                    let stale: Vec<String> = table
                        .iter()
                        .map(|(k, _)| k.to_owned())
                        .filter(|k| !fields.iter().any(|(f, _)| f == k))
                        .collect();
                    for key in stale {
                        table.remove(&key);
                    }
                    for (key, field) in fields {
                        table[key] = item(field)?;
                    }
                }
                None => {
                    let mut table = Table::new();
                    for (key, field) in fields {
                        table.insert(key, item(field)?);
                    }
                    servers.insert(ENTRY_NAME, Item::Table(table));
                }
            }
        }
    }
    Ok(doc.to_string())
}

/// A text or a list of texts, the only values the entry has.
fn item(field: &Value) -> Result<Item, Refusal> {
    match field {
        Value::String(s) => Ok(value(s.as_str())),
        Value::Array(items) => {
            let texts: Option<Array> = items.iter().map(|v| v.as_str()).collect();
            texts.map(value).ok_or_else(|| Refusal::unsupported("the entry's list holds something other than text"))
        }
        other => Err(Refusal::unsupported(format!("the entry holds {other}, which has no TOML form here"))),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// The table goes after the other servers; comments and other tables stay; removing it gives the text back.
    #[test]
    fn adds_and_removes_a_table() {
        let text =
            "# my codex\nmodel = \"o3\"\n\n[mcp_servers.a]\ncommand = \"x\" # why\n\n[profiles.fast]\nmodel = \"o4\"\n";
        let entry = json!({ "command": "/pb", "args": ["serve", "--stdio"] });
        let out = apply(text, &Edit { set: Some(&entry), remove: &[] }).expect("edits");
        assert!(out.starts_with("# my codex\nmodel = \"o3\"\n\n[mcp_servers.a]\ncommand = \"x\" # why\n"), "{out}");
        assert!(out.contains("[mcp_servers.plugboard]\ncommand = \"/pb\"\nargs = [\"serve\", \"--stdio\"]\n"), "{out}");
        assert!(out.find("[mcp_servers.plugboard]") < out.find("[profiles.fast]"), "{out}");
        assert_eq!(apply(&out, &Edit { set: None, remove: &[] }).expect("removes"), text);
    }

    /// A file with no servers gets only `[mcp_servers.plugboard]`; a broken one is refused with its position.
    #[test]
    fn new_map_and_broken_files() {
        let entry = json!({ "command": "/pb", "args": [] });
        let out = apply("model = \"o3\"\n", &Edit { set: Some(&entry), remove: &[] }).expect("edits");
        assert!(!out.contains("[mcp_servers]\n"), "{out}");
        assert!(out.contains("[mcp_servers.plugboard]"), "{out}");
        let err = apply("a = 1\n[mcp_servers.x\n", &Edit { set: Some(&entry), remove: &[] });
        assert!(matches!(err, Err(Refusal::Parse { position: Some((2, _)), .. })), "{err:?}");
    }

    /// An outdated entry is updated in place (a key Plugboard does not write goes), and an inline `mcp_servers` is
    /// refused rather than rewritten.
    #[test]
    fn updates_in_place_and_refuses_inline_maps() {
        let text =
            "[mcp_servers.plugboard]\ncommand = \"/old\"\nenv = { A = \"1\" }\n\n[mcp_servers.b]\ncommand = \"y\"\n";
        let entry = json!({ "command": "/pb", "args": ["serve"] });
        let out = apply(text, &Edit { set: Some(&entry), remove: &[] }).expect("edits");
        assert_eq!(
            out,
            "[mcp_servers.plugboard]\ncommand = \"/pb\"\nargs = [\"serve\"]\n\n[mcp_servers.b]\ncommand = \"y\"\n"
        );
        let inline = apply("mcp_servers = { a = { command = \"x\" } }\n", &Edit { set: Some(&entry), remove: &[] });
        assert!(matches!(inline, Err(Refusal::Unsupported(_))), "{inline:?}");
    }
}
