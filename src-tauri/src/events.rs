//! Core events → typed frontend events (facts in the past tense, ids in the payload).

use plugboard_core::config::ConfigEvent;
use plugboard_core::person::{PendingRequest, WithdrawReason};
use plugboard_core::supervisor::{ServerLogEntry, ServerStatus};
use serde::Serialize;
use tauri_specta::Event;

/// The server config changed: Plugboard saved it, another program edited it, or it stopped parsing.
#[derive(Debug, Clone, Serialize, specta::Type, Event)]
#[serde(rename_all = "camelCase")]
pub struct ConfigChanged {
    /// `saved`, `reloaded` or `brokenOnDisk`.
    pub kind: ConfigChangeKind,
    /// Why the file on disk is not in use, for `brokenOnDisk`.
    pub problem: Option<String>,
}

/// What happened to the config file.
#[derive(Debug, Clone, Copy, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum ConfigChangeKind {
    Saved,
    Reloaded,
    BrokenOnDisk,
}

impl From<ConfigEvent> for ConfigChanged {
    fn from(event: ConfigEvent) -> Self {
        match event {
            ConfigEvent::Saved => Self { kind: ConfigChangeKind::Saved, problem: None },
            ConfigEvent::Reloaded => Self { kind: ConfigChangeKind::Reloaded, problem: None },
            ConfigEvent::BrokenOnDisk { reason } => {
                Self { kind: ConfigChangeKind::BrokenOnDisk, problem: Some(reason) }
            }
        }
    }
}

/// A server's live status changed (connecting, ready, reconnecting, failed, …).
#[derive(Debug, Clone, Serialize, specta::Type, Event)]
#[serde(rename_all = "camelCase")]
pub struct ServerStatusChanged {
    pub server: String,
    pub status: ServerStatus,
}

/// A server's tools were discovered again (after connecting or a list change).
#[derive(Debug, Clone, Serialize, specta::Type, Event)]
#[serde(rename_all = "camelCase")]
pub struct ToolsChanged {
    pub server: String,
}

/// A server's resources or resource templates changed (`notifications/resources/list_changed`, or an approval
/// released a template): the page lists them again.
#[derive(Debug, Clone, Serialize, specta::Type, Event)]
#[serde(rename_all = "camelCase")]
pub struct ResourcesChanged {
    pub server: String,
}

/// A server's prompts changed (`notifications/prompts/list_changed`, or an approval released one): the page lists
/// them again.
#[derive(Debug, Clone, Serialize, specta::Type, Event)]
#[serde(rename_all = "camelCase")]
pub struct PromptsChanged {
    pub server: String,
}

/// A server logged something (`notifications/message`), or Plugboard has a note about it (level
/// `plugboard-warning`: an allowlist entry matching nothing, a declined request…): one new line of the server's log
/// (the `server_log` command returns the lines before it). `message` and `logger` are server text: inert.
#[derive(Debug, Clone, Serialize, specta::Type, Event)]
#[serde(rename_all = "camelCase")]
pub struct ServerMessaged {
    pub server: String,
    /// The line's place in the server's log: lines with a `seq` the history already holds are not new.
    pub seq: u32,
    /// When Plugboard received it, in milliseconds since the Unix epoch.
    pub at_ms: f64,
    pub level: String,
    pub logger: Option<String>,
    pub message: String,
}

impl ServerMessaged {
    pub fn new(server: String, entry: ServerLogEntry) -> Self {
        let ServerLogEntry { seq, at_ms, level, logger, message } = entry;
        Self { server, seq, at_ms, level, logger, message }
    }
}

/// A login opened (or tried to open) the authorization page; the UI shows the URL so the person can open it by hand.
#[derive(Debug, Clone, Serialize, specta::Type, Event)]
#[serde(rename_all = "camelCase")]
pub struct LoginStarted {
    pub server: String,
    pub authorization_url: String,
    /// Why the browser could not be opened, if it could not.
    pub browser_problem: Option<String>,
}

/// A `plugboard://` link arrived and was turned away; `reason` is a fixed text (nothing from the link is echoed).
#[derive(Debug, Clone, Serialize, specta::Type, Event)]
#[serde(rename_all = "camelCase")]
pub struct DeepLinkRejected {
    pub reason: String,
}

/// A `plugboard://install` link arrived and parsed: the consent dialog shows what it would add. Nothing is added
/// before the person confirms, and nothing runs before they approve it.
#[derive(Debug, Clone, Serialize, specta::Type, Event)]
#[serde(rename_all = "camelCase")]
pub struct InstallOffered {
    pub offer: plugboard_core::install::InstallOffer,
}

/// A `.mcpb` file was dropped onto the window or opened with Plugboard; the page asks the core what it is
/// (`open_bundle`) before anything.
#[derive(Debug, Clone, Serialize, specta::Type, Event)]
#[serde(rename_all = "camelCase")]
pub struct BundleDropped {
    pub path: String,
}

/// A server asked the person something (a form, a message to write, folders); every text in it is server text: inert.
#[derive(Debug, Clone, Serialize, specta::Type, Event)]
#[serde(rename_all = "camelCase")]
pub struct PendingRequestArrived {
    pub request: PendingRequest,
}

/// A request left the queue: answered, timed out, or withdrawn by the server (its dialog must close).
#[derive(Debug, Clone, Serialize, specta::Type, Event)]
#[serde(rename_all = "camelCase")]
pub struct PendingRequestWithdrawn {
    pub id: u32,
    pub reason: WithdrawReason,
}
