//! The Streamable HTTP floor: no SDK, no HTTP library, a blocking HTTP/1.1 keep-alive loop per connection (one
//! connection per concurrent caller) POSTing JSON-RPC and reading `content-length` answers. What the machine can do
//! at all over loopback TCP; it must stay this bare, or it stops being a floor.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use plugboard_bench::{Round, Tool};
use serde_json::json;

use crate::Side;

pub struct KeepAlive {
    host: String,
    path: String,
    prefix: String,
    session: Option<String>,
    connections: Vec<Connection>,
}

struct Connection {
    writer: TcpStream,
    reader: BufReader<TcpStream>,
}

/// One answer: its status, its `mcp-session-id` and its body.
struct Answer {
    status: u16,
    session: Option<String>,
    body: Vec<u8>,
}

impl KeepAlive {
    /// Connects to `url` (`http://HOST:PORT/PATH`) and does the MCP handshake by hand.
    pub fn start(url: &str, prefix: String) -> anyhow::Result<KeepAlive> {
        let rest = url.strip_prefix("http://").context("the floor speaks plain http:// only")?;
        let (host, path) = rest.split_once('/').map_or((rest, "/".to_owned()), |(h, p)| (h, format!("/{p}")));
        let mut floor = KeepAlive { host: host.to_owned(), path, prefix, session: None, connections: Vec::new() };
        floor.connect(1)?;
        let initialize = json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": { "name": "plugboard-bench-floor", "version": "0" }
            }
        });
        let answer = floor.post(0, initialize.to_string().as_bytes())?;
        floor.session = answer.session;
        floor.post(0, br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)?;
        Ok(floor)
    }

    fn connect(&mut self, count: usize) -> anyhow::Result<()> {
        while self.connections.len() < count {
            let writer = TcpStream::connect(&self.host).with_context(|| format!("cannot connect to {}", self.host))?;
            writer.set_nodelay(true)?;
            let reader = BufReader::new(writer.try_clone()?);
            self.connections.push(Connection { writer, reader });
        }
        Ok(())
    }

    fn post(&mut self, connection: usize, body: &[u8]) -> anyhow::Result<Answer> {
        let (host, path, session) = (&self.host, &self.path, self.session.as_deref());
        post_on(&mut self.connections[connection], host, path, session, body)
    }

    fn call_body(&self, tool: Tool, id: usize) -> Vec<u8> {
        let params = json!({ "name": format!("{}{}", self.prefix, tool.name()), "arguments": tool.arguments() });
        json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params }).to_string().into_bytes()
    }
}

impl Side for KeepAlive {
    fn round(&mut self, tool: Tool, calls: usize, concurrency: usize) -> anyhow::Result<Round> {
        self.connect(concurrency)?;
        let body = self.call_body(tool, 1);
        let (host, path, session) = (self.host.as_str(), self.path.as_str(), self.session.as_deref());
        let per_caller = calls / concurrency;
        let begun = Instant::now();
        let latencies = std::thread::scope(|scope| {
            let callers: Vec<_> = self.connections[..concurrency]
                .iter_mut()
                .map(|connection| {
                    let body = &body;
                    scope.spawn(move || -> anyhow::Result<Vec<Duration>> {
                        let mut latencies = Vec::with_capacity(per_caller);
                        for _ in 0..per_caller {
                            let at = Instant::now();
                            let answer = post_on(connection, host, path, session, body)?;
                            latencies.push(at.elapsed());
                            check(tool, &answer)?;
                        }
                        Ok(latencies)
                    })
                })
                .collect();
            callers.into_iter().map(|c| c.join().unwrap_or_else(|_| bail!("a caller panicked"))).collect::<Vec<_>>()
        });
        let wall = begun.elapsed();
        let mut all = Vec::with_capacity(calls);
        for caller in latencies {
            all.extend(caller?);
        }
        Ok(Round::new(wall, &all))
    }
}

fn check(tool: Tool, answer: &Answer) -> anyhow::Result<()> {
    let right = match tool {
        Tool::Echo => answer.body.windows(17).any(|w| w == b"\"Echo: benchmark\""),
        Tool::Big => answer.body.len() > plugboard_bench::BIG_BYTES,
    };
    if answer.status != 200 || !right {
        bail!(
            "wrong answer to {} (HTTP {}): {:.200}",
            tool.name(),
            answer.status,
            String::from_utf8_lossy(&answer.body)
        );
    }
    Ok(())
}

/// One POST and its answer on a kept-alive connection, head and body in one write.
fn post_on(
    connection: &mut Connection,
    host: &str,
    path: &str,
    session: Option<&str>,
    body: &[u8],
) -> anyhow::Result<Answer> {
    let session_header = session.map(|s| format!("mcp-session-id: {s}\r\n")).unwrap_or_default();
    let mut request = format!(
        "POST {path} HTTP/1.1\r\nhost: {host}\r\ncontent-type: application/json\r\n\
         accept: application/json, text/event-stream\r\nmcp-protocol-version: 2025-11-25\r\n{session_header}\
         content-length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    request.extend_from_slice(body);
    connection.writer.write_all(&request)?;
    read_answer(&mut connection.reader)
}

fn read_answer(reader: &mut BufReader<TcpStream>) -> anyhow::Result<Answer> {
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let status = line.split_whitespace().nth(1).and_then(|s| s.parse().ok()).context("no HTTP status line")?;
    let (mut length, mut session) = (0usize, None);
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            bail!("the server closed the connection mid-answer");
        }
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':').unwrap_or((header, ""));
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse().context("content-length")?,
            "mcp-session-id" => session = Some(value.trim().to_owned()),
            "transfer-encoding" => bail!("the floor reads content-length answers only, not {}", value.trim()),
            _ => {}
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    Ok(Answer { status, session, body })
}
