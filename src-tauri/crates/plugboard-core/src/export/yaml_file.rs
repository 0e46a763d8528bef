//! The one-entry edit of Continue's `config.yaml`, on its lines: only the lines of the items it adds, replaces or
//! removes in the top-level `mcpServers:` list change; every other line (comments included) is copied as it was.
//! YAML has no well-kept comment-preserving editor in Rust, so this handles the block-list layout Continue writes
//! and refuses any other (a flow list, a map, tabs, an anchor) rather than guess. It must never re-serialise the file.

use serde_json::Value;

use super::change::Edit;
use super::entry::{ENTRY_NAME, ordered_fields};
use super::error::Refusal;
use crate::import::clients::common::node::{Node, parse_yaml};

const BOM: &str = "\u{feff}";
const KEY: &str = "mcpServers:";

/// `text` with `edit` applied to the `mcpServers:` list.
pub(crate) fn apply(text: &str, edit: &Edit<'_>) -> Result<String, Refusal> {
    let (bom, body) = match text.strip_prefix(BOM) {
        Some(body) => (BOM, body),
        None => ("", text),
    };
    let newline = if body.contains("\r\n") { "\r\n" } else { "\n" };
    let names = if body.trim().is_empty() { None } else { list_names(body)? };
    let lines: Vec<&str> = body.split_inclusive('\n').collect();
    let Some(names) = names else {
        // No list yet: it is added at the end of the file.
        let Some(entry) = edit.set else { return Ok(text.to_owned()) };
        let mut out = format!("{bom}{body}");
        if !body.is_empty() && !body.ends_with('\n') {
            out.push_str(newline);
        }
        out.push_str(KEY);
        out.push_str(newline);
        out.push_str(&item_text(entry, "  ", newline)?);
        return Ok(out);
    };
    let list = List::find(&lines, names.len())?;
    let ours = |i: usize| names[i].as_deref() == Some(ENTRY_NAME);
    let dropped = |i: usize| ours(i) || names[i].as_deref().is_some_and(|n| edit.remove.iter().any(|r| r == n));
    let new_item = edit.set.map(|entry| item_text(entry, &list.indent, newline)).transpose()?;
    // The entry takes the place of the one it replaces, else it goes after the last item.
    let insert_at = (0..names.len()).find(|&i| ours(i)).map_or(list.end, |i| list.items[i].0);
    let mut out = String::from(bom);
    for (at, line) in lines.iter().enumerate() {
        if at == insert_at {
            push_item(&mut out, new_item.as_deref(), newline);
        }
        if at == list.key && list.empty_flow {
            out.push_str(KEY);
            out.push_str(
                line.trim_end_matches(['\r', '\n']).trim_start_matches(KEY).trim_start().trim_start_matches("[]"),
            );
            out.push_str(newline);
            continue;
        }
        if !list.items.iter().enumerate().any(|(i, &(start, end))| dropped(i) && (start..end).contains(&at)) {
            out.push_str(line);
        }
    }
    if insert_at >= lines.len() {
        push_item(&mut out, new_item.as_deref(), newline);
    }
    Ok(out)
}

fn push_item(out: &mut String, item: Option<&str>, newline: &str) {
    if let Some(item) = item {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push_str(newline);
        }
        out.push_str(item);
    }
}

/// The `name` of every item of the top-level `mcpServers` list, or `None` when there is no such key.
fn list_names(body: &str) -> Result<Option<Vec<Option<String>>>, Refusal> {
    let root = parse_yaml(body)?;
    match root.get("mcpServers") {
        None => Ok(None),
        Some(Node::Null) => Ok(Some(Vec::new())),
        Some(Node::List(items)) => Ok(Some(
            items
                .iter()
                .map(|item| match item.get("name") {
                    Some(Node::String(name)) => Some(name.clone()),
                    _ => None,
                })
                .collect(),
        )),
        Some(_) => Err(Refusal::unsupported(
            "`mcpServers` is not a list; Plugboard only edits the list form Continue documents",
        )),
    }
}

/// Where the list is in the file's lines.
#[derive(Debug)]
struct List {
    /// The `mcpServers:` line.
    key: usize,
    /// It reads `mcpServers: []`.
    empty_flow: bool,
    /// The indent of the items' `-`.
    indent: String,
    /// Each item's lines, its trailing blank and comment lines excluded (they go with what follows).
    items: Vec<(usize, usize)>,
    /// The line after the list's last item (or after the key when the list is empty).
    end: usize,
}

