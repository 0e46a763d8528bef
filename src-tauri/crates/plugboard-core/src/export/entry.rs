//! The one entry Plugboard writes: this binary with `serve --stdio [--profile P]`, in a client's shape. It must
//! never hold anything but the binary's path and those arguments (no env, no headers, no secret).

use std::path::PathBuf;

use serde_json::{Value, json};

use super::targets::Format;

/// The name of the entry in every client's file.
pub const ENTRY_NAME: &str = "plugboard";

/// What the entry launches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlugboardEntry {
    /// The absolute path of the `plugboard` binary.
    pub binary: PathBuf,
    pub profile: Option<String>,
}

impl PlugboardEntry {
    pub fn args(&self) -> Vec<String> {
        let mut args = vec!["serve".to_owned(), "--stdio".to_owned()];
        if let Some(profile) = &self.profile {
            args.extend(["--profile".to_owned(), profile.clone()]);
        }
        args
    }

    /// The entry as the client's file holds it, as a format-neutral value (what the file parses to).
    pub fn value(&self, format: Format) -> Value {
        let command = self.binary.display().to_string();
        let args = self.args();
        match format {
            Format::Json { stdio_type: true, .. } => json!({ "type": "stdio", "command": command, "args": args }),
            Format::Json { stdio_type: false, .. } | Format::Toml => json!({ "command": command, "args": args }),
            Format::Yaml => json!({ "name": ENTRY_NAME, "command": command, "args": args }),
        }
    }
}

/// The order the entry's fields are written in, whatever order a map of them iterates in.
const FIELD_ORDER: &[&str] = &["name", "type", "command", "args"];

/// The fields of an entry value in the order they are written (unknown ones last, by name).
pub(crate) fn ordered_fields(entry: &Value) -> Vec<(&str, &Value)> {
    let mut fields: Vec<(&str, &Value)> =
        entry.as_object().into_iter().flatten().map(|(k, v)| (k.as_str(), v)).collect();
    fields.sort_by_key(|(k, _)| FIELD_ORDER.iter().position(|o| o == k).unwrap_or(FIELD_ORDER.len()));
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The entry is the binary and `serve --stdio`, plus the profile when one is given; nothing else.
    #[test]
    fn entry_is_the_binary_and_its_arguments_only() {
        let entry = PlugboardEntry { binary: PathBuf::from("/opt/pb/plugboard"), profile: Some("coding".into()) };
        assert_eq!(entry.args(), ["serve", "--stdio", "--profile", "coding"]);
        let vscode = entry.value(Format::Json { servers_key: "servers", stdio_type: true });
        assert_eq!(
            vscode,
            json!({ "type": "stdio", "command": "/opt/pb/plugboard", "args": ["serve", "--stdio", "--profile", "coding"] })
        );
        let plain = PlugboardEntry { profile: None, ..entry };
        assert_eq!(plain.value(Format::Toml), json!({ "command": "/opt/pb/plugboard", "args": ["serve", "--stdio"] }));
    }
}
