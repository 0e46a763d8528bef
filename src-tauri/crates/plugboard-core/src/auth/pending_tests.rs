//! The pending-flow registry against forged, replayed, expired and malformed callbacks.
#![allow(clippy::expect_used)]

use std::time::Duration;

use super::*;

const BASE: &str = "http://127.0.0.1:4567/callback";

fn expect_none() -> Expectation {
    Expectation::default()
}

/// The right callback reaches its flow once; the same URL a second time is refused as unknown.
#[tokio::test]
async fn delivers_once() {
    let flows = PendingFlows::new();
    let flow = flows.register("s-1", "linear", expect_none());
    let url = format!("{BASE}?code=c-1&state=s-1");
    assert_eq!(flows.deliver(&url), Ok("linear".to_owned()));
    assert_eq!(flows.deliver(&url), Err(CallbackRejected::UnknownState));
    let got = flow.callback(Duration::from_secs(1)).await.expect("callback");
    assert!(flows.is_empty());
    assert_eq!(got.as_str(), url);
}

/// A forged callback with an unknown state is refused and the real one still completes the flow.
#[tokio::test]
async fn forged_callback_does_not_disturb_the_real_flow() {
    let flows = PendingFlows::new();
    let flow = flows.register("real", "linear", expect_none());
    assert_eq!(flows.deliver(&format!("{BASE}?code=evil&state=guess")), Err(CallbackRejected::UnknownState));
    assert_eq!(flows.deliver(&format!("{BASE}?code=good&state=real")), Ok("linear".into()));
    assert!(flow.callback(Duration::from_secs(1)).await.is_ok());
}

/// Cancelling a server's login ends its wait at once, as cancelled rather than timed out; others keep waiting.
#[tokio::test]
async fn cancel_ends_the_wait() {
    let flows = PendingFlows::new();
    let flow = flows.register("s", "linear", expect_none());
    let other = flows.register("t", "github", expect_none());
    assert!(flows.cancel("linear"));
    assert!(!flows.cancel("linear"));
    assert_eq!(flow.callback(Duration::from_secs(5)).await.err(), Some(NoCallback::Cancelled));
    assert_eq!(other.callback(Duration::from_millis(20)).await.err(), Some(NoCallback::TimedOut));
}

/// Hostile shapes are refused with a fixed message and leave the pending flow in place.
#[test]
fn hostile_urls_are_refused() {
    let flows = PendingFlows::new();
    let _flow = flows.register("s", "x", expect_none());
    let long = format!("{BASE}?code={}&state=s", "a".repeat(64 * 1024));
    let cases = [
        (long.as_str(), CallbackRejected::TooLong),
        ("not a url", CallbackRejected::Malformed),
        ("http://127.0.0.1:1/callback?code=%zz&state=s", CallbackRejected::BadEncoding),
        ("http://127.0.0.1:1/callback?code=%ff%fe&state=s", CallbackRejected::BadEncoding),
        ("http://127.0.0.1:1/callback?code=a&state=s&state=t", CallbackRejected::Duplicate("state")),
        ("http://127.0.0.1:1/callback?code=a&code=b&state=s", CallbackRejected::Duplicate("code")),
        ("http://127.0.0.1:1/callback?code=a", CallbackRejected::NoState),
        ("http://127.0.0.1:1/callback?state=s", CallbackRejected::NoCode),
    ];
    for (url, expected) in cases {
        assert_eq!(flows.deliver(url), Err(expected), "{}", &url[..url.len().min(80)]);
    }
    assert!(!flows.is_empty(), "the real flow is still waiting");
    assert!(!CallbackRejected::Duplicate("state").to_string().contains("http"), "no URL text is echoed");
}

/// A callback whose `iss` names another authorization server is refused without consuming the flow (RFC 9207);
/// a missing `iss` is refused only when the server advertised that it sends one.
#[test]
fn issuer_is_checked_without_consuming() {
    let flows = PendingFlows::new();
    let expect = Expectation { issuer: Some("https://as.example".into()), require_issuer: true };
    let _flow = flows.register("s", "x", expect);
    assert_eq!(
        flows.deliver(&format!("{BASE}?code=a&state=s&iss=https://evil.example")),
        Err(CallbackRejected::IssuerMismatch)
    );
    assert_eq!(flows.deliver(&format!("{BASE}?code=a&state=s")), Err(CallbackRejected::IssuerMismatch));
    assert_eq!(flows.deliver(&format!("{BASE}?code=a&state=s&iss=https%3A%2F%2Fas.example")), Ok("x".into()));

    let _lenient =
        flows.register("t", "y", Expectation { issuer: Some("https://as.example".into()), require_issuer: false });
    assert_eq!(flows.deliver(&format!("{BASE}?code=a&state=t")), Ok("y".into()));
}

/// A flow that gave up (dropped) no longer accepts its callback.
#[test]
fn withdrawn_flow_is_unknown() {
    let flows = PendingFlows::new();
    drop(flows.register("s", "x", expect_none()));
    assert_eq!(flows.deliver(&format!("{BASE}?code=a&state=s")), Err(CallbackRejected::UnknownState));
}

/// An error from the authorization server is shown as plain, bounded text: markup stays literal, control and bidi
/// characters are dropped.
#[test]
fn authorization_errors_are_inert_text() {
    let url = Url::parse(&format!(
        "{BASE}?state=s&error=access_denied&error_description=%3Cscript%3Ealert(1)%3C%2Fscript%3E%E2%80%AE%0A{}",
        "x".repeat(1000)
    ))
    .expect("url");
    let text = callback_error(&url).expect("error");
    assert!(
        text.starts_with("the authorization server answered `access_denied`: <script>alert(1)</script>x"),
        "{text}"
    );
    assert!(!text.contains('\u{202E}') && !text.contains('\n'));
    assert!(text.len() < 400, "{}", text.len());
    assert_eq!(callback_error(&Url::parse(&format!("{BASE}?code=a&state=s")).expect("url")), None);
}
