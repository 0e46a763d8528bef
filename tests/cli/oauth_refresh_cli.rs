//! Logins against the TypeScript SDK's own authorization server with what its demo leaves out switched on
//! (tests/fixtures/refreshing_oauth_server.mjs): short-lived access tokens and rotating refresh tokens, refreshed a
//! minute before expiry by exactly one of two processes sharing the keychain; and a pre-registered confidential
//! client imported from Cursor, whose secret the token request needs.
#![allow(clippy::expect_used)]

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use plugboard_core::secrets::Vault;

use crate::oauth_cli::{log_in, node};
use crate::support::{Sandbox, free_port, repo_root, stderr, stdout, wait_listening};

const NEEDS: &str = "needs Node with the npm SDK and a Secret Service; make test runs it in the harness";

/// The fixture server, killed when dropped.
struct RefreshingServer {
    child: Child,
    port: u16,
}

impl RefreshingServer {
    /// Issues access tokens that live `ttl` seconds, and answers a refresh grant after `refresh_delay`.
    fn start(ttl: u64, refresh_delay: Duration) -> Self {
        let port = free_port();
        let child = Command::new(node())
            .arg(repo_root().join("tests/fixtures/refreshing_oauth_server.mjs"))
            .env("PORT", port.to_string())
            .env("ACCESS_TTL_S", ttl.to_string())
            .env("REFRESH_DELAY_MS", refresh_delay.as_millis().to_string())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the refreshing OAuth server");
        wait_listening(port, "the refreshing OAuth server");
        Self { child, port }
    }

    fn url(&self) -> String {
        format!("http://localhost:{}/mcp", self.port)
    }

    fn block_on<T>(work: impl std::future::Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime").block_on(work)
    }

    /// How many refresh grants the server made and refused.
    fn stats(&self) -> serde_json::Value {
        let url = format!("http://localhost:{}/stats", self.port);
        Self::block_on(async { reqwest::get(url).await.expect("stats").json().await.expect("json") })
    }

    /// Registers a confidential client, as an administrator pre-registers one for a person: its id and secret.
    fn register_confidential_client(&self) -> (String, String) {
        let url = format!("http://localhost:{}/register", self.port);
        let registration = serde_json::json!({
            "client_name": "pre-registered for a test",
            "redirect_uris": ["http://127.0.0.1/callback"],
            "token_endpoint_auth_method": "client_secret_post",
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
        });
        let registered: serde_json::Value = Self::block_on(async {
            let response = reqwest::Client::new().post(url).json(&registration).send().await.expect("register");
            response.json().await.expect("registration")
        });
        let field = |key: &str| registered[key].as_str().unwrap_or_else(|| panic!("{key} in {registered}")).to_owned();
        (field("client_id"), field("client_secret"))
    }
}

impl Drop for RefreshingServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The refresh token of `server`'s stored login.
fn refresh_token(server: &str) -> String {
    let stored = Vault::keychain().expect(NEEDS).get(server, "oauth:credentials").expect("read").expect("stored");
    let stored: serde_json::Value = serde_json::from_str(stored.expose()).expect("json");
    stored["credentials"]["token_response"]["refresh_token"].as_str().expect("a refresh token").to_owned()
}

/// A 65 s token is due with less than a minute left (rmcp on its own would wait for 30 s left): two `plugboard call`s
/// started together then refresh it once between them (the other waits on the lock in the data dir and reads the new
/// token), both succeed, none spends a rotated refresh token, and the keychain holds the new refresh token.
#[test]
#[ignore = "needs Node with the npm SDK and a Secret Service; make test runs it in the harness"]
fn a_due_token_is_refreshed_once_by_two_processes_and_rotates() {
    // A refresh that takes 2 s: the second process starts its own while the first one's is in flight.
    let server = RefreshingServer::start(65, Duration::from_secs(2));
    let sandbox = Sandbox::new();
    let name = format!("short{}", std::process::id());
    sandbox.write_config(&format!(r#"{{"mcpServers": {{"{name}": {{"url": "{}"}}}}}}"#, server.url()));
    sandbox.approve_all();
    log_in(&sandbox, &name);
    let issued = refresh_token(&name);

    std::thread::sleep(Duration::from_secs(6));
    let calls: Vec<Child> = (0..2)
        .map(|_| {
            sandbox
                .command(&["call", &name, "greet"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("call")
        })
        .collect();
    for call in calls {
        let output = call.wait_with_output().expect("call exits");
        assert!(output.status.success(), "{}", stderr(&output));
        assert!(stdout(&output).contains("Hello from a token of 65 s"), "{}", stdout(&output));
    }
    let stats = server.stats();
    assert_eq!((&stats["refreshes"], &stats["refused"]), (&1.into(), &0.into()), "{stats}");
    assert_ne!(refresh_token(&name), issued, "the rotated refresh token is the one kept");
    let logout = sandbox.run(&["logout", &name]);
    assert!(logout.status.success(), "{}", stderr(&logout));
}

/// A pre-registered confidential client imported from Cursor's file keeps its secret where login reads it: the
/// secret goes to the keychain (never servers.json), and the login, whose token request the authorization server
/// refuses without the secret, succeeds.
#[test]
#[ignore = "needs Node with the npm SDK and a Secret Service; make test runs it in the harness"]
fn an_imported_client_secret_reaches_the_login() {
    let server = RefreshingServer::start(3600, Duration::ZERO);
    let (client_id, client_secret) = server.register_confidential_client();
    let sandbox = Sandbox::new();
    let name = format!("preregistered{}", std::process::id());
    sandbox.write_home_file(
        ".cursor/mcp.json",
        &format!(
            r#"{{"mcpServers": {{"{name}": {{"url": "{}", "auth": {{"CLIENT_ID": "{client_id}", "CLIENT_SECRET": "{client_secret}"}}}}}}}}"#,
            server.url()
        ),
    );
    let imported = sandbox.run(&["import", "--from", "cursor"]);
    assert!(imported.status.success(), "{}", stderr(&imported));
    let config = std::fs::read_to_string(sandbox.config_dir().join("servers.json")).expect("servers.json");
    assert!(!config.contains(&client_secret), "the client secret is in servers.json: {config}");
    assert!(config.contains(r#""clientSecret": "${secret:oauth-client-secret}""#), "{config}");
    sandbox.approve_all();

    log_in(&sandbox, &name);
    let call = sandbox.run(&["call", &name, "greet"]);
    assert!(call.status.success() && stdout(&call).contains("Hello from a token"), "{}", stderr(&call));
    let removed = sandbox.run(&["remove", &name]);
    assert!(removed.status.success(), "{}", stderr(&removed));
}
