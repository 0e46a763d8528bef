//! Hands a running call its own notifications: progress carrying the call's progress token, and the server's log
//! messages (`notifications/message`) while it runs. Costs nothing on the call path unless a caller observes: the
//! actor reads one atomic counter per progress or log notice and takes the lock only while someone watches.
//!
//! rmcp hands each notification to a task of its own, so a call's last notices can still be on their way when its
//! response lands: an observer stays registered for [`LINGER`] after its call, then its sender is dropped, so a
//! caller that reads until the channel closes gets every event of the call.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use rmcp::model::{ProgressNotificationParam, ProgressToken};
use tokio::sync::{Mutex, MutexGuard, mpsc};

use super::call_event::CallEvent;

/// How long an observer keeps receiving after its call ended (see the module comment).
pub const LINGER: Duration = Duration::from_millis(25);

/// Where a caller wants its call's events; events after the receiver is dropped are discarded.
pub type CallObserver = mpsc::UnboundedSender<CallEvent>;

/// The calls of one server that are being observed, shared by its calls and its actor.
#[derive(Default)]
pub(super) struct Observers {
    /// How many calls observe right now: zero means the actor need not look.
    watching: AtomicUsize,
    /// Each observed request's progress token and its caller. Weak: an entry dies with its call's [`Watching`].
    entries: Mutex<Vec<(ProgressToken, Weak<CallObserver>)>>,
}

/// One observed call, from before its request is sent until it ends.
pub(super) struct Watching {
    observers: Arc<Observers>,
    sender: Arc<CallObserver>,
}

impl Drop for Watching {
    fn drop(&mut self) {
        let observers = Arc::clone(&self.observers);
        let sender = Arc::clone(&self.sender);
        let unwatch = move || {
            drop(sender);
            observers.watching.fetch_sub(1, Ordering::AcqRel);
        };
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => drop(runtime.spawn(async move {
                tokio::time::sleep(LINGER).await;
                unwatch();
            })),
            Err(_) => unwatch(),
        }
    }
}

impl Observers {
    /// Starts watching for a call: log messages reach `sender` from now on.
    pub(super) fn watch(self: &Arc<Self>, sender: CallObserver) -> Watching {
        self.watching.fetch_add(1, Ordering::AcqRel);
        Watching { observers: Arc::clone(self), sender: Arc::new(sender) }
    }

    /// A progress notice goes to the call whose token it carries, if that call is observed.
    pub(super) async fn progress(&self, params: ProgressNotificationParam) {
        if self.watching.load(Ordering::Acquire) == 0 {
            return;
        }
        let entries = self.entries.lock().await;
        let caller = entries.iter().find(|(token, _)| *token == params.progress_token).and_then(|(_, c)| c.upgrade());
        if let Some(caller) = caller {
            let event = CallEvent::Progress { progress: params.progress, total: params.total, message: params.message };
            let _ = caller.send(event);
        }
    }

    /// A log message goes to every call of this server that is observed right now.
    pub(super) async fn log(&self, level: &str, logger: Option<&str>, message: &str) {
        if self.watching.load(Ordering::Acquire) == 0 {
            return;
        }
        for caller in self.entries.lock().await.iter().filter_map(|(_, c)| c.upgrade()) {
            let event = CallEvent::Log {
                level: level.to_owned(),
                logger: logger.map(str::to_owned),
                message: message.to_owned(),
            };
            let _ = caller.send(event);
        }
    }
}

impl Watching {
    /// Holds the table while the request is sent, so the actor cannot look up this call's first progress notice
    /// before [`Registering::register`] has put its token in.
    pub(super) async fn begin(&self) -> Registering<'_> {
        Registering { entries: self.observers.entries.lock().await, watching: self }
    }
}

/// The table, locked while an observed request is being sent.
pub(super) struct Registering<'a> {
    entries: MutexGuard<'a, Vec<(ProgressToken, Weak<CallObserver>)>>,
    watching: &'a Watching,
}

impl Registering<'_> {
    pub(super) fn register(mut self, token: ProgressToken) {
        self.entries.retain(|(_, caller)| caller.strong_count() > 0);
        self.entries.push((token, Arc::downgrade(&self.watching.sender)));
    }
}
