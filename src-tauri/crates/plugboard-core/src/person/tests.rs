//! Tests of the person broker without a server: checking answers against the request, and every way a wait ends
//! (answered, timed out, withdrawn), each of which takes the request out of the queue and says so.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use serde_json::json;

use super::*;

const SCHEMA: &str = r#"{"type":"object","properties":{
    "name":{"type":"string","minLength":1},
    "age":{"type":"integer","minimum":0},
    "color":{"type":"string","enum":["red","blue"]},
    "ok":{"type":"boolean"}},"required":["name"]}"#;

/// A form answer of the declared types passes, as the same JSON object.
#[test]
fn a_well_typed_form_passes() {
    let content = check_form(SCHEMA, r#"{"name":"Ann","age":7,"color":"red","ok":true}"#).unwrap();
    assert_eq!(serde_json::Value::Object(content), json!({"name":"Ann","age":7,"color":"red","ok":true}));
}

/// A wrong type, a missing required field, an unknown field, a value outside the enum or bounds are each refused
/// with the field named.
#[test]
fn a_badly_typed_form_is_refused_with_the_field_named() {
    let refused = |content: &str| check_form(SCHEMA, content).unwrap_err().to_string();
    assert_eq!(refused(r#"{"name":"Ann","age":"seven"}"#), "age: expected an integer (a whole number)");
    assert_eq!(refused(r#"{"name":"Ann","age":7.5}"#), "age: expected an integer (a whole number)");
    assert_eq!(refused(r#"{"age":7}"#), "name: this field is required");
    assert_eq!(refused(r#"{"name":"Ann","extra":1}"#), "extra: the form has no such field");
    assert_eq!(refused(r#"{"name":"Ann","color":"green"}"#), "color: not one of the offered choices");
    assert_eq!(refused(r#"{"name":"Ann","age":-1}"#), "age: at least 0");
    assert_eq!(refused(r#"{"name":""}"#), "name: at least 1 characters");
    assert_eq!(refused("[1]"), "the answer must be a JSON object");
    assert!(refused("{").starts_with("the answer is not JSON"));
}

/// Absolute folders become file:// URIs (blank lines skipped); a relative one is refused.
#[test]
fn roots_must_be_absolute_folders() {
    let uris = roots_as_uris(&["/home/ann/notes".into(), "  ".into(), "/tmp/a b".into()]).unwrap();
    assert_eq!(uris, ["file:///home/ann/notes", "file:///tmp/a%20b"]);
    assert_eq!(roots_as_uris(&["notes".into()]).unwrap_err().to_string(), "notes: not an absolute path");
}

fn form() -> RequestKind {
    RequestKind::Elicitation { message: "who?".into(), schema: SCHEMA.into() }
}

/// Waits until the broker has `count` pending requests.
async fn until_pending(broker: &PersonRequests, count: usize) -> Vec<PendingRequest> {
    for _ in 0..200 {
        let pending = broker.pending();
        if pending.len() == count {
            return pending;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("never had {count} pending requests");
}

/// An accepted form reaches the asker with its content; the request arrives, then leaves as answered.
#[tokio::test]
async fn an_answer_reaches_the_asker_and_the_request_leaves() {
    let broker = std::sync::Arc::new(PersonRequests::new(Duration::from_secs(60)));
    let mut events = broker.subscribe();
    let asker = tokio::spawn({
        let broker = std::sync::Arc::clone(&broker);
        async move { broker.ask("files", form(), std::future::pending()).await }
    });
    let pending = until_pending(&broker, 1).await;
    assert_eq!(pending[0].server, "files");
    let id = pending[0].id;

    // A wrong answer leaves the request waiting.
    assert!(matches!(
        broker.answer_elicitation(id, FormAction::Accept, Some(r#"{"name":1}"#)),
        Err(PersonError::InvalidAnswer { .. })
    ));
    assert!(matches!(broker.answer_sampling(id, Some("hi".into())), Err(PersonError::InvalidAnswer { .. })));
    broker.answer_elicitation(id, FormAction::Accept, Some(r#"{"name":"Ann"}"#)).unwrap();

    let Asked::Answered(PersonAnswer::Form { action, content }) = asker.await.unwrap() else { panic!("not answered") };
    assert_eq!((action, serde_json::Value::Object(content.unwrap())), (FormAction::Accept, json!({"name":"Ann"})));
    assert!(matches!(events.recv().await.unwrap(), PersonEvent::Arrived(r) if r.id == id));
    assert_eq!(events.recv().await.unwrap(), PersonEvent::Withdrawn { id, reason: WithdrawReason::Answered });
    assert!(broker.pending().is_empty());
    assert_eq!(broker.answer_roots(id, None), Err(PersonError::NotFound { id }));
}

/// Nobody answering within the wait limit ends the wait as timed out and withdraws the request.
#[tokio::test]
async fn an_unanswered_request_times_out() {
    let broker = PersonRequests::new(Duration::from_millis(50));
    let mut events = broker.subscribe();
    assert_eq!(broker.ask("files", RequestKind::Roots, std::future::pending()).await, Asked::TimedOut);
    assert!(broker.pending().is_empty());
    let _arrived = events.recv().await.unwrap();
    assert!(matches!(events.recv().await.unwrap(), PersonEvent::Withdrawn { reason: WithdrawReason::TimedOut, .. }));
}

/// The server's cancel (the `withdrawn` future) ends the wait and withdraws the request as cancelled.
#[tokio::test]
async fn a_withdrawn_request_leaves_the_queue() {
    let broker = PersonRequests::new(Duration::from_secs(60));
    let mut events = broker.subscribe();
    let withdrawn = tokio::time::sleep(Duration::from_millis(30));
    assert_eq!(broker.ask("files", form(), withdrawn).await, Asked::Withdrawn);
    assert!(broker.pending().is_empty());
    let _arrived = events.recv().await.unwrap();
    assert!(matches!(events.recv().await.unwrap(), PersonEvent::Withdrawn { reason: WithdrawReason::Cancelled, .. }));
}

/// Sampling needs a non-empty reply to answer; roots need absolute folders; both can be declined.
#[tokio::test]
async fn sampling_and_roots_answers_are_checked() {
    let broker = std::sync::Arc::new(PersonRequests::new(Duration::from_secs(60)));
    let sampling = RequestKind::Sampling { messages: vec![], system_prompt: None, max_tokens: 10 };
    let asker = tokio::spawn({
        let broker = std::sync::Arc::clone(&broker);
        async move { broker.ask("s", sampling, std::future::pending()).await }
    });
    let id = until_pending(&broker, 1).await[0].id;
    assert!(matches!(broker.answer_sampling(id, Some("  ".into())), Err(PersonError::InvalidAnswer { .. })));
    broker.answer_sampling(id, None).unwrap();
    assert_eq!(asker.await.unwrap(), Asked::Answered(PersonAnswer::Sampling(None)));

    let asker = tokio::spawn({
        let broker = std::sync::Arc::clone(&broker);
        async move { broker.ask("s", RequestKind::Roots, std::future::pending()).await }
    });
    let id = until_pending(&broker, 1).await[0].id;
    assert!(matches!(broker.answer_roots(id, Some(&["rel".into()])), Err(PersonError::InvalidAnswer { .. })));
    broker.answer_roots(id, Some(&["/srv/data".into()])).unwrap();
    let expected = PersonAnswer::Roots(Some(vec!["file:///srv/data".into()]));
    assert_eq!(asker.await.unwrap(), Asked::Answered(expected));
}

/// The same request from one server, asked from many threads at once, is queued once: the look for a waiting twin
/// and the queueing are one step. A different server's identical request is queued beside it.
#[test]
fn racing_twins_queue_once() {
    use std::sync::atomic::AtomicUsize;
    use std::sync::{Arc, Barrier};
    const THREADS: usize = 8;
    for _round in 0..200 {
        let broker = Arc::new(PersonRequests::new(Duration::from_secs(60)));
        let start = Arc::new(Barrier::new(THREADS));
        let refused = Arc::new(AtomicUsize::new(0));
        let (release, released) = tokio::sync::watch::channel(false);
        let askers: Vec<_> = (0..THREADS)
            .map(|i| {
                let (broker, start, refused) = (Arc::clone(&broker), Arc::clone(&start), Arc::clone(&refused));
                let mut released = released.clone();
                std::thread::spawn(move || {
                    let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
                    let server = if i == 0 { "other" } else { "files" };
                    start.wait();
                    let until_released = async move {
                        let _ = released.wait_for(|&done| done).await;
                    };
                    let asked = runtime.block_on(broker.ask_unless_waiting(server, RequestKind::Roots, until_released));
                    if asked.is_none() {
                        refused.fetch_add(1, Ordering::SeqCst);
                    }
                    asked.is_some()
                })
            })
            .collect();
        // Every asker has either been refused or is in the queue before the queued ones are let go.
        while refused.load(Ordering::SeqCst) + broker.pending().len() < THREADS {
            std::thread::yield_now();
        }
        release.send_replace(true);
        let queued = askers.into_iter().map(|a| a.join().unwrap()).filter(|&queued| queued).count();
        assert_eq!(queued, 2, "one request per server");
    }
}
