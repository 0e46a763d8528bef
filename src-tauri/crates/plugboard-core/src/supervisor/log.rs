//! A server's recent log: the last few hundred messages it sent (`notifications/message`) and Plugboard's own
//! warnings about it, so its page shows history and not only what arrived since it was opened. Bounded in
//! entries and in text per entry; its std `Mutex` is held only to push or copy, never across an await.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;

/// How many entries a server's log keeps; older ones fall off.
pub const LOG_CAPACITY: usize = 500;
/// How many characters of one message are kept (a server may log megabytes in one notification).
pub const LOG_TEXT_LIMIT: usize = 8 * 1024;
/// The level of Plugboard's own notes about a server (an allowlist entry matching nothing, a declined request…).
pub const PLUGBOARD_WARNING: &str = "plugboard-warning";
/// The level and logger of a line a failed server's process wrote to stderr: stderr says nothing about severity.
pub const STDERR_LEVEL: &str = "info";
pub const STDERR_LOGGER: &str = "stderr";

/// One line of a server's log. `message` (and `logger`) are server text: show them inert.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ServerLogEntry {
    /// Counts up per server and survives reconnects, so the UI can merge the history with live events.
    pub seq: u32,
    /// When Plugboard received it, in milliseconds since the Unix epoch.
    pub at_ms: f64,
    /// The syslog level the server gave (`debug` … `emergency`), or `plugboard-warning`.
    pub level: String,
    pub logger: Option<String>,
    pub message: String,
}

/// The ring of one server's recent entries, shared by its actor (which writes) and the supervisor (which reads).
#[derive(Debug, Default)]
pub struct LogRing {
    inner: Mutex<Ring>,
}

#[derive(Debug, Default)]
struct Ring {
    entries: VecDeque<ServerLogEntry>,
    next_seq: u32,
}

impl LogRing {
    /// Records an entry (dropping the oldest past [`LOG_CAPACITY`]) and returns it as stored.
    pub fn push(&self, level: &str, logger: Option<String>, message: &str) -> ServerLogEntry {
        let at_ms = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64() * 1000.0);
        let mut ring = self.lock();
        let entry = ServerLogEntry {
            seq: ring.next_seq,
            at_ms,
            level: level.to_owned(),
            logger: logger.map(|l| clip(&l, 200)),
            message: clip(message, LOG_TEXT_LIMIT),
        };
        ring.next_seq = ring.next_seq.wrapping_add(1);
        if ring.entries.len() == LOG_CAPACITY {
            ring.entries.pop_front();
        }
        ring.entries.push_back(entry.clone());
        entry
    }

    /// Every kept entry, oldest first.
    pub fn snapshot(&self) -> Vec<ServerLogEntry> {
        self.lock().entries.iter().cloned().collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Ring> {
        // A push is whole or absent, so a panic elsewhere cannot leave the ring half-written.
        self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// At most `limit` characters, marked when cut.
fn clip(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((cut, _)) => format!("{}… (cut: {} characters in all)", &text[..cut], text.chars().count()),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ring keeps only the newest LOG_CAPACITY entries, oldest first, with sequence numbers that keep counting.
    #[test]
    fn keeps_the_newest_entries_only() {
        let ring = LogRing::default();
        for i in 0..LOG_CAPACITY + 20 {
            ring.push("info", None, &format!("line {i}"));
        }
        let kept = ring.snapshot();
        assert_eq!(kept.len(), LOG_CAPACITY);
        assert_eq!(kept[0].message, "line 20");
        assert_eq!(kept[0].seq, 20);
        assert_eq!(kept.last().map(|e| e.seq), Some(u32::try_from(LOG_CAPACITY + 19).expect("small")));
    }

    /// A huge message is cut to LOG_TEXT_LIMIT characters and says so; a short one is kept whole.
    #[test]
    fn long_messages_are_cut() {
        let ring = LogRing::default();
        let entry = ring.push("debug", Some("big".into()), &"é".repeat(LOG_TEXT_LIMIT + 5));
        assert!(entry.message.starts_with(&"é".repeat(LOG_TEXT_LIMIT)));
        assert!(entry.message.ends_with(&format!("(cut: {} characters in all)", LOG_TEXT_LIMIT + 5)));
        assert_eq!(ring.push("info", None, "short").message, "short");
    }
}
