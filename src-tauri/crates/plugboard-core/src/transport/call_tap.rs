//! A running call's own notifications (progress, and the server's log lines while it runs) handed to whoever
//! watches calls, straight from the transport in the order they arrived on the wire. rmcp hands each notification
//! to a task of its own and a response straight to its waiter, so through the client handler a call's last
//! progress could land after its result; here every notice the server sent before a response is delivered before
//! rmcp even reads that response. It must never block, await, or alter what it sees.

use std::sync::{Arc, OnceLock};

use rmcp::model::{ProgressNotificationParam, ServerJsonRpcMessage, ServerNotification};

use super::handler::ServerLog;

/// Who watches a session's calls (the supervisor's observers). Called on the transport's receiving task: it must
/// return at once.
pub trait CallNotices: Send + Sync {
    /// `notifications/progress`, for whichever call carries its token.
    fn progress(&self, progress: &ProgressNotificationParam);
    /// `notifications/message`, for the calls running now.
    fn log(&self, log: &ServerLog);
}

/// The slot a session's transport reads; the session's owner attaches its watcher once, before any call.
#[derive(Clone, Default)]
pub struct CallTap(Arc<OnceLock<Arc<dyn CallNotices>>>);

impl std::fmt::Debug for CallTap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallTap").field("attached", &self.0.get().is_some()).finish()
    }
}

impl CallTap {
    /// From now on, `watcher` hears this session's progress and log notifications; a second attach is ignored.
    pub fn attach(&self, watcher: Arc<dyn CallNotices>) {
        let _ = self.0.set(watcher);
    }

    /// Passes on `message` if it is a notification a call may be waiting for.
    pub(crate) fn offer(&self, message: &ServerJsonRpcMessage) {
        let (Some(watcher), ServerJsonRpcMessage::Notification(notification)) = (self.0.get(), message) else {
            return;
        };
        match &notification.notification {
            ServerNotification::ProgressNotification(progress) => watcher.progress(&progress.params),
            #[allow(deprecated)] // See `ServerLog::from_rmcp`.
            ServerNotification::LoggingMessageNotification(log) => {
                watcher.log(&ServerLog::from_rmcp(log.params.clone()));
            }
            _ => {}
        }
    }
}
