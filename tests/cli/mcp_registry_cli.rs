//! `plugboard registry` against a loopback registry serving a recorded v0.1 page: the registries searched are
//! chosen from the CLI (https only), a search prints the active entries and what it skipped, and `registry add`
//! installs an entry that then waits for approval.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;

use crate::support::{Sandbox, repo_root, stderr, stdout};

/// A registry on 127.0.0.1 answering every request with the recorded first page; its base URL.
#[allow(clippy::expect_used, reason = "test setup: a failed step is the clearest report")]
fn recorded_registry() -> String {
    let page = std::fs::read_to_string(
        repo_root().join("src-tauri/crates/plugboard-core/src/mcp_registry/fixtures/page-1.json"),
    )
    .expect("fixture");
    let listener = TcpListener::bind(("127.0.0.1", 0)).expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(&stream);
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            let mut stream = &stream;
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{page}",
                page.len()
            );
        }
    });
    base
}

/// `plugboard status` shows `server` as needing approval (nothing of it ran).
fn assert_waits_for_approval(sandbox: &Sandbox, server: &str) {
    let status = stdout(&sandbox.run(&["status"]));
    assert!(status.lines().any(|l| l.starts_with(server) && l.contains("needs approval")), "{status}");
}

/// The registries are chosen from the CLI; a search prints each active entry, the skipped ones with why, and
/// the command for the next page; the entry is added, waiting for approval.
#[test]
fn registry_search_and_add() {
    let sandbox = Sandbox::new();
    let base = recorded_registry();
    let refused = sandbox.run(&["registry", "sources", "add", "http://registry.example.com"]);
    assert!(!refused.status.success());
    assert!(stderr(&refused).contains("use https"), "{}", stderr(&refused));
    assert!(
        sandbox.run(&["registry", "sources", "remove", "https://registry.modelcontextprotocol.io"]).status.success()
    );
    let added = sandbox.run(&["registry", "sources", "add", &base, "--name", "Recorded"]);
    assert_eq!(stdout(&added).split_whitespace().collect::<Vec<_>>(), ["Recorded", base.as_str()]);

    let out = sandbox.run(&["registry", "search", "weather"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains(&format!("== Recorded ({base})")), "{text}");
    assert!(text.lines().any(|l| l.starts_with("io.github.example/weather") && l.contains("1.4.0")), "{text}");
    assert!(text.contains("skipped io.github.example/old-weather: its status is \"deprecated\""), "{text}");
    assert!(text.contains("skipped io.github.example/dotnet-weather: it cannot run here"), "{text}");
    assert!(text.contains(&format!("--registry {base} --cursor \"io.github.example/dotnet-weather:2.0.0\"")), "{text}");

    let out = sandbox.run(&["registry", "add", "io.github.example/weather", "--input", "WEATHER_API_KEY=x"]);
    assert!(!out.status.success() && stderr(&out).contains("--secret-stdin WEATHER_API_KEY"), "{}", stderr(&out));
    let out = sandbox.run_with_stdin(
        &[
            "--insecure-plaintext-secrets",
            "registry",
            "add",
            "io.github.example/weather",
            "--secret-stdin",
            "WEATHER_API_KEY",
        ],
        "wk_test\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("added weather from io.github.example/weather 1.4.0"), "{}", stdout(&out));
    assert!(stdout(&out).contains("plugboard approve weather"), "{}", stdout(&out));
    assert_waits_for_approval(&sandbox, "weather");
}

/// `plugboard install LINK` shows what the link would run and adds nothing without a yes; with one (and the secret
/// on stdin) it adds a server that waits for approval; a hostile link is refused with the reason.
#[test]
fn install_link_from_the_cli() {
    use base64::Engine as _;
    let sandbox = Sandbox::new();
    let config = serde_json::json!({ "command": "npx", "args": ["-y", "@example/weather@1.4.0"], "env": { "WEATHER_API_KEY": "" } });
    let encoded = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(config.to_string());
    let link = format!("plugboard://install?name=weather&config={encoded}");

    let out = sandbox.run_with_stdin(&["install", &link], "n\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("it would run: npx -y @example/weather@1.4.0"), "{text}");
    assert!(text.contains("WEATHER_API_KEY = ${secret:WEATHER_API_KEY}"), "{text}");
    assert!(text.contains("Nothing was added."), "{text}");
    assert!(
        !sandbox.config_dir().join("servers.json").exists()
            || !std::fs::read_to_string(sandbox.config_dir().join("servers.json"))
                .unwrap_or_default()
                .contains("weather")
    );

    let out = sandbox.run_with_stdin(
        &["--insecure-plaintext-secrets", "install", &link, "--yes", "--secret-stdin", "WEATHER_API_KEY"],
        "wk_test\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("plugboard approve weather"), "{}", stdout(&out));
    assert_waits_for_approval(&sandbox, "weather");

    let hostile =
        serde_json::json!({ "command": "sh", "env": { "GITHUB_TOKEN": "ghp_0123456789abcdefABCDEF0123456789abcd" } });
    let hostile = format!(
        "plugboard://install?name=x&config={}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(hostile.to_string())
    );
    let out = sandbox.run(&["install", &hostile, "--yes"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("looks like a secret in env.GITHUB_TOKEN"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("ghp_"), "{}", stderr(&out));
}

/// A minimal MCP server over stdio in plain Node (one `hello` tool): what the test's bundle carries.
const HELLO_SERVER: &str = include_str!("../fixtures/hello_bundle_server.js");

/// A bundle built here installs from the command line (its secret from stdin), waits for approval, and once
/// approved runs: `status` sees it Ready and a call reaches it with the secret in its environment.
#[test]
#[ignore = "needs node on PATH and a Secret Service; make test runs it in tests/harness/isolated-env.sh"]
fn a_bundle_installs_and_runs() {
    use std::io::Write as _;
    let sandbox = Sandbox::new();
    let path = sandbox.root().join("hello.mcpb");
    let manifest = serde_json::json!({
        "manifest_version": "0.3", "name": "hello-bundle", "version": "1.0.0", "description": "Says hello.",
        "author": { "name": "Ada" },
        "server": { "type": "node", "entry_point": "server/index.js",
            "mcp_config": { "command": "node", "args": ["${__dirname}/server/index.js"], "env": { "API_KEY": "${user_config.api_key}" } } },
        "tools": [{ "name": "hello" }],
        "user_config": { "api_key": { "type": "string", "title": "API key", "description": "Any text.", "sensitive": true, "required": true } }
    });
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).expect("create"));
    for (name, text) in [("manifest.json", manifest.to_string()), ("server/index.js", HELLO_SERVER.to_owned())] {
        zip.start_file(name, zip::write::SimpleFileOptions::default()).expect("entry");
        zip.write_all(text.as_bytes()).expect("write");
    }
    zip.finish().expect("finish");

    let bundle = path.display().to_string();
    let out = sandbox.run_with_stdin(&["install", &bundle, "--yes", "--secret-stdin", "api_key"], "abcde\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("The bundle hello-bundle 1.0.0 by Ada") && text.contains("declares the tool hello"),
        "{text}"
    );
    assert!(text.contains("unsigned"), "{text}");
    assert_waits_for_approval(&sandbox, "hello-bundle");
    sandbox.approve_all();
    let status = stdout(&sandbox.run(&["status"]));
    assert!(
        status.lines().any(|l| l.starts_with("hello-bundle") && l.contains("ready") && l.contains("1 tool(s)")),
        "{status}"
    );
    let call = sandbox.run(&["call", "hello-bundle", "hello"]);
    assert!(stdout(&call).contains("hello, key of 5 characters"), "{}\n{}", stdout(&call), stderr(&call));
}
