//! Why a legacy HTTP+SSE connection or message failed, and whether retrying can help.
//! Must never carry a header value or a message body: these errors reach logs and the UI.

use std::sync::Arc;
use std::time::Duration;

use rmcp::transport::streamable_http_client::AuthRequiredError;

/// A failure of the legacy HTTP+SSE transport (MCP 2024-11-05).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LegacySseError {
    /// The configured SSE URL is not an absolute http(s) URL.
    #[error("invalid SSE URL: {reason}")]
    InvalidUrl { reason: String },
    /// A configured header has a name or value HTTP cannot carry. Only the name is kept: the value may be a secret.
    #[error("invalid header `{name}`")]
    InvalidHeader { name: String },
    /// The GET or a POST never reached the server, or the connection broke (refused, reset, TLS, …).
    #[error("HTTP request failed: {0}")]
    Http(#[source] reqwest::Error),
    /// The server did not send its `endpoint` event (or the GET's response) in time.
    #[error("the server sent no `endpoint` event within {after:?}")]
    EndpointTimeout { after: Duration },
    /// The server answered 401. Carries rmcp's marker so `ServiceError::is_authorization_required()` sees it too.
    #[error("the server requires authorization (HTTP 401)")]
    AuthRequired(#[source] AuthRequiredError),
    /// A POST to the message endpoint answered 404 or 410: the server has forgotten this session.
    #[error("the server no longer knows this session (HTTP {status})")]
    SessionGone { status: u16 },
    /// Any other unexpected HTTP status, on the GET (`during: "GET"`) or a POST.
    #[error("the server answered HTTP {status} to the {during}")]
    Status { status: u16, during: &'static str },
    /// The GET succeeded but is not an event stream (typically an HTML page or a JSON error).
    #[error("not an SSE endpoint: the server answered with content type `{content_type}`")]
    NotSse { content_type: String },
    /// The `endpoint` event points at another origin; following it would send our headers elsewhere.
    #[error("the server's message endpoint is on {endpoint_origin}, not on the SSE URL's origin {sse_origin}")]
    CrossOriginEndpoint { sse_origin: String, endpoint_origin: String },
    /// The `endpoint` event's data is not a URL reference.
    #[error("the server's `endpoint` event is not a valid URL: {reason}")]
    InvalidEndpoint { reason: String },
    /// One event exceeded `max_event_bytes`; the stream was dropped rather than buffered.
    #[error("an SSE event exceeded the {limit}-byte limit")]
    EventTooLarge { limit: usize },
    /// The server closed the event stream (before the `endpoint` event or later).
    #[error("the server closed the SSE stream")]
    StreamClosed,
    /// A message could not be encoded as JSON (a bug on our side, never the server's).
    #[error("could not encode the message: {0}")]
    Encode(#[source] serde_json::Error),
    /// A send after the stream ended: the server could no longer answer. `cause` says why the stream ended.
    #[error("the SSE stream has ended: {cause}")]
    Ended {
        #[source]
        cause: Arc<LegacySseError>,
    },
    /// A send after `close()`.
    #[error("the transport is closed")]
    Closed,
}

impl LegacySseError {
    /// Whether reconnecting may succeed: a broken or refused connection, a closed stream, a timeout, a 5xx, an
    /// expired session. Auth, configuration, protocol and size failures are not: they would fail the same way.
    pub fn is_transient(&self) -> bool {
        match self {
            Self::Http(e) => !e.is_builder() && !e.is_redirect(),
            Self::EndpointTimeout { .. } | Self::SessionGone { .. } | Self::StreamClosed => true,
            Self::Status { status, .. } => *status >= 500 || *status == 408 || *status == 429,
            Self::Ended { cause } => cause.is_transient(),
            Self::InvalidUrl { .. }
            | Self::InvalidHeader { .. }
            | Self::AuthRequired(_)
            | Self::NotSse { .. }
            | Self::CrossOriginEndpoint { .. }
            | Self::InvalidEndpoint { .. }
            | Self::EventTooLarge { .. }
            | Self::Encode(_)
            | Self::Closed => false,
        }
    }

    /// Whether a failed POST provably left the server without the message: the connection could not be made, the
    /// stream (and so the session) had already ended, or the server refused the session or the credentials.
    pub fn never_delivered(&self) -> bool {
        match self {
            Self::Http(e) => e.is_connect(),
            Self::Ended { .. }
            | Self::Closed
            | Self::Encode(_)
            | Self::InvalidHeader { .. }
            | Self::SessionGone { .. }
            | Self::AuthRequired(_) => true,
            _ => false,
        }
    }

    /// Whether the server wants credentials (HTTP 401): log in, then reconnect.
    pub fn is_auth_required(&self) -> bool {
        match self {
            Self::AuthRequired(_) => true,
            Self::Ended { cause } => cause.is_auth_required(),
            _ => false,
        }
    }

    /// The `WWW-Authenticate` challenge of a 401, when the server sent one.
    pub fn www_authenticate(&self) -> Option<&str> {
        match self {
            Self::AuthRequired(e) if !e.www_authenticate_header.is_empty() => Some(&e.www_authenticate_header),
            _ => None,
        }
    }

    /// A reqwest failure without its URL: a query string may carry a session id or a token.
    pub(super) fn http(e: reqwest::Error) -> Self {
        Self::Http(e.without_url())
    }

    /// A 401 answer, with the server's challenge if it sent one (rmcp's marker needs a string: empty = none).
    pub(super) fn auth_required(www_authenticate: Option<String>) -> Self {
        Self::AuthRequired(AuthRequiredError::new(www_authenticate.unwrap_or_default()))
    }
}
