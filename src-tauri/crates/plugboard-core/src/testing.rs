//! What the core's tests share, in one place: a supervisor over a memory vault, the ordered status labels of one
//! server, and `FakeConnector`, a stand-in for connecting that replays scripted failures and counts attempts (for the
//! supervisor's state machine without a process or a network). Compiled for tests only; never shipped.
//!
//! A module rather than a separate crate: a crate depending on the core cannot serve the core's own unit tests
//! (they would see a second copy of every type).
#![allow(clippy::expect_used, reason = "test support: a failed setup step is the clearest report a test can give")]

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures::future::BoxFuture;
use tokio::sync::broadcast;

use crate::config::model::ServerConfig;
use crate::secrets::{MemoryStore, Vault};
use crate::supervisor::{ConnectError, Connected, Connector, LiveConnector, ServerStatus, Supervisor, SupervisorEvent};

/// A vault that keeps secrets in memory only.
pub fn memory_vault() -> Arc<Vault> {
    Arc::new(Vault::with_store(Arc::new(MemoryStore::default())))
}

/// The real engine over a memory vault: real processes and networks, no keychain.
pub fn supervisor() -> Supervisor {
    Supervisor::new(Arc::new(LiveConnector::new(memory_vault())))
}

/// The labels of `server`'s status events, in order, until one matches `stop` (or 60 s pass).
pub async fn statuses_until(
    events: &mut broadcast::Receiver<SupervisorEvent>,
    server: &str,
    stop: impl Fn(&ServerStatus) -> bool,
) -> Vec<&'static str> {
    let mut seen = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while let Ok(Ok(event)) = tokio::time::timeout_at(deadline, events.recv()).await {
        if let SupervisorEvent::StatusChanged { server: s, status } = event
            && s == server
        {
            seen.push(status.label());
            if stop(&status) {
                break;
            }
        }
    }
    seen
}

/// A connector that never connects: each attempt takes the next scripted failure (the last one repeats) and is
/// counted. Named a fake because it is one: a success needs a real session, which the live connector makes.
pub struct FakeConnector {
    script: Mutex<Vec<ConnectError>>,
    attempts: AtomicUsize,
}

impl FakeConnector {
    /// Fails with `script`'s errors in order, repeating the last.
    pub fn failing(script: Vec<ConnectError>) -> Arc<Self> {
        assert!(!script.is_empty(), "a fake connector needs at least one failure to replay");
        Arc::new(Self { script: Mutex::new(script), attempts: AtomicUsize::new(0) })
    }

    /// How many times the supervisor tried to connect.
    pub fn attempts(&self) -> usize {
        self.attempts.load(Ordering::SeqCst)
    }
}

impl Connector for FakeConnector {
    fn connect<'a>(&'a self, _config: &'a ServerConfig) -> BoxFuture<'a, Result<Connected, ConnectError>> {
        self.attempts.fetch_add(1, Ordering::SeqCst);
        let mut script = self.script.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let failure = if script.len() > 1 { script.remove(0) } else { script[0].clone() };
        Box::pin(async move { Err(failure) })
    }
}
