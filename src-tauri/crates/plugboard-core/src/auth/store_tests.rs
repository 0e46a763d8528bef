//! The keychain credential store and the volatile state store.
#![allow(clippy::expect_used)]

use std::sync::Arc;
use std::time::Duration;

use rmcp::transport::auth::{CredentialStore, StateStore, StoredAuthorizationState, StoredCredentials};
use serde_json::json;

use super::*;
use crate::secrets::{MemoryStore, Vault};

fn vault() -> Arc<Vault> {
    Arc::new(Vault::with_store(Arc::new(MemoryStore::new())))
}

fn credentials(access: &str) -> StoredCredentials {
    serde_json::from_value(json!({
        "client_id": "client-1",
        "token_response": {"access_token": access, "token_type": "Bearer", "expires_in": 3600, "refresh_token": "r-1"},
        "granted_scopes": ["read"],
        "token_received_at": 1_700_000_000u64,
        "issuer": "https://as.example"
    }))
    .expect("credentials")
}

fn access_token(credentials: &StoredCredentials) -> String {
    let value = serde_json::to_value(credentials).expect("serialise");
    value["token_response"]["access_token"].as_str().unwrap_or_default().to_owned()
}

/// Saved credentials come back for the same server and URL, and `clear` forgets them.
#[tokio::test]
async fn round_trip_and_clear() {
    let store = VaultCredentialStore::new(vault(), "linear", "https://mcp.linear.app/mcp");
    assert!(store.load().await.expect("load").is_none());
    store.save(credentials("at-1")).await.expect("save");
    let loaded = store.load().await.expect("load").expect("some");
    assert_eq!(access_token(&loaded), "at-1");
    assert_eq!(loaded.issuer.as_deref(), Some("https://as.example"));
    store.clear().await.expect("clear");
    assert!(store.load().await.expect("load").is_none());
}

/// Credentials issued for one URL are never handed to the same server name pointing at another URL.
#[tokio::test]
async fn bound_to_the_resource() {
    let vault = vault();
    VaultCredentialStore::new(Arc::clone(&vault), "linear", "https://mcp.linear.app/mcp")
        .save(credentials("at-1"))
        .await
        .expect("save");
    let elsewhere = VaultCredentialStore::new(vault, "linear", "https://evil.example/mcp");
    assert!(elsewhere.load().await.expect("load").is_none());
}

/// A damaged entry is forgotten (so the person can log in again) rather than failing every connect.
#[tokio::test]
async fn damaged_entry_is_forgotten() {
    let vault = vault();
    vault.set("linear", CREDENTIALS_SECRET, &Sensitive::new("{not json".into())).expect("set");
    let store = VaultCredentialStore::new(Arc::clone(&vault), "linear", "https://mcp.linear.app/mcp");
    assert!(store.load().await.expect("load").is_none());
    assert!(vault.get("linear", CREDENTIALS_SECRET).expect("get").is_none());
}

/// A rejected refresh token clears the credentials, so the server asks for a login once instead of looping.
#[tokio::test]
async fn rejected_refresh_token_clears() {
    let store = VaultCredentialStore::new(vault(), "linear", "https://mcp.linear.app/mcp");
    let saved = credentials("at-1");
    store.save(saved.clone()).await.expect("save");
    store.on_refresh_token_rejected(&saved).await.expect("rejected");
    assert!(store.load().await.expect("load").is_none());
}

/// Two refreshes of one server never overlap, whichever store (or process) makes them: the second guard waits for
/// the first to be dropped.
#[tokio::test]
async fn refreshes_are_serialised_per_server() {
    let dir = tempfile::tempdir().expect("dir");
    let store = VaultCredentialStore::new(vault(), "serialised", "https://a.example/mcp").locking_in(dir.path());
    let first = store.acquire_refresh_guard().await.expect("guard").expect("some");
    let other = VaultCredentialStore::new(vault(), "serialised", "https://a.example/mcp").locking_in(dir.path());
    let second = tokio::spawn(async move { other.acquire_refresh_guard().await.map(|g| g.is_some()) });
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(!second.is_finished(), "the second refresh must wait");
    drop(first);
    assert!(second.await.expect("join").expect("guard"));
}

/// A token due for a refresh is refreshed once: the first store to read it keeps the refresh lock and shows rmcp an
/// expired token; a second store (another process) waits on the lock and then reads the token the first refreshed,
/// fresh, instead of refreshing again with a refresh token that has just rotated.
#[tokio::test]
async fn a_due_token_is_refreshed_by_one_store_and_read_fresh_by_the_other() {
    let (dir, vault) = (tempfile::tempdir().expect("dir"), vault());
    let store =
        || VaultCredentialStore::new(Arc::clone(&vault), "notes", "https://a.example/mcp").locking_in(dir.path());
    let mut due = credentials("at-old");
    due.token_received_at = Some(refresh::now() - 3600 + 30);
    store().save(due).await.expect("save");

    let first = store();
    let seen = first.load().await.expect("load").expect("some");
    assert!(
        refresh::due(&seen, refresh::now()) && seen.token_received_at < Some(refresh::now() - 3600),
        "shown expired"
    );
    let second = store();
    let waiting = tokio::spawn(async move { second.load().await });
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!waiting.is_finished(), "the second reader must wait for the refresh in progress");

    // What rmcp does next: the guard (the lock the load kept), the refresh's own load, the save.
    let guard = first.acquire_refresh_guard().await.expect("guard");
    assert_eq!(access_token(&first.load().await.expect("load").expect("some")), "at-old");
    let mut fresh = credentials("at-new");
    fresh.token_received_at = Some(refresh::now());
    first.save(fresh).await.expect("save");
    drop(guard);

    let read = waiting.await.expect("join").expect("load").expect("some");
    assert_eq!(access_token(&read), "at-new");
    assert!(!refresh::due(&read, refresh::now()), "the second reader does not refresh again");
}

/// A pending state is readable until deleted, and gone once its time to live has passed.
#[tokio::test]
async fn pending_states_expire() {
    let pending = || -> StoredAuthorizationState {
        serde_json::from_value(json!({"pkce_verifier": "v".repeat(43), "csrf_token": "s", "created_at": 0}))
            .expect("state")
    };
    let states = VolatileStateStore::with_ttl(Duration::from_millis(30));
    states.save("state-1", pending()).await.expect("save");
    assert!(states.load("state-1").await.expect("load").is_some());
    tokio::time::sleep(Duration::from_millis(60)).await;
    assert!(states.load("state-1").await.expect("load").is_none());

    let states = VolatileStateStore::new();
    states.save("state-2", pending()).await.expect("save");
    states.delete("state-2").await.expect("delete");
    assert!(states.load("state-2").await.expect("load").is_none());
}

/// Every vault name the logins use is under the vault's reserved prefix, so `${secret:…}` can never read a token or
/// the DPoP key.
#[test]
fn login_secrets_are_under_the_reserved_prefix() {
    use crate::secrets::RESERVED_SECRET_PREFIX;
    for name in [super::CREDENTIALS_SECRET, super::CLIENT_SECRET_SECRET, crate::auth::dpop::DPOP_KEY_SECRET] {
        assert!(name.starts_with(RESERVED_SECRET_PREFIX), "{name}");
    }
}
