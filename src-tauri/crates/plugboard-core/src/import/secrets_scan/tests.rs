//! Behaviour of the secrets scan over whole entries: what moves, what stays, how secrets are named, and that no
//! value leaks through anything the scan returns.

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;

/// A realistic-looking token of each kind, built at run time so no literal token sits in the source.
fn tokens() -> Vec<(&'static str, String)> {
    let body = "aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0zA1bC2dE3fG4";
    vec![
        ("github classic", format!("ghp_{}", &body[..36])),
        ("github oauth", format!("gho_{}", &body[..36])),
        ("github user", format!("ghu_{}", &body[..36])),
        ("github server", format!("ghs_{}", &body[..36])),
        ("github fine-grained", format!("github_pat_11ABCDEFG0_{body}")),
        ("openai", format!("sk-proj-{body}")),
        ("anthropic", format!("sk-ant-api03-{body}")),
        ("slack", format!("xoxb-{}-{}", "2468013579", &body[..24])),
        ("aws", format!("AKIA{}", "Z7Q2X9M4K1V8B3N6")),
        ("gitlab", format!("glpat-{}", &body[..20])),
        ("google", format!("AIza{}", &body[..35])),
        ("stripe", format!("sk_live_{}", &body[..24])),
        ("stripe restricted", format!("rk_live_{}", &body[..24])),
        ("jwt", format!("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.{}", &body[..30])),
    ]
}

fn env(pairs: &[(&str, &str)]) -> Option<BTreeMap<String, String>> {
    Some(pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect())
}

fn get<'a>(map: &'a Option<BTreeMap<String, String>>, key: &str) -> &'a str {
    map.as_ref().and_then(|m| m.get(key)).map_or("", String::as_str)
}

/// Every known token format is moved from an env value under a harmless name, from a header and from a bare arg.
#[test]
fn each_format_is_moved_wherever_it_is() {
    for (kind, token) in tokens() {
        let mut server = RawServer {
            env: env(&[("NOTES", &token)]),
            headers: env(&[("X-Trace", &format!("id {token}"))]),
            args: Some(vec!["run".into(), token.clone()]),
            ..RawServer::default()
        };
        let found = move_literal_secrets("srv", &mut server);
        assert_eq!(found.len(), 1, "{kind}: one value, stored once: {found:?}");
        assert_eq!(found[0].value.expose(), &token, "{kind}");
        assert_eq!(get(&server.env, "NOTES"), "${secret:NOTES}", "{kind}");
        assert_eq!(get(&server.headers, "X-Trace"), "id ${secret:NOTES}", "{kind}");
        assert_eq!(server.args.as_ref().map(|a| a[1].as_str()), Some("${secret:NOTES}"), "{kind}");
    }
}

/// A secret-ish name moves any literal value, named after the key, with its location.
#[test]
fn secret_ish_names_move_their_values() {
    let mut server = RawServer {
        env: env(&[
            ("DB_PASSWORD", "hunter2"),
            ("apiKey", "abc"),
            ("KEYBOARD_LAYOUT", "dvorak"),
            ("MAX_TOKENS", "4096"),
        ]),
        headers: env(&[("X-Api-Key", "k-123"), ("Cookie", "session=abc"), ("X-Team", "core")]),
        ..RawServer::default()
    };
    let found = move_literal_secrets("srv", &mut server);
    let mut moved: Vec<_> = found.iter().map(|f| (f.name.as_str(), f.location.as_str())).collect();
    moved.sort_unstable();
    assert_eq!(
        moved,
        [
            ("Cookie", "headers.Cookie"),
            ("DB_PASSWORD", "env.DB_PASSWORD"),
            ("X-Api-Key", "headers.X-Api-Key"),
            ("apiKey", "env.apiKey")
        ]
    );
    assert_eq!(get(&server.env, "KEYBOARD_LAYOUT"), "dvorak");
    assert_eq!(get(&server.env, "MAX_TOKENS"), "4096");
    assert_eq!(get(&server.headers, "X-Team"), "core");
}

