//! A whole session at TRACE log level, then a sweep for every secret it handled: an import of literal secrets (a
//! local server's env, a remote server's header and URL query), an OAuth login against the TypeScript SDK's demo
//! authorization server, calls through the CLI and through `serve --stdio` with those headers, query and bearer
//! token, a result that echoes a secret, `status` and `doctor`. Afterwards no file under the sandbox (config, data,
//! logs, the history's SQLite, backups) and no line the commands wrote holds a secret, token, code, PKCE verifier or
//! `state`.
#![allow(clippy::expect_used)]

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use plugboard_core::secrets::Vault;
use sha2::{Digest, Sha256};

use crate::oauth_cli::{DemoServer, browse};
use crate::support::{Sandbox, every_file, free_port, repo_root, stderr, stdout, wait_listening};

/// The length of rmcp's PKCE verifiers (32 random bytes, base64url): the sweep recognises one by its S256 challenge.
const VERIFIER_LEN: usize = 43;

/// A value no run has used before, shaped like an API key.
fn fresh_secret(kind: &str) -> String {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    format!("{kind}-{:016x}{:08x}", hasher.finish(), std::process::id())
}

fn everything() -> PathBuf {
    let bin = repo_root().join("tests/node_modules/.bin/mcp-server-everything");
    assert!(bin.exists(), "{} is missing: run `make deps`", bin.display());
    bin
}

/// The reference server over Streamable HTTP on a free port, killed when dropped. It ignores the header and query
/// it is sent: what matters is that Plugboard sends them and writes them nowhere.
struct EverythingHttp {
    child: std::process::Child,
    port: u16,
}

impl EverythingHttp {
    fn start() -> Self {
        let port = free_port();
        let child = Command::new(everything())
            .arg("streamableHttp")
            .env("PORT", port.to_string())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the reference server over HTTP");
        wait_listening(port, "the reference server");
        Self { child, port }
    }
}

impl Drop for EverythingHttp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Every line the session's commands wrote (their TRACE logs on stderr, their output on stdout).
#[derive(Default)]
struct Transcript(Vec<String>);

impl Transcript {
    fn keep(&mut self, what: &str, output: &Output) {
        self.0.push(format!("== {what}\n{}{}", stdout(output), stderr(output)));
    }

    /// Runs `plugboard ARGS` at TRACE and keeps what it wrote; it must succeed.
    fn run(&mut self, sandbox: &Sandbox, args: &[&str]) -> Output {
        let output = self.run_any(sandbox, args);
        assert!(output.status.success(), "plugboard {args:?}: {}{}", stdout(&output), stderr(&output));
        output
    }

    /// Runs `plugboard ARGS` at TRACE and keeps what it wrote, however it ends.
    fn run_any(&mut self, sandbox: &Sandbox, args: &[&str]) -> Output {
        let output = traced(sandbox, args).output().expect("run plugboard");
        self.keep(&args.join(" "), &output);
        output
    }
}

/// `plugboard ARGS` in the sandbox with every log target at TRACE.
fn traced(sandbox: &Sandbox, args: &[&str]) -> Command {
    let mut command = sandbox.command(args);
    command.env("PLUGBOARD_LOG", "trace");
    command
}

