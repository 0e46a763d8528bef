//! Keeps the gateway's catalog current: rebuilt from the supervisor whenever a server's status or tools change
//! (which covers allowlist edits and servers.json edits: the engine reconciles them into the supervisor) or the
//! file is saved or reloaded (a profile may have changed), and published only when what clients would see changed,
//! so each change is one `list_changed`.

use std::sync::{Arc, Weak};

use tokio::sync::{broadcast, watch};

use super::catalog::Catalog;
use super::scope::Scope;
use crate::config::ConfigEvent;
use crate::supervisor::{Supervisor, SupervisorEvent};

/// The catalog as published, shared by every client session of one gateway.
#[derive(Clone)]
pub struct CatalogFeed {
    sender: Arc<watch::Sender<Arc<Catalog>>>,
    /// Weak: the feed must not keep the engine's supervisor alive.
    supervisor: Weak<Supervisor>,
    /// Everything curated, or one profile of it.
    scope: Scope,
}

impl CatalogFeed {
    /// What clients see now.
    pub fn current(&self) -> Arc<Catalog> {
        Arc::clone(&self.sender.borrow())
    }

    /// Wakes at every published change.
    pub fn subscribe(&self) -> watch::Receiver<Arc<Catalog>> {
        self.sender.subscribe()
    }

    /// Rebuilds from the supervisor now, instead of waiting for its event to arrive (a first `tools/list` right
    /// after a server became ready must already include it).
    pub fn refresh(&self) {
        let Some(supervisor) = self.supervisor.upgrade() else { return };
        let next = Catalog::build(&supervisor.curated(), self.scope.current().as_ref());
        self.sender.send_if_modified(|current| {
            let changed = **current != next;
            if changed {
                // A warning so it reaches stderr (a client's log) as well as the log file.
                for rename in next.renames() {
                    tracing::warn!("{rename}");
                }
                *current = Arc::new(next);
            }
            changed
        });
    }
}

/// The feed of `scope`'s part of the catalog, and the task (for the caller's runtime) that keeps it current until
/// the supervisor is gone.
pub fn publish_catalog(
    supervisor: &Arc<Supervisor>,
    scope: Scope,
) -> (CatalogFeed, impl Future<Output = ()> + Send + 'static) {
    let (sender, _) = watch::channel(Arc::new(Catalog::default()));
    let mut config = scope.store().subscribe();
    let feed = CatalogFeed { sender: Arc::new(sender), supervisor: Arc::downgrade(supervisor), scope };
    feed.refresh();
    let mut events = supervisor.subscribe();
    let updater = feed.clone();
    let task = async move {
        loop {
            tokio::select! {
                event = events.recv() => match event {
                    Ok(SupervisorEvent::StatusChanged { .. } | SupervisorEvent::ToolsChanged { .. })
                    | Err(broadcast::error::RecvError::Lagged(_)) => updater.refresh(),
                    Ok(_) => {}
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                // A profile lives in the file, not in the supervisor: an edit of it alone changes no server.
                change = config.recv() => match change {
                    Ok(ConfigEvent::Saved | ConfigEvent::Reloaded) | Err(broadcast::error::RecvError::Lagged(_)) => {
                        updater.refresh();
                    }
                    Ok(ConfigEvent::BrokenOnDisk { .. }) => {}
                    Err(broadcast::error::RecvError::Closed) => break,
                },
            }
        }
    };
    (feed, task)
}
