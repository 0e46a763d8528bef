//! Install links: both shapes parse into a preset, hostile links are refused with a reason that repeats no value,
//! the consent shows the trust flags, adding waits for approval, and a server copied as a link comes back the same.

use std::collections::BTreeMap;
use std::sync::Arc;

use base64::Engine as _;

use super::*;
use crate::config::ConfigStore;
use crate::config::raw::RawServer;
use crate::presets::{Launch, RemoteTransport, convert};
use crate::registry::Registry;
use crate::secrets::{MemoryStore, Vault};

fn cursor_link(name: &str, config: &serde_json::Value) -> String {
    let encoded = base64::engine::general_purpose::STANDARD.encode(config.to_string());
    let encoded: String = url::form_urlencoded::byte_serialize(encoded.as_bytes()).collect();
    format!("plugboard://install?name={name}&config={encoded}")
}

fn vscode_link(config: &serde_json::Value) -> String {
    let json = config.to_string();
    let encoded = percent_encoding::utf8_percent_encode(&json, percent_encoding::NON_ALPHANUMERIC);
    format!("plugboard://install?{encoded}")
}

fn refusal(link: &str) -> String {
    parse(link).expect_err("refused").to_string()
}

fn registry() -> (tempfile::TempDir, Registry) {
    let dir = tempfile::tempdir().expect("dir");
    let store = ConfigStore::open(dir.path().join("servers.json")).expect("open");
    (dir, Registry::new(store, Arc::new(Vault::with_store(Arc::new(MemoryStore::default())))))
}

fn inputs(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
}

/// Cursor's shape: the command and arguments as given, an empty variable asked for (a secret by its name) and
/// stored as a keychain reference.
#[test]
fn cursor_shape_link() {
    let link = cursor_link(
        "weather",
        &serde_json::json!({ "command": "npx", "args": ["-y", "@example/weather@1.4.0"], "env": { "WEATHER_API_KEY": "", "UNITS": "metric" } }),
    );
    let parsed = parse(&link).expect("parsed");
    assert_eq!(parsed.name, "weather");
    let Launch::Command { command, args, .. } = &parsed.preset.launch else { panic!("{:?}", parsed.preset.launch) };
    assert_eq!((command.as_str(), args.concat()), ("npx", vec!["-y".to_owned(), "@example/weather@1.4.0".to_owned()]));
    let keys: Vec<(&str, bool, bool)> =
        parsed.preset.inputs.iter().map(|i| (i.key.as_str(), i.required, i.secret)).collect();
    assert_eq!(keys, [("WEATHER_API_KEY", true, true)]);
    let c = convert(&parsed.preset, &inputs(&[("WEATHER_API_KEY", "wk_1")])).expect("convert");
    let env = c.entry.env.expect("env");
    assert_eq!((env["WEATHER_API_KEY"].as_str(), env["UNITS"].as_str()), ("${secret:WEATHER_API_KEY}", "metric"));
}

/// VS Code's shape: a remote with a bearer header whose token is a declared password input.
#[test]
fn vscode_shape_link() {
    let link = vscode_link(&serde_json::json!({
        "name": "Docs Server", "type": "http", "url": "https://docs.example.com/mcp",
        "headers": { "Authorization": "Bearer ${input:docs-token}" },
        "inputs": [{ "type": "promptString", "id": "docs-token", "description": "Your docs token", "password": true }]
    }));
    let parsed = parse(&link).expect("parsed");
    assert_eq!(parsed.name, "Docs-Server");
    let Launch::Remote { transport, url, headers, .. } = &parsed.preset.launch else { panic!() };
    assert_eq!((*transport, url.as_str()), (RemoteTransport::StreamableHttp, "https://docs.example.com/mcp"));
    assert_eq!(headers[0].template, "Bearer {docs-token}");
    let token = parsed.preset.input("docs-token").expect("input");
    assert!(token.secret && token.required && token.description.as_deref() == Some("Your docs token"));
}

