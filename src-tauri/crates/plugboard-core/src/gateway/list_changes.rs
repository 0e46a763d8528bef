//! An upstream server's own `resources/list_changed` and `prompts/list_changed`, passed on to the gateway's client
//! when the client sees that server (ready, enabled). Servers coming and going are `handler.rs`'s catalog changes.
//! It must never send anything but those two notifications, nor outlive the client's session.

use rmcp::{Peer, RoleServer};
use tokio::sync::broadcast::error::RecvError;

use super::publish::CatalogFeed;
use crate::supervisor::{Supervisor, SupervisorEvent};

/// Which of the client's lists an event invalidates.
pub(super) enum Stale {
    Resources,
    Prompts,
    /// Events were missed: either may have changed.
    Both,
}

/// What a supervisor event makes stale for a client of `catalog`: an upstream's own list change of a server it
/// sees, or anything after missed events. `None` for every other event (and for a closed channel).
pub(super) fn upstream_stale(received: Result<SupervisorEvent, RecvError>, catalog: &CatalogFeed) -> Option<Stale> {
    match received {
        Ok(SupervisorEvent::ResourcesChanged { server }) if catalog.current().relays(&server) => Some(Stale::Resources),
        Ok(SupervisorEvent::PromptsChanged { server }) if catalog.current().relays(&server) => Some(Stale::Prompts),
        Err(RecvError::Lagged(_)) => Some(Stale::Both),
        _ => None,
    }
}

/// Spawns the relay for one client; it ends when the client is gone or the supervisor shuts down.
pub(super) fn relay_upstream_list_changes(supervisor: &Supervisor, catalog: &CatalogFeed, peer: Peer<RoleServer>) {
    let mut events = supervisor.subscribe();
    let catalog = catalog.clone();
    tokio::spawn(async move {
        loop {
            let stale = match events.recv().await {
                Err(RecvError::Closed) => break,
                received => match upstream_stale(received, &catalog) {
                    Some(stale) => stale,
                    None => continue,
                },
            };
            let sent = match stale {
                Stale::Resources => peer.notify_resource_list_changed().await,
                Stale::Prompts => peer.notify_prompt_list_changed().await,
                Stale::Both => match peer.notify_resource_list_changed().await {
                    Ok(()) => peer.notify_prompt_list_changed().await,
                    failed => failed,
                },
            };
            if sent.is_err() {
                break;
            }
        }
    });
}
