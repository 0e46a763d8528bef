//! The fallback rule of `connect_remote`, pinned against a recording loopback server: which refusals send a bare
//! URL on to legacy SSE and which do not. Server-everything over both transports is in `supervisor/http_tests.rs`.

use crate::config::model::HttpMode;
use crate::testing::{LoopbackServer, Reply, client};
use crate::transport::{ElicitationPolicy, RemoteOptions, RemoteSpec, TransportError, connect_remote};

fn options() -> RemoteOptions<'static> {
    RemoteOptions::new(client(), ElicitationPolicy::Decline)
}

fn spec(server: &LoopbackServer, mode: HttpMode) -> RemoteSpec {
    RemoteSpec { url: format!("{}/mcp", server.base), headers: Vec::new(), mode }
}

/// A server refusing the initialize POST with 405 makes a bare URL try legacy SSE (a GET of the same URL); one
/// configured as Streamable HTTP stops at the refusal, which is worth retrying.
#[tokio::test]
async fn a_refused_post_falls_back_to_sse_only_when_probing() {
    let server =
        LoopbackServer::replying(|method, _, _| if method == "POST" { Reply::status(405) } else { Reply::status(404) })
            .await;
    let err = connect_remote(spec(&server, HttpMode::Probe), options()).await.err().expect("no SSE either");
    assert!(matches!(err, TransportError::Remote { .. }), "{err:?}");
    let asked = server.request_lines();
    assert_eq!(asked.first().map(String::as_str), Some("POST /mcp"), "{asked:?}");
    assert_eq!(asked.last().map(String::as_str), Some("GET /mcp"), "fell back to the SSE GET: {asked:?}");

    let server = LoopbackServer::replying(|_, _, _| Reply::status(405)).await;
    let err = connect_remote(spec(&server, HttpMode::StreamableHttp), options()).await.err().expect("refused");
    assert!(
        matches!(&err, TransportError::Remote { transient: true, message } if message.contains("did not complete the MCP handshake")),
        "{err:?}"
    );
    assert!(server.request_lines().iter().all(|r| !r.starts_with("GET")), "{:?}", server.request_lines());
}

/// A 401 is a request for credentials, not an older server: it comes back with the server's challenge and no SSE
/// attempt follows.
#[tokio::test]
async fn a_challenge_does_not_fall_back() {
    let server = LoopbackServer::replying(|_, _, _| Reply {
        status: 401,
        headers: vec![("www-authenticate".into(), "Bearer resource_metadata=\"x\"".into())],
        body: String::new(),
    })
    .await;
    let err = connect_remote(spec(&server, HttpMode::Probe), options()).await.err().expect("401");
    let TransportError::AuthRequired { challenge } = err else { panic!("{err:?}") };
    assert!(challenge.is_some_and(|c| c.starts_with("Bearer")));
    assert_eq!(server.request_lines(), vec!["POST /mcp".to_owned()]);
}

/// A server that cannot be reached is said so, retried later, and never probed over SSE.
#[tokio::test]
async fn an_unreachable_server_does_not_fall_back() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("addr").port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let spec = RemoteSpec { url: url.clone(), headers: Vec::new(), mode: HttpMode::Probe };
    let err = connect_remote(spec, options()).await.err().expect("refused");
    assert!(err.is_transient(), "{err:?}");
    assert!(err.to_string().starts_with(&format!("cannot reach {url}")), "{err}");
}

/// A login is never sent over legacy SSE: a server configured so is refused before the login is even prepared.
#[tokio::test]
async fn a_login_over_sse_is_refused_before_it_is_prepared() {
    let prepared = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = prepared.clone();
    let login = Box::pin(async move {
        flag.store(true, std::sync::atomic::Ordering::SeqCst);
        Err(TransportError::AuthRequired { challenge: None })
    });
    let spec = RemoteSpec { url: "http://127.0.0.1:9/sse".into(), headers: Vec::new(), mode: HttpMode::Sse };
    let err = connect_remote(spec, options().with_login(login)).await.err().expect("refused");
    assert!(matches!(err, TransportError::Remote { transient: false, .. }), "{err:?}");
    assert!(!prepared.load(std::sync::atomic::Ordering::SeqCst));
}

/// The spec's signal is exactly 400, 404 or 405 to the initialize POST: each sends a bare URL on to legacy SSE.
#[tokio::test]
async fn each_of_the_spec_signals_falls_back() {
    for signal in [400, 404, 405] {
        let server =
            LoopbackServer::replying(
                move |method, _, _| {
                    if method == "POST" { Reply::status(signal) } else { Reply::status(404) }
                },
            )
            .await;
        connect_remote(spec(&server, HttpMode::Probe), options()).await.err().expect("no SSE either");
        let asked = server.request_lines();
        assert_eq!(asked.last().map(String::as_str), Some("GET /mcp"), "{signal} did not fall back: {asked:?}");
    }
}

/// Any other refusal is the server's real answer: no SSE attempt follows, and the error says the status and the
/// server's words, not an SSE failure. A JSON-RPC error, even under a 400, is a Streamable HTTP server speaking.
#[tokio::test]
async fn other_refusals_say_themselves_instead_of_falling_back() {
    let rpc_error = r#"{"jsonrpc":"2.0","id":0,"error":{"code":-32600,"message":"Unsupported protocol version"}}"#;
    let cases = [
        ("HTTP 500", 500, "text/plain", "database is down"),
        ("forbidden here", 403, "text/plain", "forbidden here"),
        ("not acceptable", 406, "text/plain", "not acceptable"),
        ("Unsupported protocol version", 400, "application/json", rpc_error),
    ];
    for (said, status, content_type, body) in cases {
        let server = LoopbackServer::replying(move |_, _, _| Reply {
            status,
            headers: vec![("content-type".into(), content_type.into())],
            body: body.into(),
        })
        .await;
        let err = connect_remote(spec(&server, HttpMode::Probe), options()).await.err().expect("refused");
        let asked = server.request_lines();
        assert!(asked.iter().all(|r| !r.starts_with("GET")), "{said}: fell back to SSE: {asked:?}");
        assert!(err.to_string().contains(said), "{said}: {err}");
    }
}

/// A 401 without a challenge still asks for credentials (it is not an older server), with no challenge to follow.
#[tokio::test]
async fn a_bare_401_asks_for_credentials() {
    let server = LoopbackServer::replying(|_, _, _| Reply::status(401)).await;
    let err = connect_remote(spec(&server, HttpMode::Probe), options()).await.err().expect("401");
    assert!(matches!(err, TransportError::AuthRequired { challenge: None }), "{err:?}");
    assert_eq!(server.request_lines(), vec!["POST /mcp".to_owned()]);
}
