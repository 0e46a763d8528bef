//! The HTTP client a Streamable HTTP session runs on, as rmcp sees it: the caller's client (pooled, or rmcp's
//! `AuthClient` over it), with every response read within [`MAX_MESSAGE_BYTES`] and a crossed limit tripping the
//! session's wire. rmcp enforces the byte limits itself but only fails the one request (and retries a too-large
//! event stream): the session would go on as if the server were fine. It must never read a body or an event past
//! the limit, nor change a request.

use std::collections::HashMap;
use std::sync::Arc;

use futures::StreamExt;
use futures::stream::BoxStream;
use reqwest::header::{HeaderName, HeaderValue};
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse, StreamableHttpResponseLimits,
};
use sse_stream::Sse;

use super::limits::{LimitExceeded, MAX_MESSAGE_BYTES, Tripwire};

type Events = BoxStream<'static, Result<Sse, SseError>>;

/// `inner`, bounded and watched.
#[derive(Clone)]
pub(crate) struct BoundedHttp<C> {
    inner: C,
    wire: Tripwire,
}

impl<C> BoundedHttp<C> {
    pub(crate) fn new(inner: C, wire: Tripwire) -> Self {
        Self { inner, wire }
    }

    /// The events as they come; the first one past the limit trips the wire.
    fn watch_events(&self, events: Events, limit: usize) -> Events {
        let wire = self.wire.clone();
        events
            .inspect(move |event| {
                if let Err(error) = event
                    && event_too_large(error)
                {
                    wire.trip(LimitExceeded::SseEvent { limit });
                }
            })
            .boxed()
    }
}

/// Plugboard's limits in rmcp's terms; an error body is only ever shown, so 64 KiB of it is plenty.
pub(crate) fn response_limits() -> StreamableHttpResponseLimits {
    let mut limits = StreamableHttpResponseLimits::default();
    limits.max_sse_event_size = MAX_MESSAGE_BYTES;
    limits.max_json_response_size = MAX_MESSAGE_BYTES;
    limits.max_error_response_size = 64 << 10;
    limits
}

/// rmcp's own error for an event past its limit, recognised by its words: its type is private. A test pins them
/// (`hostile_http_tests`), so a wording change in rmcp fails there rather than passing unnoticed.
fn event_too_large(error: &SseError) -> bool {
    matches!(error, SseError::Body(inner) if inner.to_string().starts_with("SSE event exceeded the maximum size"))
}

impl<C> StreamableHttpClient for BoundedHttp<C>
where
    C: StreamableHttpClient + Send + Sync,
{
    type Error = C::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        self.post_message_with_response_limits(uri, message, session_id, auth_header, custom_headers, response_limits())
            .await
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        _max_sse_event_size: usize,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        // Plugboard's limits, whatever the caller passed.
        self.post_message_with_response_limits(uri, message, session_id, auth_header, custom_headers, response_limits())
            .await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        _limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, StreamableHttpError<Self::Error>> {
        let limits = response_limits();
        let response = self
            .inner
            .post_message_with_response_limits(uri, message, session_id, auth_header, custom_headers, limits)
            .await;
        match response {
            Err(StreamableHttpError::ResponseBodyTooLarge { max_size }) => {
                self.wire.trip(LimitExceeded::ResponseBody { limit: max_size });
                Err(StreamableHttpError::ResponseBodyTooLarge { max_size })
            }
            Ok(StreamableHttpPostResponse::Sse(events, session)) => {
                Ok(StreamableHttpPostResponse::Sse(self.watch_events(events, limits.max_sse_event_size), session))
            }
            other => other,
        }
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), StreamableHttpError<Self::Error>> {
        self.inner.delete_session(uri, session_id, auth_header, custom_headers).await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<Events, StreamableHttpError<Self::Error>> {
        self.get_stream_with_max_sse_event_size(
            uri,
            session_id,
            last_event_id,
            auth_header,
            custom_headers,
            MAX_MESSAGE_BYTES,
        )
        .await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        _max_sse_event_size: usize,
    ) -> Result<Events, StreamableHttpError<Self::Error>> {
        let events = self
            .inner
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
                MAX_MESSAGE_BYTES,
            )
            .await?;
        Ok(self.watch_events(events, MAX_MESSAGE_BYTES))
    }
}