/// Hostile and broken links are refused, each with its reason and never with the value that was refused.
#[test]
fn hostile_links_are_refused() {
    let secret = "ghp_0123456789abcdefABCDEF0123456789abcd";
    let carries = refusal(&cursor_link(
        "gh",
        &serde_json::json!({ "command": "npx", "args": ["-y", "s@1"], "env": { "GITHUB_TOKEN": secret } }),
    ));
    assert!(carries.contains("looks like a secret in env.GITHUB_TOKEN") && !carries.contains(secret), "{carries}");
    let in_header = refusal(&cursor_link(
        "r",
        &serde_json::json!({ "url": "https://r.example/mcp", "headers": { "Authorization": format!("Bearer {secret}") } }),
    ));
    assert!(in_header.contains("headers.Authorization") && !in_header.contains(secret), "{in_header}");
    let reads_env = refusal(&cursor_link(
        "r",
        &serde_json::json!({ "url": "https://r.example/mcp", "headers": { "Authorization": "Bearer ${env:GITHUB_TOKEN}" } }),
    ));
    assert!(reads_env.contains("may not read your environment"), "{reads_env}");
    let cwd = refusal(&cursor_link("r", &serde_json::json!({ "command": "x", "cwd": "/" })));
    assert_eq!(cwd, "it sets cwd, which an install link may not set");
    let env_file = refusal(&cursor_link("r", &serde_json::json!({ "command": "x", "envFile": "~/.ssh/id_rsa" })));
    assert_eq!(env_file, "it sets envFile, which an install link may not set");
    assert!(refusal(&cursor_link("r", &serde_json::json!({ "url": "http://r.example/mcp" }))).contains("https"));
    assert!(
        refusal(&cursor_link("r", &serde_json::json!({ "url": "https://u:p@r.example/mcp" })))
            .contains("secret in url")
    );
    assert!(
        refusal(&cursor_link("r", &serde_json::json!({ "command": "x", "url": "https://r.example" }))).contains("both")
    );
    assert!(refusal(&cursor_link("r", &serde_json::json!({ "command": "x\u{1b}[2J" }))).contains("control characters"));
    assert!(refusal(&cursor_link("r", &serde_json::json!({ "command": "x", "args": ["{evil}"] }))).contains("braces"));
    assert!(refusal(&cursor_link("r", &serde_json::json!({ "command": "x", "extra": 1 }))).contains("not one server"));
    assert!(refusal(&cursor_link("", &serde_json::json!({ "command": "x" }))).contains("no server name"));
    assert_eq!(
        parse(&format!("plugboard://install?name=x&config={}", "A".repeat(MAX_LINK_BYTES))),
        Err(LinkError::Oversized)
    );
    for broken in [
        "plugboard://install?name=x&config=%%%",
        "plugboard://install?name=x&config=bm90IGpzb24",
        "plugboard://install?name=x",
        "plugboard://install?name=x&name=y&config=e30",
        "plugboard://install?name=x&config=e30&surprise=1",
        "plugboard://install?%7Bnot json",
    ] {
        assert!(matches!(parse(broken), Err(LinkError::Malformed(_))), "{broken}: {:?}", parse(broken));
    }
    for not_install in
        ["plugboard://oauth/callback?code=1", "https://install?name=x", "plugboard://install/evil?name=x", "nope"]
    {
        assert_eq!(parse(not_install), Err(LinkError::NotAnInstallLink), "{not_install}");
    }
}

