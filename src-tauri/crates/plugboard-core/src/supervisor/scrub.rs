//! What a failed connection may say: the server's URL as configured (`${secret:…}` and all), never as expanded, and
//! none of the secret values the attempt was given, in any form. The transport's and the HTTP client's errors quote
//! the URL they were handed (the expanded one, query secrets included), and a process's stderr may print its
//! environment; these words reach the status, the server's log, the logs and the CLI. It must never keep a value
//! beyond the one attempt it scrubs.

use crate::config::model::{ServerConfig, Transport};
use crate::secrets::{KnownSecret, ResolvedSecrets, SecretIndex};

use super::ConnectError;

/// One connection attempt's secrets, to take out of what its failure says.
pub(super) struct Scrub {
    server: String,
    /// The URL as expanded, and as configured.
    url: Option<(String, String)>,
    index: SecretIndex,
}

impl Scrub {
    /// For `config`'s attempt with `secrets`; `expanded_url` is the URL it connected to, when it got that far.
    pub fn new(config: &ServerConfig, expanded_url: Option<&str>, secrets: &ResolvedSecrets) -> Self {
        let server = config.name.as_str().to_owned();
        let configured = match &config.transport {
            Transport::Http(spec) => Some(spec.url.clone()),
            Transport::Stdio(_) => None,
        };
        let url = expanded_url.zip(configured).map(|(expanded, configured)| (expanded.to_owned(), configured));
        let known = secrets.pairs().map(|(name, value)| KnownSecret { server: server.clone(), name, value });
        Self { index: SecretIndex::new(known), server, url }
    }

    /// `text` with the expanded URL written as configured and every secret value as its reference.
    pub fn text(&self, text: &str) -> String {
        let text = match &self.url {
            Some((expanded, configured)) if expanded != configured => text.replace(expanded.as_str(), configured),
            _ => text.to_owned(),
        };
        self.index.redact(&self.server, &text).into_owned()
    }

    /// `error` with every word it carries scrubbed.
    pub fn error(&self, error: ConnectError) -> ConnectError {
        match error {
            ConnectError::Transport { message, transient, stderr_tail } => ConnectError::Transport {
                message: self.text(&message),
                transient,
                stderr_tail: stderr_tail.map(|tail| self.text(&tail)),
            },
            ConnectError::AuthRequired { hint } => ConnectError::AuthRequired { hint: self.text(&hint) },
            ConnectError::KeychainLocked { message } => ConnectError::KeychainLocked { message: self.text(&message) },
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::raw::RawServer;
    use crate::config::validate_server;
    use crate::secrets::{MemoryStore, RecordingReferences, Sensitive, ServerReferences, Vault};

    /// A failure quoting the expanded URL says the configured one instead, and a secret it quotes otherwise (a
    /// header echoed back, the HTTP client's normalised URL, stderr) is its reference.
    #[test]
    fn failures_say_the_configured_url_and_no_value() {
        let raw: RawServer = serde_json::from_value(serde_json::json!({
            "url": "https://api.example/mcp?key=${secret:api_key}",
            "headers": { "X-Token": "${secret:token}" },
        }))
        .expect("raw");
        let config = validate_server("remote", &raw).expect("valid");
        let vault = Vault::with_store(std::sync::Arc::new(MemoryStore::default()));
        vault.set("remote", "api_key", &Sensitive::new("query-secret-123".into())).expect("set");
        vault.set("remote", "token", &Sensitive::new("header-secret-456".into())).expect("set");
        let source = RecordingReferences::new(ServerReferences { server: "remote", vault: &vault });
        for name in ["api_key", "token"] {
            crate::config::references::expand(&format!("${{secret:{name}}}"), &source).expect("expand");
        }
        let scrub = Scrub::new(&config, Some("https://api.example/mcp?key=query-secret-123"), &source.into_resolved());
        let error = scrub.error(ConnectError::Transport {
            message: "https://api.example/mcp?key=query-secret-123 did not answer; error sending request for url \
                      (https://api.example/mcp/?key=query-secret-123): header-secret-456 refused"
                .into(),
            transient: true,
            stderr_tail: Some("TOKEN=header-secret-456".into()),
        });
        let ConnectError::Transport { message, stderr_tail, .. } = &error else { panic!("{error:?}") };
        assert!(message.starts_with("https://api.example/mcp?key=${secret:api_key} did not answer"), "{message}");
        assert!(!message.contains("secret-123") && !message.contains("secret-456"), "{message}");
        assert_eq!(stderr_tail.as_deref(), Some("TOKEN=${secret:token}"));
    }
}
