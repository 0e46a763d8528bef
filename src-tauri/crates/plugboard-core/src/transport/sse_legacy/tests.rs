//! Tests of the legacy SSE transport against scripted loopback servers: handshake, origin check, size cap, errors.
//! Must never reach beyond 127.0.0.1.

use std::time::{Duration, Instant};

use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::io::AsyncWriteExt;

use super::tests_support::{SSE_HEAD, event, scripted_sse};
use super::{LegacySseConfig, LegacySseError, LegacySseTransport, connect_legacy_sse};
use crate::testing::{LoopbackServer, Reply, client, respond};

const NOTIFICATION: &str = r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;

fn config(url: String) -> LegacySseConfig {
    let mut config = LegacySseConfig::new(url);
    config.connect_timeout = Duration::from_secs(5);
    config
}

fn initialized() -> ClientJsonRpcMessage {
    serde_json::from_str(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).expect("client message")
}

async fn receive(transport: &mut LegacySseTransport) -> Option<ServerJsonRpcMessage> {
    tokio::time::timeout(Duration::from_secs(5), transport.receive()).await.expect("receive in time")
}

/// GET carries Accept and the configured headers; POST carries them too, as JSON; a pushed message arrives.
#[tokio::test]
async fn round_trip_carries_headers_and_messages() {
    let s = scripted_sse(Some("/message?sessionId=s1"), 202).await;
    let mut cfg = config(s.server.url("/sse"));
    cfg.headers = vec![("Authorization".into(), "Bearer t0ken".into())];
    let mut transport = connect_legacy_sse(client(), cfg).await.expect("connect");

    transport.send(initialized()).await.expect("POST accepted");
    s.push.send(event("message", NOTIFICATION).into_bytes()).expect("push");
    let message = receive(&mut transport).await.expect("a message");
    assert!(matches!(message, ServerJsonRpcMessage::Notification(_)), "{message:?}");

    let requests = s.server.requests();
    let (get, post) = (&requests[0], &requests[1]);
    assert_eq!((get.method.as_str(), get.path.as_str()), ("GET", "/sse"));
    assert_eq!(get.header("accept"), Some("text/event-stream"));
    assert_eq!(get.header("authorization"), Some("Bearer t0ken"));
    assert_eq!((post.method.as_str(), post.path.as_str()), ("POST", "/message?sessionId=s1"));
    assert_eq!(post.header("authorization"), Some("Bearer t0ken"));
    assert_eq!(post.header("content-type"), Some("application/json"));
    let body: serde_json::Value = serde_json::from_slice(&post.body).expect("JSON body");
    assert_eq!(body["method"], "notifications/initialized");
    transport.close().await.expect("close");
}

/// An `endpoint` on another origin (same port, other host name) is refused, naming both origins.
#[tokio::test]
async fn cross_origin_endpoint_is_rejected() {
    let probe = LoopbackServer::start(|_, _| async {}).await;
    let foreign = format!("http://localhost:{}/message", probe.addr.port());
    let s = scripted_sse(Some(&foreign), 202).await;
    let err = connect_legacy_sse(client(), config(s.server.url("/sse"))).await.err().expect("rejected");
    let LegacySseError::CrossOriginEndpoint { sse_origin, endpoint_origin } = &err else { panic!("{err:?}") };
    assert_eq!(sse_origin, &format!("http://{}", s.server.addr));
    assert_eq!(endpoint_origin, &format!("http://localhost:{}", probe.addr.port()));
    assert!(!err.is_transient() && !err.is_auth_required());
    // Nothing was POSTed anywhere.
    assert_eq!(s.server.requests().len(), 1);
}

/// An `endpoint` naming another internal host (127.0.0.2, while the SSE URL is on 127.0.0.1) is refused at connect,
/// and that host never sees a message: the same-origin rule keeps every POST on the approved server's own origin.
#[tokio::test]
async fn endpoint_on_another_internal_host_gets_no_message() {
    let other = LoopbackServer::replying_at(std::net::Ipv4Addr::new(127, 0, 0, 2), |_, _, _| Reply::status(202)).await;
    let s = scripted_sse(Some(&other.url("/message")), 202).await;
    let connected = connect_legacy_sse(client(), config(s.server.url("/sse"))).await;
    let refused = matches!(connected, Err(LegacySseError::CrossOriginEndpoint { .. }));
    if let Ok(mut transport) = connected {
        let _ = transport.send(initialized()).await;
    }
    assert!(other.requests().is_empty(), "a message reached the other host: {:?}", other.request_lines());
    assert!(refused, "the endpoint on another host was accepted");
}

