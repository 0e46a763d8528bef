//! Secrets must not leave through tool calls: a call whose arguments carry another server's secret (as written, or
//! base64-, URL- or JSON-escaped) is refused before anything is sent, and every secret in a result or an error is
//! replaced by its `${secret:NAME}` before a client or the history sees it. The guard knows every secret Plugboard
//! manages: the values each session was made with, the vault's value of every `${secret:…}` a configured server
//! refers to and the tokens of every stored login, in one index rebuilt only when one of those changes. It must
//! never log, return or record a value.

use std::sync::{Arc, Mutex};

use rmcp::model::{CallToolResult, ContentBlock, JsonObject};
use serde_json::Value;
use tokio::sync::broadcast::{self, error::TryRecvError};

use crate::auth::login_tokens;
use crate::config::ConfigEvent;
use crate::config::references::{Reference, expandable_texts, references};
use crate::registry::Registry;
use crate::secrets::{KnownSecret, RESERVED_SECRET_PREFIX, ResolvedSecrets, SecretIndex, SecretRef};
use crate::supervisor::{Supervisor, SupervisorError};

/// Keeps the index of every managed secret current for the console's calls.
pub struct LeakGuard {
    supervisor: Arc<Supervisor>,
    /// The configured servers and the vault (`None`: only what sessions were made with, e.g. in tests).
    stored: Option<StoredSecrets>,
    built: tokio::sync::Mutex<Option<Built>>,
}

/// An index and what it was built from.
struct Built {
    index: Arc<SecretIndex>,
    sessions: Vec<(String, ResolvedSecrets)>,
    vault_generation: u64,
}

/// The secrets servers.json refers to, read from the vault again when the file or the vault changed.
struct StoredSecrets {
    registry: Arc<Registry>,
    config_events: Mutex<broadcast::Receiver<ConfigEvent>>,
}

impl LeakGuard {
    /// A guard over the secrets `supervisor`'s sessions were made with, and, with `registry`, every secret its
    /// configured servers refer to (servers that are off or not approved included: their values are still the
    /// person's secrets).
    pub fn new(supervisor: Arc<Supervisor>, registry: Option<Arc<Registry>>) -> Self {
        let stored = registry.map(|registry| {
            let config_events = Mutex::new(registry.store().subscribe());
            StoredSecrets { registry, config_events }
        });
        Self { supervisor, stored, built: tokio::sync::Mutex::new(None) }
    }

    /// The index as of now; rebuilt (reading the vault on the blocking pool) only when a session was made with
    /// other values, servers.json changed or a secret was set or deleted since the last build.
    pub async fn index(&self) -> Arc<SecretIndex> {
        let sessions = self.supervisor.every_resolved_secrets();
        let vault_generation = self.stored.as_ref().map_or(0, |s| s.registry.vault().generation());
        let mut built = self.built.lock().await;
        let config_changed = self.stored.as_ref().is_some_and(StoredSecrets::changed);
        if let Some(current) = built.as_ref()
            && !config_changed
            && current.vault_generation == vault_generation
            && same_sessions(&current.sessions, &sessions)
        {
            return Arc::clone(&current.index);
        }
        let stored = match &self.stored {
            Some(stored) => {
                let registry = Arc::clone(&stored.registry);
                tokio::task::spawn_blocking(move || read_stored(&registry)).await.unwrap_or_default()
            }
            None => Vec::new(),
        };
        let from_sessions = sessions.iter().flat_map(|(server, resolved)| {
            resolved.pairs().map(|(name, value)| KnownSecret { server: server.clone(), name, value })
        });
        let index = Arc::new(SecretIndex::new(stored.into_iter().chain(from_sessions)));
        *built = Some(Built { index: Arc::clone(&index), sessions, vault_generation });
        index
    }
}

impl StoredSecrets {
    /// Whether servers.json changed since last asked (a missed change counts).
    fn changed(&self) -> bool {
        let mut events = self.config_events.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut changed = false;
        loop {
            match events.try_recv() {
                Ok(_) | Err(TryRecvError::Lagged(_)) => changed = true,
                Err(TryRecvError::Empty | TryRecvError::Closed) => return changed,
            }
        }
    }
}

