//! The legacy HTTP+SSE client transport (MCP 2024-11-05), which rmcp no longer ships: a GET event stream for what
//! the server says, a POST per message for what we say.
//! Reached only through `transport::connect_remote`. Must never log header values or message bodies, nor POST anywhere but the SSE URL's own origin.
//!
//! It implements rmcp's `Transport` directly rather than a (Sink, Stream) pair: rmcp's sink adapter holds a mutex
//! across each send, which would serialise the POSTs, while here every `send` is an independent future (rmcp runs
//! them concurrently), `receive` is a channel, and `close` stops the reader task.

mod endpoint;
mod error;
mod events;
#[cfg(feature = "fuzzing")]
mod fuzz_hook;
mod reader;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_everything;
#[cfg(test)]
mod tests_support;

use std::sync::Arc;
use std::time::Duration;

use reqwest::header::{self, HeaderMap, HeaderName, HeaderValue};
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::service::RoleClient;
use rmcp::transport::Transport;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use url::Url;

pub use error::LegacySseError;
pub use reader::StreamEnd;

#[cfg(feature = "fuzzing")]
pub(crate) use fuzz_hook::fuzz_event_stream;

use reader::EventReader;

use super::limits::MAX_MESSAGE_BYTES;

/// How long a POST may take to be acknowledged. The answer itself comes over the stream, so the POST should return
/// at once; a server that never answers it (server-everything does that for an unknown session) must not pin a send.
const POST_TIMEOUT: Duration = Duration::from_secs(30);
/// Messages read ahead of rmcp. When full, the reader stops reading the socket.
const CHANNEL_CAPACITY: usize = 64;

/// Where and how to connect.
#[derive(Clone)]
pub struct LegacySseConfig {
    /// The SSE URL (the GET), e.g. `https://tools.example/sse`.
    pub url: String,
    /// Sent with the GET and every POST. Already resolved, so values may be secrets: never log them.
    pub headers: Vec<(String, String)>,
    /// Bound on the GET plus the wait for the `endpoint` event.
    pub connect_timeout: Duration,
    /// Largest single event accepted; a larger one ends the stream with `EventTooLarge`.
    pub max_event_bytes: usize,
}

impl LegacySseConfig {
    /// Defaults: no headers, 10 s to receive the endpoint, [`MAX_MESSAGE_BYTES`] per event.
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            headers: Vec::new(),
            connect_timeout: Duration::from_secs(10),
            max_event_bytes: MAX_MESSAGE_BYTES,
        }
    }
}

impl std::fmt::Debug for LegacySseConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Header names only: the values may be tokens. Some servers take a key in the query, so that goes too.
        let names: Vec<&str> = self.headers.iter().map(|(name, _)| name.as_str()).collect();
        f.debug_struct("LegacySseConfig")
            .field("url", &redacted(&self.url))
            .field("headers", &names)
            .field("connect_timeout", &self.connect_timeout)
            .field("max_event_bytes", &self.max_event_bytes)
            .finish()
    }
}

/// Opens the event stream, waits for the `endpoint` event and checks its origin; serve the result with
/// `rmcp::ServiceExt::serve`. The `client` must not have a total request timeout: the GET lives as long as the session.
pub async fn connect_legacy_sse(
    client: reqwest::Client,
    config: LegacySseConfig,
) -> Result<LegacySseTransport, LegacySseError> {
    let sse_url = Url::parse(&config.url).map_err(|e| LegacySseError::InvalidUrl { reason: e.to_string() })?;
    if !matches!(sse_url.scheme(), "http" | "https") {
        return Err(LegacySseError::InvalidUrl { reason: format!("scheme `{}` is not http(s)", sse_url.scheme()) });
    }
    let headers = Arc::new(header_map(&config.headers)?);
    let opening = async {
        let response = open_stream(&client, &sse_url, &headers).await?;
        let mut reader = EventReader::new(response.bytes_stream(), config.max_event_bytes);
        let endpoint = wait_for_endpoint(&mut reader, &sse_url).await?;
        Ok::<_, LegacySseError>((reader, endpoint))
    };
    let (reader, endpoint) = tokio::time::timeout(config.connect_timeout, opening)
        .await
        .map_err(|_| LegacySseError::EndpointTimeout { after: config.connect_timeout })??;
    tracing::debug!(origin = %sse_url.origin().ascii_serialization(), "legacy SSE endpoint received");

    let (messages, incoming) = mpsc::channel(CHANNEL_CAPACITY);
    let end = StreamEnd::default();
    let task = tokio::spawn(reader::forward_messages(reader, messages, end.clone()));
    Ok(LegacySseTransport { client, endpoint, headers, incoming, reader: Some(AbortOnDrop(task)), end })
}

/// A connected legacy SSE session, ready for `rmcp::ServiceExt::serve`. Dropping it stops the reader task.
pub struct LegacySseTransport {
    client: reqwest::Client,
    endpoint: Url,
    headers: Arc<HeaderMap>,
    incoming: mpsc::Receiver<ServerJsonRpcMessage>,
    reader: Option<AbortOnDrop>,
    end: StreamEnd,
}

impl LegacySseTransport {
    /// Why the stream ended, readable after rmcp has taken the transport (it reports only "closed").
    pub fn stream_end(&self) -> StreamEnd {
        self.end.clone()
    }
}

impl Transport<RoleClient> for LegacySseTransport {
    type Error = LegacySseError;

