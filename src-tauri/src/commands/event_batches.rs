//! A running call's live events sent to the window a frame's worth at a time. Each message on a Tauri channel is a
//! script the WebView evaluates, and WebKitGTK's web process keeps memory for each: with 10,000 history rows shown,
//! a call that sent 1,000 progress events one message apiece left the window at 1.83× a minimal Tauri window's
//! memory, a frame's worth at a time at 1.32–1.34× (`make bench-window`). It must never reorder, drop or hold back
//! an event past the call's end.

use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use plugboard_core::supervisor::CallEvent;
use tokio::sync::Notify;

/// How long the first event of a batch waits for others: one frame at 60 Hz, as often as the window paints.
const FRAME: Duration = Duration::from_millis(16);

/// The events of one call not yet sent, and what sends a batch of them.
pub struct EventBatches<S> {
    pending: Arc<Pending>,
    send: S,
}

#[derive(Default)]
struct Pending {
    events: Mutex<Vec<CallEvent>>,
    arrived: Notify,
}

impl<S: Fn(Vec<CallEvent>)> EventBatches<S> {
    pub fn new(send: S) -> Self {
        Self { pending: Arc::default(), send }
    }

    /// Where the call puts each event as it comes.
    pub fn sink(&self) -> impl Fn(CallEvent) + Send + Sync + 'static {
        let pending = Arc::clone(&self.pending);
        move |event| {
            pending.events.lock().unwrap_or_else(PoisonError::into_inner).push(event);
            pending.arrived.notify_one();
        }
    }

    /// Runs `call` to its end, sending its events a frame after the first of each batch came, and whatever is left
    /// as it ends, before its outcome is returned.
    pub async fn drive<T>(&self, call: impl Future<Output = T>) -> T {
        let mut call = std::pin::pin!(call);
        loop {
            tokio::select! {
                outcome = &mut call => return self.ended(outcome),
                () = self.pending.arrived.notified() => {}
            }
            tokio::select! {
                outcome = &mut call => return self.ended(outcome),
                () = tokio::time::sleep(FRAME) => self.flush(),
            }
        }
    }

    fn ended<T>(&self, outcome: T) -> T {
        self.flush();
        outcome
    }

    fn flush(&self) {
        let batch = std::mem::take(&mut *self.pending.events.lock().unwrap_or_else(PoisonError::into_inner));
        if !batch.is_empty() {
            (self.send)(batch);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(n: usize) -> CallEvent {
        CallEvent::Log { level: "info".into(), logger: None, message: format!("event {n}") }
    }

    /// Every batch sent, in order.
    type Sent = Arc<Mutex<Vec<Vec<CallEvent>>>>;

    /// The batches sent, in order, and the batcher sending them there.
    fn recorded() -> (Sent, EventBatches<impl Fn(Vec<CallEvent>)>) {
        let sent = Arc::new(Mutex::new(Vec::new()));
        let into = Arc::clone(&sent);
        (sent, EventBatches::new(move |batch| into.lock().unwrap().push(batch)))
    }

    #[tokio::test]
    async fn a_burst_of_events_goes_out_as_one_batch_in_order_before_the_call_ends() {
        let (sent, batches) = recorded();
        let sink = batches.sink();
        let outcome = batches
            .drive(async move {
                for n in 0..1_000 {
                    sink(log(n));
                }
                "done"
            })
            .await;
        assert_eq!(outcome, "done");
        let sent = sent.lock().unwrap();
        assert_eq!(sent.len(), 1, "one burst, one message");
        assert_eq!(sent[0], (0..1_000).map(log).collect::<Vec<_>>());
    }

    #[tokio::test]
    async fn events_apart_go_out_in_batches_as_they_come_and_none_is_lost() {
        let (sent, batches) = recorded();
        let sink = batches.sink();
        let seen_before_the_end = Arc::new(Mutex::new(0));
        let seen = Arc::clone(&seen_before_the_end);
        let sent_while_running = Arc::clone(&sent);
        batches
            .drive(async move {
                sink(log(0));
                sink(log(1));
                tokio::time::sleep(FRAME * 4).await;
                // The first two went out a frame after they came, while the call still ran.
                *seen.lock().unwrap() = sent_while_running.lock().unwrap().iter().map(Vec::len).sum::<usize>();
                sink(log(2));
            })
            .await;
        assert_eq!(*seen_before_the_end.lock().unwrap(), 2);
        assert_eq!(*sent.lock().unwrap(), vec![vec![log(0), log(1)], vec![log(2)]]);
    }

    #[tokio::test]
    async fn a_call_without_events_sends_nothing() {
        let (sent, batches) = recorded();
        batches.drive(tokio::time::sleep(FRAME * 2)).await;
        assert!(sent.lock().unwrap().is_empty());
    }
}
