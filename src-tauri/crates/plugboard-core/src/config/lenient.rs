//! Reading `mcpServers` one entry at a time, so one entry of the wrong shape (`"args": "-y"`) is set apart with its
//! reason instead of making the whole file unreadable, and writing it back exactly as it was. Also the shorthand
//! `"oauth": true` other clients write. It must never drop an entry, nor quote a value in a reason (it may be a
//! secret).

use std::collections::BTreeMap;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::raw::{RawConfigFile, RawOAuth, RawServer, UnreadableEntry};

/// The file as JSON has it: every entry still a value, read one by one into [`RawConfigFile`].
#[derive(Deserialize, Serialize)]
pub(super) struct WireFile {
    #[serde(rename = "mcpServers", default)]
    servers: Map<String, Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    profiles: Option<Value>,
    #[serde(flatten)]
    other: Map<String, Value>,
}

impl From<WireFile> for RawConfigFile {
    fn from(wire: WireFile) -> Self {
        let mut servers = BTreeMap::new();
        let mut unreadable = BTreeMap::new();
        for (name, written) in wire.servers {
            match read_entry(&written) {
                Ok(server) => {
                    servers.insert(name, server);
                }
                Err((field, message)) => {
                    unreadable.insert(name, UnreadableEntry { written, field, message });
                }
            }
        }
        Self { servers, unreadable, profiles: wire.profiles, other: wire.other }
    }
}

impl From<RawConfigFile> for WireFile {
    fn from(file: RawConfigFile) -> Self {
        let mut servers: Map<String, Value> =
            file.unreadable.into_iter().map(|(name, entry)| (name, entry.written)).collect();
        for (name, server) in file.servers {
            // A map of strings, lists and booleans always serialises; `Null` only keeps the signature total.
            servers.insert(name, serde_json::to_value(server).unwrap_or(Value::Null));
        }
        Self { servers, profiles: file.profiles, other: file.other }
    }
}

/// One entry, or the field whose shape is wrong and why.
fn read_entry(written: &Value) -> Result<RawServer, (String, String)> {
    let Value::Object(fields) = written else {
        return Err(("mcpServers".into(), format!("the entry is {}, not an object", kind(written))));
    };
    RawServer::deserialize(written).map_err(|whole| {
        // serde's error does not say which field it is about (the entry has flattened keys): the first field that
        // fails on its own is the one.
        fields
            .iter()
            .find_map(|(key, value)| {
                let alone = Value::Object(Map::from_iter([(key.clone(), value.clone())]));
                RawServer::deserialize(&alone).err().map(|e| (key.clone(), without_value(&e.to_string())))
            })
            .unwrap_or_else(|| ("mcpServers".into(), without_value(&whole.to_string())))
    })
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// serde's message with any quoted string value taken out: `invalid type: string "sk-…", expected a sequence` →
/// `invalid type: a string, expected a sequence`.
fn without_value(message: &str) -> String {
    let mut out = message.to_owned();
    while let Some(start) = out.find("string \"") {
        let Some(end) = out[start + 8..].find("\", expected").map(|i| start + 8 + i + 1) else { break };
        out.replace_range(start..end, "a string");
    }
    out
}

/// `"oauth"` as written: an object, or `true` / `false` for "log in" / "do not" as other clients write it.
pub(super) fn oauth_section<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<RawOAuth>, D::Error> {
    match Value::deserialize(deserializer)? {
        Value::Null => Ok(None),
        Value::Bool(flag) => Ok(Some(RawOAuth { written_as: Some(flag), ..RawOAuth::default() })),
        section @ Value::Object(_) => RawOAuth::deserialize(section).map(Some).map_err(D::Error::custom),
        other => Err(D::Error::custom(format!("is {}: use an object (or true)", kind(&other)))),
    }
}

/// Writes `"oauth"` back the way it was read: `true` stays `true` while nothing was added to it.
pub(super) fn write_oauth_section<S: Serializer>(oauth: &Option<RawOAuth>, serializer: S) -> Result<S::Ok, S::Error> {
    match oauth {
        Some(section) => match section.written_as {
            Some(flag) if *section == (RawOAuth { written_as: Some(flag), ..RawOAuth::default() }) => {
                serializer.serialize_bool(flag)
            }
            _ => section.serialize(serializer),
        },
        None => serializer.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{parse_config_text, render_config_text};

    fn parse(text: &str) -> RawConfigFile {
        parse_config_text(std::path::Path::new("/cfg/servers.json"), text).expect("the file parses")
    }

    /// An entry of the wrong shape is set apart with its field and a reason that does not quote the value; every
    /// other entry is read, and a save writes the bad one back exactly as written.
    #[test]
    fn one_bad_entry_leaves_the_others_and_survives_a_save() {
        let text = r#"{"mcpServers": {
            "good": {"command": "npx"},
            "bad": {"command": "npx", "args": "--token sk-live-secret-value"},
            "odd": "not an entry",
            "worse": {"url": "https://x.example/mcp", "headers": ["Authorization: Bearer sk-other-secret"]}
        }, "$schema": "kept"}"#;
        let file = parse(text);
        assert_eq!(file.servers.keys().collect::<Vec<_>>(), ["good"]);
        let bad = &file.unreadable["bad"];
        assert_eq!((bad.field.as_str(), bad.message.as_str()), ("args", "invalid type: a string, expected a sequence"));
        assert_eq!(file.unreadable["odd"].field, "mcpServers");
        assert_eq!(file.unreadable["worse"].field, "headers");
        for entry in file.unreadable.values() {
            assert!(!entry.message.contains("sk-"), "a reason quotes the value: {}", entry.message);
        }

        let mut saved = file.clone();
        saved.servers.insert("added".into(), RawServer { command: Some("uvx".into()), ..RawServer::default() });
        let again: Value = serde_json::from_str(&render_config_text(&saved)).expect("json");
        let written: Value = serde_json::from_str(text).expect("json");
        for name in ["bad", "odd", "worse"] {
            assert_eq!(again["mcpServers"][name], written["mcpServers"][name], "{name} was not written back as it was");
        }
        assert_eq!(again["mcpServers"]["added"]["command"], "uvx");
        assert_eq!(again["$schema"], "kept");
    }

    /// `"oauth": true` reads as an empty section and `false` as none asked for; both are written back as written,
    /// and a wrong kind of value is a reason, not a crash.
    #[test]
    fn oauth_true_is_an_empty_section_and_stays_true() {
        let file = parse(
            r#"{"mcpServers": {"a": {"url": "https://a.example/mcp", "oauth": true},
            "b": {"url": "https://b.example/mcp", "oauth": false}, "c": {"url": "https://c.example/mcp", "oauth": "yes"}}}"#,
        );
        let a = file.servers["a"].oauth.as_ref().expect("a section");
        assert_eq!((a.scopes.as_ref(), a.client_id.as_ref(), a.is_off()), (None, None, false));
        assert!(file.servers["b"].oauth.as_ref().expect("b section").is_off());
        assert_eq!(file.unreadable["c"].field, "oauth");
        let again: Value = serde_json::from_str(&render_config_text(&file)).expect("json");
        assert_eq!(
            (&again["mcpServers"]["a"]["oauth"], &again["mcpServers"]["b"]["oauth"]),
            (&Value::Bool(true), &Value::Bool(false))
        );
    }
}
