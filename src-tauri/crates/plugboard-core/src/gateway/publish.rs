//! Keeps the gateway's catalog current: rebuilt from the supervisor whenever a server's status or tools change
//! (which covers allowlist edits and servers.json edits: the engine reconciles them into the supervisor), and
//! published only when what clients would see changed, so each change is one `list_changed`.

use std::sync::{Arc, Weak};

use tokio::sync::{broadcast, watch};

use super::catalog::Catalog;
use crate::supervisor::{Supervisor, SupervisorEvent};

/// The current catalog, and the task (for the caller's runtime) that keeps it current until the supervisor ends.
/// The task holds the supervisor weakly: it ends when the engine does.
pub fn publish_catalog(
    supervisor: &Arc<Supervisor>,
) -> (watch::Receiver<Arc<Catalog>>, impl Future<Output = ()> + Send + 'static) {
    let (sender, receiver) = watch::channel(Arc::new(Catalog::build(&supervisor.curated())));
    let mut events = supervisor.subscribe();
    let supervisor: Weak<Supervisor> = Arc::downgrade(supervisor);
    let task = async move {
        loop {
            match events.recv().await {
                Ok(SupervisorEvent::StatusChanged { .. } | SupervisorEvent::ToolsChanged { .. })
                | Err(broadcast::error::RecvError::Lagged(_)) => {
                    let Some(supervisor) = supervisor.upgrade() else { break };
                    let next = Catalog::build(&supervisor.curated());
                    sender.send_if_modified(|current| {
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
                Ok(_) => {}
                Err(broadcast::error::RecvError::Closed) => break,
            }
        }
    };
    (receiver, task)
}