/// The consent names a link's risky launch (sudo, an unpinned package) before anything is added; adding parses
/// the link again, stores the secret apart, and leaves the server waiting for approval.
#[test]
fn offer_flags_and_add_waits_for_approval() {
    let (dir, reg) = registry();
    let ids =
        |link: &str| -> Vec<&'static str> { offer(&reg, link).expect("offer").flags.iter().map(|f| f.id).collect() };
    let root = cursor_link("root", &serde_json::json!({ "command": "sudo", "args": ["node", "server.js"] }));
    assert_eq!(ids(&root), ["sudo"]);
    assert_eq!(offer(&reg, &root).expect("offer").preview.target, "sudo node server.js");
    let floating = cursor_link("floating", &serde_json::json!({ "command": "npx", "args": ["-y", "some-server"] }));
    assert_eq!(ids(&floating), ["unpinned"]);

    let link = cursor_link(
        "weather",
        &serde_json::json!({ "command": "npx", "args": ["-y", "@example/weather@1.4.0"], "env": { "WEATHER_API_KEY": "<your key>" } }),
    );
    let offer = offer(&reg, &link).expect("offer");
    assert_eq!(offer.preview.env[0].template, "${secret:WEATHER_API_KEY}");
    assert!(
        matches!(add(&reg, &link, "weather", &BTreeMap::new()), Err(InstallError::Preset(_))),
        "the key is required"
    );
    add(&reg, &link, "weather", &inputs(&[("WEATHER_API_KEY", "wk_secret")])).expect("add");
    let text = std::fs::read_to_string(reg.store().path()).expect("file");
    assert!(!text.contains("wk_secret") && text.contains("${secret:WEATHER_API_KEY}"), "{text}");
    let approvals = crate::trust::Approvals::at(dir.path().join("trust.json"));
    let config = crate::config::validate_server("weather", &reg.get("weather").expect("entry")).expect("valid");
    assert!(matches!(crate::trust::gate(&approvals, &config), Err(crate::trust::Unapproved::Pending { .. })));
}

/// A server copied as an install link comes back as the same entry once its secret is given again; the link holds
/// no secret value, only a password input.
#[test]
fn copied_link_round_trips() {
    let entry = RawServer {
        command: Some("npx".into()),
        args: Some(vec!["-y".into(), "@example/weather@1.4.0".into()]),
        env: Some([("WEATHER_API_KEY".to_owned(), "${secret:WEATHER_API_KEY}".to_owned())].into()),
        ..RawServer::default()
    };
    let link = install_link("weather", &entry).expect("link");
    let parsed = parse(&link).expect("parsed");
    assert!(parsed.preset.input("WEATHER_API_KEY").is_some_and(|i| i.secret));
    let back = convert(&parsed.preset, &inputs(&[("WEATHER_API_KEY", "wk")])).expect("convert").entry;
    assert_eq!((back.command, back.args, back.env), (entry.command, entry.args, entry.env));

    let remote = RawServer {
        kind: Some("sse".into()),
        url: Some("https://r.example/sse".into()),
        headers: Some([("Authorization".to_owned(), "Bearer ${secret:token}".to_owned())].into()),
        ..RawServer::default()
    };
    let back =
        convert(&parse(&install_link("r", &remote).expect("link")).expect("parsed").preset, &inputs(&[("token", "t")]))
            .expect("convert")
            .entry;
    assert_eq!((back.kind, back.url, back.headers), (remote.kind, remote.url, remote.headers));
}

/// The config copied for another client uses that client's way of asking for a secret, never its value.
#[test]
fn client_configs_carry_references() {
    let entry = RawServer {
        command: Some("npx".into()),
        args: Some(vec!["-y".into(), "pkg@1".into()]),
        env: Some([("API_KEY".to_owned(), "${secret:API_KEY}".to_owned())].into()),
        ..RawServer::default()
    };
    let cursor: serde_json::Value =
        serde_json::from_str(&client_config("s", &entry, ClientShape::Cursor).expect("cursor")).expect("json");
    assert_eq!(
        cursor,
        serde_json::json!({ "mcpServers": { "s": { "command": "npx", "args": ["-y", "pkg@1"], "env": { "API_KEY": "${env:API_KEY}" } } } })
    );
    let code: serde_json::Value =
        serde_json::from_str(&client_config("s", &entry, ClientShape::ClaudeCode).expect("code")).expect("json");
    assert_eq!(code["mcpServers"]["s"]["env"]["API_KEY"], "${API_KEY}");
    assert_eq!(code["mcpServers"]["s"]["type"], "stdio");
    let vscode: serde_json::Value =
        serde_json::from_str(&client_config("s", &entry, ClientShape::VsCode).expect("vscode")).expect("json");
    assert_eq!(vscode["servers"]["s"]["env"]["API_KEY"], "${input:API_KEY}");
    assert_eq!(vscode["inputs"][0]["password"], true);
}
