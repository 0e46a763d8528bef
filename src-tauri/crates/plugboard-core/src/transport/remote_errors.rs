//! rmcp's and reqwest's errors from a remote handshake, unwrapped into [`TransportError`]s that say in words what
//! happened (unreachable, a name that did not resolve, refused, credentials wanted). It must never decide what to
//! do about them: that is `remote.rs`'s fallback rule and the caller's retry policy.

use rmcp::service::ClientInitializeError;

use super::TransportError;

/// The handshake failed: credentials wanted (with the server's challenge, if it sent one), or unreachable or
/// refused, in words; retrying may help either of the latter.
pub(super) fn initialize_error(url: &str, e: &ClientInitializeError) -> TransportError {
    if let Some(challenge) = e.auth_challenge() {
        return TransportError::AuthRequired { challenge: Some(challenge.to_owned()) };
    }
    if refusal_status(e) == Some(401) {
        return TransportError::AuthRequired { challenge: None };
    }
    if let Some(refused) = super::era::refusal_in_words(url, e) {
        return refused;
    }
    let cause = transport_cause(e);
    let message = if unreachable(cause) {
        unreachable_message(url, cause)
    } else {
        format!("{url} did not complete the MCP handshake: {}", root_cause(cause))
    };
    TransportError::Remote { message, transient: true }
}

/// The HTTP status the server refused the handshake with, when it answered with one rmcp kept: its status error
/// (429, 5xx), or the `HTTP <status>: <body>` of any other refusal without a JSON-RPC error in it. `None` when the
/// server was not reached, or answered in JSON-RPC (a Streamable HTTP server saying why).
pub(super) fn refusal_status(e: &ClientInitializeError) -> Option<u16> {
    use rmcp::transport::streamable_http_client::{HttpStatusError, StreamableHttpError};
    let ClientInitializeError::TransportError { error, .. } = e else {
        return None;
    };
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error.error.as_ref());
    while let Some(current) = source {
        if let Some(http) = current.downcast_ref::<StreamableHttpError<reqwest::Error>>() {
            return match http {
                StreamableHttpError::HttpStatus(status) => Some(status.status),
                StreamableHttpError::UnexpectedServerResponse(text) => status_of(text),
                _ => None,
            };
        }
        if let Some(status) = current.downcast_ref::<HttpStatusError>() {
            return Some(status.status);
        }
        source = current.source();
    }
    None
}

/// The status of rmcp's `HTTP 404 Not Found: <body>` refusal text.
fn status_of(text: &str) -> Option<u16> {
    let digits = text.strip_prefix("HTTP ")?.split(|c: char| !c.is_ascii_digit()).next()?;
    digits.parse().ok().filter(|status| (100..600).contains(status))
}

/// rmcp links neither a transport failure during initialize nor its HTTP client's error as a `source()`: this
/// reaches the HTTP error itself when there is one.
fn transport_cause(e: &ClientInitializeError) -> &(dyn std::error::Error + 'static) {
    use rmcp::transport::streamable_http_client::StreamableHttpError;
    let ClientInitializeError::TransportError { error, .. } = e else {
        return e;
    };
    match error.error.downcast_ref::<StreamableHttpError<reqwest::Error>>() {
        Some(StreamableHttpError::Client(http)) => http,
        _ => error.error.as_ref(),
    }
}

/// Whether the error chain says the server could not be reached at all (refused, DNS, timeout).
fn unreachable(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(current) = source {
        if let Some(http) = current.downcast_ref::<reqwest::Error>()
            && (http.is_connect() || http.is_timeout())
        {
            return true;
        }
        source = current.source();
    }
    false
}

/// Why a server could not be reached, in words. A name that did not resolve starts with [`DNS_FAILURE_PREFIX`]:
/// many of them at once mean the machine is offline, which the Servers page says once instead of per server.
fn unreachable_message(url: &str, cause: &(dyn std::error::Error + 'static)) -> String {
    if is_dns_failure(cause) {
        let host =
            url::Url::parse(url).ok().and_then(|u| u.host_str().map(str::to_owned)).unwrap_or_else(|| url.to_owned());
        format!(
            "{DNS_FAILURE_PREFIX}{host}: {}. Check the address, or whether this computer is online; Plugboard retries by itself.",
            root_cause(cause)
        )
    } else {
        format!("cannot reach {url}: {}", root_cause(cause))
    }
}

/// How the message of a server whose host name did not resolve begins (the UI counts them; keep it in step with
/// `ui/src/features/servers/offline.ts`).
pub const DNS_FAILURE_PREFIX: &str = "Could not look up ";

/// Whether the error chain is a failed name lookup. reqwest has no typed DNS error; hyper's connector names it
/// "dns error" and the resolver's own error says it failed to look the address up.
fn is_dns_failure(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut source = Some(e);
    while let Some(current) = source {
        let text = current.to_string();
        if text == "dns error" || text.starts_with("failed to lookup address") {
            return true;
        }
        source = current.source();
    }
    false
}

/// The innermost error's message: rmcp's outer layers name internal types, the innermost says what happened.
fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut current = e;
    while let Some(next) = current.source() {
        current = next;
    }
    current.to_string()
}

#[cfg(test)]
mod unreachable_tests {
    use super::{DNS_FAILURE_PREFIX, status_of, unreachable_message};

    /// The status is read from rmcp's refusal text, and nothing else passes for one.
    #[test]
    fn the_status_of_a_refusal_text() {
        assert_eq!(status_of("HTTP 404 Not Found: Cannot POST /sse"), Some(404));
        assert_eq!(status_of("HTTP 405 Method Not Allowed: "), Some(405));
        for other in ["HTTP/1.1 404", "404 Not Found", "HTTP 99 x", "HTTP : x", ""] {
            assert_eq!(status_of(other), None, "{other}");
        }
    }

    /// An error that says `text` and was caused by `source`, the way hyper wraps the resolver's error.
    #[derive(Debug)]
    struct Wrapped {
        text: &'static str,
        source: std::io::Error,
    }

    impl std::fmt::Display for Wrapped {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.text)
        }
    }

    impl std::error::Error for Wrapped {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.source)
        }
    }

    /// A name that did not resolve is said as such, naming the host and what to check, with the prefix the Servers
    /// page counts; a refused connection is not mistaken for one.
    #[test]
    fn a_failed_lookup_says_check_the_address_or_the_network() {
        let lookup = std::io::Error::other("failed to lookup address information: Name or service not known");
        let dns = Wrapped { text: "dns error", source: lookup };
        let text = unreachable_message("https://mcp.linear.app/mcp", &dns);
        assert!(text.starts_with(&format!("{DNS_FAILURE_PREFIX}mcp.linear.app: failed to lookup")), "{text}");
        assert!(text.contains("whether this computer is online"), "{text}");

        let refused = Wrapped { text: "tcp connect error", source: std::io::Error::other("Connection refused") };
        let text = unreachable_message("http://127.0.0.1:9/mcp", &refused);
        assert_eq!(text, "cannot reach http://127.0.0.1:9/mcp: Connection refused");
    }
}
