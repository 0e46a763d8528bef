//! Reading one server entry field by field: each read names the field when its value has the wrong shape, and
//! whatever is left over is kept verbatim in `other` so nothing the person wrote is silently lost.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value};

use super::node::Node;
use crate::config::raw::RawServer;
use crate::import::{ImportedServer, ParsedEntry};

/// Why one entry cannot be imported, in words a person understands; it becomes `ParsedEntry::Invalid`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct EntryProblem(pub(crate) String);

impl EntryProblem {
    pub(crate) fn new(reason: impl Into<String>) -> Self {
        Self(reason.into())
    }
}

/// A translated entry before it gets its name and scope.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Draft {
    pub(crate) server: RawServer,
    pub(crate) notes: Vec<String>,
}

impl Draft {
    pub(crate) fn note(&mut self, note: impl Into<String>) {
        let note = note.into();
        if !self.notes.contains(&note) {
            self.notes.push(note);
        }
    }

    /// Keeps a value Plugboard does not act on under `key` in `other`, so it round-trips.
    pub(crate) fn keep(&mut self, key: &str, value: Value) {
        self.server.other.insert(key.to_owned(), value);
    }

    /// Keeps every field the client's parser did not read, and returns the finished draft.
    pub(crate) fn with_rest(mut self, reader: EntryReader) -> Self {
        self.server.other.extend(reader.rest());
        self
    }
}

/// The fields of one entry that have not been read yet.
#[derive(Debug)]
pub(crate) struct EntryReader {
    fields: Vec<(String, Node)>,
}

impl EntryReader {
    /// Starts reading an entry, which must be an object.
    pub(crate) fn new(node: Node) -> Result<Self, EntryProblem> {
        match node {
            Node::Object(fields) => Ok(Self { fields }),
            other => Err(EntryProblem::new(format!("the entry is {}, not an object of settings", other.describe()))),
        }
    }

    pub(crate) fn has(&self, key: &str) -> bool {
        self.fields.iter().any(|(k, v)| k == key && *v != Node::Null)
    }

    /// Removes `key` (every copy of it) and returns its last value; `null` counts as absent.
    pub(crate) fn take(&mut self, key: &str) -> Option<Node> {
        let mut found = None;
        self.fields.retain_mut(|(k, v)| {
            if k == key {
                found = Some(std::mem::replace(v, Node::Null));
                false
            } else {
                true
            }
        });
        found.filter(|v| *v != Node::Null)
    }

    /// Puts a field (back) so a later read sees it; for formats where one key has two shapes.
    pub(crate) fn put(&mut self, key: &str, value: Node) {
        self.fields.push((key.to_owned(), value));
    }

    pub(crate) fn string(&mut self, key: &str) -> Result<Option<String>, EntryProblem> {
        match self.take(key) {
            None => Ok(None),
            Some(Node::String(s)) => Ok(Some(s)),
            Some(other) => Err(wrong(key, "text", &other)),
        }
    }

    pub(crate) fn bool(&mut self, key: &str) -> Result<Option<bool>, EntryProblem> {
        match self.take(key) {
            None => Ok(None),
            Some(Node::Bool(b)) => Ok(Some(b)),
            Some(other) => Err(wrong(key, "true or false", &other)),
        }
    }

    /// A non-negative number (timeouts); fractions are kept so a caller can scale seconds to milliseconds.
    pub(crate) fn number(&mut self, key: &str) -> Result<Option<f64>, EntryProblem> {
        match self.take(key) {
            None => Ok(None),
            Some(Node::Number(n)) => match n.as_f64() {
                Some(v) if v >= 0.0 && v.is_finite() => Ok(Some(v)),
                _ => Err(EntryProblem::new(format!("\"{key}\" must not be negative"))),
            },
            Some(other) => Err(wrong(key, "a number", &other)),
        }
    }

