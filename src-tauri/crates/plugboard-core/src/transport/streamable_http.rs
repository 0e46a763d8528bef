//! Serving a Streamable HTTP session the one way Plugboard does: the caller's pooled reqwest client, its headers,
//! Plugboard's handler, the opening `remote.rs` chose, every response within Plugboard's limits
//! (`bounded_http.rs`). Only `remote.rs` calls it, for the supervisor and the conformance client alike, so what the
//! suite checks is what the app runs. It must never build its own HTTP client.

use std::collections::HashMap;
use std::time::Duration;

use reqwest::header::{HeaderName, HeaderValue};
use rmcp::service::{ClientInitializeError, ClientServiceExt};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::{StreamableHttpClient, StreamableHttpClientTransportConfig};

use super::McpSession;
use super::bounded_http::{BoundedHttp, response_limits};
use super::era::Opening;
use super::guarded::Guarded;
use super::handler::{Answerer, client_handler};
use super::limits::LimitExceeded;

/// How long a server may leave `server/discover` unanswered before it is taken for one of the earlier era (rmcp's
/// own wait on stdio).
const PROBE_ANSWER_WITHIN: Duration = Duration::from_secs(10);

/// Why the handshake failed: rmcp's error (callers classify it: auth challenge, unreachable, refused), and the
/// limit the server crossed if that is what ended it.
pub(super) struct ServeFailure {
    pub error: ClientInitializeError,
    pub exceeded: Option<LimitExceeded>,
    /// The server left the probe unanswered ([`PROBE_ANSWER_WITHIN`]).
    pub unanswered: bool,
}

/// Connects to `url` through `client` (the pooled client, or rmcp's `AuthClient` over it for OAuth servers) and
/// opens the session as `opening` says: `server/discover` only, or `initialize` only (`remote.rs` decides).
pub(super) async fn serve_streamable_http<C>(
    client: C,
    url: &str,
    headers: HashMap<HeaderName, HeaderValue>,
    answerer: impl Into<Answerer>,
    opening: Opening,
) -> Result<McpSession, ServeFailure>
where
    C: StreamableHttpClient + Send + Sync + 'static,
{
    let limits = response_limits();
    let config = StreamableHttpClientTransportConfig::with_uri(url.to_owned())
        .custom_headers(headers)
        .max_sse_event_size(limits.max_sse_event_size)
        .max_json_response_size(limits.max_json_response_size)
        .max_error_response_size(limits.max_error_response_size);
    let (handler, notices) = client_handler(answerer);
    let (wire, tap) = (handler.tripwire(), handler.call_tap());
    let transport = StreamableHttpClientTransport::with_client(BoundedHttp::new(client, wire.clone()), config);
    let serving = handler.serve_with_lifecycle(Guarded::new(transport, wire.clone(), tap), opening.for_http());
    let served = match opening {
        Opening::Initialize => serving.await,
        Opening::Probe => match tokio::time::timeout(PROBE_ANSWER_WITHIN, serving).await {
            Ok(served) => served,
            Err(_) => {
                let error = ClientInitializeError::ConnectionClosed("no answer to server/discover".into());
                return Err(ServeFailure { error, exceeded: None, unanswered: true });
            }
        },
    };
    match served {
        Ok(service) => Ok(McpSession::new(service, notices)),
        Err(error) => Err(ServeFailure { error, exceeded: wire.cause().cloned(), unanswered: false }),
    }
}
