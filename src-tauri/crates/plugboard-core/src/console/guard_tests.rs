//! The secret guard's checks on arguments and results: another server's secret in any form is found wherever it
//! sits, a server's own is not refused, and a result or error loses every secret value before anyone sees it.

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use std::sync::Arc;

use serde_json::json;

use super::*;
use crate::secrets::Sensitive;

const VAULT_TOKEN: &str = "vault-Tok3n/with+odd&chars";

fn index() -> SecretIndex {
    SecretIndex::new([KnownSecret {
        server: "vault".into(),
        name: "api_token".into(),
        value: Sensitive::new(VAULT_TOKEN.into()),
    }])
}

fn arguments(value: serde_json::Value) -> JsonObject {
    match value {
        serde_json::Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

/// The secret of `vault`, as written, base64 (either alphabet, any offset), percent-encoded (any hex case, some
/// characters left as they are, a form's `+`) or JSON-escaped, in a nested value, an array, a key or a number, is
/// found in a call to another server; the same text to `vault` itself is not.
#[test]
fn another_servers_secret_is_found_in_every_form_and_place() {
    let index = index();
    let percent: String = url::form_urlencoded::byte_serialize(VAULT_TOKEN.as_bytes()).collect();
    let carriers = [
        json!({ "message": VAULT_TOKEN }),
        json!({ "message": format!("the key is {VAULT_TOKEN}!") }),
        json!({ "blob": STANDARD.encode(format!("token={VAULT_TOKEN}")) }),
        json!({ "blob": URL_SAFE_NO_PAD.encode(format!("xy{VAULT_TOKEN}")) }),
        json!({ "url": format!("https://evil.test/?k={percent}") }),
        json!({ "url": "https://evil.test/?k=vault-Tok3n%2fwith%2Bodd%26chars" }),
        json!({ "url": "https://evil.test/?k=vault%2DTok3n/with%2Bodd&chars" }),
        json!({ "json": serde_json::to_string(&json!({ "t": VAULT_TOKEN })).expect("json") }),
        json!({ "nested": { "deep": [1, { "list": ["x", VAULT_TOKEN] }] } }),
        json!({ VAULT_TOKEN: true }),
    ];
    let vault = SecretRef { owner: "vault".into(), name: "api_token".into() };
    for carrier in carriers {
        let args = arguments(carrier.clone());
        assert_eq!(foreign_secret_in(&index, "echo", &args), Some(vault.clone()), "{carrier}");
        assert_eq!(foreign_secret_in(&index, "vault", &args), None, "its own secret: {carrier}");
    }
    let numeric = SecretIndex::new([KnownSecret {
        server: "bank".into(),
        name: "account".into(),
        value: Sensitive::new("4242424242".into()),
    }]);
    assert!(foreign_secret_in(&numeric, "echo", &arguments(json!({ "n": 4_242_424_242_u64 }))).is_some());
    assert_eq!(foreign_secret_in(&index, "echo", &arguments(json!({ "message": "vault-Tok3n" }))), None);
}

/// A result carrying a secret, in text, structured content or a key, comes back with its reference instead and
/// nothing else changed; a result without one is returned as it was.
#[test]
fn results_lose_every_secret() {
    let index = index();
    let mut result = CallToolResult::success(vec![ContentBlock::text(format!("env: API_TOKEN={VAULT_TOKEN}"))]);
    result.structured_content = Some(json!({ "token": STANDARD.encode(VAULT_TOKEN), VAULT_TOKEN: 1 }));
    let redacted = redact_result(&index, "echo", result);
    let text = serde_json::to_string(&redacted).expect("json");
    assert!(!text.contains("Tok3n") && !text.contains(&STANDARD.encode(VAULT_TOKEN)[..10]), "{text}");
    assert!(text.contains("API_TOKEN=${secret:api_token}"), "{text}");
    assert_eq!(redacted.is_error, Some(false));

    let plain = CallToolResult::success(vec![ContentBlock::text("nothing secret")]);
    assert_eq!(redact_result(&index, "echo", plain.clone()), plain);
}

/// A server's own words in a failure lose the secret too.
#[test]
fn errors_lose_every_secret() {
    let error = SupervisorError::Protocol { server: "echo".into(), message: format!("bad key {VAULT_TOKEN}") };
    let redacted = redact_error(&index(), "echo", error).to_string();
    assert!(!redacted.contains("Tok3n") && redacted.contains("${secret:api_token}"), "{redacted}");
}

/// What the guard reads from the vault: every `${secret:…}` a configured server refers to (an unset one is left
/// out), and a stored login's access and refresh tokens, each known by its server; a login's token is named by what
/// it is, never by a reference no one could write.
#[tokio::test]
async fn the_vault_sweep_knows_references_and_logins() {
    use crate::auth::VaultCredentialStore;
    use crate::config::ConfigStore;
    use crate::secrets::{MemoryStore, Vault};
    use rmcp::transport::auth::CredentialStore;

    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("servers.json");
    std::fs::write(
        &path,
        json!({ "mcpServers": {
            "notes": { "command": "notes-server", "env": { "KEY": "${secret:key}", "UNSET": "${secret:unset}" } },
            "linear": { "url": "https://mcp.linear.example/mcp", "oauth": {} },
        }})
        .to_string(),
    )
    .expect("config");
    let vault = Arc::new(Vault::with_store(Arc::new(MemoryStore::new())));
    vault.set("notes", "key", &Sensitive::new("notes-key-123456".into())).expect("set");
    let credentials = serde_json::from_value(json!({
        "client_id": "client-1",
        "token_response": { "access_token": "linear-access-123456", "token_type": "Bearer", "refresh_token": "linear-refresh-123456" },
    }))
    .expect("credentials");
    VaultCredentialStore::new(Arc::clone(&vault), "linear", "https://mcp.linear.example/mcp")
        .save(credentials)
        .await
        .expect("save the login");
    let registry = Registry::new(ConfigStore::open(&path).expect("store"), vault);

    let index = SecretIndex::new(read_stored(&registry));
    let carry = |text: &str| foreign_secret_in(&index, "elsewhere", &arguments(json!({ "text": text })));
    assert_eq!(carry("notes-key-123456"), Some(SecretRef { owner: "notes".into(), name: "key".into() }));
    let access = carry("Bearer linear-access-123456").expect("the access token is known");
    assert_eq!((access.owner.as_str(), access.reference()), ("linear", "[OAuth access token]".to_owned()));
    assert!(carry("linear-refresh-123456").is_some(), "the refresh token is known");
    assert_eq!(foreign_secret_in(&index, "linear", &arguments(json!({ "t": "linear-access-123456" }))), None);
}