/// References of every syntax, and empty values, are not secrets, even under secret-ish names.
#[test]
fn references_and_empty_values_are_untouched() {
    let values = ["${env:GITHUB_TOKEN}", "${GITHUB_TOKEN}", "${TOKEN:-dev}", "${secret:gh}", "${input:gh}", ""];
    let pairs: Vec<(String, String)> =
        values.iter().enumerate().map(|(i, v)| (format!("TOKEN_{i}"), (*v).to_owned())).collect();
    let mut server = RawServer {
        env: Some(pairs.iter().cloned().collect()),
        headers: env(&[("Authorization", "Bearer ${secret:gh}")]),
        ..RawServer::default()
    };
    let before = server.clone();
    assert!(move_literal_secrets("srv", &mut server).is_empty());
    assert_eq!(server, before);
}

/// `Authorization: Bearer abc` keeps its scheme; only the credential is stored.
#[test]
fn bearer_scheme_is_kept() {
    let mut server = RawServer {
        headers: env(&[("Authorization", "Bearer abc.def"), ("Proxy-Authorization", "Basic dXNlcjpwYXNz")]),
        env: env(&[("AUTH_HEADER", "Bearer xyz-123")]),
        ..RawServer::default()
    };
    let found = move_literal_secrets("srv", &mut server);
    assert_eq!(get(&server.headers, "Authorization"), "Bearer ${secret:Authorization}");
    assert_eq!(get(&server.headers, "Proxy-Authorization"), "Basic ${secret:Proxy-Authorization}");
    assert_eq!(get(&server.env, "AUTH_HEADER"), "Bearer ${secret:AUTH_HEADER}");
    let values: Vec<_> = found.iter().map(|f| f.value.expose().as_str()).collect();
    assert!(values.contains(&"abc.def") && values.contains(&"dXNlcjpwYXNz") && values.contains(&"xyz-123"));
}

/// Names are sanitised and unique within the server, and never reuse a name the entry already references;
/// the same value found twice is one secret.
#[test]
fn names_are_unique() {
    let mut server = RawServer {
        env: env(&[("GITHUB_TOKEN", "one-value"), ("token", "shared")]),
        headers: env(&[("GITHUB_TOKEN", "other-value"), ("X Token!", "third"), ("X-Token", "shared")]),
        args: Some(vec!["--header".into(), "Authorization: Bearer ${secret:GITHUB_TOKEN_2}".into()]),
        ..RawServer::default()
    };
    let found = move_literal_secrets("srv", &mut server);
    let names: Vec<_> = found.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["GITHUB_TOKEN", "token", "GITHUB_TOKEN_3", "X_Token"], "{found:?}");
    assert_eq!(get(&server.headers, "X-Token"), "${secret:token}");
    assert!(names.iter().all(|n| n.chars().all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))));
}

/// Args: `--flag=value`, `NAME=value`, `Header: Bearer value`, `--flag value`, and URL passwords.
#[test]
fn args_forms() {
    let token = &tokens()[5].1;
    let mut server = RawServer {
        args: Some(vec![
            format!("--api-key={token}"),
            "-e".into(),
            "SLACK_TOKEN=plain-literal".into(),
            "--header".into(),
            "Authorization: Bearer hdr-secret".into(),
            "--header=X-Api-Key: other-secret".into(),
            "--password".into(),
            "p4ss".into(),
            "--db-path".into(),
            "/home/ada/app.db".into(),
            "postgresql://app:pgpass@localhost/app".into(),
        ]),
        ..RawServer::default()
    };
    let found = move_literal_secrets("srv", &mut server);
    let args = server.args.clone().unwrap_or_default();
    assert_eq!(args[0], "--api-key=${secret:api-key}");
    assert_eq!(args[2], "SLACK_TOKEN=${secret:SLACK_TOKEN}");
    assert_eq!(args[4], "Authorization: Bearer ${secret:Authorization}");
    assert_eq!(args[5], "--header=X-Api-Key: ${secret:X-Api-Key}");
    assert_eq!(args[7], "${secret:password}");
    assert_eq!(args[9], "/home/ada/app.db");
    assert_eq!(args[10], "postgresql://app:${secret:url-password}@localhost/app");
    let locations: Vec<_> = found.iter().map(|f| f.location.as_str()).collect();
    assert_eq!(locations, ["args[0]", "args[2]", "args[4]", "args[5]", "args[7]", "args[10]"]);
}

