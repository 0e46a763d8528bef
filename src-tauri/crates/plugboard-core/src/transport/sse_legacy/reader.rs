//! Reading the GET's event stream: whole events out of body chunks, and the task that forwards `message` events.
//! Must never log an event's data (it carries tool results and user data) nor buffer past the event cap.

use std::pin::Pin;
use std::sync::{Arc, OnceLock};

use futures::{Stream, StreamExt};
use rmcp::model::ServerJsonRpcMessage;
use tokio::sync::mpsc;

use super::LegacySseError;
use super::events::{EventParser, SseEvent};

/// Whole events out of a response body.
pub(super) struct EventReader<S> {
    body: Pin<Box<S>>,
    parser: EventParser,
    limit: usize,
}

impl<S, B> EventReader<S>
where
    S: Stream<Item = reqwest::Result<B>>,
    B: AsRef<[u8]>,
{
    pub(super) fn new(body: S, max_event_bytes: usize) -> Self {
        Self { body: Box::pin(body), parser: EventParser::new(max_event_bytes), limit: max_event_bytes }
    }

    /// The next event. The stream always ends in an error: `StreamClosed` when the server ended it cleanly.
    pub(super) async fn next(&mut self) -> Result<SseEvent, LegacySseError> {
        loop {
            if let Some(event) = self.parser.next_event() {
                return Ok(event);
            }
            match self.body.next().await {
                None => return Err(LegacySseError::StreamClosed),
                Some(Err(e)) => return Err(LegacySseError::http(e)),
                Some(Ok(chunk)) => {
                    self.parser
                        .push(chunk.as_ref())
                        .map_err(|_| LegacySseError::EventTooLarge { limit: self.limit })?;
                }
            }
        }
    }
}

/// Why the event stream ended, once it has. Cheap to clone; shared by the reader task, `send` and the owner.
#[derive(Debug, Clone, Default)]
pub struct StreamEnd(Arc<OnceLock<Arc<LegacySseError>>>);

impl StreamEnd {
    /// The error that ended the stream (`StreamClosed` when the server hung up, `Closed` after `close()`), or
    /// `None` while it is still open.
    pub fn cause(&self) -> Option<Arc<LegacySseError>> {
        self.0.get().cloned()
    }

    /// Records the first cause only: later ones are consequences of it.
    pub(super) fn set(&self, cause: LegacySseError) {
        let _ = self.0.set(Arc::new(cause));
    }
}

/// Forwards `message` events until the stream ends or the receiver goes away, then records why it ended.
/// The cause is recorded before `messages` is dropped, so whoever sees the channel close can read it.
pub(super) async fn forward_messages<S, B>(
    mut reader: EventReader<S>,
    messages: mpsc::Sender<ServerJsonRpcMessage>,
    end: StreamEnd,
) where
    S: Stream<Item = reqwest::Result<B>>,
    B: AsRef<[u8]>,
{
    let cause = loop {
        let event = match reader.next().await {
            Ok(event) => event,
            Err(e) => break e,
        };
        match event.event.as_str() {
            "message" => {
                let Some(message) = decode_message(&event.data) else { continue };
                // A full channel waits here, which stops reading the socket: backpressure instead of memory.
                if messages.send(message).await.is_err() {
                    break LegacySseError::Closed;
                }
            }
            // A second endpoint must not redirect our POSTs mid-session.
            "endpoint" => tracing::debug!("ignoring a repeated `endpoint` event"),
            _ => tracing::debug!(bytes = event.data.len(), "ignoring an SSE event of an unknown type"),
        }
    };
    match &cause {
        LegacySseError::StreamClosed | LegacySseError::Closed => tracing::info!(%cause, "legacy SSE stream ended"),
        _ => tracing::warn!(%cause, "legacy SSE stream failed"),
    }
    end.set(cause);
}

/// Decodes a `message` event. Undecodable ones are skipped, not fatal: one broken message should not end a session
/// whose other requests are fine (the request it answered, if any, runs into its timeout). Only sizes and
/// positions are logged, never the data.
pub(super) fn decode_message(data: &[u8]) -> Option<ServerJsonRpcMessage> {
    if std::str::from_utf8(data).is_err() {
        tracing::warn!(bytes = data.len(), "skipping an SSE message that is not valid UTF-8");
        return None;
    }
    match serde_json::from_slice(data) {
        Ok(message) => Some(message),
        Err(e) => {
            tracing::warn!(
                bytes = data.len(),
                line = e.line(),
                column = e.column(),
                category = ?e.classify(),
                "skipping an SSE message that is not a JSON-RPC message"
            );
            None
        }
    }
}