/// A mid-session event larger than the cap ends the stream with `EventTooLarge` long before the server is done.
#[tokio::test]
async fn oversized_event_ends_the_stream_with_bounded_memory() {
    const TOTAL: usize = 64 << 20;
    let (done, written) = tokio::sync::oneshot::channel::<usize>();
    let done = std::sync::Mutex::new(Some(done));
    let server = LoopbackServer::start(move |request, mut stream| {
        let done = if request.method == "GET" { done.lock().expect("lock").take() } else { None };
        async move {
            let _ = stream.write_all(SSE_HEAD.as_bytes()).await;
            let _ = stream.write_all(event("endpoint", "/message").as_bytes()).await;
            // One data line of 64 MiB, never terminated; count what the client let us write.
            let mut sent = 0;
            let _ = stream.write_all(b"data: ").await;
            while sent < TOTAL && stream.write_all(&[b'x'; 64 * 1024]).await.is_ok() {
                sent += 64 * 1024;
            }
            if let Some(done) = done {
                let _ = done.send(sent);
            }
        }
    })
    .await;
    let mut cfg = config(server.url("/sse"));
    cfg.max_event_bytes = 64 * 1024;
    let mut transport = connect_legacy_sse(client(), cfg).await.expect("connect");
    assert!(receive(&mut transport).await.is_none(), "the receiver ends");
    let cause = transport.stream_end().cause().expect("a cause");
    assert!(matches!(*cause, LegacySseError::EventTooLarge { limit: 65536 }), "{cause:?}");
    assert!(!cause.is_transient());
    // The client hung up: the server's writes failed well before 64 MiB (only socket buffers in between).
    let sent = tokio::time::timeout(Duration::from_secs(5), written).await.expect("server stopped").expect("count");
    assert!(sent < TOTAL / 2, "the client kept reading: {sent} bytes");
    let err = transport.send(initialized()).await.expect_err("stream ended");
    assert!(matches!(&err, LegacySseError::Ended { cause } if matches!(**cause, LegacySseError::EventTooLarge { .. })));
}

/// An oversized event before the `endpoint` fails the connect itself.
#[tokio::test]
async fn oversized_event_before_the_endpoint_fails_connect() {
    let server = LoopbackServer::start(|_, mut stream| async move {
        let _ = stream.write_all(SSE_HEAD.as_bytes()).await;
        let _ = stream.write_all(b"event: endpoint\ndata: /").await;
        let _ = stream.write_all(&vec![b'a'; 1 << 20]).await;
    })
    .await;
    let mut cfg = config(server.url("/sse"));
    cfg.max_event_bytes = 4096;
    let err = connect_legacy_sse(client(), cfg).await.err().expect("too large");
    assert!(matches!(err, LegacySseError::EventTooLarge { limit: 4096 }), "{err:?}");
}

/// A 200 HTML page (a login portal, a wrong path) says "not an SSE endpoint" instead of timing out.
#[tokio::test]
async fn html_page_is_not_an_sse_endpoint() {
    let server = LoopbackServer::start(|_, mut stream| async move {
        respond(&mut stream, 200, &[("Content-Type", "text/html; charset=utf-8")], b"<html>hi</html>").await;
    })
    .await;
    let err = connect_legacy_sse(client(), config(server.url("/sse"))).await.err().expect("not SSE");
    assert!(matches!(&err, LegacySseError::NotSse { content_type } if content_type.starts_with("text/html")));
    assert!(err.to_string().contains("not an SSE endpoint"), "{err}");
    assert!(!err.is_transient());
}

