//! Servers asking the person, end to end: `plugboard-testserver`'s `ask_person`, `sample` and `list_roots` tools
//! call back into a real supervisor session whose connector hands the requests to a `PersonRequests` broker, as the
//! window's does. Each test answers (or not) through the broker and reads what reached the server in the tool result.

#![allow(
    clippy::expect_used,
    reason = "clippy allows expect only in #[test] fns; in helpers too a panic is the report"
)]

mod support;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use plugboard_core::person::{
    FormAction, PendingRequest, PersonEvent, PersonRequests, RequestKind, SamplingLine, WithdrawReason,
};
use plugboard_core::supervisor::ResourceContent;
use serde_json::{Value, json};
use tokio::sync::broadcast;

use support::{Harness, args, is_ready, text_of};

/// A harness with a person broker (`wait` before a request is declined) and the ready server `asker`.
async fn asking(wait: Duration) -> (Harness, Arc<PersonRequests>, broadcast::Receiver<PersonEvent>) {
    asking_in(wait, &[]).await
}

/// [`asking`], the server started with `flags`.
async fn asking_in(wait: Duration, flags: &[&str]) -> (Harness, Arc<PersonRequests>, broadcast::Receiver<PersonEvent>) {
    let person = Arc::new(PersonRequests::new(wait));
    let events = person.subscribe();
    let mut h = Harness::with_person(Arc::clone(&person));
    h.sup.reconcile(vec![h.server("asker", flags)]).await;
    assert_eq!(h.statuses_until("asker", is_ready).await, ["connecting", "ready"]);
    (h, person, events)
}

/// The next request that arrives (within 10 s).
async fn arrival(events: &mut broadcast::Receiver<PersonEvent>) -> PendingRequest {
    loop {
        let event = tokio::time::timeout(Duration::from_secs(10), events.recv()).await.expect("a request arrives");
        if let PersonEvent::Arrived(request) = event.expect("the broker is alive") {
            return request;
        }
    }
}

/// The next withdrawal's reason (within 10 s).
async fn withdrawal(events: &mut broadcast::Receiver<PersonEvent>) -> WithdrawReason {
    loop {
        let event = tokio::time::timeout(Duration::from_secs(10), events.recv()).await.expect("a request leaves");
        if let PersonEvent::Withdrawn { reason, .. } = event.expect("the broker is alive") {
            return reason;
        }
    }
}

/// Calls `tool` of the server `asker` and returns the text it answered.
async fn answer_of(h: &Harness, tool: &str, arguments: Value) -> String {
    let result = h.sup.call("asker", tool, args(arguments), None).await.expect("the call answers");
    text_of(&result)
}

async fn ask(h: &Harness, arguments: Value) -> String {
    answer_of(h, "ask_person", arguments).await
}

/// An accepted form reaches the server with the person's values, typed; the request showed the server's name,
/// message and schema, and left the queue as answered.
#[tokio::test]
async fn an_accepted_form_reaches_the_server() {
    accepted_form_reaches_the_server(&[]).await;
}

/// The same from a 2026-07-28 server, which cannot ask mid-call: its form comes back as an `input_required` result,
/// reaches the person through the same queue, and the call's retry carries the answer.
#[tokio::test]
async fn a_modern_servers_form_reaches_the_person_in_rounds() {
    accepted_form_reaches_the_server(&["--era", "modern"]).await;
}

