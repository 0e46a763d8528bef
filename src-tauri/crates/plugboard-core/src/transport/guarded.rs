//! The wrapper every client transport is served through: it counts what the server sends unasked (a flood trips the
//! session's wire) and stops receiving the moment any limit is crossed, which ends rmcp's session as a closed
//! transport; and it shows each message to the session's call tap first, so a call's progress reaches its watcher
//! in wire order. It must never alter, reorder or hold back a message otherwise.

use std::time::Instant;

use rmcp::model::ServerJsonRpcMessage;
use rmcp::service::RoleClient;
use rmcp::transport::Transport;

use super::call_tap::CallTap;
use super::limits::{LimitExceeded, MAX_UNASKED_PER_SECOND, RateWindow, Tripwire};

/// Says which limit ended a transport whose own reader noticed it (the legacy SSE reader keeps its end's cause).
pub(crate) type EndCause = Box<dyn Fn() -> Option<LimitExceeded> + Send + Sync>;

/// `inner`, watched by `wire`, its notifications shown to `tap`.
pub(crate) struct Guarded<T> {
    inner: T,
    wire: Tripwire,
    tap: CallTap,
    unasked: RateWindow,
    end_cause: Option<EndCause>,
}

impl<T> Guarded<T> {
    pub(crate) fn new(inner: T, wire: Tripwire, tap: CallTap) -> Self {
        Self { inner, wire, tap, unasked: RateWindow::new(MAX_UNASKED_PER_SECOND), end_cause: None }
    }

    /// When `inner` ends by itself, `cause` says whether a limit ended it.
    pub(crate) fn with_end_cause(self, cause: EndCause) -> Self {
        Self { end_cause: Some(cause), ..self }
    }
}

/// A notification or a request: something the server sent without being asked (answers are bounded by our asking).
fn unasked(message: &ServerJsonRpcMessage) -> bool {
    matches!(message, ServerJsonRpcMessage::Notification(_) | ServerJsonRpcMessage::Request(_))
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Guarded<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: rmcp::model::ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<ServerJsonRpcMessage> {
        if self.wire.cause().is_some() {
            return None;
        }
        let received = tokio::select! {
            biased;
            () = self.wire.tripped() => return None,
            received = self.inner.receive() => received,
        };
        let Some(message) = received else {
            if let Some(cause) = self.end_cause.as_ref().and_then(|cause| cause()) {
                self.wire.trip(cause);
            }
            return None;
        };
        if unasked(&message) && !self.unasked.admit(Instant::now()) {
            self.wire.trip(LimitExceeded::Flood { per_second: self.unasked.limit() });
            return None;
        }
        self.tap.offer(&message);
        Some(message)
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.inner.close().await
    }
}
