//! `plugboard registry` against a loopback registry serving a recorded v0.1 page: the registries searched are
//! chosen from the CLI (https only), a search prints the active entries and what it skipped, and `registry add`
//! installs an entry that then waits for approval.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;

use crate::support::{Sandbox, repo_root, stderr, stdout};

/// A registry on 127.0.0.1 answering every request with the recorded first page; its base URL.
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
    let status = sandbox.run(&["status"]);
    assert!(
        stdout(&status).lines().any(|l| l.starts_with("weather") && l.contains("needs approval")),
        "{}",
        stdout(&status)
    );
}
