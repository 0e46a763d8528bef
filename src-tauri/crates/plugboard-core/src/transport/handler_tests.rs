//! Tests of Plugboard's client handler: the defaults a form gets, and what a real rmcp session answers a server that
//! asks for input, asks for sampling or sends notifications (the server is scripted JSON-RPC over a duplex pipe).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::{ElicitRequestParams, ElicitationAction};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf};

use super::{DECLINED_SAMPLING, ElicitationPolicy, ServerNotice, client_handler, schema_defaults};
use crate::transport::McpSession;

/// The conformance suite's SEP-1034 form: every kind of primitive default.
fn sep1034_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "default": "John Doe"},
            "age": {"type": "integer", "default": 30},
            "score": {"type": "number", "default": 95.5},
            "status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
            "verified": {"type": "boolean", "default": true}
        },
        "required": []
    })
}

/// Every `properties.*.default` is copied with its JSON type intact.
#[test]
fn defaults_are_copied_as_typed_values() {
    let content = schema_defaults(&sep1034_schema());
    assert_eq!(
        Value::Object(content),
        json!({"name": "John Doe", "age": 30, "score": 95.5, "status": "active", "verified": true})
    );
}

/// A field without a default is left out (not null, not empty), and so is a nested object without any.
#[test]
fn fields_without_defaults_are_left_out() {
    let schema = json!({
        "type": "object",
        "properties": {
            "email": {"type": "string"},
            "nickname": {"type": "string", "default": ""},
            "empty": {"type": "object", "properties": {"a": {"type": "string"}}}
        }
    });
    assert_eq!(Value::Object(schema_defaults(&schema)), json!({"nickname": ""}));
}

/// An object property contributes its own defaults; its `default`, when it has one, wins over its properties'.
#[test]
fn nested_object_defaults_are_collected() {
    let schema = json!({
        "type": "object",
        "properties": {
            "address": {
                "type": "object",
                "properties": {"city": {"type": "string", "default": "Lyon"}, "zip": {"type": "string"}}
            },
            "limits": {"type": "object", "default": {"max": 3}, "properties": {"max": {"default": 9}}}
        }
    });
    assert_eq!(Value::Object(schema_defaults(&schema)), json!({"address": {"city": "Lyon"}, "limits": {"max": 3}}));
}

/// A schema with no `properties` (or not an object at all) yields empty content rather than failing.
#[test]
fn no_properties_means_empty_content() {
    assert!(schema_defaults(&json!({"type": "object"})).is_empty());
    assert!(schema_defaults(&json!("not a schema")).is_empty());
}

fn form_request(schema: &Value) -> ElicitRequestParams {
    serde_json::from_value(json!({"message": "please confirm", "requestedSchema": schema})).unwrap()
}

/// Without a person, a form and a link alike are declined, without content.
#[test]
fn a_session_without_a_person_declines_forms_and_links() {
    let (decline, _rx) = client_handler(ElicitationPolicy::Decline);
    let answer = decline.answer_elicitation(&form_request(&sep1034_schema()));
    assert_eq!(answer.action, ElicitationAction::Decline);
    assert!(answer.content.is_none());
    let request: ElicitRequestParams = serde_json::from_value(json!({
        "mode": "url", "message": "log in", "url": "https://example.invalid/login", "elicitationId": "e-1"
    }))
    .unwrap();
    assert_eq!(decline.answer_elicitation(&request).action, ElicitationAction::Decline);
}

/// Sampling and URL-mode elicitation are announced only where someone may answer: the window's person, or the
/// gateway's client (roots too, which it may have); a headless session keeps announcing form elicitation alone
/// (`{}`), so a server never sends it a link nobody could consent to open.
#[test]
fn only_a_person_session_announces_sampling() {
    use rmcp::ClientHandler;
    let capabilities = |answerer: super::Answerer| {
        let (handler, _rx) = client_handler(answerer);
        serde_json::to_value(handler.get_info().capabilities).unwrap()
    };
    assert_eq!(capabilities(ElicitationPolicy::Decline.into()), json!({"elicitation": {}}));
    let broker = std::sync::Arc::new(crate::person::PersonRequests::default());
    let person = super::Answerer::Person(crate::transport::PersonLink::new(broker, "files"));
    assert_eq!(capabilities(person), json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}}));
    let relay = super::Answerer::Client(crate::transport::DownstreamLink::default());
    assert_eq!(capabilities(relay), json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}}));
}

/// The server side of the pipe, scripted one JSON-RPC line at a time.
struct ScriptedServer {
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    writer: WriteHalf<DuplexStream>,
}

impl ScriptedServer {
    async fn send(&mut self, message: Value) {
        let mut line = serde_json::to_vec(&message).unwrap();
        line.push(b'\n');
        self.writer.write_all(&line).await.unwrap();
        self.writer.flush().await.unwrap();
    }

    async fn receive(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(5), self.lines.next_line())
            .await
            .expect("the client answers within 5 s")
            .unwrap()
            .expect("the client keeps the pipe open");
        serde_json::from_str(&line).unwrap()
    }
}