impl List {
    fn find(lines: &[&str], count: usize) -> Result<Self, Refusal> {
        let refuse = |why: &str| Refusal::unsupported(format!("{why}; Plugboard only edits a block list of items"));
        let keys: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].starts_with(KEY)).collect();
        let &[key] = keys.as_slice() else { return Err(refuse("`mcpServers:` is not written once at the top level")) };
        let rest = lines[key][KEY.len()..].trim();
        let empty_flow = rest.starts_with("[]") && is_blank_or_comment(rest.trim_start_matches("[]"));
        if !is_blank_or_comment(rest) && !empty_flow {
            return Err(refuse("`mcpServers:` is written on one line"));
        }
        let mut items: Vec<(usize, usize)> = Vec::new();
        let mut indent: Option<String> = None;
        let mut last_content = key + 1;
        let mut at = key + 1;
        while at < lines.len() && !empty_flow {
            let line = lines[at].trim_end_matches(['\r', '\n']);
            if line.contains('\t') && !is_blank_or_comment(line) {
                return Err(refuse("the list is indented with tabs"));
            }
            let trimmed = line.trim_start();
            let width = line.len() - trimmed.len();
            if !is_blank_or_comment(line) {
                let item_start = trimmed == "-" || trimmed.starts_with("- ");
                match &indent {
                    None if item_start => indent = Some(line[..width].to_owned()),
                    None => break,
                    Some(i) if width < i.len() || (width == i.len() && !item_start) => break,
                    Some(_) => {}
                }
                if indent.as_ref().is_some_and(|i| i.len() == width) {
                    items.push((at, at + 1));
                }
                if let Some(item) = items.last_mut() {
                    item.1 = at + 1;
                }
                last_content = at + 1;
            }
            at += 1;
        }
        if items.len() != count {
            return Err(refuse("the list's items are not one `- ` line each at one indent"));
        }
        let end = if items.is_empty() { key + 1 } else { last_content };
        Ok(Self { key, empty_flow, indent: indent.unwrap_or_else(|| "  ".to_owned()), items, end })
    }
}

fn is_blank_or_comment(line: &str) -> bool {
    let trimmed = line.trim();
    trimmed.is_empty() || trimmed.starts_with('#')
}

/// One list item, `name` first, every value in JSON's notation (which YAML reads as the same value).
fn item_text(entry: &Value, indent: &str, newline: &str) -> Result<String, Refusal> {
    if !entry.is_object() {
        return Err(Refusal::unsupported("the entry is not an object"));
    }
    let mut out = format!("{indent}- name: {}{newline}", Value::from(ENTRY_NAME));
    for (key, value) in ordered_fields(entry).into_iter().filter(|(k, _)| *k != "name") {
        out.push_str(&format!("{indent}  {key}: {value}{newline}"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn entry() -> Value {
        json!({ "name": "plugboard", "command": "/pb", "args": ["serve", "--stdio"] })
    }

    /// The item goes after the last one at the list's indent; every other line stays; removing it gives the text
    /// back.
    #[test]
    fn adds_and_removes_an_item() {
        let text =
            "name: mine # cfg\nmcpServers:\n  # local ones\n  - name: a\n    command: x\n\n# models\nmodels: []\n";
        let entry = entry();
        let out = apply(text, &Edit { set: Some(&entry), remove: &[] }).expect("edits");
        assert_eq!(
            out,
            "name: mine # cfg\nmcpServers:\n  # local ones\n  - name: a\n    command: x\n  - name: \"plugboard\"\n    \
             command: \"/pb\"\n    args: [\"serve\",\"--stdio\"]\n\n# models\nmodels: []\n"
        );
        assert_eq!(apply(&out, &Edit { set: None, remove: &[] }).expect("removes"), text);
    }

    /// No list: one is appended; `mcpServers: []` becomes a block list; a flow list or a map is refused.
    #[test]
    fn new_lists_and_refused_layouts() {
        let entry = entry();
        let set = Edit { set: Some(&entry), remove: &[] };
        let out = apply("name: mine", &set).expect("edits");
        assert!(out.starts_with("name: mine\nmcpServers:\n  - name: \"plugboard\"\n"), "{out}");
        let out = apply("mcpServers: [] # none yet\nx: 1\n", &set).expect("edits");
        assert!(out.starts_with("mcpServers: # none yet\n  - name: \"plugboard\"\n"), "{out}");
        assert!(out.ends_with("x: 1\n"), "{out}");
        assert!(matches!(apply("mcpServers: [{name: a}]\n", &set), Err(Refusal::Unsupported(_))));
        assert!(matches!(apply("mcpServers:\n  a: {command: x}\n", &set), Err(Refusal::Unsupported(_))));
        assert!(matches!(apply("mcpServers:\n  - name: [\n", &set), Err(Refusal::Parse { .. })));
    }

    /// A list written at the key's own indent, CRLF line endings and a last line without a newline are kept as the
    /// file has them; replacing the entry keeps its place among the items.
    #[test]
    fn compact_lists_crlf_and_replacement() {
        let entry = entry();
        let set = Edit { set: Some(&entry), remove: &[] };
        let out = apply("mcpServers:\r\n- name: a\r\n  command: x\r\nmodels: []", &set).expect("edits");
        assert_eq!(
            out,
            "mcpServers:\r\n- name: a\r\n  command: x\r\n- name: \"plugboard\"\r\n  command: \"/pb\"\r\n  \
             args: [\"serve\",\"--stdio\"]\r\nmodels: []"
        );
        let old = "mcpServers:\n  - name: plugboard\n    command: /old\n  - name: b\n    command: y\n";
        let out = apply(old, &set).expect("edits");
        assert_eq!(
            out,
            "mcpServers:\n  - name: \"plugboard\"\n    command: \"/pb\"\n    args: [\"serve\",\"--stdio\"]\n  - name: b\n    \
             command: y\n"
        );
        let tail = apply("x: 1\nmcpServers:\n  - name: a", &set).expect("edits");
        assert!(tail.starts_with("x: 1\nmcpServers:\n  - name: a\n  - name: \"plugboard\"\n"), "{tail}");
    }
}
