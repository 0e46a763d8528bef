//! Turning the server's `endpoint` event into the URL we POST to.
//! Must never accept an endpoint on another origin: our headers (often a bearer token) would follow it there.
//! This is the network guard for the one URL the legacy transport discovers, and stricter than `net::guard`: the
//! endpoint is always on the configured (approved) server's own origin, so no other host is ever reached.

use url::Url;

use super::LegacySseError;

/// Resolves the event's data against the SSE URL (it is usually relative, e.g. `/message?sessionId=…`) and keeps
/// it only if scheme, host and port all match the SSE URL's. This mirrors the reference TypeScript client.
pub(super) fn resolve_endpoint(sse_url: &Url, data: &[u8]) -> Result<Url, LegacySseError> {
    let text = std::str::from_utf8(data)
        .map_err(|_| LegacySseError::InvalidEndpoint { reason: "the data is not UTF-8".to_owned() })?
        .trim();
    if text.is_empty() {
        return Err(LegacySseError::InvalidEndpoint { reason: "the data is empty".to_owned() });
    }
    // The url crate's parse error names the problem, never the input, so it is safe to show.
    let endpoint = sse_url.join(text).map_err(|e| LegacySseError::InvalidEndpoint { reason: e.to_string() })?;
    let (sse_origin, endpoint_origin) = (sse_url.origin(), endpoint.origin());
    // Opaque origins (data:, mailto:, …) never compare equal, so non-http endpoints are rejected here too.
    if sse_origin != endpoint_origin || !matches!(endpoint.scheme(), "http" | "https") {
        return Err(LegacySseError::CrossOriginEndpoint {
            sse_origin: sse_origin.ascii_serialization(),
            endpoint_origin: endpoint_origin.ascii_serialization(),
        });
    }
    Ok(endpoint)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sse() -> Url {
        Url::parse("https://tools.example:8443/mcp/sse?k=1").expect("url")
    }

    /// A relative endpoint resolves against the SSE URL and keeps its query (the session id lives there).
    #[test]
    fn relative_endpoint_resolves_against_the_sse_url() {
        let url = resolve_endpoint(&sse(), b"/message?sessionId=abc").expect("same origin");
        assert_eq!(url.as_str(), "https://tools.example:8443/message?sessionId=abc");
        let url = resolve_endpoint(&sse(), b"messages").expect("same origin");
        assert_eq!(url.as_str(), "https://tools.example:8443/mcp/messages");
    }

    /// An absolute endpoint on the same origin (explicit default port included) is accepted.
    #[test]
    fn absolute_same_origin_endpoint_is_accepted() {
        let base = Url::parse("https://tools.example/sse").expect("url");
        let url = resolve_endpoint(&base, b"https://tools.example:443/m").expect("same origin");
        assert_eq!(url.as_str(), "https://tools.example/m");
    }

    /// Another host, port or scheme is rejected, and the error names both origins.
    #[test]
    fn other_origins_are_rejected_naming_both() {
        for data in [
            &b"https://evil.example/m"[..],
            b"https://tools.example:9999/m",
            b"http://tools.example:8443/m",
            b"//evil.example/m",
            b"data:text/plain,hi",
        ] {
            let err = resolve_endpoint(&sse(), data).expect_err("cross-origin");
            let LegacySseError::CrossOriginEndpoint { sse_origin, endpoint_origin } = &err else {
                panic!("unexpected {err:?}");
            };
            assert_eq!(sse_origin, "https://tools.example:8443");
            assert_ne!(endpoint_origin, sse_origin);
            assert!(err.to_string().contains("https://tools.example:8443"), "{err}");
            assert!(!err.is_transient());
        }
    }

    /// Empty or non-UTF-8 data is an invalid endpoint, not a panic.
    #[test]
    fn garbage_endpoint_data_is_invalid() {
        assert!(matches!(resolve_endpoint(&sse(), b"  "), Err(LegacySseError::InvalidEndpoint { .. })));
        assert!(matches!(resolve_endpoint(&sse(), b"\xff\xfe"), Err(LegacySseError::InvalidEndpoint { .. })));
    }
}
