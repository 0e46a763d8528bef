//! The gateway as Streamable HTTP on the loopback interface: hyper takes the connections, every request passes
//! the guard (Host, Origin, size, token) and the session binding, then rmcp's Streamable HTTP service runs one
//! `Gateway` per MCP session (both protocol eras). Used by `plugboard serve --http` and by the window. It must
//! never listen on anything but a loopback address, and never pass a client's Authorization header upstream (the
//! upstream servers' requests are built by the supervisor from their own config).

use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use http::{Method, Request, Response, StatusCode, header};
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use super::guard::{Admission, MAX_BODY_BYTES, Refusal};
use super::sessions::SessionBindings;
use super::token::{TokenCheck, TokenDigest, TokenError};
use crate::engine::Engine;
use crate::gateway::handler::{Gateway, GatewayOptions};
use crate::gateway::publish::CatalogFeed;
use crate::secrets::Sensitive;

/// The port the endpoint takes unless told otherwise (a client's config names it, so it should not move).
pub const DEFAULT_PORT: u16 = 7450;
/// The one path MCP is served on.
pub const MCP_PATH: &str = "/mcp";
const SESSION_HEADER: &str = "mcp-session-id";

/// Where the endpoint listens and whom it lets in besides token holders' MCP clients.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// A loopback address; anything else is refused.
    pub bind: IpAddr,
    /// 0 picks a free port.
    pub port: u16,
    /// Browser origins allowed to call the endpoint (`scheme://host:port`): none unless the person adds them.
    pub allowed_origins: Vec<String>,
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self { bind: IpAddr::V4(Ipv4Addr::LOCALHOST), port: DEFAULT_PORT, allowed_origins: Vec::new() }
    }
}

/// Why the endpoint could not start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EndpointError {
    #[error(
        "the gateway listens only on this computer's loopback address (127.0.0.1 or ::1), not {address}: other \
         computers must never reach the person's tools"
    )]
    NotLoopback { address: IpAddr },
    #[error("cannot listen on {address}: {message} (is another Plugboard gateway running there? pick another port)")]
    Bind { address: SocketAddr, message: String },
    #[error(transparent)]
    Token(#[from] TokenError),
    #[error("the gateway's start was interrupted: {message}")]
    Interrupted { message: String },
}

/// A running endpoint; [`HttpEndpoint::stop`] ends it and every session in it.
pub struct HttpEndpoint {
    address: SocketAddr,
    token: Arc<TokenCheck>,
    stopping: CancellationToken,
    accepting: tokio::task::JoinHandle<()>,
}

impl HttpEndpoint {
    /// Listens on `http.bind:http.port` and serves `catalog` over `engine` until stopped.
    pub async fn start(
        engine: Arc<Engine>,
        catalog: CatalogFeed,
        gateway: GatewayOptions,
        http: HttpOptions,
    ) -> Result<Self, EndpointError> {
        if !http.bind.is_loopback() {
            return Err(EndpointError::NotLoopback { address: http.bind });
        }
        let vault = (**engine.vault()).clone();
        let token = tokio::task::spawn_blocking(move || TokenCheck::open(vault))
            .await
            .map_err(|e| EndpointError::Interrupted { message: e.to_string() })??;
        let requested = SocketAddr::new(http.bind, http.port);
        let listener = TcpListener::bind(requested)
            .await
            .map_err(|e| EndpointError::Bind { address: requested, message: e.to_string() })?;
        let address =
            listener.local_addr().map_err(|e| EndpointError::Bind { address: requested, message: e.to_string() })?;
        let stopping = CancellationToken::new();
        let token = Arc::new(token);
        let admission = Admission::new(address.port(), &http.allowed_origins);
        let mcp = mcp_service(engine, catalog, gateway, &admission, stopping.child_token());
        let front = Front { admission: Arc::new(admission), token: Arc::clone(&token), sessions: Arc::default(), mcp };
        let accepting = tokio::spawn(accept(listener, front, stopping.clone()));
        tracing::info!(%address, "the gateway's HTTP endpoint is listening");
        Ok(Self { address, token, stopping, accepting })
    }

    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The URL a client is given (with the token as its bearer).
    pub fn url(&self) -> String {
        format!("http://{}{MCP_PATH}", self.address)
    }

    /// A new token, in force at once here and, through the keychain, in every other running endpoint. Blocks on
    /// the keychain.
    pub fn rotate_token(&self) -> Result<Sensitive<String>, TokenError> {
        self.token.rotate()
    }

    /// Stops accepting, ends every session and waits for the listener to close.
    pub async fn stop(self) {
        self.stopping.cancel();
        let _ = self.accepting.await;
    }
}