/// Pathological input (a megabyte of `a=a=…`, a long run of token-like text) is handled without deep recursion.
#[test]
fn pathological_values_are_bounded() {
    let mut server = RawServer {
        args: Some(vec!["a=".repeat(500_000), "x".repeat(1_000_000)]),
        env: env(&[("NOTE", &"key:".repeat(100_000))]),
        ..RawServer::default()
    };
    let found = move_literal_secrets("srv", &mut server);
    assert!(found.len() <= 2, "{found:?}");
}

/// A url's secret query parameters and user-info password move; the rest of the url stays.
#[test]
fn url_query_and_password() {
    let mut server = RawServer {
        url: Some("https://bob:pw123@mcp.example.com/sse?api_key=q-secret&team=core#frag".into()),
        ..RawServer::default()
    };
    let found = move_literal_secrets("srv", &mut server);
    assert_eq!(
        server.url.as_deref(),
        Some("https://bob:${secret:url-password}@mcp.example.com/sse?api_key=${secret:api_key}&team=core#frag")
    );
    assert_eq!(found.len(), 2);
}

/// The OAuth client secret (Cursor's `auth.CLIENT_SECRET`, Gemini's `oauth.clientSecret`) and secret-ish settings
/// kept in `other` are moved too.
#[test]
fn oauth_secret_and_other_settings() {
    let text = r#"{"mcpServers":{"acme":{"url":"https://a.example/mcp",
        "auth":{"CLIENT_ID":"id","CLIENT_SECRET":"cs-value"},"settings":{"api_key":"zed-value","region":"eu"}}}}"#;
    let entries = (crate::import::clients::cursor::SOURCE.parse)(text).expect("parses");
    let crate::import::ParsedEntry::Server(mut imported) = entries[0].clone() else { panic!("server") };
    let found = move_literal_secrets(&imported.name, &mut imported.server);
    let summary: Vec<_> = found.iter().map(|f| (f.name.as_str(), f.location.as_str())).collect();
    assert_eq!(summary, [("oauth-client-secret", "oauth client secret"), ("api_key", "other.settings.api_key")]);
    let oauth = imported.server.oauth.as_ref().expect("oauth");
    assert_eq!(oauth.client_secret.as_deref(), Some("${secret:oauth-client-secret}"), "where login reads it");
    assert!(!oauth.other.contains_key("clientSecret"));
    assert_eq!(imported.server.other["settings"], json!({ "api_key": "${secret:api_key}", "region": "eu" }));
}

/// No secret value appears in the Debug output of the found secrets or of the scanned entry.
#[test]
fn values_never_show_in_debug() {
    let all: Vec<String> = tokens().into_iter().map(|(_, t)| t).collect();
    let mut server = RawServer {
        env: Some(all.iter().enumerate().map(|(i, t)| (format!("VAR_{i}"), t.clone())).collect()),
        headers: env(&[("Authorization", "Bearer hdr-secret-value")]),
        ..RawServer::default()
    };
    let found = move_literal_secrets("srv", &mut server);
    assert_eq!(found.len(), all.len() + 1);
    let shown = format!("{found:?} {server:?} {:?}", found.iter().map(|f| &f.value).collect::<Vec<_>>());
    for secret in all.iter().map(String::as_str).chain(["hdr-secret-value"]) {
        assert!(!shown.contains(secret), "leaked {secret}");
    }
}

