//! A deliberately cheap Streamable HTTP MCP server for the suite (`echo` and `big`, JSON responses, HTTP/1.1
//! keep-alive, TCP_NODELAY), so the per-call figures show the CLIENT's cost — connection reuse above all — instead
//! of a server's own work per request (server-everything's is ~2 ms). Every HTTP side calls this one server. It
//! must never be used outside the bench.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};

use nix::sched::{CpuSet, sched_setaffinity};
use nix::unistd::Pid;
use serde_json::{Value, json};

/// Starts the server on a free loopback port, one thread per connection, each on CPU `cpu` when given (as a
/// pinned stdio side's server shares its client's CPU); returns the port. It lives as long as the bench process.
pub fn start(cpu: Option<usize>) -> anyhow::Result<u16> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let port = listener.local_addr()?.port();
    let pin = match cpu {
        Some(cpu) => {
            let mut set = CpuSet::new();
            set.set(cpu)?;
            Some(set)
        }
        None => None,
    };
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || {
                // Pid 0 is the calling thread: only this connection's thread moves.
                if let Some(set) = pin
                    && let Err(e) = sched_setaffinity(Pid::from_raw(0), &set)
                {
                    println!("  (the HTTP server's thread could not be pinned: {e}; its figures are unpinned)");
                }
                serve(stream);
            });
        }
    });
    Ok(port)
}

/// Serves requests on one connection until the client closes it or asks to.
fn serve(stream: TcpStream) {
    let _ = stream.set_nodelay(true);
    let Ok(mut writer) = stream.try_clone() else { return };
    let mut reader = BufReader::new(stream);
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
            return;
        }
        let method = request_line.split_whitespace().next().unwrap_or_default().to_owned();
        let (mut length, mut close) = (0usize, false);
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).unwrap_or(0) == 0 {
                return;
            }
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            let (name, value) = header.split_once(':').unwrap_or((header, ""));
            match name.to_ascii_lowercase().as_str() {
                "content-length" => length = value.trim().parse().unwrap_or(0),
                "connection" => close = value.trim().eq_ignore_ascii_case("close"),
                _ => {}
            }
        }
        let mut body = vec![0u8; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let response = match method.as_str() {
            "POST" => answer(&body),
            "DELETE" => (200, None),
            _ => (405, None),
        };
        if write_response(&mut writer, response, close).is_err() || close {
            return;
        }
    }
}

/// The JSON-RPC answer to one POSTed message: (status, body).
fn answer(body: &[u8]) -> (u16, Option<Value>) {
    let Ok(message) = serde_json::from_slice::<Value>(body) else { return (400, None) };
    let Some(id) = message.get("id").cloned() else { return (202, None) };
    let result = match message["method"].as_str().unwrap_or_default() {
        "initialize" => json!({
            "protocolVersion": "2025-11-25",
            "capabilities": { "tools": {} },
            "serverInfo": { "name": "bench-mini-http", "version": "0" }
        }),
        "tools/list" => json!({ "tools": [
            {
                "name": "echo",
                "inputSchema": { "type": "object", "properties": { "message": { "type": "string" } } }
            },
            {
                "name": "big",
                "inputSchema": { "type": "object", "properties": { "bytes": { "type": "integer" } } }
            }
        ] }),
        "tools/call" => {
            let arguments = &message["params"]["arguments"];
            let text = match message["params"]["name"].as_str().unwrap_or_default() {
                "big" => big_text(arguments["bytes"].as_u64().unwrap_or_default() as usize),
                _ => format!("Echo: {}", arguments["message"].as_str().unwrap_or_default()),
            };
            json!({ "content": [{ "type": "text", "text": text }] })
        }
        _ => {
            let error = json!({ "code": -32601, "message": "method not found" });
            return (200, Some(json!({ "jsonrpc": "2.0", "id": id, "error": error })));
        }
    };
    (200, Some(json!({ "jsonrpc": "2.0", "id": id, "result": result })))
}

/// The same text as the test server's `big`: the alphabet over and over.
fn big_text(bytes: usize) -> String {
    (b'a'..=b'z').cycle().take(bytes).map(char::from).collect()
}

fn write_response(out: &mut TcpStream, (status, body): (u16, Option<Value>), close: bool) -> std::io::Result<()> {
    let reason = match status {
        200 => "OK",
        202 => "Accepted",
        400 => "Bad Request",
        _ => "Method Not Allowed",
    };
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let connection = if close { "close" } else { "keep-alive" };
    // One write for head and body: no small segments for Nagle or delayed ACKs to hold back.
    let response = format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\nmcp-session-id: bench-session\r\n\
         content-length: {}\r\nconnection: {connection}\r\n\r\n{body}",
        body.len()
    );
    out.write_all(response.as_bytes())
}
