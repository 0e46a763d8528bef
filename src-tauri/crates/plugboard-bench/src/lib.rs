//! What the suite and its Rust drivers share: the two tools every side calls (the same on every server), how a
//! result is checked, and the line protocol between the suite and a driver process. It must never time anything:
//! each driver times its own calls, the same way in every language.

use std::time::Duration;

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Map, Value, json};

/// The large result: the test server's `big` tool answers this many bytes of text.
pub const BIG_BYTES: usize = 5 * 1024 * 1024;

/// A tool every benchmark server offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// `echo {"message": "benchmark"}` → `Echo: benchmark`.
    Echo,
    /// `big {"bytes": BIG_BYTES}` → that many bytes of text.
    Big,
}

impl Tool {
    pub fn parse(name: &str) -> Option<Tool> {
        match name {
            "echo" => Some(Tool::Echo),
            "big" => Some(Tool::Big),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Tool::Echo => "echo",
            Tool::Big => "big",
        }
    }

    pub fn arguments(self) -> Map<String, Value> {
        let value = match self {
            Tool::Echo => json!({ "message": "benchmark" }),
            Tool::Big => json!({ "bytes": BIG_BYTES }),
        };
        match value {
            Value::Object(map) => map,
            _ => Map::new(),
        }
    }

    /// Whether `text`, the first text block of a result, is this tool's right answer: a side that answered
    /// wrongly must not look fast.
    pub fn is_answer(self, text: &str) -> bool {
        match self {
            Tool::Echo => text == "Echo: benchmark",
            Tool::Big => text.len() == BIG_BYTES,
        }
    }
}

/// Whether `result` is `tool`'s right answer: no error, and its first block the right text.
pub fn is_right(tool: Tool, result: &CallToolResult) -> bool {
    let text = result.content.first().and_then(|block| match block {
        ContentBlock::Text(text) => Some(text.text.as_str()),
        _ => None,
    });
    result.is_error != Some(true) && text.is_some_and(|t| tool.is_answer(t))
}

/// Where an async Rust side's callers run: the driver's `--callers`, which the suite passes.
///
/// Plugboard's long-lived callers are tasks: the window's commands run on Tauri's runtime, the gateway's handlers on
/// its own. `plugboard call`, one call and exit, calls from its `#[tokio::main]` body on the main thread instead,
/// where each call is handed to a runtime worker and back (a thread woken each way).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Callers {
    /// Spawned on the runtime, beside the tasks that do the I/O.
    Tasks,
    /// On the thread that blocks on the runtime, as in a `#[tokio::main]` body.
    Main,
}

impl Callers {
    /// The driver's flag that asks for this placement.
    pub fn flag(self) -> [&'static str; 2] {
        match self {
            Callers::Tasks => ["--callers", "tasks"],
            Callers::Main => ["--callers", "main"],
        }
    }
}

/// One round's timings as a driver reports them, in microseconds.
#[derive(Debug, Clone, Default)]
pub struct Round {
    /// From the first call's start to the last call's answer.
    pub wall_us: f64,
    /// Each call's own latency.
    pub latencies_us: Vec<f64>,
}

impl Round {
    pub fn new(wall: Duration, latencies: &[Duration]) -> Round {
        let us = |d: &Duration| d.as_secs_f64() * 1e6;
        Round { wall_us: us(&wall), latencies_us: latencies.iter().map(us).collect() }
    }

    /// The driver's answer line: `done WALL_US LATENCY_US...`.
    pub fn to_line(&self) -> String {
        let mut line = format!("done {:.1}", self.wall_us);
        for latency in &self.latencies_us {
            line.push_str(&format!(" {latency:.1}"));
        }
        line
    }

    pub fn parse(line: &str) -> Option<Round> {
        let mut words = line.split_whitespace();
        if words.next() != Some("done") {
            return None;
        }
        let wall_us = words.next()?.parse().ok()?;
        let latencies_us = words.map(str::parse).collect::<Result<_, _>>().ok()?;
        Some(Round { wall_us, latencies_us })
    }

    /// Calls per second over the round's wall time.
    pub fn calls_per_second(&self) -> f64 {
        self.latencies_us.len() as f64 / (self.wall_us / 1e6)
    }
}

/// The suite's request for one round: `run TOOL CALLS CONCURRENCY`.
pub fn run_line(tool: Tool, calls: usize, concurrency: usize) -> String {
    format!("run {} {calls} {concurrency}", tool.name())
}

/// Parses [`run_line`]'s request.
pub fn parse_run_line(line: &str) -> Option<(Tool, usize, usize)> {
    let mut words = line.split_whitespace();
    if words.next() != Some("run") {
        return None;
    }
    let tool = Tool::parse(words.next()?)?;
    Some((tool, words.next()?.parse().ok()?, words.next()?.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A round survives the trip through its line, so the suite reads what the driver measured.
    #[test]
    fn round_line_round_trips() {
        let round = Round::new(Duration::from_micros(1500), &[Duration::from_micros(700), Duration::from_micros(800)]);
        let back = Round::parse(&round.to_line()).expect("parses");
        assert_eq!(back.latencies_us, vec![700.0, 800.0]);
        assert!((back.calls_per_second() - 2.0 / 0.0015).abs() < 1e-6);
        assert_eq!(parse_run_line(&run_line(Tool::Big, 10, 2)), Some((Tool::Big, 10, 2)));
        assert_eq!(parse_run_line("run nope 1 1"), None);
    }
}
