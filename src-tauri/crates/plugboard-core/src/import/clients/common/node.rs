//! The lenient first stage of every importer: JSONC, YAML or TOML text read into one format-neutral tree that
//! keeps keys in the order they were written. It must never judge what the tree means; the clients do that.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use crate::import::ParseError;

/// A value as the file wrote it. Objects are ordered lists of pairs so entries come out in file order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    List(Vec<Node>),
    Object(Vec<(String, Node)>),
}

impl Node {
    /// The value of `key` in an object; like `JSON.parse`, a key written twice means its last value.
    pub(crate) fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Object(pairs) => pairs.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// What kind of value this is, in words for an error message.
    pub(crate) fn describe(&self) -> &'static str {
        match self {
            Node::Null => "null",
            Node::Bool(_) => "true/false",
            Node::Number(_) => "a number",
            Node::String(_) => "text",
            Node::List(_) => "a list",
            Node::Object(_) => "an object",
        }
    }

    /// The same value as JSON, for keys Plugboard keeps without understanding them.
    pub(crate) fn into_json(self) -> Value {
        match self {
            Node::Null => Value::Null,
            Node::Bool(b) => Value::Bool(b),
            Node::Number(n) => Value::Number(n),
            Node::String(s) => Value::String(s),
            Node::List(items) => Value::Array(items.into_iter().map(Node::into_json).collect()),
            Node::Object(pairs) => {
                Value::Object(pairs.into_iter().map(|(k, v)| (k, v.into_json())).collect::<Map<_, _>>())
            }
        }
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Node, E> {
        Ok(Node::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Node, E> {
        Ok(Node::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Node, E> {
        Ok(Node::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Node, E> {
        // NaN and infinities (JSON5 allows them) have no JSON number; they mean nothing in a server entry.
        Ok(Number::from_f64(v).map_or(Node::Null, Node::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Node, E> {
        Ok(Node::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Node, E> {
        Ok(Node::String(v))
    }

    fn visit_none<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }

    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Node, D::Error> {
        Node::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Node::List(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut pairs = Vec::new();
        while let Some((key, value)) = map.next_entry::<Key, Node>()? {
            pairs.push((key.0, value));
        }
        Ok(Node::Object(pairs))
    }
}

/// An object key; YAML allows numbers and booleans as keys, which every other format spells as text.
struct Key(String);

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E>(self, v: &str) -> Result<Key, E> {
                Ok(Key(v.to_owned()))
            }
            fn visit_bool<E>(self, v: bool) -> Result<Key, E> {
                Ok(Key(v.to_string()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Key, E> {
                Ok(Key(v.to_string()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Key, E> {
                Ok(Key(v.to_string()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Key, E> {
                Ok(Key(v.to_string()))
            }
        }
        deserializer.deserialize_any(KeyVisitor)
    }
}

/// Reads JSON as editors write it: comments, trailing commas, a byte-order mark, CRLF line ends.
pub(crate) fn parse_jsonc(text: &str) -> Result<Node, ParseError> {
    let text = prepare(text)?;
    jsonc_parser::parse_to_serde_value::<Node>(text, &jsonc_parser::ParseOptions::default()).map_err(|e| ParseError {
        message: e.kind().to_string(),
        position: Some((e.line_display(), e.column_display())),
    })
}

/// Reads a YAML document.
pub(crate) fn parse_yaml(text: &str) -> Result<Node, ParseError> {
    let text = prepare(text)?;
    serde_yaml_ng::from_str::<Node>(text).map_err(|e| {
        let position = e.location().map(|l| (l.line(), l.column()));
        // The library appends " at line L column C"; the position travels as a field instead.
        let message = e.to_string();
        let message = message.split_once(" at line ").map_or(message.as_str(), |(head, _)| head).to_owned();
        ParseError { message, position }
    })
}

/// Reads a TOML document.
pub(crate) fn parse_toml(text: &str) -> Result<Node, ParseError> {
    let text = prepare(text)?;
    toml::from_str::<Node>(text).map_err(|e| ParseError {
        message: e.message().trim().to_owned(),
        position: e.span().map(|span| line_and_column(text, span.start)),
    })
}

/// The top level of a settings file, which must be an object (an empty file has nothing to import).
pub(crate) fn document(root: Node) -> Result<Vec<(String, Node)>, ParseError> {
    match root {
        Node::Object(pairs) => Ok(pairs),
        Node::Null => Err(ParseError { message: "the file has no settings, only comments".into(), position: None }),
        other => Err(ParseError {
            message: format!("the file holds {} where an object of settings was expected", other.describe()),
            position: None,
        }),
    }
}

/// Drops a byte-order mark and refuses text that is not really UTF-8 (UTF-16 read as UTF-8 is full of NULs).
fn prepare(text: &str) -> Result<&str, ParseError> {
    if text.contains('\0') {
        return Err(ParseError {
            message: "the file is not UTF-8 text (it may be saved as UTF-16); save it as UTF-8 and try again".into(),
            position: None,
        });
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(ParseError { message: "the file is empty".into(), position: None });
    }
    Ok(text)
}

/// 1-based line and column (in characters) of a byte offset.
pub(crate) fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].trim_end_matches('\r').chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys keep the order they were written in, and a repeated key reads as its last value.
    #[test]
    fn objects_keep_file_order_and_last_duplicate_wins() {
        let node = parse_jsonc(r#"{ "b": 1, "a": 2, "b": 3 }"#).expect("valid");
        let Node::Object(pairs) = &node else { panic!("object expected") };
        let keys: Vec<_> = pairs.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["b", "a", "b"]);
        assert_eq!(node.get("b"), Some(&Node::Number(3.into())));
    }

    /// JSONC with comments, trailing commas, a BOM and CRLF reads like plain JSON.
    #[test]
    fn jsonc_quirks_are_accepted() {
        let text = "\u{feff}// top\r\n{\r\n  /* block */ \"a\": [1, 2,],\r\n}\r\n";
        let node = parse_jsonc(text).expect("valid");
        assert_eq!(node.get("a"), Some(&Node::List(vec![Node::Number(1.into()), Node::Number(2.into())])));
    }

    /// Each format reports where a syntax error is, 1-based.
    #[test]
    fn syntax_errors_carry_line_and_column() {
        let json = parse_jsonc("{\n  \"a\": 1\n  \"b\" 2\n}").expect_err("broken json");
        assert_eq!(json.position.map(|(l, _)| l), Some(3), "{json}");
        let yaml = parse_yaml("a: 1\nb: [1, 2\nc: 3\n").expect_err("broken yaml");
        assert!(yaml.position.is_some(), "{yaml}");
        assert!(!yaml.message.contains(" at line "), "{yaml}");
        let toml = parse_toml("[a]\nx = 1\ny = = 2\n").expect_err("broken toml");
        assert_eq!(toml.position.map(|(l, _)| l), Some(3), "{toml}");
    }

    /// Empty files, non-object roots and UTF-16 text are whole-file errors in words a person understands.
    #[test]
    fn unusable_roots_are_file_errors() {
        assert_eq!(parse_jsonc("\u{feff}  \n").expect_err("empty").message, "the file is empty");
        assert_eq!(parse_toml("").expect_err("empty").message, "the file is empty");
        let comments = document(parse_jsonc("// nothing yet\n").expect("comments parse")).expect_err("no value");
        assert!(comments.message.contains("only comments"), "{comments}");
        let list = document(parse_jsonc("[1]").expect("list parses")).expect_err("list");
        assert!(list.message.contains("a list"), "{list}");
        let utf16 = parse_jsonc("{\x00\"\x00a\x00\"\x00:\x001\x00}\x00").expect_err("utf16");
        assert!(utf16.message.contains("UTF-16"), "{utf16}");
    }

    /// YAML keys that are numbers or booleans become text like in every other format.
    #[test]
    fn yaml_scalar_keys_become_text() {
        let node = parse_yaml("1: one\ntrue: yes\n").expect("valid");
        assert_eq!(node.get("1"), Some(&Node::String("one".into())));
        assert_eq!(node.get("true"), Some(&Node::String("yes".into())));
    }
}
