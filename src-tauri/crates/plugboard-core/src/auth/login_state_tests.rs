//! The login facts shown to the person: presence, issuer, scopes, expiry, renewal; no secret in them.
#![allow(clippy::expect_used)]

use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use rmcp::transport::auth::{CredentialStore, StoredCredentials};
use serde_json::json;

use super::*;
use crate::config::raw::RawServer;
use crate::config::validate_server;
use crate::secrets::{MemoryStore, Vault};

fn credentials(token_response: &serde_json::Value, granted: &[&str]) -> StoredCredentials {
    serde_json::from_value(json!({
        "client_id": "client-1",
        "token_response": token_response,
        "granted_scopes": granted,
        "token_received_at": 1_700_000_000u64,
        "issuer": "https://as.example"
    }))
    .expect("credentials")
}

fn oauth_server(url: &str) -> ServerConfig {
    let raw: RawServer = serde_json::from_value(json!({"type": "http", "url": url, "oauth": {}})).expect("raw");
    validate_server("linear", &raw).expect("valid")
}

/// Stored tokens give the issuer, granted scopes, the expiry from received-at plus lifetime, and renewal.
#[test]
fn facts_of_stored_tokens() {
    let tokens =
        json!({"access_token": "at-SECRET", "token_type": "Bearer", "expires_in": 3600, "refresh_token": "rt-SECRET"});
    let state = LoginState::from_credentials(&credentials(&tokens, &["read", "write"]));
    assert_eq!(
        state,
        LoginState {
            logged_in: true,
            issuer: Some("https://as.example".into()),
            scopes: vec!["read".into(), "write".into()],
            expires_at_ms: Some(1_700_003_600_000.0),
            renews_by_itself: true,
            client_id: Some("client-1".into()),
            bound_to_key: false,
        }
    );
    let shown = serde_json::to_string(&state).expect("json");
    assert!(!shown.contains("SECRET"), "no token in what the UI receives: {shown}");
    assert!(state.expired_at(UNIX_EPOCH + Duration::from_secs(1_700_003_600)));
    assert!(!state.expired_at(UNIX_EPOCH + Duration::from_secs(1_700_003_599)));
}

/// Without granted scopes the token response's `scope` is used; without a lifetime there is no expiry; without a
/// refresh token the login does not renew by itself.
#[test]
fn facts_from_the_token_response_alone() {
    let tokens = json!({"access_token": "at", "token_type": "Bearer", "scope": "repo user"});
    let state = LoginState::from_credentials(&credentials(&tokens, &[]));
    assert_eq!(state.scopes, vec!["repo".to_owned(), "user".to_owned()]);
    assert_eq!(state.expires_at_ms, None);
    assert!(!state.renews_by_itself);
    assert!(!state.expired_at(UNIX_EPOCH + Duration::from_secs(u32::MAX.into())));
}

/// A token the authorization server issued as DPoP (its `token_type`, in any case) is shown as bound to the key.
#[test]
fn a_dpop_token_is_shown_bound_to_the_key() {
    for token_type in ["DPoP", "dpop"] {
        let tokens = json!({"access_token": "at", "token_type": token_type});
        assert!(LoginState::from_credentials(&credentials(&tokens, &[])).bound_to_key, "{token_type}");
    }
}

/// A registration without tokens is not a login; an OAuth server with nothing stored is logged out; a server
/// without OAuth is said to be one.
#[tokio::test]
async fn read_from_the_keychain() {
    let vault = Arc::new(Vault::with_store(Arc::new(MemoryStore::new())));
    let config = oauth_server("https://mcp.example/mcp");
    assert_eq!(login_state(&config, Arc::clone(&vault)).expect("state"), LoginState::logged_out());

    let registered: StoredCredentials =
        serde_json::from_value(json!({"client_id": "client-9", "token_response": null})).expect("registered");
    let store = VaultCredentialStore::new(Arc::clone(&vault), "linear", "https://mcp.example/mcp");
    store.save(registered).await.expect("save");
    let state = login_state(&config, Arc::clone(&vault)).expect("state");
    assert!(!state.logged_in);
    assert_eq!(state.client_id.as_deref(), Some("client-9"));

    let tokens = json!({"access_token": "at", "token_type": "Bearer"});
    store.save(credentials(&tokens, &["read"])).await.expect("save");
    assert!(login_state(&config, Arc::clone(&vault)).expect("state").logged_in);

    let raw: RawServer = serde_json::from_value(json!({"command": "echo"})).expect("raw");
    let stdio = validate_server("local", &raw).expect("valid");
    assert!(matches!(login_state(&stdio, vault), Err(LoginError::NotOAuth(_))));
}