    /// A list of text; numbers and booleans in it are taken as their text, as the clients' JavaScript would.
    pub(crate) fn strings(&mut self, key: &str) -> Result<Option<Vec<String>>, EntryProblem> {
        match self.take(key) {
            None => Ok(None),
            Some(Node::List(items)) => items
                .into_iter()
                .enumerate()
                .map(|(i, item)| {
                    let kind = item.describe();
                    scalar_text(item)
                        .ok_or_else(|| EntryProblem::new(format!("\"{key}[{i}]\" must be text, found {kind}")))
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some(other) => Err(wrong(key, "a list of text", &other)),
        }
    }

    /// Space-separated words written as one text or as a list (OAuth scopes), as one space-separated text.
    pub(crate) fn words(&mut self, key: &str) -> Result<Option<String>, EntryProblem> {
        match self.take(key) {
            None => Ok(None),
            Some(Node::String(s)) => Ok(Some(s)),
            Some(list @ Node::List(_)) => {
                self.put(key, list);
                Ok(self.strings(key)?.map(|words| words.join(" ")))
            }
            Some(other) => Err(wrong(key, "text or a list of text", &other)),
        }
    }

    /// An object of text values (env, headers); a `null` value is dropped like an unset variable.
    pub(crate) fn string_map(&mut self, key: &str) -> Result<Option<BTreeMap<String, String>>, EntryProblem> {
        match self.take(key) {
            None => Ok(None),
            Some(Node::Object(pairs)) => {
                let mut map = BTreeMap::new();
                for (name, value) in pairs {
                    match value {
                        Node::Null => {}
                        value => {
                            let kind = value.describe();
                            let text = scalar_text(value).ok_or_else(|| {
                                EntryProblem::new(format!("\"{key}.{name}\" must be text, found {kind}"))
                            })?;
                            map.insert(name, text);
                        }
                    }
                }
                Ok(Some(map))
            }
            Some(other) => Err(wrong(key, "an object of text values", &other)),
        }
    }

    /// A nested object to read the same way (Cursor's `auth`, Gemini's `oauth`).
    pub(crate) fn object(&mut self, key: &str) -> Result<Option<EntryReader>, EntryProblem> {
        match self.take(key) {
            None => Ok(None),
            Some(node @ Node::Object(_)) => EntryReader::new(node).map(Some),
            Some(other) => Err(wrong(key, "an object", &other)),
        }
    }

    /// Everything not read, still as nodes (to move them somewhere else in the entry).
    pub(crate) fn into_fields(self) -> Vec<(String, Node)> {
        self.fields
    }

    /// Everything not read, for `other`.
    pub(crate) fn rest(self) -> Map<String, Value> {
        self.fields.into_iter().map(|(k, v)| (k, v.into_json())).collect()
    }
}

fn scalar_text(node: Node) -> Option<String> {
    match node {
        Node::String(s) => Some(s),
        Node::Number(n) => Some(n.to_string()),
        Node::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn wrong(key: &str, expected: &str, found: &Node) -> EntryProblem {
    EntryProblem::new(format!("\"{key}\" must be {expected}, found {}", found.describe()))
}

/// Translates every entry of a server map, one at a time, so that one bad entry does not hide the others.
/// A name written twice keeps only its last entry, as the client itself would, and says so.
pub(crate) fn translate_all(
    entries: Vec<(String, Node)>,
    scope: Option<&str>,
    translate: impl Fn(&str, EntryReader) -> Result<Draft, EntryProblem>,
) -> Vec<ParsedEntry> {
    // Counted once up front: a huge file must not make duplicate detection quadratic.
    let mut total: HashMap<String, usize> = HashMap::new();
    for (name, _) in &entries {
        *total.entry(name.clone()).or_default() += 1;
    }
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::with_capacity(total.len());
    for (name, node) in entries {
        let count = total.get(&name).copied().unwrap_or(1);
        let seen_so_far = seen.entry(name.clone()).or_default();
        *seen_so_far += 1;
        if *seen_so_far < count {
            continue;
        }
        let twice = count > 1;
        let parsed = EntryReader::new(node).and_then(|reader| translate(&name, reader));
        out.push(match parsed {
            Ok(mut draft) => {
                if twice {
                    draft.note(
                        "the file names this server more than once; like the client, the import uses the last one",
                    );
                }
                ParsedEntry::Server(ImportedServer {
                    name,
                    server: draft.server,
                    scope: scope.map(str::to_owned),
                    notes: draft.notes,
                })
            }
            Err(EntryProblem(reason)) => ParsedEntry::Invalid { name, reason },
        });
    }
    out
}

/// The server map under `key` of a document: absent is empty, anything but an object is a whole-file error
/// because the client itself could not have read it either.
pub(crate) fn server_map(
    container: &[(String, Node)],
    key: &str,
) -> Result<Vec<(String, Node)>, crate::import::ParseError> {
    match container.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v) {
        None | Some(Node::Null) => Ok(Vec::new()),
        Some(Node::Object(pairs)) => Ok(pairs.clone()),
        Some(other) => Err(crate::import::ParseError {
            message: format!("\"{key}\" must be an object of servers, found {}", other.describe()),
            position: None,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::clients::common::node::parse_jsonc;

    fn reader(text: &str) -> EntryReader {
        EntryReader::new(parse_jsonc(text).expect("valid")).expect("object")
    }

    /// A field with the wrong shape is reported by name, and numbers in a list are taken as text.
    #[test]
    fn wrong_shapes_name_the_field() {
        let mut r = reader(r#"{ "args": ["--port", 8080], "env": { "A": { "nested": 1 } }, "cwd": 3 }"#);
        assert_eq!(r.strings("args"), Ok(Some(vec!["--port".to_owned(), "8080".to_owned()])));
        assert_eq!(r.string_map("env").expect_err("nested").0, "\"env.A\" must be text, found an object");
        assert_eq!(r.string("cwd").expect_err("number").0, "\"cwd\" must be text, found a number");
    }

    /// Unread fields survive in `other` as JSON, and `null` reads as absent.
    #[test]
    fn unread_fields_are_kept() {
        let mut r = reader(r#"{ "command": null, "watchPaths": ["a"], "x": { "y": true } }"#);
        assert_eq!(r.string("command"), Ok(None));
        let rest = r.rest();
        assert_eq!(rest.get("watchPaths"), Some(&serde_json::json!(["a"])));
        assert_eq!(rest.get("x"), Some(&serde_json::json!({ "y": true })));
    }

    /// One bad entry becomes Invalid while its neighbours still translate, and a repeated name keeps its last entry.
    #[test]
    fn entries_fail_independently() {
        let Node::Object(entries) = parse_jsonc(r#"{ "a": 1, "b": {}, "c": {"v": 1}, "b": {"v": 2} }"#).expect("ok")
        else {
            panic!("object")
        };
        let out = translate_all(entries, Some("here"), |_, mut r| {
            let mut d = Draft::default();
            d.server.timeout_ms = r.number("v")?.map(|v| v as u64);
            Ok(d)
        });
        assert_eq!(out.len(), 3);
        assert!(matches!(&out[0], ParsedEntry::Invalid { name, reason } if name == "a" && reason.contains("a number")));
        let ParsedEntry::Server(b) = &out[2] else { panic!("b is a server") };
        assert_eq!((b.name.as_str(), b.server.timeout_ms, b.scope.as_deref()), ("b", Some(2), Some("here")));
        assert_eq!(b.notes.len(), 1);
    }
}
