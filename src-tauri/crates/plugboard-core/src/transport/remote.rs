//! The one way to reach a remote MCP server: Streamable HTTP in 2026-07-28 where the server answers the probe, else
//! with `initialize`, or legacy SSE when configured so or when a bare URL refuses the Streamable HTTP handshake;
//! through rmcp's `AuthClient` when the server has a login (over `dpop_http.rs` when its token is DPoP-bound); rmcp's and the SSE transport's errors unwrapped into
//! [`TransportError`]s that say what happened. The supervisor's connector and the conformance client both come through
//! here. It must never read the keychain or start a login itself: a login arrives ready, and only when the chosen
//! transport can use it.

use std::collections::HashMap;
use std::sync::Arc;

use futures::future::BoxFuture;
use reqwest::header::{HeaderName, HeaderValue};
use rmcp::ServiceExt;
use rmcp::transport::auth::{AuthClient, AuthorizationManager};
use rmcp::transport::streamable_http_client::StreamableHttpClient;
use tokio::sync::Mutex;

use super::dpop_http::DpopHttp;
use super::era::{Opening, probe_says_legacy};
use super::guarded::Guarded;
use super::handler::{Answerer, client_handler};
use super::limits::LimitExceeded;
use super::remote_errors::{initialize_error, refusal_status};
use super::sse_legacy::{LegacySseConfig, LegacySseError, connect_legacy_sse};
use super::streamable_http::{ServeFailure, serve_streamable_http};
use super::{McpSession, TransportError};
use crate::auth::dpop::Dpop;
use crate::config::model::HttpMode;
use crate::secrets::Sensitive;

/// Where a remote server is and how it was configured to be spoken to.
pub struct RemoteSpec {
    pub url: String,
    /// Sent with every request. Already resolved, so values may be secrets.
    pub headers: Vec<(String, Sensitive<String>)>,
    /// `Probe` tries Streamable HTTP and falls back to legacy SSE (see [`connect_remote`]).
    pub mode: HttpMode,
}

impl RemoteSpec {
    /// A Streamable HTTP server at `url`, no headers.
    pub fn streamable(url: impl Into<String>) -> Self {
        Self { url: url.into(), headers: Vec::new(), mode: HttpMode::StreamableHttp }
    }
}

/// Makes the login of a server with OAuth; awaited only once the transport knows it can use one.
/// `Err(TransportError::AuthRequired)` means there is no login yet.
pub type LoginFuture<'a> = BoxFuture<'a, Result<RemoteLogin, TransportError>>;

/// A server's login as a session uses it: rmcp's manager (tokens, refresh) and, where its token is DPoP-bound, the
/// key every request proves it holds.
pub struct RemoteLogin {
    pub manager: AuthorizationManager,
    pub dpop: Option<Arc<Dpop>>,
}

impl RemoteLogin {
    /// A login whose token is sent as a bearer token.
    pub fn bearer(manager: AuthorizationManager) -> Self {
        Self { manager, dpop: None }
    }
}

/// What the session is made with.
pub struct RemoteOptions<'a> {
    /// The app's pooled client (`net::pooled_http_client`); never one built here.
    pub http: reqwest::Client,
    /// Who answers the server's requests for a person.
    pub answerer: Answerer,
    /// The server's login, for a server configured with OAuth (Streamable HTTP only).
    pub login: Option<LoginFuture<'a>>,
    /// Whether to probe for 2026-07-28 first (the default) or open with `initialize` only.
    pub opening: Opening,
}

impl<'a> RemoteOptions<'a> {
    pub fn new(http: reqwest::Client, answerer: impl Into<Answerer>) -> Self {
        Self { http, answerer: answerer.into(), login: None, opening: Opening::Probe }
    }

    /// The same, sending the tokens `login` yields.
    pub fn with_login(self, login: LoginFuture<'a>) -> Self {
        Self { login: Some(login), ..self }
    }

    /// The same, opening as `opening` says.
    pub fn opening(self, opening: Opening) -> Self {
        Self { opening, ..self }
    }
}

/// A live remote session and how it was reached.
pub struct RemoteConnection {
    pub session: McpSession,
    /// The transport it speaks (never `Probe`): a probing caller remembers it to skip the probe next time.
    pub spoke: HttpMode,
    /// The login's manager, shared with the session's transport: a token step-up gets is used from the next request.
    pub authorization: Option<Arc<Mutex<AuthorizationManager>>>,
}

/// Connects to a remote server and completes the MCP handshake.
///
/// The spec's backwards-compatibility rule is "a 400, 404 or 405 to the initialize POST means an older SSE server":
/// a `Probe` falls back to SSE on exactly those, never on another refusal (its own error is what the person needs to
/// see), when the server could not be reached, or when it asked for credentials. A login is served over Streamable
/// HTTP only.
pub async fn connect_remote(spec: RemoteSpec, options: RemoteOptions<'_>) -> Result<RemoteConnection, TransportError> {
    let RemoteOptions { http, answerer, login, opening } = options;
    let url = spec.url.as_str();
    if let Some(login) = login {
        if spec.mode == HttpMode::Sse {
            return Err(TransportError::Remote {
                message: "OAuth login is supported over Streamable HTTP only; this server is configured as legacy SSE"
                    .into(),
                transient: false,
            });
        }
        let RemoteLogin { manager, dpop } = login.await?;
        let client = AuthClient::new(DpopHttp::new(http, dpop), manager);
        let authorization = Some(client.auth_manager.clone());
        let session = streamable_in_either_era(client, url, header_map(spec.headers)?, &answerer, opening)
            .await
            .map_err(|e| failed(url, &e))?;
        return Ok(RemoteConnection { session, spoke: HttpMode::StreamableHttp, authorization });
    }
    let headers = header_map(spec.headers)?;
    let session = match spec.mode {
        HttpMode::Sse => return serve_legacy_sse(http, url, &headers, answerer).await,
        HttpMode::StreamableHttp | HttpMode::Probe => {
            streamable_in_either_era(http.clone(), url, headers.clone(), &answerer, opening).await
        }
    };
    match session {
        Ok(session) => Ok(RemoteConnection { session, spoke: HttpMode::StreamableHttp, authorization: None }),
        Err(e) if spec.mode == HttpMode::Probe && falls_back_to_sse(&e) => {
            serve_legacy_sse(http, url, &headers, answerer).await
        }
        Err(e) => Err(failed(url, &e)),
    }
}

