//! Servers' log messages during a call, passed to the gateway's client as its own `notifications/message`, at or
//! above the level the client set with `logging/setLevel` (everything until it sets one). Log text is the server's:
//! it is passed on, never interpreted.
#![allow(deprecated)] // Logging is deprecated by SEP-2577 (2026-07-28); clients of 2025-11-25 still take it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};

/// The least severe level the client wants; shared by one client session's calls.
#[derive(Debug, Clone, Default)]
pub struct LogFloor(Arc<AtomicU8>);

impl LogFloor {
    pub fn set(&self, level: LoggingLevel) {
        self.0.store(severity(level), Ordering::Relaxed);
    }

    /// The notification for one server log line, or `None` when the client asked for less (or the level is not
    /// one MCP knows).
    pub fn notification(
        &self,
        level: &str,
        logger: Option<String>,
        message: String,
    ) -> Option<LoggingMessageNotificationParam> {
        let level: LoggingLevel = serde_json::from_value(serde_json::Value::String(level.to_owned())).ok()?;
        if severity(level) < self.0.load(Ordering::Relaxed) {
            return None;
        }
        let mut notification = LoggingMessageNotificationParam::new(level, serde_json::Value::String(message));
        notification.logger = logger;
        Some(notification)
    }
}

/// 0 (debug) to 7 (emergency): the order the spec gives the levels, which is their declaration order.
fn severity(level: LoggingLevel) -> u8 {
    level as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Until the client sets a level everything passes; after `warning`, info is held back and error passes.
    #[test]
    fn the_clients_level_filters() {
        let floor = LogFloor::default();
        assert!(floor.notification("debug", None, "x".into()).is_some());
        floor.set(LoggingLevel::Warning);
        assert!(floor.notification("info", None, "x".into()).is_none());
        let passed = floor.notification("error", Some("db".into()), "boom".into()).expect("passes");
        assert_eq!(
            (passed.level, passed.logger.as_deref(), passed.data.as_str()),
            (LoggingLevel::Error, Some("db"), Some("boom"))
        );
        assert!(floor.notification("plugboard-warning", None, "x".into()).is_none(), "not an MCP level");
    }
}
