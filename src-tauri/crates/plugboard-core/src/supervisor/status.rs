//! The public projection of a server's life: its status, and the events the supervisor sends when it changes.

use serde::Serialize;

use super::log::ServerLogEntry;

/// Where a server is in its life, as the UI and `plugboard status` show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "state", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum ServerStatus {
    /// Turned off in the config.
    Disabled,
    /// Disconnected by the person; it stays so until they connect it again.
    Stopped,
    Connecting,
    /// The person has not approved what it runs (or, for a remote server, where its secrets go): nothing was
    /// started. `refused` when they said no to exactly this definition.
    NeedsApproval {
        hint: String,
        refused: bool,
    },
    /// The server needs a login before it can be used; `hint` says how.
    NeedsLogin {
        hint: String,
    },
    /// The OS keychain holding its secrets (or its login) is locked: it connects by itself once the keychain is
    /// unlocked (or when the person retries); `hint` says so.
    KeychainLocked {
        hint: String,
    },
    Ready {
        /// Tools exposed after the allowlist.
        tools: u32,
        protocol_version: String,
        server_name: Option<String>,
    },
    /// A transient failure: the supervisor retries by itself.
    Reconnecting {
        attempt: u32,
        next_try_ms: u32,
        reason: String,
    },
    /// It will not come up without the person doing something.
    Failed {
        error: String,
        stderr_tail: Option<String>,
    },
}

impl ServerStatus {
    /// The status with its message written as a sentence (first letter capital), the way the person reads it;
    /// the causes it is built from are lower-case fragments meant to be chained ("…: last error: …").
    pub fn as_sentence(self) -> Self {
        match self {
            Self::NeedsLogin { hint } => Self::NeedsLogin { hint: capitalised(hint) },
            Self::KeychainLocked { hint } => Self::KeychainLocked { hint: capitalised(hint) },
            Self::NeedsApproval { hint, refused } => Self::NeedsApproval { hint: capitalised(hint), refused },
            Self::Reconnecting { attempt, next_try_ms, reason } => {
                Self::Reconnecting { attempt, next_try_ms, reason: capitalised(reason) }
            }
            Self::Failed { error, stderr_tail } => Self::Failed { error: capitalised(error), stderr_tail },
            other => other,
        }
    }

    /// A short word for tables and logs.
    pub fn label(&self) -> &'static str {
        match self {
            Self::Disabled => "disabled",
            Self::Stopped => "stopped",
            Self::Connecting => "connecting",
            Self::NeedsApproval { refused: false, .. } => "needs approval",
            Self::NeedsApproval { refused: true, .. } => "refused",
            Self::NeedsLogin { .. } => "needs login",
            Self::KeychainLocked { .. } => "keychain locked",
            Self::Ready { .. } => "ready",
            Self::Reconnecting { .. } => "reconnecting",
            Self::Failed { .. } => "failed",
        }
    }

    /// Whether the supervisor is done trying (until told otherwise).
    pub fn is_settled(&self) -> bool {
        !matches!(self, Self::Connecting | Self::Reconnecting { .. })
    }
}

/// Something that happened to a server, in the past tense, with the server's name in the payload.
#[derive(Debug, Clone, PartialEq)]
pub enum SupervisorEvent {
    StatusChanged {
        server: String,
        status: ServerStatus,
    },
    ToolsChanged {
        server: String,
    },
    /// The server said its resources (or resource templates) changed (`notifications/resources/list_changed`).
    ResourcesChanged {
        server: String,
    },
    /// The server said its prompts changed (`notifications/prompts/list_changed`).
    PromptsChanged {
        server: String,
    },
    /// A note for the person (an allowlist entry that matches nothing, a renamed tool, an unset variable).
    Warned {
        server: String,
        message: String,
    },
    /// A line added to the server's log (see log.rs): a message the server sent (`notifications/message`) or
    /// Plugboard's own warning (also sent as `Warned`). Its text is server text: show it inert.
    Logged {
        server: String,
        entry: ServerLogEntry,
    },
}

/// `text` with its first letter capital when it starts with a plain word; a field name (`url: …`), a path, a URL
/// or code at the start stays as written.
fn capitalised(text: String) -> String {
    let first_word = text.split_whitespace().next().unwrap_or_default();
    if !first_word.chars().all(|c| c.is_alphabetic() || c == '\'') {
        return text;
    }
    let mut chars = text.chars();
    match chars.next() {
        Some(first) if first.is_lowercase() => first.to_uppercase().chain(chars).collect(),
        _ => text,
    }
}

#[cfg(test)]
mod sentence_tests {
    use super::ServerStatus;

    /// A failure's message reads as a sentence; a path or a field name at the start is left as it is.
    #[test]
    fn messages_start_with_a_capital_letter() {
        let failed = ServerStatus::Failed { error: "could not start `uvx`".into(), stderr_tail: None }.as_sentence();
        assert_eq!(failed, ServerStatus::Failed { error: "Could not start `uvx`".into(), stderr_tail: None });
        let path = ServerStatus::Failed { error: "/opt/x does not exist".into(), stderr_tail: None }.as_sentence();
        assert!(matches!(path, ServerStatus::Failed { error, .. } if error.starts_with("/opt/x")));
        let field = ServerStatus::Failed { error: "url: the file: scheme".into(), stderr_tail: None }.as_sentence();
        assert!(
            matches!(field, ServerStatus::Failed { error, .. } if error.starts_with("url: ")),
            "a field name stays"
        );
        let retry = ServerStatus::Reconnecting { attempt: 1, next_try_ms: 500, reason: "échec".into() }.as_sentence();
        assert!(matches!(retry, ServerStatus::Reconnecting { reason, .. } if reason == "Échec"));
    }
}
