//! The line transport against a peer written by hand; what rmcp's own types make of each line is the reference for
//! what the transport hands on.

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, CancelledNotification, CancelledNotificationParam,
    ClientJsonRpcMessage, ClientNotification, ClientRequest, JsonRpcMessage, ListToolsRequest, RequestId,
    ServerJsonRpcMessage, ServerResult,
};
use rmcp::service::{RoleClient, RoleServer};
use rmcp::transport::Transport;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};

use super::{LineTransport, ToolCallLines};

type Connected<Role> = (LineTransport<Role, DuplexStream, DuplexStream>, DuplexStream, BufReader<DuplexStream>);

/// The transport, and the peer's ends: what it writes to the transport, and what it reads from it.
fn connected<Role: ToolCallLines>(max_message: usize) -> Connected<Role> {
    let (read, peer_out) = tokio::io::duplex(1 << 16);
    let (write, peer_in) = tokio::io::duplex(1 << 16);
    (LineTransport::new(read, write, max_message), peer_out, BufReader::new(peer_in))
}

/// A client's transport, and the server's ends.
fn client(max_message: usize) -> Connected<RoleClient> {
    connected(max_message)
}

fn call(id: i64) -> ClientJsonRpcMessage {
    let request = ClientRequest::CallToolRequest(CallToolRequest::new(CallToolRequestParams::new("echo")));
    JsonRpcMessage::request(request, RequestId::Number(id))
}

fn list_tools(id: i64) -> ClientJsonRpcMessage {
    JsonRpcMessage::request(ClientRequest::ListToolsRequest(ListToolsRequest::default()), RequestId::Number(id))
}

/// What rmcp's types read from `line`, as Debug text: the messages have no `PartialEq`, and the text names every
/// variant (a call result and a custom result serialise alike).
fn rmcp_reads(line: &str) -> String {
    format!("{:?}", serde_json::from_str::<ServerJsonRpcMessage>(line).expect("rmcp's types read the line"))
}

fn debug<M: std::fmt::Debug>(message: Option<M>) -> String {
    format!("{:?}", message.expect("a message"))
}

async fn read_line(server_in: &mut BufReader<DuplexStream>) -> serde_json::Value {
    let mut line = String::new();
    server_in.read_line(&mut line).await.unwrap();
    serde_json::from_str(&line).unwrap()
}

const ANSWERS: &[&str] = &[
    r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Echo: hi"}]}}"#,
    r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"no"}],"isError":true,"_meta":{"k":1}}}"#,
    r#"{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"n":2},"resultType":"complete"}}"#,
    r#"{"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":"t1","status":"working","createdAt":"2026-12-04T00:00:00Z","lastUpdatedAt":"2026-12-04T00:00:00Z"}}}"#,
    r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
    r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"unknown tool"}}"#,
];

/// Each answer to a call in flight is handed on as rmcp's own types read it, the common ones parsed straight into
/// a call result, the rest (a task, an empty result, an error) through rmcp's types.
#[tokio::test]
async fn answers_to_a_call_are_what_rmcp_reads() {
    for answer in ANSWERS {
        let (mut transport, mut server_out, mut server_in) = client(1 << 20);
        transport.send(call(1)).await.unwrap();
        assert_eq!(read_line(&mut server_in).await["method"], "tools/call");
        server_out.write_all(format!("{answer}\n").as_bytes()).await.unwrap();
        assert_eq!(debug(transport.receive().await), rmcp_reads(answer), "{answer}");
        assert!(transport.lock_sent().is_empty(), "the call is answered: {answer}");
    }
}

/// The id decides what an answer is: a tool list answering `tools/list` is not read as a contentless call result,
/// even while a call is in flight.
#[tokio::test]
async fn only_a_call_id_is_read_as_a_call_answer() {
    let (mut transport, mut server_out, _server_in) = client(1 << 20);
    transport.send(call(1)).await.unwrap();
    transport.send(list_tools(2)).await.unwrap();
    let tools = r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[],"isError":false}}"#;
    server_out.write_all(format!("{tools}\n").as_bytes()).await.unwrap();
    let received = transport.receive().await.unwrap();
    assert!(matches!(&received, JsonRpcMessage::Response(r) if matches!(r.result, ServerResult::ListToolsResult(_))));
    assert_eq!(debug(Some(received)), rmcp_reads(tools));
    assert_eq!(transport.lock_sent().len(), 1, "the call is still in flight");
}

/// Lines come out in the order they were written, whatever path each takes; garbage, blank lines, a byte-order
/// mark and carriage returns are passed over as rmcp passes over them.
#[tokio::test]
async fn lines_keep_their_order_and_garbage_is_skipped() {
    let (mut transport, mut server_out, _server_in) = client(1 << 20);
    transport.send(call(7)).await.unwrap();
    let progress = r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":1}}"#;
    let answer = r#"{"jsonrpc":"2.0","id":7,"result":{"content":[]}}"#;
    let written = format!("not json\n\n\u{feff}{progress}\r\n{answer}\n");
    server_out.write_all(written.as_bytes()).await.unwrap();
    assert_eq!(debug(transport.receive().await), rmcp_reads(progress));
    assert_eq!(debug(transport.receive().await), rmcp_reads(answer));
}

