//! The stdio floor: no SDK, one blocking loop writing JSON-RPC lines to the server's stdin and reading its answers,
//! several in flight for a concurrent round. What the machine can do at all over a pipe; it must stay this bare
//! (no runtime, no JSON model of the answer), or it stops being a floor.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use plugboard_bench::{Round, Tool};
use serde_json::json;

use crate::Side;

pub struct PipeLoop {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    prefix: String,
    next_id: u64,
    line: String,
}

impl PipeLoop {
    /// Starts `program` and does the MCP handshake by hand.
    pub fn start(program: &Path, args: &[String], prefix: String) -> anyhow::Result<PipeLoop> {
        let mut child = crate::spawn_piped(program, args)?;
        let stdin = child.stdin.take().context("stdin")?;
        let stdout = BufReader::new(child.stdout.take().context("stdout")?);
        let mut pipe = PipeLoop { child, stdin, stdout, prefix, next_id: 1, line: String::new() };
        let initialize = json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": { "name": "plugboard-bench-floor", "version": "0" }
            }
        });
        pipe.send(&initialize.to_string())?;
        pipe.answer()?;
        pipe.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)?;
        Ok(pipe)
    }

    fn send(&mut self, message: &str) -> anyhow::Result<()> {
        // One write per message: the line and its newline in one buffer.
        let mut bytes = Vec::with_capacity(message.len() + 1);
        bytes.extend_from_slice(message.as_bytes());
        bytes.push(b'\n');
        self.stdin.write_all(&bytes)?;
        Ok(())
    }

    fn request(&mut self, tool: Tool) -> anyhow::Result<u64> {
        let id = self.next_id;
        self.next_id += 1;
        let params = json!({ "name": format!("{}{}", self.prefix, tool.name()), "arguments": tool.arguments() });
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params }).to_string())?;
        Ok(id)
    }

    /// Reads lines until an answer (a line with an id); returns the id. The line stays in `self.line`.
    fn answer(&mut self) -> anyhow::Result<u64> {
        loop {
            self.line.clear();
            if self.stdout.read_line(&mut self.line)? == 0 {
                bail!("the server closed its stdout");
            }
            if let Some(id) = leading_id(&self.line) {
                return Ok(id);
            }
        }
    }

    /// Whether the answer in `self.line` carries the tool's right result; a substring check, not a parse.
    fn answered_right(&self, tool: Tool) -> bool {
        match tool {
            Tool::Echo => self.line.contains("\"Echo: benchmark\""),
            Tool::Big => self.line.len() > plugboard_bench::BIG_BYTES && !self.line.contains("\"isError\":true"),
        }
    }
}

impl Side for PipeLoop {
    fn round(&mut self, tool: Tool, calls: usize, concurrency: usize) -> anyhow::Result<Round> {
        let mut started: HashMap<u64, Instant> = HashMap::with_capacity(concurrency);
        let mut latencies: Vec<Duration> = Vec::with_capacity(calls);
        let begun = Instant::now();
        let mut sent = 0;
        while sent < concurrency.min(calls) {
            let at = Instant::now();
            started.insert(self.request(tool)?, at);
            sent += 1;
        }
        while latencies.len() < calls {
            let id = self.answer()?;
            let at = started.remove(&id).with_context(|| format!("an answer to no request: {id}"))?;
            latencies.push(at.elapsed());
            if !self.answered_right(tool) {
                bail!("wrong answer to {}: {:.200}", tool.name(), self.line);
            }
            if sent < calls {
                let at = Instant::now();
                started.insert(self.request(tool)?, at);
                sent += 1;
            }
        }
        Ok(Round::new(begun.elapsed(), &latencies))
    }
}

impl Drop for PipeLoop {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The id of an answer line, read where serde_json and rmcp put it (`{"jsonrpc":"2.0","id":N,…`), or anywhere
/// else as a fallback; `None` for a notification.
fn leading_id(line: &str) -> Option<u64> {
    let at = line.find("\"id\":")? + 5;
    let digits: String = line[at..].chars().skip_while(|c| *c == ' ').take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::leading_id;

    /// The floor finds an answer's id without parsing the line, and sees a notification as none.
    #[test]
    fn finds_the_id_of_an_answer_only() {
        assert_eq!(leading_id(r#"{"jsonrpc":"2.0","id":42,"result":{}}"#), Some(42));
        assert_eq!(leading_id(r#"{"jsonrpc":"2.0","id": 7,"result":{}}"#), Some(7));
        assert_eq!(leading_id(r#"{"jsonrpc":"2.0","method":"notifications/message"}"#), None);
    }
}
