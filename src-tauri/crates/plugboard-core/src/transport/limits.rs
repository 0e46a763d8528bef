//! The limits on what a server may send Plugboard, and the tripwire that ends a session which crosses one. Every
//! transport enforces them before the bytes are buffered (stdio lines, Streamable HTTP bodies and events, legacy
//! SSE events) and the session counts what arrives unasked (notifications, requests), so a hostile or broken server
//! costs a bounded amount of memory and ends in a status that says which limit it crossed. It must never cut a
//! session for anything but a crossed limit, nor let a crossed one pass as an ordinary disconnection (which would
//! be retried).

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

/// The largest single JSON-RPC message accepted from a server, however it is framed: one stdout line, one
/// Streamable HTTP JSON body, one SSE event (either era). 16 MiB holds a tool result with several screenshots as
/// base64 (a 4K PNG is ~10 MiB encoded) and is rmcp's own default for both its stdio and HTTP clients, so a message
/// one transport takes is taken by all; while one is being read it is the most one session holds in memory.
pub const MAX_MESSAGE_BYTES: usize = 16 << 20;

/// The most notifications and requests a server may send unasked within one second (a fixed window). No person or
/// client can follow more: progress is shown a few times a second and a log at 1,000 lines a second is already
/// unreadable, while each one costs a task, a log line and an event. A server past it is flooding, on purpose or
/// by a bug (a loop that reports each step of a tight loop), and is stopped.
pub const MAX_UNASKED_PER_SECOND: u32 = 1_000;

/// The most notices (logs, progress, list changes) that may wait for the session's owner to handle them. The owner
/// handles one at a time and waits at most a server's timeout on each (a tools/list after a change), so a backlog
/// of 1,024 means the server outran it for good; beyond that memory would grow with every line it sends.
pub const MAX_NOTICE_BACKLOG: usize = 1_024;

/// Which limit a server crossed. The text is what its status says.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LimitExceeded {
    #[error(
        "the server wrote more than {} to stdout without a newline (a message is one line, at most that long), so \
         Plugboard stopped it",
        mib(*limit)
    )]
    StdoutLine { limit: usize },
    #[error("the server sent a response larger than {}, the most Plugboard takes in one message, so Plugboard disconnected", mib(*limit))]
    ResponseBody { limit: usize },
    #[error(
        "the server sent an event larger than {} on its event stream, the most Plugboard takes in one message, so Plugboard \
         disconnected",
        mib(*limit)
    )]
    SseEvent { limit: usize },
    #[error(
        "the server sent more than {per_second} notifications and requests within one second, so Plugboard stopped it"
    )]
    Flood { per_second: u32 },
    #[error(
        "{backlog} of the server's notifications were waiting to be handled (it sends them faster than Plugboard can handle \
         them), so Plugboard stopped it"
    )]
    Backlog { backlog: usize },
}

/// "16 MiB" (or "512 KiB" for the small limits tests use).
fn mib(bytes: usize) -> String {
    if bytes >= 1 << 20 { format!("{} MiB", bytes >> 20) } else { format!("{} KiB", bytes >> 10) }
}

/// Shared by a session's transport, its handler and the session itself: the first limit crossed is kept, and the
/// transport stops receiving at once. Cheap to clone.
#[derive(Debug, Clone, Default)]
pub(crate) struct Tripwire(Arc<Trip>);

#[derive(Debug, Default)]
struct Trip {
    cause: OnceLock<LimitExceeded>,
    tripped: CancellationToken,
}

impl Tripwire {
    /// Records the first crossed limit (later ones are consequences of it) and wakes whoever waits in `tripped`.
    pub(crate) fn trip(&self, cause: LimitExceeded) {
        if self.0.cause.set(cause).is_ok() {
            tracing::warn!(cause = %self.0.cause.get().map(ToString::to_string).unwrap_or_default(), "a server crossed a limit");
            self.0.tripped.cancel();
        }
    }

    pub(crate) fn cause(&self) -> Option<&LimitExceeded> {
        self.0.cause.get()
    }

    /// Resolves once a limit was crossed.
    pub(crate) async fn tripped(&self) {
        self.0.tripped.cancelled().await;
    }
}

/// Counts what a server sends unasked in fixed one-second windows.
#[derive(Debug)]
pub(crate) struct RateWindow {
    per_second: u32,
    started: Instant,
    seen: u32,
}

impl RateWindow {
    pub(crate) fn new(per_second: u32) -> Self {
        Self { per_second, started: Instant::now(), seen: 0 }
    }

    /// Counts one message at `now`; false once more than the limit arrived within the current window.
    pub(crate) fn admit(&mut self, now: Instant) -> bool {
        if now.duration_since(self.started) >= Duration::from_secs(1) {
            self.started = now;
            self.seen = 0;
        }
        self.seen = self.seen.saturating_add(1);
        self.seen <= self.per_second
    }

    pub(crate) fn limit(&self) -> u32 {
        self.per_second
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The window admits exactly the limit per second and starts over in the next second.
    #[test]
    fn the_rate_window_admits_the_limit_per_second() {
        let mut window = RateWindow::new(3);
        let start = window.started;
        assert!((0..3).all(|_| window.admit(start)));
        assert!(!window.admit(start + Duration::from_millis(999)));
        assert!(window.admit(start + Duration::from_secs(1)));
    }

    /// Only the first crossed limit is kept, and waiting for the trip returns once it happened.
    #[tokio::test]
    async fn the_first_crossed_limit_is_kept() {
        let wire = Tripwire::default();
        assert!(wire.cause().is_none());
        wire.trip(LimitExceeded::Flood { per_second: 1_000 });
        wire.trip(LimitExceeded::StdoutLine { limit: MAX_MESSAGE_BYTES });
        wire.clone().tripped().await;
        assert_eq!(wire.cause(), Some(&LimitExceeded::Flood { per_second: 1_000 }));
        let said = LimitExceeded::StdoutLine { limit: MAX_MESSAGE_BYTES }.to_string();
        assert!(said.contains("more than 16 MiB to stdout without a newline"), "{said}");
    }
}