/// A token shape from `formats`, for the property tests.
fn token_strategy() -> impl Strategy<Value = String> {
    let alnum = "[A-Za-z0-9]{36}";
    prop_oneof![
        alnum.prop_map(|b| format!("ghp_{b}")),
        alnum.prop_map(|b| format!("github_pat_{b}")),
        alnum.prop_map(|b| format!("sk-{b}1a")),
        alnum.prop_map(|b| format!("sk-ant-api03-{b}")),
        "[A-Za-z0-9]{20}".prop_map(|b| format!("xoxp-{b}")),
        "[A-Z0-9]{16}".prop_map(|b| format!("AKIA{b}")),
        "[A-Za-z0-9]{20}".prop_map(|b| format!("glpat-{b}")),
        "[A-Za-z0-9]{35}".prop_map(|b| format!("AIza{b}")),
        "[A-Za-z0-9]{24}".prop_map(|b| format!("sk_live_{b}")),
        ("[A-Za-z0-9]{10,20}", "[A-Za-z0-9]{10,20}", "[A-Za-z0-9_-]{0,20}")
            .prop_map(|(h, p, s)| format!("eyJ{h}.eyJ{p}.{s}")),
        "[A-Za-z0-9]{4,12}".prop_map(|p| format!("postgres://app:{p}@db/app")),
    ]
}

fn plain_key() -> impl Strategy<Value = String> {
    "[A-Za-z][A-Za-z0-9_]{0,15}".prop_filter("not secret-ish", |k| classify(k) == KeyClass::Plain)
}

fn plain_value() -> impl Strategy<Value = String> {
    "[A-Za-z0-9 ./:_@-]{0,40}".prop_filter("no token shape, not `secret-ish-name: value`", |v| {
        formats::find(v).is_empty() && self_named(v).is_none()
    })
}

/// Every text in the serialised entry, keys included.
fn texts(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|i| texts(i, out)),
        Value::Object(map) => map.iter().for_each(|(k, v)| {
            out.push(k.clone());
            texts(v, out);
        }),
        _ => {}
    }
}

proptest! {
    /// Env maps, headers and args with neither secret-ish names nor token shapes come out exactly as they went in.
    #[test]
    fn harmless_entries_are_untouched(
        env in proptest::collection::btree_map(plain_key(), plain_value(), 0..8),
        headers in proptest::collection::btree_map(plain_key(), plain_value(), 0..4),
        args in proptest::collection::vec(plain_value(), 0..6),
    ) {
        let mut server = RawServer { env: Some(env), headers: Some(headers), args: Some(args), ..RawServer::default() };
        let before = server.clone();
        let found = move_literal_secrets("srv", &mut server);
        prop_assert!(found.is_empty(), "{found:?}");
        prop_assert_eq!(server, before);
    }

    /// Wherever tokens are put (env, headers, args, url query, unknown settings, OAuth), none is left afterwards,
    /// every one is returned, and the entry references each returned name.
    #[test]
    fn no_token_survives_the_scan(
        placed in proptest::collection::vec((0usize..7, plain_key(), token_strategy(), "[a-z ]{0,6}"), 1..8),
    ) {
        let mut server = RawServer::default();
        for (i, (place, key, token, filler)) in placed.iter().enumerate() {
            let text = format!("{filler} {token}");
            match place {
                0 => { server.env.get_or_insert_with(BTreeMap::new).insert(format!("{key}_{i}"), text); }
                1 => { server.headers.get_or_insert_with(BTreeMap::new).insert(format!("{key}-{i}"), text); }
                2 => server.args.get_or_insert_with(Vec::new).push(token.clone()),
                3 => server.args.get_or_insert_with(Vec::new).push(format!("--{key}={token}")),
                4 => server.url = Some(format!("https://x.example/mcp?{key}={token}")),
                5 => { server.other.insert(format!("{key}{i}"), json!({ "nested": [text] })); }
                _ => {
                    let oauth = server.oauth.get_or_insert_with(Default::default);
                    oauth.other.insert("clientSecret".into(), Value::String(token.clone()));
                }
            }
        }
        let found = move_literal_secrets("srv", &mut server);
        let mut all = Vec::new();
        texts(&serde_json::to_value(&server).unwrap_or_default(), &mut all);
        for text in &all {
            prop_assert!(formats::find(text).is_empty(), "token left in {text}");
        }
        let joined = all.join("\n");
        for secret in &found {
            prop_assert!(joined.contains(&format!("${{secret:{}}}", secret.name)), "{} unreferenced", secret.name);
            // Short URL passwords can occur by chance in other text; real tokens cannot.
            if secret.value.expose().len() >= 16 {
                prop_assert!(!joined.contains(secret.value.expose().as_str()), "value of {} still present", secret.name);
            }
        }
    }
}
