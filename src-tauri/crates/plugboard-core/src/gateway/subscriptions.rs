//! The 2026-07-28 era's way to hear about changes: a client's `subscriptions/listen` stream. rmcp acknowledges it
//! and hands it here; this sends the gateway's `tools/list_changed` (the catalog changed), and `resources/` and
//! `prompts/list_changed` (a server came or went, or an upstream's own lists changed) on it, each only when the
//! client asked for it, until the client cancels. Clients of the older eras hear the same through `handler.rs`'s
//! `on_initialized`. It must never send on the stream anything but those three notifications.

use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::model::SubscriptionFilter;
use rmcp::service::{SubscriptionContext, SubscriptionSendError, SubscriptionSink};
use tokio::sync::broadcast::error::RecvError;

use super::list_changes::{Stale, upstream_stale};
use super::publish::CatalogFeed;
use crate::supervisor::Supervisor;

/// The lists a subscription may follow: the three the gateway announces (no resource subscriptions).
pub(super) fn accepted() -> SubscriptionFilter {
    SubscriptionFilter::builder().tools_list_changed().resources_list_changed().prompts_list_changed().build()
}

/// Serves one subscription until the client cancels it, the client is gone or the engine stops.
pub(super) async fn follow(
    context: SubscriptionContext,
    catalog: CatalogFeed,
    supervisor: &Arc<Supervisor>,
) -> Result<(), ErrorData> {
    let mut published = catalog.subscribe();
    let mut seen = Arc::clone(&published.borrow_and_update());
    let mut events = supervisor.subscribe();
    let sink = context.sink();
    loop {
        let sent = tokio::select! {
            () = context.cancelled() => return Ok(()),
            changed = published.changed() => {
                if changed.is_err() {
                    return Ok(());
                }
                let now = Arc::clone(&published.borrow_and_update());
                let mut sent = Ok(());
                if now.tools_differ(&seen) {
                    sent = sent.and(accepted_or_skipped(sink.notify_tool_list_changed().await));
                }
                // A server that came or went brings or takes its resources and prompts.
                if now.servers_differ(&seen) {
                    sent = sent.and(send(sink, &Stale::Both).await);
                }
                seen = now;
                sent
            }
            received = events.recv() => match received {
                Err(RecvError::Closed) => return Ok(()),
                received => match upstream_stale(received, &catalog) {
                    Some(stale) => send(sink, &stale).await,
                    None => Ok(()),
                },
            },
        };
        if sent.is_err() {
            return Ok(());
        }
    }
}

async fn send(sink: &SubscriptionSink, stale: &Stale) -> Result<(), SubscriptionSendError> {
    if matches!(stale, Stale::Resources | Stale::Both) {
        accepted_or_skipped(sink.notify_resource_list_changed().await)?;
    }
    if matches!(stale, Stale::Prompts | Stale::Both) {
        accepted_or_skipped(sink.notify_prompt_list_changed().await)?;
    }
    Ok(())
}

/// A list the client did not ask to follow is simply not sent; only a closed stream ends the subscription.
fn accepted_or_skipped(sent: Result<(), SubscriptionSendError>) -> Result<(), SubscriptionSendError> {
    match sent {
        Err(SubscriptionSendError::NotificationNotAccepted(_)) => Ok(()),
        other => other,
    }
}
