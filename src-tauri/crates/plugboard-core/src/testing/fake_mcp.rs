//! For tests: a FAKE MCP server over HTTP on the shared loopback server, for what no real server does on request —
//! answering a tool call with a body or an event that never ends, or going away and coming back on the same port
//! with no connection to reuse in between. It speaks just enough of the protocol for a client to connect
//! (initialize, initialized, one tool `act`), over Streamable HTTP or legacy SSE, counts the tool calls it gets,
//! and answers them as told (normally, or with an endless payload, counting what the client let it write). It must
//! never bind beyond loopback, nor buffer the payload: it is written in chunks, as fast as the client reads.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio::sync::{Mutex, mpsc};

use super::{LoopbackServer, respond};

/// How many bytes of payload the fake offers: eight times the message limit.
pub const OFFERED: usize = 8 * crate::transport::MAX_MESSAGE_BYTES;
const CHUNK: usize = 64 << 10;

/// What a `tools/call` gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// A tool result saying "ran".
    Normally,
    /// A 200 `application/json` body (no Content-Length) that never ends.
    EndlessJsonBody,
    /// A 200 `text/event-stream` whose first event never ends.
    EndlessSseEvent,
}

/// A running fake: how many tool calls it got and how much of an endless payload the client took.
pub struct FakeMcp {
    pub server: LoopbackServer,
    written: Arc<AtomicUsize>,
    calls: Arc<AtomicUsize>,
}

impl FakeMcp {
    /// Payload bytes the client let the fake write so far.
    pub fn written(&self) -> usize {
        self.written.load(Ordering::SeqCst)
    }