/// The vault's value of every `${secret:…}` each configured server refers to, and each stored login's tokens. One
/// that cannot be read is left out and said in the log (by name): the calls go on, unchecked for that one value.
fn read_stored(registry: &Registry) -> Vec<KnownSecret> {
    let mut known = Vec::new();
    for config in registry.configs() {
        let server = config.name.as_str();
        let mut names: Vec<&str> = expandable_texts(&config.transport)
            .into_iter()
            .filter_map(|text| references(text).ok())
            .flatten()
            .filter_map(|r| match r {
                Reference::Secret(name) if !name.starts_with(RESERVED_SECRET_PREFIX) => Some(name),
                _ => None,
            })
            .collect();
        names.sort_unstable();
        names.dedup();
        for name in names {
            match registry.vault().get(server, name) {
                Ok(Some(value)) => known.push(KnownSecret { server: server.to_owned(), name: name.to_owned(), value }),
                Ok(None) => {}
                Err(error) => tracing::warn!(
                    server,
                    secret = name,
                    %error,
                    "a secret could not be read, so tool calls are not checked for it"
                ),
            }
        }
        // A URL server without an `oauth` section may have logged in too (`login_tokens` finds none otherwise).
        match login_tokens(&config, Arc::new(registry.vault().clone())) {
            Ok(tokens) => known.extend(tokens.into_iter().map(|(name, value)| KnownSecret {
                server: server.to_owned(),
                name,
                value,
            })),
            Err(error) => {
                tracing::warn!(server, %error, "a login could not be read, so tool calls are not checked for it");
            }
        }
    }
    known
}

fn same_sessions(a: &[(String, ResolvedSecrets)], b: &[(String, ResolvedSecrets)]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|((n, x), (m, y))| n == m && x.same_as(y))
}

/// The first secret of another server that `arguments` carry for a call of `server`: in any string or key, as
/// written or encoded, and in a string's percent-decoded text (escapes in any case, some characters left as they
/// are), or in a number's digits.
pub fn foreign_secret_in(index: &SecretIndex, server: &str, arguments: &JsonObject) -> Option<SecretRef> {
    if index.is_empty() {
        return None;
    }
    arguments.iter().find_map(|(key, value)| text_carries(index, server, key).or_else(|| carries(index, server, value)))
}

fn carries(index: &SecretIndex, server: &str, value: &Value) -> Option<SecretRef> {
    match value {
        Value::String(text) => text_carries(index, server, text),
        Value::Number(number) => index.foreign_secret(server, &number.to_string()),
        Value::Array(items) => items.iter().find_map(|item| carries(index, server, item)),
        Value::Object(map) => map
            .iter()
            .find_map(|(key, value)| text_carries(index, server, key).or_else(|| carries(index, server, value))),
        Value::Null | Value::Bool(_) => None,
    }
}

fn text_carries(index: &SecretIndex, server: &str, text: &str) -> Option<SecretRef> {
    index.foreign_secret(server, text).or_else(|| {
        if !text.contains(['%', '+']) {
            return None;
        }
        let decoded = percent_encoding::percent_decode_str(text).decode_utf8_lossy();
        let spaced = text.replace('+', " ");
        let as_form = percent_encoding::percent_decode_str(&spaced).decode_utf8_lossy();
        index.foreign_secret(server, &decoded).or_else(|| index.foreign_secret(server, &as_form))
    })
}

/// `result` with every secret in it replaced by its reference (text, structured content, resource text, keys).
pub fn redact_result(index: &SecretIndex, server: &str, result: CallToolResult) -> CallToolResult {
    if index.is_empty() {
        return result;
    }
    let Ok(mut value) = serde_json::to_value(&result) else { return withheld() };
    if !redact_value(index, server, &mut value) {
        return result;
    }
    serde_json::from_value(value).unwrap_or_else(|_| withheld())
}

/// `error` with every secret in the server's own words (a JSON-RPC error, a broken connection) replaced.
pub fn redact_error(index: &SecretIndex, server: &str, error: SupervisorError) -> SupervisorError {
    match error {
        SupervisorError::Protocol { server: s, message } => {
            SupervisorError::Protocol { server: s, message: index.redact(server, &message).into_owned() }
        }
        SupervisorError::Connection { server: s, message } => {
            SupervisorError::Connection { server: s, message: index.redact(server, &message).into_owned() }
        }
        other => other,
    }
}

/// A result that carried a secret and could not be rebuilt without it (it never is, but nothing of it may pass).
fn withheld() -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(
        "Plugboard withheld this result: it carried a secret and could not be redacted",
    )])
}

/// Redacts every string and key in place; whether anything changed.
fn redact_value(index: &SecretIndex, server: &str, value: &mut Value) -> bool {
    match value {
        Value::String(text) => match index.redact(server, text) {
            std::borrow::Cow::Owned(redacted) => {
                *text = redacted;
                true
            }
            std::borrow::Cow::Borrowed(_) => false,
        },
        Value::Array(items) => {
            items.iter_mut().fold(false, |changed, item| redact_value(index, server, item) | changed)
        }
        Value::Object(map) => {
            let keys_carry = map.keys().any(|key| matches!(index.redact(server, key), std::borrow::Cow::Owned(_)));
            if keys_carry {
                let entries = std::mem::take(map);
                for (key, mut item) in entries {
                    redact_value(index, server, &mut item);
                    map.insert(index.redact(server, &key).into_owned(), item);
                }
                return true;
            }
            map.values_mut().fold(false, |changed, item| redact_value(index, server, item) | changed)
        }
        Value::Number(_) | Value::Bool(_) | Value::Null => false,
    }
}

#[cfg(test)]
#[path = "guard_tests.rs"]
mod tests;
