//! Keys people paste from other clients' entries (`disabled`, `timeout`, `toolTimeout`, `enabledTools`,
//! `alwaysAllow`) and what Plugboard makes of them: each is read onto its own field with a note saying how, and
//! every key Plugboard does not know is named in a note too. It must never drop a key from the file (they stay as
//! written) nor ignore one without saying so.

use std::time::Duration;

use serde_json::Value;

use super::raw::RawServer;

/// What the other clients' keys of one entry say, read onto Plugboard's fields, and the notes for the person.
#[derive(Debug, Default, PartialEq)]
pub(super) struct OtherKeys {
    pub enabled: Option<bool>,
    pub timeout: Option<Duration>,
    pub tools: Option<Vec<String>>,
    /// `alwaysAllow` (Roo, Cline): kept for review like `autoApprove`, never applied.
    pub auto_approve: Vec<String>,
    pub notes: Vec<String>,
}

/// A key of the wrong type: the field and why.
pub(super) type KeyError = (String, String);

/// Reads the other clients' keys of `raw`; Plugboard's own keys win over them, and say so.
pub(super) fn other_keys(raw: &RawServer) -> Result<OtherKeys, KeyError> {
    let mut read = OtherKeys::default();
    for (key, value) in &raw.other {
        match key.as_str() {
            "disabled" => {
                let disabled = boolean(key, value)?;
                if raw.enabled.is_some() {
                    read.notes.push("\"disabled\" is ignored: \"enabled\" is set".into());
                } else {
                    read.enabled = Some(!disabled);
                    read.notes.push(format!("\"disabled\": {disabled} is read as \"enabled\": {}", !disabled));
                }
            }
            "toolTimeout" => {
                let seconds = whole(key, value)?;
                if raw.timeout_ms.is_some() {
                    read.notes.push("\"toolTimeout\" is ignored: \"timeoutMs\" is set".into());
                } else {
                    read.timeout = Some(Duration::from_secs(seconds));
                    read.notes.push(format!(
                        "\"toolTimeout\": {seconds} is read as seconds (\"timeoutMs\": {})",
                        seconds * 1000
                    ));
                }
            }
            "timeout" => {
                let number = whole(key, value)?;
                if raw.timeout_ms.is_some() || raw.other.contains_key("toolTimeout") {
                    read.notes.push("\"timeout\" is ignored: \"timeoutMs\" or \"toolTimeout\" is set".into());
                } else {
                    // Cline and Roo write seconds (at most an hour, 3600), Gemini CLI milliseconds (its default is
                    // 600000): a value up to an hour's seconds is theirs. The note says how it was read.
                    let (timeout, unit) = if number <= SECONDS_IN_AN_HOUR {
                        (Duration::from_secs(number), "seconds")
                    } else {
                        (Duration::from_millis(number), "milliseconds")
                    };
                    read.timeout = Some(timeout);
                    read.notes.push(format!(
                        "\"timeout\": {number} is read as {unit} (\"timeoutMs\": {})",
                        timeout.as_millis()
                    ));
                }
            }
            "enabledTools" => {
                let tools = names(key, value)?;
                if raw.tools.is_some() {
                    read.notes.push("\"enabledTools\" is ignored: \"tools\" is set".into());
                } else {
                    read.notes.push("\"enabledTools\" is read as the tool allowlist (\"tools\")".into());
                    read.tools = Some(tools);
                }
            }
            "alwaysAllow" => {
                read.auto_approve = names(key, value)?;
                read.notes.push("\"alwaysAllow\" is kept like \"autoApprove\": Plugboard does not apply it".into());
            }
            _ => read.notes.push(unknown(key)),
        }
    }
    if raw.auto_approve.is_some() {
        read.notes.push("\"autoApprove\" is kept for reference: Plugboard does not apply it".into());
    }
    if let Some(oauth) = &raw.oauth {
        read.notes.extend(oauth.other.keys().map(|key| unknown(&format!("oauth.{key}"))));
    }
    Ok(read)
}

/// The largest `timeout` Cline and Roo accept, in seconds; anything above it is Gemini CLI's milliseconds.
const SECONDS_IN_AN_HOUR: u64 = 3600;

