//! Hands a running call its own notifications: progress carrying the call's progress token, and the server's log
//! messages (`notifications/message`) while it runs. The session's transport delivers them here in wire order
//! (`transport::CallTap`), so every notice a server sent before a call's result reaches the caller before the result
//! does, and the caller's channel closes the moment the call is over. Costs nothing on the call path unless a caller
//! observes: one atomic counter is read per notice, the table is locked only while someone watches. It must never
//! block or await: it runs on the transport's receiving task.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};

use rmcp::model::{ProgressNotificationParam, ProgressToken};

use super::call_event::CallEvent;
use crate::transport::{CallNotices, ServerLog};

/// Where a caller wants its call's events; events after the receiver is dropped are discarded.
pub type CallObserver = tokio::sync::mpsc::UnboundedSender<CallEvent>;

/// How many progress notices are kept for a call whose token is not registered yet (rmcp picks the token while it
/// sends the request, so a fast server's first notice can arrive before the caller knows which token is its own).
const EARLY_NOTICES: usize = 64;

/// The calls of one server that are being observed, shared by its calls and its session's transport.
#[derive(Default)]
pub(super) struct Observers {
    /// How many calls observe right now: zero means no notice need be looked at.
    watching: AtomicUsize,
    table: Mutex<Table>,
}

#[derive(Default)]
struct Table {
    /// Each observed request's progress token and its caller. Weak: an entry dies with its call's [`Watching`].
    entries: Vec<(ProgressToken, Weak<CallObserver>)>,
    /// Observed requests being sent, whose tokens are not known yet.
    registering: usize,
    /// Progress for no known token while some request is being registered: handed over when its token is.
    early: VecDeque<ProgressNotificationParam>,
}

/// One observed call, from before its request is sent until it ends; dropping it closes the caller's channel.
pub(super) struct Watching {
    observers: Arc<Observers>,
    sender: Arc<CallObserver>,
}

impl Drop for Watching {
    fn drop(&mut self) {
        self.observers.watching.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Observers {
    /// Starts watching for a call: log messages reach `sender` from now on.
    pub(super) fn watch(self: &Arc<Self>, sender: CallObserver) -> Watching {
        self.watching.fetch_add(1, Ordering::AcqRel);
        Watching { observers: Arc::clone(self), sender: Arc::new(sender) }
    }

    fn table(&self) -> MutexGuard<'_, Table> {
        // A poisoned table only means a caller panicked while holding it; the table itself is still consistent.
        self.table.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl CallNotices for Observers {
    /// A progress notice goes to the call whose token it carries, if that call is observed.
    fn progress(&self, progress: &ProgressNotificationParam) {
        if self.watching.load(Ordering::Acquire) == 0 {
            return;
        }
        let mut table = self.table();
        let caller = table.entries.iter().find(|(token, _)| *token == progress.progress_token);
        if let Some(caller) = caller.and_then(|(_, c)| c.upgrade()) {
            let _ = caller.send(CallEvent::progress(progress));
        } else if table.registering > 0 {
            if table.early.len() == EARLY_NOTICES {
                table.early.pop_front();
            }
            table.early.push_back(progress.clone());
        }
    }

    /// A log message goes to every call of this server that is observed right now.
    fn log(&self, log: &ServerLog) {
        if self.watching.load(Ordering::Acquire) == 0 {
            return;
        }
        let message = match &log.data {
            serde_json::Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        for caller in self.table().entries.iter().filter_map(|(_, c)| c.upgrade()) {
            let event =
                CallEvent::Log { level: log.level.clone(), logger: log.logger.clone(), message: message.clone() };
            let _ = caller.send(event);
        }
    }
}

impl Watching {
    /// Notes that this call's request is being sent: progress for a token not known yet is kept until
    /// [`Registering::register`] names this call's.
    pub(super) fn begin(&self) -> Registering<'_> {
        self.observers.table().registering += 1;
        Registering { watching: self }
    }
}

/// An observed request being sent; dropped without a token (the send failed), it stops keeping early notices.
pub(super) struct Registering<'a> {
    watching: &'a Watching,
}

impl Registering<'_> {
    /// The request went out with `token`: its progress reaches the caller from now on, early notices first.
    pub(super) fn register(self, token: ProgressToken) {
        let mut table = self.watching.observers.table();
        table.entries.retain(|(_, caller)| caller.strong_count() > 0);
        let early = std::mem::take(&mut table.early);
        for progress in early {
            if progress.progress_token == token {
                let _ = self.watching.sender.send(CallEvent::progress(&progress));
            } else {
                table.early.push_back(progress);
            }
        }
        // Registered under the same lock as the early notices were handed over, so none falls between.
        table.entries.push((token, Arc::downgrade(&self.watching.sender)));
        // `Drop` below ends the registration.
    }
}

impl Drop for Registering<'_> {
    fn drop(&mut self) {
        let mut table = self.watching.observers.table();
        table.registering -= 1;
        if table.registering == 0 {
            table.early.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::NumberOrString;

    fn progress(token: &str, progress: f64) -> ProgressNotificationParam {
        ProgressNotificationParam::new(ProgressToken(NumberOrString::String(token.into())), progress)
    }

    fn token(name: &str) -> ProgressToken {
        ProgressToken(NumberOrString::String(name.into()))
    }

    fn drained(receiver: &mut tokio::sync::mpsc::UnboundedReceiver<CallEvent>) -> Vec<f64> {
        std::iter::from_fn(|| receiver.try_recv().ok())
            .map(|event| match event {
                CallEvent::Progress { progress, .. } => progress,
                other => panic!("expected progress, got {other:?}"),
            })
            .collect()
    }

    /// A call's progress reaches it at once, in order, and the channel closes as soon as the call is over (no
    /// waiting after the call for notices still on their way).
    #[test]
    fn progress_reaches_its_call_in_order_and_the_channel_closes_with_the_call() {
        let observers = Arc::new(Observers::default());
        let (sender, mut receiver) = tokio::sync::mpsc::unbounded_channel();
        let watching = observers.watch(sender);
        watching.begin().register(token("mine"));
        for step in [1.0, 2.0, 3.0] {
            observers.progress(&progress("mine", step));
        }
        observers.progress(&progress("another call's", 9.0));
        assert_eq!(drained(&mut receiver), [1.0, 2.0, 3.0]);
        drop(watching);
        assert!(receiver.try_recv().is_err_and(|e| e == tokio::sync::mpsc::error::TryRecvError::Disconnected));
    }

    /// Progress that arrives while the request is still being registered is kept and handed over with the token;
    /// nothing is kept once no request is being registered.
    #[test]
    fn progress_before_the_token_is_known_is_not_lost() {
        let observers = Arc::new(Observers::default());
        let (sender, mut receiver) = tokio::sync::mpsc::unbounded_channel();
        let watching = observers.watch(sender);
        let registering = watching.begin();
        observers.progress(&progress("mine", 1.0));
        observers.progress(&progress("someone else's", 5.0));
        registering.register(token("mine"));
        observers.progress(&progress("mine", 2.0));
        assert_eq!(drained(&mut receiver), [1.0, 2.0]);
        assert!(observers.table().early.is_empty(), "no registration is pending: nothing is kept");
        observers.progress(&progress("nobody's", 7.0));
        assert!(observers.table().early.is_empty());
    }
}
