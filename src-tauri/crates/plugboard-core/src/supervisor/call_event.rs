//! What a server sends about a running call, as the supervisor hands it to the call's observer: progress and log
//! lines, in the order they arrived. Plain data, built here and read by the console, the gateway and the UI; all of
//! its text is the server's.

use serde::Serialize;

/// Something the server sent about a running call, forwarded to its caller in the order it arrived.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "camelCase")]
#[non_exhaustive]
pub enum CallEvent {
    /// `notifications/progress` carrying this call's progress token; `message` is server text: show it inert.
    Progress {
        // specta writes `f64` as `number | null` (NaN serialises as null); a progress value is never NaN (JSON cannot
        // carry one), so the TypeScript text says `number`.
        #[cfg_attr(feature = "specta", specta(type = u32))]
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    },
    /// `notifications/message` from the same server while the call ran; all of it is server text.
    Log { level: String, logger: Option<String>, message: String },
}

impl CallEvent {
    /// The event for one `notifications/progress`.
    pub(crate) fn progress(params: &rmcp::model::ProgressNotificationParam) -> Self {
        Self::Progress { progress: params.progress, total: params.total, message: params.message.clone() }
    }
}
