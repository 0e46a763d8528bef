//! What the console's history hides: arguments under secret-looking keys and token-shaped values become
//! `"[redacted]"`, and the server's own secret values (its `${secret:NAME}` references, resolved) become
//! `${secret:NAME}` wherever they appear, in arguments and results (where token-shaped spans are redacted too). The key and token rules are the import's (see
//! `import::secrets_scan`); this never logs or returns a secret value, and `ServerSecrets` has no `Debug` of them.

use serde_json::{Map, Value};

use crate::import::secrets_scan::{is_secret_key, is_secret_under_key, token_spans};
use crate::secrets::Sensitive;

/// What a redacted value reads as.
pub const REDACTED: &str = "[redacted]";

/// Secret values shorter than this are not searched for: replacing every `ab` in a result would garble it and
/// protect nothing a person would call a secret.
const MIN_SECRET_LEN: usize = 4;

/// One server's resolved secret values with their names, longest first (so a value containing another is replaced
/// whole).
#[derive(Default)]
pub struct ServerSecrets {
    values: Vec<(String, Sensitive<String>)>,
}

impl std::fmt::Debug for ServerSecrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerSecrets").field("names", &self.values.iter().map(|(n, _)| n).collect::<Vec<_>>()).finish()
    }
}

impl ServerSecrets {
    /// Named values as resolved when the server's session was made (`Supervisor::resolved_secrets`), or by a test.
    pub fn from_pairs(pairs: impl IntoIterator<Item = (String, Sensitive<String>)>) -> Self {
        let mut values: Vec<_> = pairs.into_iter().filter(|(_, v)| v.expose().len() >= MIN_SECRET_LEN).collect();
        values.sort_by_key(|(_, v)| std::cmp::Reverse(v.expose().len()));
        Self { values }
    }

    /// Result or error text as the history keeps it: the server's secret values as references, and token-shaped
    /// spans (a token the tool echoed or generated) redacted. Safe on JSON text: it stays valid JSON.
    pub fn redact_text(&self, text: &str) -> String {
        redact_tokens(&self.replace_in(text))
    }

    /// `text` with each secret value replaced by its `${secret:NAME}`, as written and as escaped inside JSON text.
    pub fn replace_in(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for (name, value) in &self.values {
            let reference = format!("${{secret:{name}}}");
            let value = value.expose();
            if out.contains(value.as_str()) {
                out = out.replace(value.as_str(), &reference);
            }
            let escaped = serde_json::to_string(value).unwrap_or_default();
            let escaped = escaped.trim_matches('"');
            if escaped != value && out.contains(escaped) {
                out = out.replace(escaped, &reference);
            }
        }
        out
    }
}

/// Tool arguments as the history keeps them, as JSON object text.
pub fn redact_arguments(arguments: &Map<String, Value>, secrets: &ServerSecrets) -> String {
    let mut copy = arguments.clone();
    redact_object(&mut copy, secrets);
    serde_json::to_string(&copy).unwrap_or_else(|_| "{}".into())
}

fn redact_object(map: &mut Map<String, Value>, secrets: &ServerSecrets) {
    for (key, value) in map.iter_mut() {
        redact_value(key, value, secrets);
    }
}

fn redact_value(key: &str, value: &mut Value, secrets: &ServerSecrets) {
    let strong = is_secret_key(key);
    match value {
        Value::Object(_) if strong => *value = Value::String(REDACTED.into()),
        Value::Number(_) if strong => *value = Value::String(REDACTED.into()),
        Value::String(text) if !text.is_empty() && (strong || is_secret_under_key(key, text)) => {
            *text = REDACTED.into();
        }
        Value::String(text) => *text = redact_tokens(&secrets.replace_in(text)),
        Value::Array(items) => items.iter_mut().for_each(|item| redact_value(key, item, secrets)),
        Value::Object(map) => redact_object(map, secrets),
        _ => {}
    }
}

/// Replaces each token-shaped span (known prefixes, JWTs, URL passwords) of `text`.
fn redact_tokens(text: &str) -> String {
    let spans = token_spans(text);
    if spans.is_empty() {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for span in spans {
        out.push_str(&text[last..span.start]);
        out.push_str(REDACTED);
        last = span.end;
    }
    out.push_str(&text[last..]);
    out
}

#[cfg(test)]
#[path = "redact_tests.rs"]
mod tests;
