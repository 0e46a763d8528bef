//! The HTTP endpoint over real sockets with the real keychain (the test harness runs a Secret Service): who is
//! refused with which status, that a session is bound to the token that opened it, that a rotation locks the old
//! token out at once, and that nothing but loopback is ever bound. The SDK clients' tests under tests/gateway do the
//! MCP end to end. One test, because the token is one keychain entry per user: parallel tests would rotate it under
//! each other.

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::json;

use super::{EndpointError, HttpEndpoint, HttpOptions, MAX_BODY_BYTES, gateway_token};
use crate::engine::{Engine, EngineOptions, PersonAnswers};
use crate::gateway::{GatewayOptions, Scope, publish_catalog};
use crate::secrets::Fallback;

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"http-test","version":"1"}}}"#;

async fn endpoint(dir: &tempfile::TempDir) -> (Arc<Engine>, HttpEndpoint) {
    std::fs::write(dir.path().join("servers.json"), r#"{"mcpServers": {}}"#).expect("config");
    let options = EngineOptions {
        config_path: dir.path().join("servers.json"),
        secrets: Fallback::chosen(false),
        person: PersonAnswers::Declined,
        approvals: crate::trust::Approvals::at(dir.path().join("trust.json")),
        log_scrub: crate::secrets::LogScrub::default(),
        history_check: crate::console::DamageCheck::OnUse,
    };
    let engine = Arc::new(Engine::open(options).expect("engine"));
    assert!(engine.vault().status().persists, "this test needs the Secret Service the harness starts");
    let (catalog, publishing) = publish_catalog(engine.supervisor(), Scope::everything(engine.registry()));
    tokio::spawn(publishing);
    let http = HttpOptions { port: 0, ..HttpOptions::default() };
    let gateway = GatewayOptions { first_list_wait: Duration::from_millis(100), ..GatewayOptions::default() };
    let endpoint = HttpEndpoint::start(Arc::clone(&engine), catalog, gateway, http).await.expect("endpoint");
    (engine, endpoint)
}

fn post(client: &reqwest::Client, endpoint: &HttpEndpoint, token: &str) -> reqwest::RequestBuilder {
    client
        .post(endpoint.url())
        .bearer_auth(token)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
}

#[tokio::test]
async fn the_endpoint_lets_in_only_the_token_over_loopback() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (engine, endpoint) = endpoint(&dir).await;
    assert!(endpoint.address().ip().is_loopback(), "{}", endpoint.address());
    let vault = (**engine.vault()).clone();
    let token = tokio::task::spawn_blocking(move || gateway_token(&vault)).await.expect("join").expect("token");
    let token = token.expose().clone();
    let client = reqwest::Client::new();

    // Each guard, with its own status.
    let status = |request: reqwest::RequestBuilder| async move { request.send().await.expect("send").status() };
    assert_eq!(status(client.post(endpoint.url()).body(INITIALIZE)).await, StatusCode::UNAUTHORIZED);
    assert_eq!(status(post(&client, &endpoint, "pbg_guess").body(INITIALIZE)).await, StatusCode::UNAUTHORIZED);
    let rebound = post(&client, &endpoint, &token).header("host", "evil.example.com").body(INITIALIZE);
    assert_eq!(status(rebound).await, StatusCode::MISDIRECTED_REQUEST);
    let page = post(&client, &endpoint, &token).header("origin", "http://evil.example.com").body(INITIALIZE);
    assert_eq!(status(page).await, StatusCode::FORBIDDEN);
    let huge = vec![b' '; MAX_BODY_BYTES + 1];
    assert_eq!(status(post(&client, &endpoint, &token).body(huge)).await, StatusCode::PAYLOAD_TOO_LARGE);
    // Without a declared length the limit holds while the body streams.
    let chunks = futures::stream::iter((0..5).map(|_| Ok::<_, std::io::Error>(vec![b' '; 1024 * 1024])));
    let streamed = post(&client, &endpoint, &token).body(reqwest::Body::wrap_stream(chunks));
    assert_eq!(status(streamed).await, StatusCode::PAYLOAD_TOO_LARGE);
    let elsewhere = client.post(endpoint.url().replace("/mcp", "/other")).bearer_auth(&token).body(INITIALIZE);
    assert_eq!(status(elsewhere).await, StatusCode::NOT_FOUND);

    // The token opens a session, which answers under it.
    let opened = post(&client, &endpoint, &token).body(INITIALIZE).send().await.expect("initialize");
    assert_eq!(opened.status(), StatusCode::OK);
    let session = opened.headers().get("mcp-session-id").expect("a session").to_str().expect("ascii").to_owned();
    let ping = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}).to_string();
    let in_session = |token: &str| {
        post(&client, &endpoint, token)
            .header("mcp-session-id", &session)
            .header("mcp-protocol-version", "2025-11-25")
            .body(ping.clone())
    };
    assert_eq!(status(in_session(&token)).await, StatusCode::OK);

    // A rotation locks the old token out at once, and the new one cannot take over the old one's session.
    let rotated = endpoint.rotate_token().expect("rotate").expose().clone();
    assert_ne!(rotated, token);
    assert_eq!(status(in_session(&token)).await, StatusCode::UNAUTHORIZED);
    assert_eq!(status(in_session(&rotated)).await, StatusCode::NOT_FOUND);
    assert_eq!(status(post(&client, &endpoint, &rotated).body(INITIALIZE)).await, StatusCode::OK);

    // A rotation by another process (here: straight through the keychain) is noticed by the running endpoint.
    let vault = (**engine.vault()).clone();
    let third = tokio::task::spawn_blocking(move || super::rotate_gateway_token(&vault)).await.expect("join");
    let third = third.expect("rotate").expose().clone();
    assert_eq!(status(post(&client, &endpoint, &rotated).body(INITIALIZE)).await, StatusCode::UNAUTHORIZED);
    assert_eq!(status(post(&client, &endpoint, &third).body(INITIALIZE)).await, StatusCode::OK);

    // No other address is ever bound.
    let catalog = publish_catalog(engine.supervisor(), Scope::everything(engine.registry())).0;
    let anywhere = HttpOptions { bind: IpAddr::V4(Ipv4Addr::UNSPECIFIED), port: 0, allowed_origins: Vec::new() };
    let refused = HttpEndpoint::start(Arc::clone(&engine), catalog, GatewayOptions::default(), anywhere).await;
    assert!(matches!(refused, Err(EndpointError::NotLoopback { .. })), "{:?}", refused.err());

    endpoint.stop().await;
    engine.shutdown().await;
}