/// A session at TRACE, then no secret anywhere: see the module's header for what the session does.
#[test]
#[ignore = "needs the npm SDK example server, the reference servers and a Secret Service; make test runs it in the harness"]
fn a_traced_session_leaves_no_secret_in_any_file_or_log_line() {
    let demo = DemoServer::start();
    let http = EverythingHttp::start();
    let sandbox = Sandbox::new();
    let mut transcript = Transcript::default();
    let (env_secret, header_secret, query_secret, down_secret) =
        (fresh_secret("envkey"), fresh_secret("headerkey"), fresh_secret("querykey"), fresh_secret("downkey"));
    // Nothing listens there: its failure quotes the URL it could not reach.
    let closed_port = free_port();

    // Import: literal secrets in another client's file move to the keychain.
    let cursor = sandbox.write_home_file(
        ".cursor/mcp.json",
        &serde_json::json!({ "mcpServers": {
            "envy": { "command": everything(), "args": ["stdio"], "env": { "API_KEY": env_secret } },
            "down": { "url": format!("http://127.0.0.1:{closed_port}/mcp?token={down_secret}") },
            "remote": {
                "url": format!("http://127.0.0.1:{}/mcp?api_key={query_secret}", http.port),
                "headers": { "X-Api-Key": header_secret },
            },
        }})
        .to_string(),
    );
    transcript.run(&sandbox, &["import", "--from", "cursor"]);
    let config_path = sandbox.config_dir().join("servers.json");
    let mut config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&config_path).expect("servers.json")).expect("json");
    for secret in [&env_secret, &header_secret, &query_secret, &down_secret] {
        assert!(!config.to_string().contains(secret.as_str()), "the import left a literal secret: {config}");
    }
    // The person adds the OAuth server by editing the file.
    config["mcpServers"]["demo"] = serde_json::json!({ "type": "http", "url": demo.url(), "oauth": {} });
    std::fs::write(&config_path, serde_json::to_string_pretty(&config).expect("json")).expect("write servers.json");
    transcript.run(&sandbox, &["approve", "--all", "--yes"]);

    // An OAuth login: the authorization URL, the redirect with its code and state, the token exchange.
    let mut login =
        traced(&sandbox, &["login", "demo"]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("login");
    let login_stderr = login.stderr.take().expect("stderr");
    let login_logs = std::thread::spawn(move || std::io::read_to_string(login_stderr).unwrap_or_default());
    let mut lines = BufReader::new(login.stdout.take().expect("stdout")).lines();
    let mut said = Vec::new();
    let authorization_url = loop {
        let line = lines.next().and_then(Result::ok).expect("the authorization URL");
        if line.starts_with("http") {
            break line;
        }
        said.push(line);
    };
    let (callback, _page) = browse(&authorization_url);
    let rest: Vec<String> = said.into_iter().chain(lines.map_while(Result::ok)).collect();
    assert!(login.wait().expect("login exits").success(), "{rest:?}");
    // The authorization URL is for the browser, which needs its state: every other line the login wrote is swept.
    transcript.0.push(format!("== login\n{}\n{}", rest.join("\n"), login_logs.join().expect("logs")));

    // Calls with the header, the query and the bearer token; one result echoes the env secret back.
    let echoed = transcript.run(&sandbox, &["call", "remote", "echo", "--args", r#"{"message":"through the header"}"#]);
    assert!(stdout(&echoed).contains("through the header"), "{}", stdout(&echoed));
    let greeted = transcript.run(&sandbox, &["call", "demo", "greet", "--args", r#"{"name":"sweep"}"#]);
    assert!(stdout(&greeted).contains("Hello, sweep!"), "{}", stdout(&greeted));
    let env = transcript.run(&sandbox, &["call", "envy", "get-env"]);
    assert!(stdout(&env).contains("${secret:API_KEY}"), "the echoed secret shows as its reference: {}", stdout(&env));
    let status = transcript.run(&sandbox, &["status"]);
    let down = stdout(&status).lines().find(|line| line.starts_with("down")).unwrap_or_default().to_owned();
    assert!(down.contains("token=${secret:"), "a failure quotes the URL as configured: {down}");
    transcript.run_any(&sandbox, &["doctor", "down"]);
    transcript.run(&sandbox, &["doctor", "remote"]);
    gateway_session(&sandbox, &mut transcript);

    // What to look for: the imported secrets, the login's tokens (from the keychain), its code and state.
    let stored = Vault::keychain().expect("a Secret Service").get("demo", "oauth:credentials").expect("read");
    let stored: serde_json::Value = serde_json::from_str(stored.expect("logged in").expose()).expect("json");
    let token = &stored["credentials"]["token_response"];
    let query: HashMap<String, String> =
        url::Url::parse(&callback).expect("callback").query_pairs().into_owned().collect();
    let challenge = url::Url::parse(&authorization_url)
        .expect("authorization URL")
        .query_pairs()
        .find(|(k, _)| k == "code_challenge")
        .map(|(_, v)| v.into_owned())
        .expect("a PKCE challenge");
    let mut needles = vec![
        ("the local server's env secret", env_secret),
        ("the header secret", header_secret),
        ("the URL query secret", query_secret),
        ("the unreachable server's URL query secret", down_secret),
        ("the access token", token["access_token"].as_str().expect("access token").to_owned()),
        ("the authorization code", query["code"].clone()),
        ("the state", query["state"].clone()),
    ];
    if let Some(refresh) = token["refresh_token"].as_str() {
        needles.push(("the refresh token", refresh.to_owned()));
    }

    // The sweep must see a TRACE session, or it proves nothing.
    let logs = sandbox.data_dir().join("logs");
    let log_text: String = std::fs::read_dir(&logs)
        .expect("a log folder")
        .flatten()
        .map(|entry| std::fs::read_to_string(entry.path()).unwrap_or_default())
        .collect();
    assert!(log_text.contains("TRACE"), "the session did not log at TRACE");
    assert!(transcript.0.iter().any(|text| text.contains("TRACE")), "the commands did not log at TRACE on stderr");

    // Every file but the client file the test planted its literal secrets in.
    let files = every_file(sandbox.root(), &[cursor]);
    assert!(files.iter().any(|(path, _)| path.ends_with("history.sqlite3")), "the history is swept too");
    for (what, needle) in &needles {
        assert!(needle.len() >= 8, "{what} is too short to search for");
        let in_files: Vec<String> = files
            .iter()
            .filter(|(_, bytes)| contains(bytes, needle.as_bytes()))
            .map(|(path, bytes)| format!("{}: {}", path.display(), lines_with(bytes, needle)))
            .collect();
        assert!(in_files.is_empty(), "{what} is in {in_files:#?}");
        let in_lines: Vec<&str> =
            transcript.0.iter().flat_map(|text| text.lines()).filter(|line| line.contains(needle.as_str())).collect();
        assert!(in_lines.is_empty(), "{what} is in these lines: {in_lines:#?}");
    }
    let texts = files.iter().map(|(path, bytes)| (path.display().to_string(), bytes.as_slice()));
    let lines = transcript.0.iter().map(|text| ("the commands' output".to_owned(), text.as_bytes()));
    let verifiers: Vec<String> =
        texts.chain(lines).filter(|(_, bytes)| holds_verifier(bytes, &challenge)).map(|(w, _)| w).collect();
    assert!(verifiers.is_empty(), "the PKCE verifier is in {verifiers:?}");
}

/// A client's session with `serve --stdio` (the official Rust SDK's client): a call through the remote server's
/// header and query, and the local server's env echoed back.
fn gateway_session(sandbox: &Sandbox, transcript: &mut Transcript) {
    use rmcp::ServiceExt;
    use rmcp::model::CallToolRequestParams;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let logs = runtime.block_on(async {
        let command = tokio::process::Command::from(traced(sandbox, &["serve", "--stdio"]));
        let (transport, logs) =
            rmcp::transport::TokioChildProcess::builder(command).stderr(Stdio::piped()).spawn().expect("serve --stdio");
        let mut logs = logs.expect("its stderr");
        let reading = tokio::spawn(async move {
            let mut text = String::new();
            let _ = tokio::io::AsyncReadExt::read_to_string(&mut logs, &mut text).await;
            text
        });
        let client = ().serve(transport).await.expect("a gateway session");
        let echoed = client
            .call_tool(CallToolRequestParams::new("mcp__remote__echo").with_arguments(
                serde_json::json!({ "message": "via the gateway" }).as_object().cloned().expect("object"),
            ))
            .await
            .expect("a call through the gateway");
        assert!(serde_json::to_string(&echoed).expect("json").contains("via the gateway"), "{echoed:?}");
        let env = client.call_tool(CallToolRequestParams::new("mcp__envy__get-env")).await.expect("get-env");
        let env = serde_json::to_string(&env).expect("json");
        assert!(env.contains("${secret:API_KEY}"), "the client sees the reference, not the value: {env}");
        transcript.0.push(format!("== gateway results\n{env}"));
        client.cancel().await.expect("close the session");
        reading.await.expect("the gateway's logs")
    });
    transcript.0.push(format!("== serve --stdio\n{logs}"));
}

/// The first few lines of `bytes` holding `needle`, shortened, to say where a leak is.
fn lines_with(bytes: &[u8], needle: &str) -> String {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<String> = text
        .lines()
        .filter(|line| line.contains(needle))
        .take(3)
        .map(|line| line.chars().take(400).collect())
        .collect();
    lines.join("\n")
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|window| window == needle)
}

/// Whether `bytes` hold a PKCE verifier whose S256 challenge is `challenge`: every 43-character window of a run of
/// the verifier alphabet (RFC 7636: letters, digits, `-._~`) is hashed, so the verifier is found without knowing it.
fn holds_verifier(bytes: &[u8], challenge: &str) -> bool {
    let allowed = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~');
    bytes
        .split(|b| !allowed(b))
        .filter(|run| run.len() >= VERIFIER_LEN)
        .any(|run| run.windows(VERIFIER_LEN).any(|window| URL_SAFE_NO_PAD.encode(Sha256::digest(window)) == challenge))
}

/// The verifier search finds a verifier wherever it sits in text, and nothing where there is none: without this
/// the sweep's "no verifier" would prove nothing.
#[test]
fn the_verifier_search_finds_a_verifier_it_was_not_told() {
    let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
    assert_eq!(challenge, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "RFC 7636's example");
    for text in
        [format!("code_verifier={verifier}&x=1"), format!("{{\"v\":\"{verifier}\"}}"), format!("ab{verifier}cd")]
    {
        assert!(holds_verifier(text.as_bytes(), &challenge), "{text}");
    }
    assert!(!holds_verifier(b"code_verifier=[redacted] and a run of letters long enough to hash", &challenge));
}
