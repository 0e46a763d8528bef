//! Which protocol era a server speaks and how a session is opened for it: 2026-07-28 (stateless: `server/discover`,
//! per-request `_meta`, multi-round-trip requests) where the server offers it, else the `initialize` handshake at
//! 2025-11-25, which servers of 2025-06-18, 2025-03-26 and 2024-11-05 answer with their own version. The spec's rule
//! (basic/versioning, "Backward Compatibility") is kept here: a recognised modern error never means "legacy" (rmcp
//! retries those itself), anything else does. It must never open a second connection to a server that is gone, whose
//! answer was a modern refusal, or that asked for credentials.

use rmcp::model::{ErrorCode, ProtocolVersion};
use rmcp::service::{ClientInitializeError, ClientLifecycleMode};

/// The two ways MCP sessions are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// 2026-07-28 and later: no session and no `initialize`; every request says who is asking.
    Modern,
    /// Up to 2025-11-25: the `initialize` handshake opens a session.
    Legacy,
}

impl Era {
    /// The era of an agreed protocol version (`YYYY-MM-DD`, which sorts as text).
    pub fn of_version(version: &str) -> Self {
        if version >= ProtocolVersion::V_2026_07_28.as_str() { Self::Modern } else { Self::Legacy }
    }

    /// How the person reads it beside the version.
    pub fn label(self) -> &'static str {
        match self {
            Self::Modern => "stateless",
            Self::Legacy => "with session",
        }
    }
}

/// How to open a session with a server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Opening {
    /// Ask `server/discover` first and speak 2026-07-28 if the server answers it; otherwise fall back to
    /// `initialize` (on stdio over the same pipes when the server answered with an error or stayed silent).
    #[default]
    Probe,
    /// Only the `initialize` handshake: the server is known to be of the earlier era.
    Initialize,
}

/// The modern versions Plugboard speaks, newest first.
fn modern_versions() -> Vec<ProtocolVersion> {
    vec![ProtocolVersion::V_2026_07_28]
}

impl Opening {
    /// rmcp's lifecycle for a stdio server: `Auto` falls back on the same pipes after a JSON-RPC error or 10 s of
    /// silence, which is what the spec asks of a stdio client.
    pub(super) fn for_stdio(self) -> ClientLifecycleMode {
        match self {
            Self::Probe => ClientLifecycleMode::Auto {
                preferred_versions: modern_versions(),
                legacy_version: Some(ProtocolVersion::V_2025_11_25),
            },
            Self::Initialize => ClientLifecycleMode::Initialize,
        }
    }

    /// rmcp's lifecycle for a Streamable HTTP server: `Discover` only, since a legacy server refuses the probe with
    /// an HTTP status that ends rmcp's transport; `remote.rs` then opens a new one with `initialize`.
    pub(super) fn for_http(self) -> ClientLifecycleMode {
        match self {
            Self::Probe => ClientLifecycleMode::Discover { preferred_versions: modern_versions() },
            Self::Initialize => ClientLifecycleMode::Initialize,
        }
    }
}

/// Whether a probe that failed says the server is of the earlier era, so a new connection with `initialize` is worth
/// one try: it answered `server/discover` with something other than a discovery result (an empty result, a JSON-RPC
/// error that is not a modern refusal, a result for another request), or offered no modern version Plugboard speaks.
/// A connection that ended, a cancelled start or both attempts failing on one connection are not.
pub(super) fn probe_says_legacy(e: &ClientInitializeError) -> bool {
    match e {
        ClientInitializeError::ExpectedInitResponse(_)
        | ClientInitializeError::ExpectedInitResult(_)
        | ClientInitializeError::ConflictInitResponseId(..)
        | ClientInitializeError::UncorrelatedErrorResponse { .. }
        | ClientInitializeError::NoCompatibleProtocolVersion { .. } => true,
        ClientInitializeError::JsonRpcError(error) => !is_modern_refusal(error.code),
        _ => false,
    }
}

/// Whether a stdio server whose probe failed is started once more and opened with `initialize`: unless it refused
/// as a modern server does, or the start was cancelled. Wider than [`probe_says_legacy`]: a server of the earlier era
/// may also exit or write garbage at a request it does not expect before `initialize`, and it worked before the probe
/// existed; one more start is cheap beside losing it. A server that is broken anyway fails its second start too,
/// with that start's own error.
pub(super) fn stdio_falls_back(e: &ClientInitializeError) -> bool {
    match e {
        ClientInitializeError::Cancelled => false,
        ClientInitializeError::JsonRpcError(error) => !is_modern_refusal(error.code),
        _ => true,
    }
}

/// The errors by which a modern server refuses a request it understood (the spec's "recognized modern error").
fn is_modern_refusal(code: ErrorCode) -> bool {
    code == ErrorCode::UNSUPPORTED_PROTOCOL_VERSION
        || code == ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY
        || code == ErrorCode::HEADER_MISMATCH
}

#[cfg(test)]
mod tests {
    use rmcp::model::{ErrorData, ServerResult};

    use super::*;

    #[test]
    fn versions_from_2026_07_28_on_are_modern() {
        assert_eq!(Era::of_version("2026-07-28"), Era::Modern);
        assert_eq!(Era::of_version("2027-01-01"), Era::Modern);
        assert_eq!(Era::of_version("2025-11-25"), Era::Legacy);
        assert_eq!(Era::of_version("2024-11-05"), Era::Legacy);
    }

    #[test]
    fn a_legacy_answer_to_the_probe_is_any_error_but_a_modern_refusal() {
        let error = |code| ClientInitializeError::JsonRpcError(ErrorData::new(code, "no", None));
        assert!(probe_says_legacy(&error(ErrorCode::METHOD_NOT_FOUND)));
        assert!(probe_says_legacy(&error(ErrorCode::INVALID_PARAMS)));
        assert!(probe_says_legacy(&error(ErrorCode(-32000))));
        assert!(probe_says_legacy(&ClientInitializeError::ExpectedInitResult(Some(ServerResult::empty(())))));
        assert!(!probe_says_legacy(&error(ErrorCode::UNSUPPORTED_PROTOCOL_VERSION)));
        assert!(!probe_says_legacy(&error(ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY)));
        assert!(!probe_says_legacy(&ClientInitializeError::ConnectionClosed("gone".into())));
        assert!(!probe_says_legacy(&ClientInitializeError::Cancelled));
    }

    /// On stdio a probe that ended the connection also falls back (one more start); a modern refusal or a cancel
    /// does not.
    #[test]
    fn a_stdio_probe_falls_back_unless_refused_as_modern() {
        let error = |code| ClientInitializeError::JsonRpcError(ErrorData::new(code, "no", None));
        assert!(stdio_falls_back(&ClientInitializeError::ConnectionClosed("exited".into())));
        assert!(stdio_falls_back(&error(ErrorCode::METHOD_NOT_FOUND)));
        assert!(stdio_falls_back(&ClientInitializeError::ExpectedInitResult(None)));
        assert!(!stdio_falls_back(&error(ErrorCode::UNSUPPORTED_PROTOCOL_VERSION)));
        assert!(!stdio_falls_back(&ClientInitializeError::Cancelled));
    }
}