    /// Tool calls the fake received.
    pub fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }

    /// Streamable HTTP at `/mcp` on a free port; see [`Self::streamable_at`].
    pub async fn streamable(answer: Answer) -> Self {
        Self::streamable_at(SocketAddr::from(([127, 0, 0, 1], 0)), answer).await
    }

    /// Streamable HTTP at `/mcp` on `addr`: every POST answered on its own connection, which then closes (so a
    /// client never has one to reuse); a tool call as `answer` says.
    pub async fn streamable_at(addr: SocketAddr, answer: Answer) -> Self {
        let (written, calls) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let (counter, called) = (written.clone(), calls.clone());
        let server = LoopbackServer::start_at(addr, move |request, mut stream| {
            let (counter, called) = (counter.clone(), called.clone());
            async move {
                let message: Value = serde_json::from_slice(&request.body).unwrap_or_default();
                match (request.method.as_str(), reply_to(&message)) {
                    ("POST", Reply::Result(result)) => {
                        let body = json!({"jsonrpc": "2.0", "id": message["id"], "result": result}).to_string();
                        let headers = [("content-type", "application/json"), ("mcp-session-id", "fake-1")];
                        respond(&mut stream, 200, &headers, body.as_bytes()).await;
                    }
                    ("POST", Reply::ToolCall) => {
                        called.fetch_add(1, Ordering::SeqCst);
                        let (content_type, prefix) = match answer {
                            Answer::Normally => {
                                let result = json!({"content": [{"type": "text", "text": "ran"}]});
                                let body = json!({"jsonrpc": "2.0", "id": message["id"], "result": result}).to_string();
                                respond(&mut stream, 200, &[("content-type", "application/json")], body.as_bytes())
                                    .await;
                                return;
                            }
                            Answer::EndlessJsonBody => ("application/json", String::new()),
                            Answer::EndlessSseEvent => ("text/event-stream", "data: ".to_owned()),
                        };
                        let head =
                            format!("HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nConnection: close\r\n\r\n");
                        let prefix = format!("{prefix}{}", endless_result_start(&message["id"]));
                        let _ = stream.write_all(head.as_bytes()).await;
                        pour(&mut stream, prefix.as_bytes(), &counter).await;
                    }
                    ("POST", Reply::Accepted) => respond(&mut stream, 202, &[], b"").await,
                    ("POST", Reply::Unknown) => respond(&mut stream, 400, &[], b"Bad Request: no session").await,
                    ("DELETE", _) => respond(&mut stream, 200, &[], b"").await,
                    // No standalone event stream.
                    _ => respond(&mut stream, 405, &[], b"").await,
                }
            }
        })
        .await;
        Self { server, written, calls }
    }

    /// Legacy HTTP+SSE: `GET /sse` is the event stream (it starts with `endpoint`), `POST /message` answers 202
    /// and puts the answer on the stream; a tool call's answer is an event that never ends.
    pub async fn legacy_sse() -> Self {
        let (written, calls) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let called = calls.clone();
        // Chunks for the event stream; bounded, so an endless answer waits for the client instead of piling up.
        let (events, received) = mpsc::channel::<Vec<u8>>(4);
        let received = Arc::new(Mutex::new(received));
        let counter = written.clone();
        let server = LoopbackServer::start(move |request, mut stream| {
            let (events, received, counter, called) =
                (events.clone(), received.clone(), counter.clone(), called.clone());
            async move {
                if request.method == "GET" {
                    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n";
                    let _ = stream.write_all(head.as_bytes()).await;
                    let _ = stream.write_all(b"event: endpoint\ndata: /message\n\n").await;
                    let mut received = received.lock().await;
                    while let Some(chunk) = received.recv().await {
                        if stream.write_all(&chunk).await.is_err() {
                            return;
                        }
                    }
                    return;
                }
                respond(&mut stream, 202, &[], b"").await;
                let message: Value = serde_json::from_slice(&request.body).unwrap_or_default();
                match reply_to(&message) {
                    Reply::Result(result) => {
                        let answer = json!({"jsonrpc": "2.0", "id": message["id"], "result": result});
                        let _ = events.send(format!("event: message\ndata: {answer}\n\n").into_bytes()).await;
                    }
                    Reply::ToolCall => {
                        called.fetch_add(1, Ordering::SeqCst);
                        let prefix = format!("event: message\ndata: {}", endless_result_start(&message["id"]));
                        if events.send(prefix.into_bytes()).await.is_err() {
                            return;
                        }
                        for _ in 0..OFFERED / CHUNK {
                            if events.send(vec![b'x'; CHUNK]).await.is_err() {
                                return;
                            }
                            counter.fetch_add(CHUNK, Ordering::SeqCst);
                        }
                    }
                    Reply::Accepted | Reply::Unknown => {}
                }
            }
        })
        .await;
        Self { server, written, calls }
    }
}

enum Reply {
    Result(Value),
    Accepted,
    ToolCall,
    /// A request it does not know (`server/discover`): refused as a server of the earlier era does, without a session.
    Unknown,
}

/// The fake's whole protocol.
fn reply_to(message: &Value) -> Reply {
    match message["method"].as_str().unwrap_or_default() {
        "initialize" => Reply::Result(json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "plugboard-fake", "version": "1.0"}
        })),
        "tools/list" => Reply::Result(json!({"tools": [{"name": "act", "inputSchema": {"type": "object"}}]})),
        "tools/call" => Reply::ToolCall,
        "ping" => Reply::Result(json!({})),
        _ if message.get("id").is_some() => Reply::Unknown,
        _ => Reply::Accepted,
    }
}

/// The start of a tool result whose text never ends.
fn endless_result_start(id: &Value) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"text","text":""#)
}

/// Writes `prefix`, then up to [`OFFERED`] bytes in chunks while the client reads, counting them.
async fn pour(stream: &mut TcpStream, prefix: &[u8], written: &AtomicUsize) {
    if stream.write_all(prefix).await.is_err() {
        return;
    }
    let chunk = vec![b'x'; CHUNK];
    for _ in 0..OFFERED / CHUNK {
        if stream.write_all(&chunk).await.is_err() {
            return;
        }
        written.fetch_add(CHUNK, Ordering::SeqCst);
    }
}
