//! Which protocol era a server speaks and how a session is opened for it: 2026-07-28 (stateless: `server/discover`,
//! per-request `_meta`, multi-round-trip requests) where the server offers it, else the `initialize` handshake at
//! 2025-11-25, which servers of 2025-06-18, 2025-03-26 and 2024-11-05 answer with their own version. The spec's rule
//! (basic/versioning, "Backward Compatibility") is kept here: a recognised modern error never means "legacy" (rmcp
//! retries those itself), anything else does. It must never open a second connection to a server that is gone, whose
//! answer was a modern refusal, or that asked for credentials.

use rmcp::model::{ErrorCode, ProtocolVersion};
use rmcp::service::{ClientInitializeError, ClientLifecycleMode};

use super::TransportError;

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

/// What a server's refusal of the opening says, in words, when it is one of 2026-07-28's errors for it; `None` for
/// any other error. `who` names the server ("the server", or its URL).
pub(super) fn refusal_in_words(who: &str, e: &ClientInitializeError) -> Option<TransportError> {
    let ClientInitializeError::JsonRpcError(error) = e else { return None };
    let data = error.data.as_ref();
    let listed = |key: &str| data.and_then(|d| d.get(key)).map(|v| v.to_string()).unwrap_or_else(|| "nothing".into());
    let words = match error.code {
        ErrorCode::UNSUPPORTED_PROTOCOL_VERSION => format!(
            "{who} speaks none of the MCP versions Plugboard does: it supports {}, Plugboard {}. A newer release of \
             the server or of Plugboard is needed",
            listed("supported"),
            ProtocolVersion::KNOWN_VERSIONS.iter().rev().map(ProtocolVersion::as_str).collect::<Vec<_>>().join(", ")
        ),
        ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY => format!(
            "{who} requires a client capability Plugboard did not declare ({}): Plugboard cannot use this server",
            listed("requiredCapabilities")
        ),
        ErrorCode::HEADER_MISMATCH => format!(
            "{who} found a header of Plugboard's request inconsistent with its body ({}): please report this to \
             Plugboard",
            error.message
        ),
        _ => return None,
    };
    Some(TransportError::Refused(words))
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

    /// Each of 2026-07-28's refusals of an opening is said in words and is final; any other error is left to the
    /// caller's own wording.
    #[test]
    fn a_modern_refusal_is_said_in_words_and_never_retried() {
        let refused =
            |error| refusal_in_words("https://example.invalid/mcp", &ClientInitializeError::JsonRpcError(error));
        let future: ProtocolVersion = serde_json::from_value("2099-01-01".into()).expect("a version");
        let version = refused(ErrorData::unsupported_protocol_version(ProtocolVersion::V_2026_07_28, &[future]))
            .expect("in words");
        let text = version.to_string();
        assert!(text.starts_with("https://example.invalid/mcp speaks none of the MCP versions"), "{text}");
        assert!(text.contains(r#"["2099-01-01"]"#) && text.contains("2026-07-28, 2025-11-25, 2025-06-18"), "{text}");
        assert!(!version.is_transient());

        let capability = refused(ErrorData::missing_required_client_capability(Default::default())).expect("words");
        assert!(capability.to_string().contains("requires a client capability"), "{capability}");
        let header = refused(ErrorData::header_mismatch("Mcp-Name differs", None)).expect("in words");
        assert!(header.to_string().contains("Mcp-Name differs"), "{header}");
        assert!(refused(ErrorData::new(ErrorCode::METHOD_NOT_FOUND, "no", None)).is_none());
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