fn unknown(key: &str) -> String {
    format!("\"{key}\" is not a key Plugboard knows: it stays in the file and is ignored")
}

fn boolean(key: &str, value: &Value) -> Result<bool, KeyError> {
    value.as_bool().ok_or_else(|| (key.to_owned(), "must be true or false".into()))
}

fn whole(key: &str, value: &Value) -> Result<u64, KeyError> {
    value.as_u64().filter(|n| *n > 0).ok_or_else(|| (key.to_owned(), "must be a whole number above 0".into()))
}

fn names(key: &str, value: &Value) -> Result<Vec<String>, KeyError> {
    let wrong = || (key.to_owned(), "must be a list of tool names".to_owned());
    let list = value.as_array().ok_or_else(wrong)?;
    list.iter().map(|name| name.as_str().map(str::to_owned).ok_or_else(wrong)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> Result<OtherKeys, KeyError> {
        other_keys(&serde_json::from_str(json).expect("an entry"))
    }

    /// Each other client's key is read onto Plugboard's field with a note saying how; `timeout` is seconds up to an
    /// hour (Cline, Roo) and milliseconds above (Gemini CLI).
    #[test]
    fn other_clients_keys_are_mapped_with_a_note() {
        let keys = read(
            r#"{"command":"x","disabled":true,"toolTimeout":90,"enabledTools":["a"],"alwaysAllow":["b"],"autoApprove":["c"]}"#,
        )
        .expect("read");
        assert_eq!(keys.enabled, Some(false));
        assert_eq!(keys.timeout, Some(Duration::from_secs(90)));
        assert_eq!((keys.tools, keys.auto_approve), (Some(vec!["a".to_owned()]), vec!["b".to_owned()]));
        assert_eq!(keys.notes.len(), 5, "{:?}", keys.notes);
        assert!(keys.notes[0].contains("\"alwaysAllow\""), "{:?}", keys.notes);
        assert_eq!(read(r#"{"command":"x","timeout":60}"#).expect("s").timeout, Some(Duration::from_secs(60)));
        assert_eq!(read(r#"{"command":"x","timeout":30000}"#).expect("ms").timeout, Some(Duration::from_secs(30)));
        // Cline's and Roo's longest, an hour, is still seconds; one more is Gemini CLI's milliseconds.
        assert_eq!(read(r#"{"command":"x","timeout":3600}"#).expect("s").timeout, Some(Duration::from_secs(3600)));
        assert_eq!(read(r#"{"command":"x","timeout":3601}"#).expect("ms").timeout, Some(Duration::from_millis(3601)));
    }

    /// Plugboard's own key wins, and the other is said to be ignored; an unknown key is named, in `oauth` too.
    #[test]
    fn own_keys_win_and_unknown_keys_are_named() {
        let keys = read(
            r#"{"command":"x","enabled":true,"disabled":true,"timeoutMs":5000,"timeout":60,"tools":["t"],
                "enabledTools":["u"],"trust":true,"oauth":{"tokenUrl":"https://a"}}"#,
        )
        .expect("read");
        assert_eq!((keys.enabled, keys.timeout, keys.tools), (None, None, None));
        let ignored = keys.notes.iter().filter(|n| n.contains("is ignored:")).count();
        assert_eq!(ignored, 3, "{:?}", keys.notes);
        assert!(keys.notes.iter().any(|n| n.starts_with("\"trust\" is not a key")), "{:?}", keys.notes);
        assert!(keys.notes.iter().any(|n| n.starts_with("\"oauth.tokenUrl\" is not a key")), "{:?}", keys.notes);
    }

    /// A key of the wrong type is an error naming it, not a guess.
    #[test]
    fn wrong_types_name_the_key() {
        assert_eq!(read(r#"{"command":"x","disabled":"yes"}"#).expect_err("bool").0, "disabled");
        assert_eq!(read(r#"{"command":"x","toolTimeout":-1}"#).expect_err("number").0, "toolTimeout");
        assert_eq!(read(r#"{"command":"x","enabledTools":"a"}"#).expect_err("list").0, "enabledTools");
    }
}
