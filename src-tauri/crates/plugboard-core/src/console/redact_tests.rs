//! Redaction of console arguments and results: secret keys at any depth, token formats, and the server's own
//! secret values, with nothing of a value leaking through `Debug`.

use serde_json::json;

use super::*;
use crate::secrets::{KnownSecret, Sensitive};

fn secrets() -> ServerSecrets {
    let secret = |name: &str, value: &str| KnownSecret {
        server: "srv".into(),
        name: name.into(),
        value: Sensitive::new(value.to_owned()),
    };
    let index = SecretIndex::new([
        secret("API_TOKEN", "s3cr3t-value-123"),
        secret("QUOTED", "pa\"ss\\word"),
        secret("TINY", "ab"),
    ]);
    ServerSecrets::new(Arc::new(index), "srv")
}

fn redacted(arguments: serde_json::Value) -> serde_json::Value {
    let serde_json::Value::Object(map) = arguments else { panic!("arguments are an object") };
    serde_json::from_str(&redact_arguments(map, &secrets())).expect("JSON text")
}

/// Values under secret-looking keys go at any depth (in objects and arrays), numbers and objects under such a key
/// too; ordinary keys and settings-looking values stay.
#[test]
fn secret_keys_are_redacted_at_any_depth() {
    let out = redacted(json!({
        "query": "open issues",
        "token": "abc",
        "password": 123456,
        "nested": { "apiKey": "k-1", "deeper": [{ "Authorization": "Bearer xyz" }], "limit": 10 },
        "client_secret": { "a": 1 },
        "cookies": ["one=1", "two=2"],
        "token_file": "/home/me/.token",
        "auth": "oauth",
        "session": "short",
    }));
    assert_eq!(
        out,
        json!({
            "query": "open issues",
            "token": REDACTED,
            "password": REDACTED,
            "nested": { "apiKey": REDACTED, "deeper": [{ "Authorization": REDACTED }], "limit": 10 },
            "client_secret": REDACTED,
            "cookies": [REDACTED, REDACTED],
            "token_file": "/home/me/.token",
            "auth": "oauth",
            "session": "short",
        })
    );
}

/// Token-shaped text under any key is redacted where it stands, leaving the words around it.
#[test]
fn token_formats_are_redacted_inside_text() {
    let github = format!("ghp_{}", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8");
    let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
    let out = redacted(json!({
        "note": format!("use {github} please"),
        "header": format!("Bearer {jwt}"),
        "url": "https://user:hunter2hunter2@example.com/x",
        "plain": "sk-learn is a word",
    }));
    assert_eq!(out["note"], json!(format!("use {REDACTED} please")));
    assert_eq!(out["header"], json!(format!("Bearer {REDACTED}")));
    assert!(!out["url"].as_str().expect("text").contains("hunter2"), "{out}");
    assert_eq!(out["plain"], json!("sk-learn is a word"));
}

/// The server's own secret values become their `${secret:NAME}` reference in arguments, even ones the shape rules
/// would miss; values too short to mean anything are left alone.
#[test]
fn server_secret_values_become_references_in_arguments() {
    let out = redacted(json!({ "text": "my s3cr3t-value-123 here", "list": ["s3cr3t-value-123"], "short": "ab" }));
    assert_eq!(out, json!({ "text": "my ${secret:API_TOKEN} here", "list": ["${secret:API_TOKEN}"], "short": "ab" }));
}

/// In result text (JSON), a secret value is replaced both as written and as JSON escapes it.
#[test]
fn server_secret_values_become_references_in_results() {
    let result = serde_json::to_string(&json!({
        "content": [{ "type": "text", "text": "token=s3cr3t-value-123; pw=pa\"ss\\word" }]
    }))
    .expect("json");
    assert!(result.contains(r#"pa\"ss\\word"#), "the escaped form is what JSON text holds: {result}");
    let out = secrets().replace_in(&result);
    assert!(!out.contains("s3cr3t") && !out.contains("ss\\\\word"), "{out}");
    let parsed: serde_json::Value = serde_json::from_str(&out).expect("still JSON");
    assert_eq!(parsed["content"][0]["text"], json!("token=${secret:API_TOKEN}; pw=${secret:QUOTED}"));
}

/// Result text loses token-shaped spans too and stays valid JSON.
#[test]
fn tokens_in_results_are_redacted() {
    let github = format!("ghp_{}", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8");
    let result =
        serde_json::to_string(&json!({ "content": [{ "type": "text", "text": format!("new key: {github}") }] }))
            .expect("json");
    let parsed: serde_json::Value = serde_json::from_str(&secrets().redact_text(&result)).expect("still JSON");
    assert_eq!(parsed["content"][0]["text"], json!(format!("new key: {REDACTED}")));
}

/// `Debug` names the secrets but never shows a value.
#[test]
fn debug_shows_names_only() {
    let shown = format!("{:?}", secrets());
    assert!(shown.contains("API_TOKEN") && !shown.contains("s3cr3t"), "{shown}");
}
