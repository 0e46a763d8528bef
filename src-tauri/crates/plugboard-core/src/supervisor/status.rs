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
    /// The server needs a login before it can be used; `hint` says how.
    NeedsLogin {
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
    /// A short word for tables and logs.
    pub fn label(&self) -> &'static str {
        match self {
            Self::Disabled => "disabled",
            Self::Stopped => "stopped",
            Self::Connecting => "connecting",
            Self::NeedsLogin { .. } => "needs login",
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
