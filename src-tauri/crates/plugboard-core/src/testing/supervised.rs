//! For tests: a supervisor over a memory vault whose servers the test approves as it starts them, the ordered
//! status labels of one server, and `FakeConnector`, a stand-in for connecting that replays scripted failures and
//! counts attempts (for the supervisor's state machine without a process or a network). It must never touch the
//! keychain, nor the person's own approvals.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures::future::BoxFuture;
use tokio::sync::broadcast;

use crate::config::model::ServerConfig;
use crate::secrets::{MemoryStore, Vault};
use crate::supervisor::{ConnectError, Connected, Connector, LiveConnector, ServerStatus, Supervisor, SupervisorEvent};
use crate::trust::{Approvals, Decision, LaunchDefinition};

/// A vault that keeps secrets in memory only.
pub fn memory_vault() -> Arc<Vault> {
    Arc::new(Vault::with_store(Arc::new(MemoryStore::default())))
}

/// The real engine over a memory vault: real processes and networks, no keychain; each server is approved by the
/// test as it connects (the approval gate has its own tests).
pub fn supervisor() -> Supervisor {
    Supervisor::new(approving_connector(memory_vault()))
}

/// The live connector over `vault`, behind a test that approves every server it connects, in approvals of its own.
pub fn approving_connector(vault: Arc<Vault>) -> Arc<dyn Connector> {
    let dir = tempfile::tempdir().expect("a temp dir for the test's approvals");
    let approvals = Approvals::at(dir.path().join("trust.json"));
    Arc::new(TestApproves { live: LiveConnector::new(vault, approvals.clone()), approvals, _dir: dir })
}

/// A test standing in for the person who approves each server before it connects.
struct TestApproves {
    live: LiveConnector,
    approvals: Approvals,
    _dir: tempfile::TempDir,
}

impl Connector for TestApproves {
    fn connect<'a>(&'a self, config: &'a ServerConfig) -> BoxFuture<'a, Result<Connected, ConnectError>> {
        self.approvals.record(&LaunchDefinition::of(config), Decision::Approved).expect("the test approves");
        self.live.connect(config)
    }

    fn keychain_unlocked(&self) -> crate::supervisor::KeychainUnlocked {
        self.live.keychain_unlocked()
    }

    fn person_link(&self, server: &str) -> Option<crate::transport::PersonLink> {
        self.live.person_link(server)
    }
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

/// The test approves every server `engine` has configured now, as the person would one by one.
pub async fn approve_all(engine: &crate::engine::Engine) {
    for request in engine.pending_approvals().await.expect("pending approvals") {
        engine.decide(&request.server, &request.digest, Decision::Approved).await.expect("the test approves");
    }
}