/// Connects a Decline-policy session to a scripted server and returns both, with the `initialize` params the client
/// sent.
async fn decline_session() -> (McpSession, ScriptedServer, Value) {
    let (client_io, server_io) = tokio::io::duplex(64 * 1024);
    let (read, writer) = tokio::io::split(server_io);
    let mut server = ScriptedServer { lines: BufReader::new(read).lines(), writer };
    let (handler, notices) = client_handler(ElicitationPolicy::Decline);
    let client = tokio::spawn(async move { handler.serve(client_io).await });

    let initialize = server.receive().await;
    assert_eq!(initialize["method"], "initialize");
    server
        .send(json!({"jsonrpc": "2.0", "id": initialize["id"], "result": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {"listChanged": true}, "logging": {}},
            "serverInfo": {"name": "scripted", "version": "1.0.0"}
        }}))
        .await;
    assert_eq!(server.receive().await["method"], "notifications/initialized");
    let service = client.await.unwrap().expect("the handshake completes");
    (McpSession::new(service, notices), server, initialize["params"].clone())
}

/// The product's session announces elicitation (and not sampling), then declines a server's form request through
/// rmcp's real request path, with no content.
#[tokio::test]
async fn decline_policy_declines_an_elicitation_request_end_to_end() {
    let (session, mut server, params) = decline_session().await;
    assert_eq!(params["protocolVersion"], "2025-11-25");
    assert_eq!(params["capabilities"]["elicitation"], json!({}));
    assert!(params["capabilities"].get("sampling").is_none());

    server
        .send(json!({"jsonrpc": "2.0", "id": "ask-1", "method": "elicitation/create", "params": {
            "message": "What is your name?",
            "requestedSchema": {"type": "object", "properties": {"name": {"type": "string", "default": "Ann"}}}
        }}))
        .await;
    let answer = server.receive().await;
    assert_eq!(answer["id"], "ask-1");
    assert_eq!(answer["result"]["action"], "decline");
    assert!(answer["result"].get("content").is_none());
    session.close().await.unwrap();
}

/// A sampling request is refused with the spec's "rejected" code and a message saying why.
#[tokio::test]
async fn decline_policy_refuses_sampling_with_a_clear_message() {
    let (session, mut server, _) = decline_session().await;
    server
        .send(json!({"jsonrpc": "2.0", "id": 7, "method": "sampling/createMessage", "params": {
            "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}],
            "maxTokens": 10
        }}))
        .await;
    let answer = server.receive().await;
    assert_eq!(answer["id"], 7);
    assert_eq!(answer["error"]["code"], -1);
    assert_eq!(answer["error"]["message"], DECLINED_SAMPLING);
    session.close().await.unwrap();
}

/// Notices arrive in order once taken (tool list change, log, progress, a declined form); before that they are
/// dropped, so an unwatched session never queues a chatty server's output.
#[tokio::test]
async fn notices_are_forwarded_in_order_once_taken() {
    let (mut session, mut server, _) = decline_session().await;
    server.send(json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})).await;
    // A request round trip orders the client after the notification above: it was handled (and dropped) by then.
    server.send(json!({"jsonrpc": "2.0", "id": "p", "method": "ping"})).await;
    assert_eq!(server.receive().await["id"], "p");

    let mut notices = session.take_notices().expect("the receiver is handed out once");
    assert!(session.take_notices().is_none());
    server.send(json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})).await;
    server
        .send(json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {
            "level": "warning", "logger": "db", "data": "slow query"
        }}))
        .await;
    server
        .send(json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {
            "progressToken": "t", "progress": 1, "total": 4
        }}))
        .await;
    server
        .send(json!({"jsonrpc": "2.0", "id": "ask", "method": "elicitation/create", "params": {
            "message": "<b>token?</b>", "requestedSchema": {"type": "object", "properties": {}}
        }}))
        .await;
    assert_eq!(server.receive().await["result"]["action"], "decline");

    let mut received = Vec::new();
    while received.len() < 3 {
        let notice = tokio::time::timeout(Duration::from_secs(5), notices.recv()).await.unwrap().unwrap();
        received.push(notice);
    }
    assert_eq!(received[0], ServerNotice::ToolsChanged);
    let ServerNotice::Log(log) = &received[1] else { panic!("expected a log notice, got {:?}", received[1]) };
    assert_eq!((log.level.as_str(), log.logger.as_deref(), &log.data), ("warning", Some("db"), &json!("slow query")));
    // Progress is a call's business: it goes to the call tap (tests below), not to the session's notices.
    assert_eq!(received[2], ServerNotice::ElicitationDeclined { message: "<b>token?</b>".into() });
    assert!(notices.try_recv().is_err(), "the notice sent before take_notices was dropped");
    session.close().await.unwrap();
}

/// Notices nobody handles pile up only to the backlog limit: one more trips the session's wire (the session then
/// ends, saying so) instead of queueing without end.
#[test]
fn a_backlog_past_the_limit_trips_the_session() {
    let (handler, mut notices) = super::client_handler_with_backlog(ElicitationPolicy::Decline, 3);
    handler.start_listening();
    for _ in 0..3 {
        handler.notify(ServerNotice::ToolsChanged);
    }
    assert!(handler.tripwire().cause().is_none(), "three fit");
    handler.notify(ServerNotice::ToolsChanged);
    assert_eq!(handler.tripwire().cause(), Some(&crate::transport::LimitExceeded::Backlog { backlog: 3 }));
    let said = handler.tripwire().cause().map(ToString::to_string).unwrap_or_default();
    assert!(said.contains("3 of the server's notifications were waiting"), "{said}");
    assert_eq!(notices.try_recv().ok(), Some(ServerNotice::ToolsChanged), "what fitted is still delivered");
}
