//! What the console's history hides: arguments under secret-looking keys and token-shaped values become
//! `"[redacted]"`, and managed secret values (the server's own, and other servers' long enough to guard) become
//! `${secret:NAME}` wherever they appear, in arguments and results (where token-shaped spans are redacted too). The
//! key and token rules are the import's (see `import::secrets_scan`); this never logs or returns a secret value, and
//! `ServerSecrets` has no `Debug` of them.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::import::secrets_scan::{is_secret_key, is_secret_under_key, token_spans};
use crate::secrets::SecretIndex;

/// What a redacted value reads as.
pub const REDACTED: &str = "[redacted]";

/// The managed secrets as one server's call may show them: its own by reference, and other servers' long enough to
/// guard (see `SecretIndex::redact`). Its `Debug` names secrets, never values.
#[derive(Debug, Default)]
pub struct ServerSecrets {
    index: Arc<SecretIndex>,
    server: String,
}

impl ServerSecrets {
    /// `index`'s secrets for a call of `server`.
    pub fn new(index: Arc<SecretIndex>, server: &str) -> Self {
        Self { index, server: server.to_owned() }
    }

    /// Result or error text as the history keeps it: secret values as references, and token-shaped spans (a token
    /// the tool echoed or generated) redacted. Safe on JSON text: it stays valid JSON.
    pub fn redact_text(&self, text: &str) -> String {
        redact_tokens(&self.replace_in(text))
    }

    /// The length in bytes of the longest form of any secret value the redaction looks for (0 with none).
    pub fn longest_form(&self) -> usize {
        self.index.longest_form()
    }

    /// `text` with each secret value replaced by its `${secret:NAME}`, as written, escaped inside JSON text or
    /// encoded.
    pub fn replace_in(&self, text: &str) -> String {
        self.index.redact(&self.server, text).into_owned()
    }
}

/// Tool arguments as the history keeps them, as JSON object text.
pub fn redact_arguments(mut arguments: Map<String, Value>, secrets: &ServerSecrets) -> String {
    redact_object(&mut arguments, secrets);
    serde_json::to_string(&arguments).unwrap_or_else(|_| "{}".into())
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
