//! The console's shapes as they cross to the UI (see the console IPC contract): how a call ended, and a history row
//! in full or summarised (what streams during a call is the supervisor's `CallEvent`). Plain data: no behaviour that could leak a secret here.

use serde::Serialize;

// specta writes `f64` as `number | null` (it serialises NaN as null); these numbers are never NaN (JSON cannot carry
// one, and a clock reading is finite), so the fields below say `number` with `specta(type = u32)`, which only changes
// the TypeScript text.

/// How a call ended. A tool error, a failure and a cancel are outcomes the history keeps, not errors.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "camelCase")]
#[non_exhaustive]
pub enum CallOutcome {
    /// The MCP `CallToolResult` as JSON text, redacted; cut at 256 KiB when `truncated` (then it is not valid JSON).
    Result {
        #[serde(rename = "isError")]
        is_error: bool,
        result: String,
        truncated: bool,
    },
    /// Transport, protocol, timeout, not-ready or auth trouble, in words.
    Failed {
        message: String,
    },
    Cancelled,
}

impl CallOutcome {
    pub fn status(&self) -> CallStatus {
        match self {
            Self::Result { is_error: false, .. } => CallStatus::Ok,
            Self::Result { is_error: true, .. } => CallStatus::ToolError,
            Self::Failed { .. } => CallStatus::Failed,
            Self::Cancelled => CallStatus::Cancelled,
        }
    }
}

/// One word for how a call ended, for the history list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum CallStatus {
    Ok,
    ToolError,
    Failed,
    Cancelled,
}

impl CallStatus {
    pub(super) fn as_str(self) -> &'static str {
        match self {
            Self::Ok => "ok",
            Self::ToolError => "toolError",
            Self::Failed => "failed",
            Self::Cancelled => "cancelled",
        }
    }

    pub(super) fn parse(text: &str) -> Self {
        match text {
            "ok" => Self::Ok,
            "toolError" => Self::ToolError,
            "cancelled" => Self::Cancelled,
            _ => Self::Failed,
        }
    }
}

/// One recorded call in full.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct HistoryEntry {
    pub id: u32,
    pub server: String,
    pub tool: String,
    /// JSON object text, secrets redacted.
    pub arguments: String,
    /// Unix time in milliseconds.
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub started_at_ms: f64,
    pub duration_ms: u32,
    pub outcome: CallOutcome,
    /// `plugboard call SERVER TOOL --args '<json>'`, quoted for a POSIX shell.
    pub cli_command: String,
    /// The MCP client that called through the gateway (its `clientInfo` name, client text: show it inert);
    /// `None` for Plugboard's own console and CLI.
    pub origin: Option<String>,
    /// Why this call is not in the history (it could not be written: a full disk, a read-only data dir); its id is
    /// then 0 and this entry is the result's only copy. `None` once recorded.
    pub unrecorded: Option<String>,
}

/// One recorded call as the history list shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct HistorySummary {
    pub id: u32,
    pub server: String,
    pub tool: String,
    /// The first 120 characters of the redacted arguments.
    pub arguments_preview: String,
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub started_at_ms: f64,
    pub duration_ms: u32,
    pub status: CallStatus,
    /// As in [`HistoryEntry::origin`].
    pub origin: Option<String>,
}

/// A page of the history, newest first, and how many rows match the query in all.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct HistoryPage {
    pub entries: Vec<HistorySummary>,
    pub total: u32,
}