/// rmcp's service with a `Gateway` per session, checking Host and Origin again behind the guard.
fn mcp_service(
    engine: Arc<Engine>,
    catalog: CatalogFeed,
    gateway: GatewayOptions,
    admission: &Admission,
    stopping: CancellationToken,
) -> StreamableHttpService<Gateway, LocalSessionManager> {
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(admission.hosts().to_vec())
        .with_allowed_origins(admission.origins().to_vec())
        .enforce_origin_validation()
        .with_max_request_body_bytes(MAX_BODY_BYTES)
        .with_cancellation_token(stopping);
    let new_session = move || Ok(Gateway::new(Arc::clone(&engine), catalog.clone(), gateway.clone()));
    StreamableHttpService::new(new_session, Arc::default(), config)
}

pub(super) type HttpResponse = Response<BoxBody<Bytes, Infallible>>;

/// What stands in front of rmcp: the guard and the session binding.
#[derive(Clone)]
struct Front {
    admission: Arc<Admission>,
    token: Arc<TokenCheck>,
    sessions: Arc<SessionBindings>,
    mcp: StreamableHttpService<Gateway, LocalSessionManager>,
}

impl Front {
    async fn handle(&self, request: Request<Incoming>) -> HttpResponse {
        let current = self.token.current().await;
        let screened =
            screen(&self.admission, &self.sessions, current.as_ref(), request.uri().path(), request.headers());
        let (presented, session) = match screened {
            Ok(admitted) => admitted,
            Err(refusal) => return refused(&refusal),
        };
        let ending = request.method() == Method::DELETE;
        let response = self.mcp.handle(request).await;
        match session {
            None => {
                if let Some(opened) = response.headers().get(SESSION_HEADER).and_then(|v| v.to_str().ok()) {
                    self.sessions.bind(opened.to_owned(), presented);
                }
            }
            Some(session) if ending && response.status().is_success() => self.sessions.forget(&session),
            Some(_) => {}
        }
        response
    }
}

/// Everything a request must pass before rmcp sees it: the path, the guard (Host, Origin, size, token) and the
/// binding of the session it names to the token that opened it. Returns the presented token's digest and that
/// session.
pub(super) fn screen(
    admission: &Admission,
    sessions: &SessionBindings,
    current: Option<&TokenDigest>,
    path: &str,
    headers: &http::HeaderMap,
) -> Result<(TokenDigest, Option<String>), Refusal> {
    if path != MCP_PATH {
        return Err(Refusal { status: StatusCode::NOT_FOUND, message: format!("the gateway is at {MCP_PATH}") });
    }
    let presented = admission.check(headers, current)?;
    let session = headers.get(SESSION_HEADER).and_then(|v| v.to_str().ok()).map(str::to_owned);
    if let Some(session) = &session
        && !sessions.allows(session, &presented)
    {
        // 404 is how a client learns its session is gone and that it should start a new one.
        let message = "this session was opened with another token: start a new session".to_owned();
        return Err(Refusal { status: StatusCode::NOT_FOUND, message });
    }
    Ok((presented, session))
}

pub(super) fn refused(refusal: &Refusal) -> HttpResponse {
    let mut response = Response::new(Full::new(Bytes::from(format!("{}\n", refusal.message))).boxed());
    *response.status_mut() = refusal.status;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, http::HeaderValue::from_static("text/plain; charset=utf-8"));
    if refusal.status == StatusCode::UNAUTHORIZED {
        headers.insert(header::WWW_AUTHENTICATE, http::HeaderValue::from_static("Bearer realm=\"plugboard\""));
    }
    response
}

/// Accepts connections until `stopping`; each connection ends gracefully when it fires.
async fn accept(listener: TcpListener, front: Front, stopping: CancellationToken) {
    loop {
        let stream = tokio::select! {
            () = stopping.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of file descriptors and the like: pause rather than spin.
                    tracing::warn!(error = %e, "the gateway could not accept a connection");
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let front = front.clone();
        let stopping = stopping.clone();
        tokio::spawn(async move {
            let service = service_fn(move |request| {
                let front = front.clone();
                async move { Ok::<_, Infallible>(front.handle(request).await) }
            });
            let connection = http1::Builder::new().serve_connection(TokioIo::new(stream), service);
            tokio::pin!(connection);
            let served = tokio::select! {
                served = connection.as_mut() => served,
                () = stopping.cancelled() => {
                    connection.as_mut().graceful_shutdown();
                    connection.await
                }
            };
            if let Err(e) = served {
                tracing::debug!(error = %e, "a gateway connection ended with an error");
            }
        });
    }
}