/// A stream that never sends `endpoint` (keep-alive comments only) times out at the configured bound.
#[tokio::test]
async fn missing_endpoint_times_out() {
    let server = LoopbackServer::start(|_, mut stream| async move {
        let _ = stream.write_all(SSE_HEAD.as_bytes()).await;
        for _ in 0..100 {
            if stream.write_all(b": keep-alive\n\n").await.is_err() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    let mut cfg = config(server.url("/sse"));
    cfg.connect_timeout = Duration::from_millis(400);
    let started = Instant::now();
    let err = connect_legacy_sse(client(), cfg).await.err().expect("timeout");
    assert!(matches!(err, LegacySseError::EndpointTimeout { .. }), "{err:?}");
    assert!(err.is_transient());
    assert!(started.elapsed() < Duration::from_secs(3), "bounded: {:?}", started.elapsed());
}

/// A 401 on the GET is `is_auth_required()`, keeps the challenge, and is visible to rmcp's own auth check.
#[tokio::test]
async fn unauthorized_get_requires_auth_with_the_challenge() {
    let challenge = r#"Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource""#;
    let server = LoopbackServer::start(move |_, mut stream| async move {
        respond(&mut stream, 401, &[("WWW-Authenticate", challenge)], b"").await;
    })
    .await;
    let err = connect_legacy_sse(client(), config(server.url("/sse"))).await.err().expect("401");
    assert!(err.is_auth_required() && !err.is_transient(), "{err:?}");
    assert_eq!(err.www_authenticate(), Some(challenge));
    let source = std::error::Error::source(&err).expect("rmcp marker");
    assert!(source.is::<rmcp::transport::streamable_http_client::AuthRequiredError>());
}

/// POST statuses: 401 → auth required; 404/410 → session gone (transient); 500 → transient; 400 → not transient.
#[tokio::test]
async fn post_statuses_are_classified() {
    for (status, auth, transient) in
        [(401, true, false), (404, false, true), (410, false, true), (500, false, true), (400, false, false)]
    {
        let s = scripted_sse(Some("/message"), status).await;
        let mut transport = connect_legacy_sse(client(), config(s.server.url("/sse"))).await.expect("connect");
        let err = transport.send(initialized()).await.expect_err("POST refused");
        assert_eq!((err.is_auth_required(), err.is_transient()), (auth, transient), "{status}: {err:?}");
        if status == 500 {
            assert!(matches!(err, LegacySseError::Status { status: 500, during: "POST" }), "{err:?}");
        }
        transport.close().await.expect("close");
    }
}

/// The server closing the stream ends the receiver; the cause and later sends are transient (reconnect).
#[tokio::test]
async fn closed_stream_ends_the_receiver_and_is_transient() {
    let s = scripted_sse(Some("/message"), 202).await;
    let mut transport = connect_legacy_sse(client(), config(s.server.url("/sse"))).await.expect("connect");
    drop(s.push);
    assert!(receive(&mut transport).await.is_none());
    let cause = transport.stream_end().cause().expect("cause");
    assert!(matches!(*cause, LegacySseError::StreamClosed) && cause.is_transient(), "{cause:?}");
    let err = transport.send(initialized()).await.expect_err("ended");
    assert!(err.is_transient(), "{err:?}");
    assert_eq!(s.server.requests().len(), 1, "no blind POST after the stream ended");
}

/// Comments, unknown event types, non-UTF-8 and non-JSON messages are skipped; the next good message arrives.
#[tokio::test]
async fn junk_events_are_skipped() {
    let s = scripted_sse(Some("/message"), 202).await;
    let mut transport = connect_legacy_sse(client(), config(s.server.url("/sse"))).await.expect("connect");
    s.push.send(b": comment\n\nevent: surprise\ndata: {}\n\ndata: \xff\xfe\n\n".to_vec()).expect("push");
    s.push
        .send(b"data: {not json\n\nretry: 10\nid: 4\nevent: endpoint\ndata: http://evil.example/\n\n".to_vec())
        .expect("push");
    s.push.send(format!("data: {NOTIFICATION}\r\n\r\n").into_bytes()).expect("push");
    let message = receive(&mut transport).await.expect("the good message");
    assert!(matches!(message, ServerJsonRpcMessage::Notification(_)), "{message:?}");
    transport.send(initialized()).await.expect("the endpoint did not move");
    let requests = s.server.requests();
    assert_eq!(requests[1].path, "/message");
}

/// `close()` returns promptly with the stream still open, ends the receiver, and later sends fail as closed.
#[tokio::test]
async fn close_is_prompt_and_final() {
    let s = scripted_sse(Some("/message"), 202).await;
    let mut transport = connect_legacy_sse(client(), config(s.server.url("/sse"))).await.expect("connect");
    tokio::time::timeout(Duration::from_secs(1), transport.close()).await.expect("no hang").expect("close");
    assert!(receive(&mut transport).await.is_none());
    assert!(matches!(transport.send(initialized()).await, Err(LegacySseError::Closed)));
}

/// A refused connection is transient; a bad header is named without its value; a non-http URL is invalid.
#[tokio::test]
async fn connect_failures_are_classified() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("addr").port();
    let err =
        connect_legacy_sse(client(), config(format!("http://127.0.0.1:{port}/sse"))).await.err().expect("refused");
    assert!(matches!(err, LegacySseError::Http(_)) && err.is_transient(), "{err:?}");

    let mut cfg = config("http://127.0.0.1:1/sse".into());
    cfg.headers = vec![("X-Key".into(), "sec\nret".into())];
    let err = connect_legacy_sse(client(), cfg).await.err().expect("bad header");
    assert!(matches!(&err, LegacySseError::InvalidHeader { name } if name == "X-Key"));
    assert!(!format!("{err} {err:?}").contains("sec"), "the value never appears");

    let err = connect_legacy_sse(client(), config("file:///etc/passwd".into())).await.err().expect("bad url");
    assert!(matches!(err, LegacySseError::InvalidUrl { .. }), "{err:?}");
}

/// `Debug` of a config shows header names and the URL's path, never header values, credentials or the query.
#[test]
fn config_debug_hides_secrets() {
    let mut cfg = LegacySseConfig::new("https://user:pw@tools.example/sse?api_key=k3y#frag");
    cfg.headers = vec![("Authorization".into(), "Bearer t0ken".into())];
    let shown = format!("{cfg:?}");
    assert!(shown.contains("https://tools.example/sse?[redacted]") && shown.contains("Authorization"), "{shown}");
    for secret in ["t0ken", "k3y", "pw", "user", "frag"] {
        assert!(!shown.contains(secret), "{secret} in {shown}");
    }
}
