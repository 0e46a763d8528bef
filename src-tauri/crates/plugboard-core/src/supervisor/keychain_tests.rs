//! A locked keychain is waited out: the server says "keychain locked", is not retried into a crash loop, tries again
//! the moment its connector hears the unlock, and at once on a Retry (the real keychain: tests/cli/keychain_lock_cli.rs).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use futures::future::BoxFuture;
use tokio::sync::Notify;

use super::*;
use crate::config::model::{ServerName, StdioSpec, Transport};
use crate::testing::statuses_until;

/// A connector over a keychain that is locked until the test unlocks it; afterwards the server wants a login (a
/// real session is not the point here). Named a fake: the real keychain's lock is tested from the CLI.
#[derive(Default)]
struct FakeLockedKeychain {
    attempts: AtomicUsize,
    unlocked: AtomicBool,
    heard: Arc<Notify>,
}

impl FakeLockedKeychain {
    fn unlock(&self) {
        self.unlocked.store(true, Ordering::SeqCst);
        // A permit, so an unlock before the actor waits again is not lost.
        self.heard.notify_one();
    }
}

impl Connector for FakeLockedKeychain {
    fn connect<'a>(&'a self, _config: &'a ServerConfig) -> BoxFuture<'a, Result<Connected, ConnectError>> {
        self.attempts.fetch_add(1, Ordering::SeqCst);
        let failure = if self.unlocked.load(Ordering::SeqCst) {
            ConnectError::AuthRequired { hint: "log in".into() }
        } else {
            ConnectError::KeychainLocked { message: "the secret \"token\" could not be read: it is locked".into() }
        };
        Box::pin(async move { Err(failure) })
    }

    fn keychain_unlocked(&self) -> KeychainUnlocked {
        let heard = Arc::clone(&self.heard);
        Box::pin(async move { heard.notified().await })
    }
}

fn server() -> ServerConfig {
    let spec = StdioSpec { command: "never-started".into(), args: Vec::new(), env: Default::default(), cwd: None };
    ServerConfig::new(ServerName::parse("vaulted").expect("name"), Transport::Stdio(spec))
}

/// Locked: the server waits in "keychain locked" with what to do, untried and never Failed; a Retry tries again at
/// once; the unlock the connector hears brings the next attempt by itself.
#[tokio::test]
async fn a_locked_keychain_waits_for_the_unlock_or_a_retry() {
    let keychain = Arc::new(FakeLockedKeychain::default());
    let sup = Supervisor::new(Arc::clone(&keychain) as Arc<dyn Connector>);
    let mut events = sup.subscribe();
    sup.reconcile(vec![server()]).await;
    assert_eq!(
        statuses_until(&mut events, "vaulted", ServerStatus::is_settled).await,
        ["connecting", "keychain locked"]
    );
    match sup.status("vaulted").expect("status") {
        ServerStatus::KeychainLocked { hint } => {
            assert!(hint.contains("Unlock the OS keychain") && hint.contains("Retry"), "{hint}");
        }
        other => panic!("{other:?}"),
    }
    // Past several backoffs: a locked keychain is not retried on a timer into a crash loop.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(keychain.attempts.load(Ordering::SeqCst), 1);

    sup.connect("vaulted").await.expect("retry");
    assert_eq!(
        statuses_until(&mut events, "vaulted", ServerStatus::is_settled).await,
        ["connecting", "keychain locked"]
    );
    assert_eq!(keychain.attempts.load(Ordering::SeqCst), 2, "Retry tries again at once");

    keychain.unlock();
    assert_eq!(statuses_until(&mut events, "vaulted", ServerStatus::is_settled).await, ["connecting", "needs login"]);
    assert_eq!(keychain.attempts.load(Ordering::SeqCst), 3, "the unlock brings the next attempt");
    sup.shutdown().await;
}