    fn send(
        &mut self,
        item: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<(), LegacySseError>> + Send + 'static {
        let (client, endpoint, headers, end) =
            (self.client.clone(), self.endpoint.clone(), self.headers.clone(), self.end.clone());
        async move {
            // Once the stream is gone no answer can arrive: fail now, with the reason, instead of posting blind.
            if let Some(cause) = end.cause() {
                return Err(match &*cause {
                    LegacySseError::Closed => LegacySseError::Closed,
                    _ => LegacySseError::Ended { cause },
                });
            }
            post_message(&client, endpoint, &headers, &item).await
        }
    }

    fn receive(&mut self) -> impl Future<Output = Option<ServerJsonRpcMessage>> + Send {
        self.incoming.recv()
    }

    async fn close(&mut self) -> Result<(), LegacySseError> {
        self.end.set(LegacySseError::Closed);
        if let Some(AbortOnDrop(task)) = self.reader.as_mut() {
            // Aborting cannot hang: the task only awaits the socket and the channel, both cancellable.
            task.abort();
            let _ = task.await;
        }
        self.reader = None;
        self.incoming.close();
        Ok(())
    }
}

/// Aborts the reader task when the transport is dropped without `close()`, so the GET never outlives it.
struct AbortOnDrop(JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The GET and its checks: a 401 with its challenge, any other failure status, a body that is not an event stream.
async fn open_stream(
    client: &reqwest::Client,
    sse_url: &Url,
    headers: &HeaderMap,
) -> Result<reqwest::Response, LegacySseError> {
    let mut request_headers = headers.clone();
    request_headers.insert(header::ACCEPT, HeaderValue::from_static("text/event-stream"));
    request_headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    let response = client.get(sse_url.clone()).headers(request_headers).send().await.map_err(LegacySseError::http)?;
    let status = response.status();
    if status == reqwest::StatusCode::UNAUTHORIZED {
        return Err(LegacySseError::auth_required(www_authenticate(response.headers())));
    }
    if !status.is_success() {
        return Err(LegacySseError::Status { status: status.as_u16(), during: "GET" });
    }
    check_content_type(response.headers())?;
    Ok(response)
}

/// Reads events up to the `endpoint` one and returns the URL it names, once its origin has been checked.
async fn wait_for_endpoint<S, B>(reader: &mut EventReader<S>, sse_url: &Url) -> Result<Url, LegacySseError>
where
    S: futures::Stream<Item = reqwest::Result<B>>,
    B: AsRef<[u8]>,
{
    loop {
        let event = reader.next().await?;
        if event.event == "endpoint" {
            return endpoint::resolve_endpoint(sse_url, &event.data);
        }
        // Nothing has been sent yet, so nothing can be answered: a message this early is noise.
        tracing::debug!(bytes = event.data.len(), "ignoring an SSE event before the `endpoint` event");
    }
}

/// One JSON-RPC message as one POST. The answer, if any, arrives on the event stream.
async fn post_message(
    client: &reqwest::Client,
    endpoint: Url,
    headers: &HeaderMap,
    message: &ClientJsonRpcMessage,
) -> Result<(), LegacySseError> {
    let body = serde_json::to_vec(message).map_err(LegacySseError::Encode)?;
    let mut request_headers = headers.clone();
    request_headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    let response = client
        .post(endpoint)
        .headers(request_headers)
        .body(body)
        .timeout(POST_TIMEOUT)
        .send()
        .await
        .map_err(LegacySseError::http)?;
    match response.status().as_u16() {
        200 | 202 | 204 => Ok(()),
        401 => Err(LegacySseError::auth_required(www_authenticate(response.headers()))),
        status @ (404 | 410) => Err(LegacySseError::SessionGone { status }),
        status => Err(LegacySseError::Status { status, during: "POST" }),
    }
}

/// The configured headers as HTTP headers; a bad one is named, its value never repeated.
fn header_map(headers: &[(String, String)]) -> Result<HeaderMap, LegacySseError> {
    let mut map = HeaderMap::with_capacity(headers.len());
    for (name, value) in headers {
        let invalid = || LegacySseError::InvalidHeader { name: name.clone() };
        let header_name = HeaderName::from_bytes(name.as_bytes()).map_err(|_| invalid())?;
        let mut header_value = HeaderValue::from_str(value).map_err(|_| invalid())?;
        // Keeps the value out of reqwest's and hyper's own debug output.
        header_value.set_sensitive(true);
        map.append(header_name, header_value);
    }
    Ok(map)
}

/// A 200 that is an HTML page (a login portal, a wrong path on a web app) must say so instead of timing out.
fn check_content_type(headers: &HeaderMap) -> Result<(), LegacySseError> {
    let content_type = headers.get(header::CONTENT_TYPE).map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    let essence = content_type.as_deref().and_then(|ct| ct.split(';').next()).map(str::trim);
    if essence.is_some_and(|e| e.eq_ignore_ascii_case("text/event-stream")) {
        return Ok(());
    }
    // Server-chosen text: shown, but bounded.
    let shown = content_type.map_or_else(|| "(none)".to_owned(), |ct| ct.chars().take(100).collect());
    Err(LegacySseError::NotSse { content_type: shown })
}

/// The URL without credentials, query or fragment, for debug output.
fn redacted(url: &str) -> String {
    let Ok(mut url) = Url::parse(url) else { return "[unparsable URL]".to_owned() };
    let had_query = url.query().is_some();
    let _ = url.set_password(None);
    let _ = url.set_username("");
    url.set_query(None);
    url.set_fragment(None);
    if had_query { format!("{url}?[redacted]") } else { url.into() }
}

fn www_authenticate(headers: &HeaderMap) -> Option<String> {
    headers.get(header::WWW_AUTHENTICATE).and_then(|v| v.to_str().ok()).map(str::to_owned)
}