/// A line longer than the limit is dropped whole, and reading goes on with the next one.
#[tokio::test]
async fn an_oversized_line_is_dropped_and_reading_goes_on() {
    let (mut transport, mut server_out, _server_in) = client(64);
    let answer = r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#;
    let long = format!("{{\"padding\":\"{}\"}}", "x".repeat(500));
    server_out.write_all(format!("{long}\n{answer}\n").as_bytes()).await.unwrap();
    assert_eq!(debug(transport.receive().await), rmcp_reads(answer));
}

/// A request that fits no message type (here, of another JSON-RPC version) gets an Invalid Request error with its
/// id; a notification that fits none gets no answer at all. (rmcp reads a known method with odd parameters as a
/// custom message, so those pass.)
#[tokio::test]
async fn a_malformed_request_is_answered_and_a_malformed_notification_is_not() {
    let (mut transport, mut server_out, mut server_in) = client(1 << 20);
    let bad_notification = r#"{"jsonrpc":"1.0","method":"notifications/progress","params":{"progress":1}}"#;
    let bad_request = r#"{"jsonrpc":"1.0","id":"q1","method":"ping"}"#;
    let ping = r#"{"jsonrpc":"2.0","id":"q2","method":"ping"}"#;
    server_out.write_all(format!("{bad_notification}\n{bad_request}\n{ping}\n").as_bytes()).await.unwrap();
    assert_eq!(debug(transport.receive().await), rmcp_reads(ping));
    let answer = read_line(&mut server_in).await;
    assert_eq!(answer["id"], "q1", "only the request is answered: {answer}");
    assert_eq!(answer["error"]["code"], -32600);
}

/// A cancelled call is forgotten, so the set of calls in flight cannot grow without end.
#[tokio::test]
async fn a_cancelled_call_is_forgotten() {
    let (mut transport, _server_out, _server_in) = client(1 << 20);
    transport.send(call(3)).await.unwrap();
    assert_eq!(transport.lock_sent().len(), 1);
    let cancel = CancelledNotification::new(CancelledNotificationParam::new(Some(RequestId::Number(3)), None));
    transport.send(JsonRpcMessage::notification(ClientNotification::CancelledNotification(cancel))).await.unwrap();
    assert!(transport.lock_sent().is_empty());
}

/// Closing closes the server's stdin, and the end of its stdout ends the stream.
#[tokio::test]
async fn close_ends_stdin_and_end_of_stdout_ends_the_stream() {
    let (mut transport, server_out, mut server_in) = client(1 << 20);
    transport.close().await.unwrap();
    let mut rest = String::new();
    assert_eq!(server_in.read_line(&mut rest).await.unwrap(), 0, "the server reads the end of its stdin");
    assert!(transport.send(call(1)).await.is_err(), "nothing is written after close");
    drop(server_out);
    assert!(transport.receive().await.is_none());
}

/// What rmcp's server types read from `line`, as Debug text.
fn rmcp_server_reads(line: &str) -> String {
    format!("{:?}", serde_json::from_str::<ClientJsonRpcMessage>(line).expect("rmcp's types read the line"))
}

/// A server reads each `tools/call` request, whatever order its fields come in, as rmcp's types read it; a line
/// that only mentions `tools/call` somewhere else is rmcp's to read.
#[tokio::test]
async fn a_server_reads_call_requests_as_rmcp_does() {
    let requests = [
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}"#,
        r#"{"method":"tools/call","params":{"name":"echo","_meta":{"progressToken":"p"}},"jsonrpc":"2.0","id":"s"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"\"tools/call\""}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"\"tools/call\""}}"#,
    ];
    let (mut transport, mut client_out, _client_in) = connected::<RoleServer>(1 << 20);
    for request in requests {
        client_out.write_all(format!("{request}\n").as_bytes()).await.unwrap();
        assert_eq!(debug(transport.receive().await), rmcp_server_reads(request), "{request}");
    }
}

/// A server's answer goes out as one line that rmcp's client types read back unchanged.
#[tokio::test]
async fn a_server_writes_one_line_per_message() {
    let (mut transport, _client_out, mut client_in) = connected::<RoleServer>(1 << 20);
    let result = ServerResult::CallToolResult(CallToolResult::success(vec![]));
    transport.send(JsonRpcMessage::response(result, RequestId::Number(4))).await.unwrap();
    let line = read_line(&mut client_in).await;
    assert_eq!(line["id"], 4);
    assert_eq!(line["result"]["content"], serde_json::json!([]));
}
