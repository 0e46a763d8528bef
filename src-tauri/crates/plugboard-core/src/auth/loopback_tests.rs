//! The loopback receiver over real TCP: stray requests, forged states and the real callback.
#![allow(clippy::expect_used)]

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::*;
use crate::auth::pending::Expectation;

async fn get(port: u16, raw_request: &str) -> String {
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port)).await.expect("connect");
    stream.write_all(raw_request.as_bytes()).await.expect("write");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.expect("read");
    answer
}

fn request(target: &str) -> String {
    format!("GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
}

/// A favicon request, another path, a POST and a forged state are answered and ignored; the real callback then
/// completes the login, the page says to return to Plugboard, and the port closes.
#[tokio::test]
async fn stray_requests_then_the_real_callback() {
    let flows = Arc::new(PendingFlows::new());
    let receiver = LoopbackReceiver::bind().await.expect("bind");
    let uri = receiver.redirect_uri();
    assert!(uri.starts_with("http://127.0.0.1:") && uri.ends_with("/callback"), "{uri}");
    let port: u16 = uri.trim_start_matches("http://127.0.0.1:").trim_end_matches("/callback").parse().expect("port");
    let flow = flows.register("real-state", "demo", Expectation::default());
    let _serving = receiver.serve(Arc::clone(&flows));

    assert!(get(port, &request("/favicon.ico")).await.starts_with("HTTP/1.1 404"));
    assert!(get(port, "POST /callback?code=a&state=real-state HTTP/1.1\r\n\r\n").await.starts_with("HTTP/1.1 400"));
    let forged = get(port, &request("/callback?code=evil&state=guess")).await;
    assert!(forged.starts_with("HTTP/1.1 400") && forged.contains("no login is waiting"), "{forged}");
    let hostile =
        get(port, &request("/callback?state=real-state&error=x&error_description=%3Cscript%3E&state=2")).await;
    assert!(hostile.starts_with("HTTP/1.1 400") && !hostile.contains("<script>"), "{hostile}");

    let real = get(port, &request("/callback?code=good&state=real-state")).await;
    assert!(real.starts_with("HTTP/1.1 200") && real.contains("return to Plugboard"), "{real}");
    let url = flow.callback(Duration::from_secs(2)).await.expect("delivered");
    assert_eq!(url.query(), Some("code=good&state=real-state"));

    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_err(), "the port closes after the login");
}

/// A connection that never sends a full request does not block the real callback behind it.
#[tokio::test]
async fn a_silent_connection_does_not_block() {
    let flows = Arc::new(PendingFlows::new());
    let receiver = LoopbackReceiver::bind().await.expect("bind");
    let port = receiver.port;
    let flow = flows.register("s", "demo", Expectation::default());
    let _serving = receiver.serve(Arc::clone(&flows));
    let _silent = tokio::net::TcpStream::connect(("127.0.0.1", port)).await.expect("connect");
    let real = tokio::spawn(async move { get(port, &request("/callback?code=c&state=s")).await });
    assert!(flow.callback(Duration::from_secs(2)).await.is_ok());
    assert!(real.await.expect("join").starts_with("HTTP/1.1 200"));
}