/// A Streamable HTTP session in the server's era: the probe for 2026-07-28, then, when its answer says the server is
/// of the earlier era, `initialize` over a new transport (rmcp's ends at the probe's HTTP refusal).
async fn streamable_in_either_era<C>(
    client: C,
    url: &str,
    headers: HashMap<HeaderName, HeaderValue>,
    answerer: &Answerer,
    opening: Opening,
) -> Result<McpSession, ServeFailure>
where
    C: StreamableHttpClient + Clone + Send + Sync + 'static,
{
    if opening == Opening::Probe {
        match serve_streamable_http(client.clone(), url, headers.clone(), answerer.clone(), Opening::Probe).await {
            Err(e) if probe_refused(&e) => {}
            probed => return probed,
        }
    }
    serve_streamable_http(client, url, headers, answerer.clone(), Opening::Initialize).await
}

/// Whether the answer to `server/discover` says "a server of the earlier era" (the spec's HTTP rule: a 4xx without a
/// modern error in it, or any error that is not a modern refusal): never a request for credentials, a crossed limit,
/// a server out of reach, or a refusal that is about us rather than the method (403, 429).
fn probe_refused(e: &ServeFailure) -> bool {
    if e.exceeded.is_some() || e.error.auth_challenge().is_some() {
        return false;
    }
    e.unanswered
        || probe_says_legacy(&e.error)
        || matches!(refusal_status(&e.error), Some(status) if (400..500).contains(&status) && !matches!(status, 401 | 403 | 429))
}

/// Whether a refused Streamable HTTP handshake means "try legacy SSE" (see [`connect_remote`]).
fn falls_back_to_sse(e: &ServeFailure) -> bool {
    e.exceeded.is_none()
        && e.error.auth_challenge().is_none()
        && matches!(refusal_status(&e.error), Some(400 | 404 | 405))
}

/// A failed Streamable HTTP handshake in words: the crossed limit if that ended it.
fn failed(url: &str, e: &ServeFailure) -> TransportError {
    match &e.exceeded {
        Some(exceeded) => TransportError::LimitExceeded(exceeded.clone()),
        None => initialize_error(url, &e.error),
    }
}

fn header_map(headers: Vec<(String, Sensitive<String>)>) -> Result<HashMap<HeaderName, HeaderValue>, TransportError> {
    let mut map = HashMap::new();
    for (name, value) in headers {
        let invalid = |what: &str| TransportError::Remote {
            message: format!("the header {name:?} has an invalid {what}"),
            transient: false,
        };
        let header_name = HeaderName::from_bytes(name.as_bytes()).map_err(|_| invalid("name"))?;
        let mut header_value = HeaderValue::from_str(value.expose()).map_err(|_| invalid("value"))?;
        header_value.set_sensitive(true);
        map.insert(header_name, header_value);
    }
    Ok(map)
}

async fn serve_legacy_sse(
    client: reqwest::Client,
    url: &str,
    headers: &HashMap<HeaderName, HeaderValue>,
    answerer: Answerer,
) -> Result<RemoteConnection, TransportError> {
    let mut config = LegacySseConfig::new(url.to_owned());
    config.headers =
        headers.iter().filter_map(|(k, v)| v.to_str().ok().map(|v| (k.as_str().to_owned(), v.to_owned()))).collect();
    // Opening the stream apart from the handshake keeps its error kinds: auth vs transient vs final.
    let transport = connect_legacy_sse(client, config).await.map_err(|e| {
        if e.is_auth_required() {
            TransportError::AuthRequired { challenge: e.www_authenticate().map(str::to_owned) }
        } else if let Some(exceeded) = sse_limit(&e) {
            TransportError::LimitExceeded(exceeded)
        } else {
            TransportError::Remote { transient: e.is_transient(), message: format!("{url}: {e}") }
        }
    })?;
    let (handler, notices) = client_handler(answerer);
    let wire = handler.tripwire();
    // The reader keeps why the stream ended; an event past the limit is the session's crossed limit.
    let end = transport.stream_end();
    let guarded = Guarded::new(transport, wire.clone(), handler.call_tap())
        .with_end_cause(Box::new(move || end.cause().and_then(|cause| sse_limit(&cause))));
    match handler.serve(guarded).await {
        Ok(service) => Ok(RemoteConnection {
            session: McpSession::new(service, notices),
            spoke: HttpMode::Sse,
            authorization: None,
        }),
        Err(e) => match wire.cause() {
            Some(exceeded) => Err(TransportError::LimitExceeded(exceeded.clone())),
            None => Err(initialize_error(url, &e)),
        },
    }
}

/// The limit a legacy SSE failure means, if it is one.
fn sse_limit(e: &LegacySseError) -> Option<LimitExceeded> {
    match e {
        LegacySseError::EventTooLarge { limit } => Some(LimitExceeded::SseEvent { limit: *limit }),
        LegacySseError::Ended { cause } => sse_limit(cause),
        _ => None,
    }
}