async fn accepted_form_reaches_the_server(flags: &[&str]) {
    let (h, person, mut events) = asking_in(Duration::from_secs(60), flags).await;
    let answer = async {
        let request = arrival(&mut events).await;
        assert_eq!(request.server, "asker");
        let RequestKind::Elicitation { message, schema } = &request.ask else { panic!("{request:?}") };
        assert_eq!(message, "<b>Who are you?</b>");
        let schema: Value = serde_json::from_str(schema).expect("a schema");
        assert_eq!(schema["properties"]["age"]["type"], "integer");
        // A wrong type is refused and the request keeps waiting.
        assert!(
            person.answer_elicitation(request.id, FormAction::Accept, Some(r#"{"name":"Ann","age":"x"}"#)).is_err()
        );
        person
            .answer_elicitation(request.id, FormAction::Accept, Some(r#"{"name":"Ann","age":41}"#))
            .expect("answered");
        withdrawal(&mut events).await
    };
    let (text, reason) = tokio::join!(ask(&h, json!({"message": "<b>Who are you?</b>"})), answer);
    let content: Value = serde_json::from_str(text.strip_prefix("accept ").expect(&text)).expect("JSON content");
    assert_eq!(content, json!({"name": "Ann", "age": 41}));
    assert_eq!(reason, WithdrawReason::Answered);
    assert!(person.pending().is_empty());
    h.finish().await;
}

/// A 2026-07-28 server's prompt and resource that ask the person a form first: each round reaches the person
/// through the same queue, and the request's retry carries the answer (before, the console said Plugboard could not
/// give the input, and the gateway refused it as an unexpected answer).
#[tokio::test]
async fn a_modern_servers_prompt_and_resource_ask_the_person_in_rounds() {
    let (h, person, mut events) = asking_in(Duration::from_secs(60), &["--era", "modern"]).await;

    let prompt = h.sup.get_prompt("asker", "interview", BTreeMap::new());
    let (prompt, ()) = tokio::join!(prompt, accept_form(&person, &mut events, "Who is the prompt for?", "Ann"));
    let prompt = prompt.expect("the prompt is filled in");
    let [message] = prompt.messages.as_slice() else { panic!("{prompt:?}") };
    assert_eq!(message.role, "user");
    let content: Value = serde_json::from_str(&message.content).expect("a content block");
    assert_eq!(content["text"], r#"accept {"name":"Ann"}"#);

    let read = h.sup.read_resource("asker", "ask://person");
    let (read, ()) = tokio::join!(read, accept_form(&person, &mut events, "Who reads this?", "Bo"));
    let read = read.expect("the resource is read");
    let [ResourceContent::Text { uri, text, .. }] = read.as_slice() else { panic!("{read:?}") };
    assert_eq!((uri.as_str(), text.as_str()), ("ask://person", r#"accept {"name":"Bo"}"#));
    assert!(person.pending().is_empty());
    h.finish().await;
}

/// Waits for the form asking `message` and accepts it with `name`.
async fn accept_form(
    person: &PersonRequests,
    events: &mut broadcast::Receiver<PersonEvent>,
    message: &str,
    name: &str,
) {
    let request = arrival(events).await;
    let RequestKind::Elicitation { message: asked, .. } = &request.ask else { panic!("{request:?}") };
    assert_eq!(asked, message);
    let content = json!({ "name": name }).to_string();
    person.answer_elicitation(request.id, FormAction::Accept, Some(&content)).expect("answered");
}

/// Declining and cancelling reach the server as such, with no content.
#[tokio::test]
async fn decline_and_cancel_reach_the_server() {
    let (h, person, mut events) = asking(Duration::from_secs(60)).await;
    for (action, expected) in [(FormAction::Decline, "decline"), (FormAction::Cancel, "cancel")] {
        let answer = async {
            let id = arrival(&mut events).await.id;
            person.answer_elicitation(id, action, None).unwrap();
        };
        let (text, ()) = tokio::join!(ask(&h, json!({"message": "ok?"})), answer);
        assert_eq!(text, expected);
    }
    h.finish().await;
}

/// Nobody answering within the wait limit declines the request, and the dialog's request is withdrawn.
#[tokio::test]
async fn an_unanswered_request_is_declined_after_the_wait_limit() {
    let (h, person, mut events) = asking(Duration::from_millis(300)).await;
    let (text, reason) = tokio::join!(ask(&h, json!({"message": "anyone?"})), withdrawal(&mut events));
    assert_eq!(text, "decline");
    assert_eq!(reason, WithdrawReason::TimedOut);
    assert!(person.pending().is_empty());
    h.finish().await;
}

/// The server cancelling its request (`notifications/cancelled` after its own timeout) withdraws it from the queue.
#[tokio::test]
async fn the_servers_cancel_withdraws_the_request() {
    let (h, person, mut events) = asking(Duration::from_secs(60)).await;
    let watch = async {
        let request = arrival(&mut events).await;
        assert_eq!(person.pending(), [request]);
        withdrawal(&mut events).await
    };
    let (text, reason) = tokio::join!(ask(&h, json!({"message": "quick!", "give_up_after_ms": 500})), watch);
    assert_eq!(text, "gave up");
    assert_eq!(reason, WithdrawReason::Cancelled);
    assert!(person.pending().is_empty());
    h.finish().await;
}

/// Disconnecting the server while its request waits withdraws the request (the dialog must not outlive the session).
#[tokio::test]
async fn a_closed_session_withdraws_its_request() {
    let (h, person, mut events) = asking(Duration::from_secs(60)).await;
    let call = h.sup.call("asker", "ask_person", args(json!({"message": "still there?"})), None);
    let close = async {
        let _request = arrival(&mut events).await;
        h.sup.disconnect("asker").await.unwrap();
        withdrawal(&mut events).await
    };
    let (_, reason) = tokio::join!(call, close);
    assert_eq!(reason, WithdrawReason::Cancelled);
    assert!(person.pending().is_empty());
    h.finish().await;
}

/// A session without a person (CLI, serve) still declines forms and refuses sampling and roots.
#[tokio::test]
async fn a_headless_session_still_declines() {
    let mut h = Harness::new();
    h.sup.reconcile(vec![h.server("asker", &[])]).await;
    assert_eq!(h.statuses_until("asker", is_ready).await, ["connecting", "ready"]);
    assert_eq!(ask(&h, json!({"message": "hello?"})).await, "decline");
    for tool in ["sample", "list_roots"] {
        let outcome = h.sup.call("asker", tool, args(json!({"prompt": "2+2?"})), None).await;
        assert!(outcome.is_err() || text_of(&outcome.unwrap()).is_empty(), "{tool} got an answer without a person");
    }
    h.finish().await;
}

/// The person's sampling reply reaches the server as the assistant's message from "human (Plugboard)"; the request
/// showed the server's messages and system prompt.
#[tokio::test]
async fn a_sampling_reply_reaches_the_server() {
    let (h, person, mut events) = asking(Duration::from_secs(60)).await;
    let answer = async {
        let request = arrival(&mut events).await;
        let RequestKind::Sampling { messages, system_prompt, .. } = &request.ask else { panic!("{request:?}") };
        assert_eq!(messages, &[SamplingLine { role: "user".into(), text: "<script>2+2?</script>".into() }]);
        assert_eq!(system_prompt.as_deref(), Some("Answer briefly."));
        person.answer_sampling(request.id, Some("four".into())).unwrap();
    };
    let call = h.sup.call("asker", "sample", args(json!({"prompt": "<script>2+2?</script>"})), None);
    let (result, ()) = tokio::join!(call, answer);
    assert_eq!(text_of(&result.unwrap()), "assistant human (Plugboard): four");
    h.finish().await;
}

/// Declined sampling is an error the server sees; the folders the person chose reach it as file:// URIs.
#[tokio::test]
async fn roots_and_declined_sampling_reach_the_server() {
    let (h, person, mut events) = asking(Duration::from_secs(60)).await;
    let answer = async {
        let id = arrival(&mut events).await.id;
        person.answer_sampling(id, None).unwrap();
    };
    let (result, ()) = tokio::join!(h.sup.call("asker", "sample", args(json!({"prompt": "hi"})), None), answer);
    let declined = result.map(|r| (r.is_error, text_of(&r)));
    assert!(matches!(&declined, Err(_) | Ok((Some(true), _))), "{declined:?}");

    let answer = async {
        let request = arrival(&mut events).await;
        assert_eq!(request.ask, RequestKind::Roots);
        person.answer_roots(request.id, Some(&["/srv/data".into(), "/home/ann/my notes".into()])).unwrap();
    };
    let (result, ()) = tokio::join!(h.sup.call("asker", "list_roots", args(json!({})), None), answer);
    assert_eq!(text_of(&result.unwrap()), "file:///srv/data\nfile:///home/ann/my%20notes");
    h.finish().await;
}

/// Waits (up to 10 s) for a log line of `server` containing `text`.
async fn logged(h: &Harness, server: &str, text: &str) -> String {
    for _ in 0..200 {
        let log = h.sup.log(server).expect("the server is known");
        if let Some(entry) = log.iter().find(|entry| entry.message.contains(text)) {
            return entry.message.clone();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no log line of {server} contains {text:?}: {:?}", h.sup.log(server));
}

async fn open_link(h: &Harness, arguments: Value) -> String {
    answer_of(h, "open_link", arguments).await
}

/// A link request reaches the person vetted and split around its site; accepting reaches the server as "accept",
/// and the server's completion notice lands in its log.
#[tokio::test]
async fn a_link_the_person_opens_is_accepted() {
    let (h, person, mut events) = asking(Duration::from_secs(60)).await;
    let answer = async {
        let request = arrival(&mut events).await;
        let RequestKind::OpenLink { message, link } = &request.ask else { panic!("{request:?}") };
        assert_eq!(message, "Connect your account on the provider's page.");
        assert_eq!((link.start.as_str(), link.site.as_str()), ("https://", "xn--pypal-4ve.com"));
        assert_eq!(link.rest, "/connect?state=1");
        assert!(link.cautions.iter().any(|c| c.contains("international letters")), "{:?}", link.cautions);
        assert_eq!(person.link_to_open(request.id).unwrap().as_str(), "https://xn--pypal-4ve.com/connect?state=1");
        // A link is not a form: the form answer is refused and the request keeps waiting.
        assert!(person.answer_elicitation(request.id, FormAction::Accept, Some("{}")).is_err());
        person.answer_link(request.id, FormAction::Accept).unwrap();
    };
    let arguments = json!({"url": "https://pаypal.com/connect?state=1", "complete_after_accept": true});
    let (text, ()) = tokio::join!(open_link(&h, arguments), answer);
    assert_eq!(text, "accept");
    let line = logged(&h, "asker", "step in your browser is done").await;
    assert!(line.contains("link-"), "{line}");
    h.finish().await;
}

/// Declining and cancelling a link reach the server as such.
#[tokio::test]
async fn a_declined_or_cancelled_link_says_so() {
    let (h, person, mut events) = asking(Duration::from_secs(60)).await;
    for (action, expected) in [(FormAction::Decline, "decline"), (FormAction::Cancel, "cancel")] {
        let answer = async {
            let id = arrival(&mut events).await.id;
            person.answer_link(id, action).unwrap();
        };
        let (text, ()) = tokio::join!(open_link(&h, json!({"url": "https://example.com/pay"})), answer);
        assert_eq!(text, expected);
    }
    h.finish().await;
}

/// A disguised or unsafe link never reaches the person: the server is declined at once and the log says why.
#[tokio::test]
async fn a_disguised_link_is_declined_without_asking() {
    let (h, person, mut events) = asking(Duration::from_secs(60)).await;
    for (url, why) in [
        ("https://accounts.google.com@evil.example/login", "user name or password"),
        ("javascript:alert(1)", "javascript:"),
        ("http://example.com/login", "unencrypted"),
    ] {
        assert_eq!(open_link(&h, json!({"url": url})).await, "decline", "{url}");
        logged(&h, "asker", why).await;
    }
    assert!(person.pending().is_empty());
    assert!(matches!(events.try_recv(), Err(broadcast::error::TryRecvError::Empty)), "nothing reached the person");
    h.finish().await;
}

/// A session without a person (the CLI, `serve`) declines every link: nobody is there to consent to opening it.
#[tokio::test]
async fn without_a_person_a_link_is_declined() {
    let mut h = Harness::new();
    h.sup.reconcile(vec![h.server("asker", &[])]).await;
    assert_eq!(h.statuses_until("asker", is_ready).await, ["connecting", "ready"]);
    assert_eq!(open_link(&h, json!({"url": "https://example.com/pay"})).await, "decline");
    h.finish().await;
}

/// A call the server refuses until a page is opened (-32042) fails with the page listed, and the window's person is
/// shown it to open; a disguised page is listed as refused and never shown.
#[tokio::test]
async fn a_call_needing_a_page_shows_it_to_the_person() {
    let (h, person, mut events) = asking(Duration::from_secs(60)).await;
    let url = "https://auth.example.com/grant?files=1";
    let error = h.sup.call("asker", "needs_page", args(json!({"url": url})), None).await.unwrap_err();
    let text = error.to_string();
    assert!(text.contains("needs you to open a page first, then call again"), "{text}");
    assert!(text.contains("Authorize access to your files first. (https://auth.example.com/grant?files=1)"), "{text}");
    let request = arrival(&mut events).await;
    let RequestKind::OpenLink { message, link } = &request.ask else { panic!("{request:?}") };
    assert_eq!((message.as_str(), link.url.as_str()), ("Authorize access to your files first.", url));
    // The call made again before the person answered shows the same page once, not twice.
    h.sup.call("asker", "needs_page", args(json!({"url": url})), None).await.unwrap_err();
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(person.pending().len(), 1, "{:?}", person.pending());
    person.answer_link(request.id, FormAction::Decline).unwrap();
    assert_eq!(withdrawal(&mut events).await, WithdrawReason::Answered);

    let disguised = "https://auth.example.com@evil.example/";
    let error = h.sup.call("asker", "needs_page", args(json!({"url": disguised})), None).await.unwrap_err();
    assert!(error.to_string().contains("a link Plugboard will not open"), "{error}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(person.pending().is_empty(), "a disguised page is never shown");
    h.finish().await;
}
