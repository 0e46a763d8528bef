//! What every fault test needs: a real `Supervisor` with the live connector, a config that runs the test server
//! with a unique tag, ordered status labels, the server's journal, and the check that no process survives.

#![allow(
    clippy::expect_used,
    reason = "clippy allows expect only in #[test] fns; in helpers too a panic is the report"
)]
#![allow(dead_code, reason = "each test binary (faults, console) uses its own part of the helpers")]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use futures::future::BoxFuture;
use plugboard_core::config::model::{ServerConfig, ServerName, StdioSpec, Transport};
use plugboard_core::person::PersonRequests;
use plugboard_core::secrets::{MemoryStore, Vault};
use plugboard_core::supervisor::{
    ConnectError, Connected, Connector, LiveConnector, ServerStatus, Supervisor, SupervisorEvent,
};
use plugboard_core::trust::{Approvals, Decision, LaunchDefinition};
use rmcp::model::{CallToolResult, JsonObject};
use tokio::sync::broadcast;

pub const SERVER: &str = env!("CARGO_BIN_EXE_plugboard-testserver");

/// The test standing in for the person: it approves each server's definition (in the harness's own approvals)
/// just before the live connector checks it. The approval gate itself is tested in the core.
struct TestApproves {
    live: LiveConnector,
    approvals: Approvals,
}

impl Connector for TestApproves {
    fn connect<'a>(&'a self, config: &'a ServerConfig) -> BoxFuture<'a, Result<Connected, ConnectError>> {
        self.approvals.record(&LaunchDefinition::of(config), Decision::Approved).expect("the test approves");
        self.live.connect(config)
    }

    fn person_link(&self, server: &str) -> Option<plugboard_core::transport::PersonLink> {
        self.live.person_link(server)
    }
}

/// One test's world: the supervisor, its events, a temp dir for journals and markers, and the tag that marks this
/// test's server processes (and nothing else).
pub struct Harness {
    /// Shared, so a test can hand it to the console too.
    pub sup: Arc<Supervisor>,
    /// The supervisor's (in-memory) vault.
    pub vault: Arc<Vault>,
    pub events: broadcast::Receiver<SupervisorEvent>,
    pub dir: tempfile::TempDir,
    pub tag: String,
    /// Where the test approves, as the person would.
    pub approvals: Approvals,
}

impl Harness {
    pub fn new() -> Self {
        Self::with_connector(LiveConnector::new)
    }

    /// A harness whose sessions hand servers' requests for a person to `person` (as the window's do).
    #[allow(dead_code, reason = "each test binary compiles this module; only some ask a person")]
    pub fn with_person(person: Arc<PersonRequests>) -> Self {
        Self::with_connector(|vault, approvals| LiveConnector::with_person(vault, approvals, person))
    }

    fn with_connector(connector: impl FnOnce(Arc<Vault>, Approvals) -> LiveConnector) -> Self {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let vault = Arc::new(Vault::with_store(Arc::new(MemoryStore::default())));
        let dir = tempfile::tempdir().expect("temp dir");
        let approvals = Approvals::at(dir.path().join("trust.json"));
        let live = connector(Arc::clone(&vault), approvals.clone());
        let sup = Arc::new(Supervisor::new(Arc::new(TestApproves { live, approvals: approvals.clone() })));
        let events = sup.subscribe();
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let tag = format!("plugboard-faults-{}-{n}", std::process::id());
        Self { sup, vault, events, dir, tag, approvals }
    }

    /// Approves, as the person would, every tool of `server` withheld since its definition was approved.
    pub fn approve_tool_changes(&self, server: &str) {
        let config = self.sup.config(server).expect("configured");
        let digest = LaunchDefinition::of(&config).digest();
        let pins = self.approvals.tool_pins();
        let pending = pins.pins(&digest).expect("readable").expect("pinned").pending;
        let shown = pending.into_iter().map(|(subject, pending)| (subject, pending.pin.digest)).collect();
        pins.approve_pending(&digest, &shown).expect("approve");
    }

    /// A file in this test's temp dir, as a string for the server's argv.
    pub fn file(&self, name: &str) -> String {
        self.dir.path().join(name).to_str().expect("utf-8 temp path").to_owned()
    }

    /// The test server named `name`, started with `flags` and this harness's tag.
    pub fn server(&self, name: &str, flags: &[&str]) -> ServerConfig {
        let mut args: Vec<String> = flags.iter().map(|f| (*f).to_owned()).collect();
        args.extend(["--tag".to_owned(), self.tag.clone()]);
        ServerConfig {
            timeout: Duration::from_secs(20),
            ..ServerConfig::new(
                ServerName::parse(name).expect("name"),
                Transport::Stdio(StdioSpec { command: SERVER.to_owned(), args, env: Default::default(), cwd: None }),
            )
        }
    }

    /// Labels of `server`'s status events, in order, until one matches `stop` (or 60 s pass).
    pub async fn statuses_until(&mut self, server: &str, stop: impl Fn(&ServerStatus) -> bool) -> Vec<&'static str> {
        let mut seen = Vec::new();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        while let Ok(Ok(event)) = tokio::time::timeout_at(deadline, self.events.recv()).await {
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

    /// Status labels already announced and not yet read (never waits).
    pub fn pending_statuses(&mut self) -> Vec<&'static str> {
        let mut seen = Vec::new();
        while let Ok(event) = self.events.try_recv() {
            if let SupervisorEvent::StatusChanged { status, .. } = event {
                seen.push(status.label());
            }
        }
        seen
    }

    /// Shuts the supervisor down and asserts that none of this test's server processes is left.
    pub async fn finish(self) {
        self.sup.shutdown().await;
        assert_no_process(&self.tag).await;
    }
}

/// Fails when a process whose command line holds `tag` is still alive shortly after shutdown returned.
pub async fn assert_no_process(tag: &str) {
    // shutdown() waits for the process groups; the short grace only covers the kernel reaping the leader.
    let mut left = String::new();
    for _ in 0..10 {
        let out = std::process::Command::new("pgrep").args(["-a", "-f", tag]).output().expect("pgrep runs");
        left = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        if left.is_empty() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("server processes survived the supervisor's shutdown:\n{left}");
}

pub fn is_ready(s: &ServerStatus) -> bool {
    matches!(s, ServerStatus::Ready { .. })
}

pub fn args(value: serde_json::Value) -> JsonObject {
    serde_json::from_value(value).expect("arguments are an object")
}

pub fn text_of(result: &CallToolResult) -> String {
    result.content.iter().filter_map(|c| c.as_text()).map(|t| t.text.as_str()).collect()
}

/// The server's journal lines ("call NAME", "cancelled NAME", "crashing"); none when it was never written.
pub fn journal(path: impl AsRef<Path>) -> Vec<String> {
    std::fs::read_to_string(path.as_ref()).map(|s| s.lines().map(str::to_owned).collect()).unwrap_or_default()
}

/// Waits up to `within` for the journal to hold `count` lines equal to `line`; returns how many it holds.
pub async fn journal_count(path: &PathBuf, line: &str, count: usize, within: Duration) -> usize {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        let seen = journal(path).iter().filter(|l| *l == line).count();
        if seen >= count || tokio::time::Instant::now() >= deadline {
            return seen;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// FNV-1a over `bytes`: a cheap checksum to compare a large result without printing it.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, b| (hash ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3))
}

/// Whether `check` holds within `limit`, looking every 100 ms.
pub async fn within(limit: Duration, check: impl Fn() -> bool) -> bool {
    let deadline = std::time::Instant::now() + limit;
    while !check() && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    check()
}
