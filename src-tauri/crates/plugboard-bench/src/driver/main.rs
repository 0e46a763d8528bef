//! `plugboard-bench-driver`: the Rust sides of the benchmark suite, each in a process of its own so the suite can
//! pin it with its server to one core and drive it beside the TypeScript and Python SDK clients
//! (tests/bench/driver.mjs, driver.py) by the same line protocol. It is a benchmark tool: it must never be shipped
//! or started by Plugboard itself.
#![allow(clippy::print_stdout, reason = "stdout is the driver's answer channel to the suite")]

mod clients;
mod fleet;
mod floor_http;
mod floor_stdio;
mod measure;
mod relay;

use std::io::{BufRead, Write};
use std::path::PathBuf;

use anyhow::Context;
use clap::Parser;
use plugboard_bench::{Callers, Round, Tool, parse_run_line};

/// One side of a benchmark comparison.
#[derive(Debug, Parser)]
enum Cli {
    /// Connect to one server, print `ready`, then answer `run TOOL CALLS CONCURRENCY` lines from stdin.
    Loop {
        /// Where an async side's callers run (the floors have one blocking loop either way).
        #[arg(long, value_enum, default_value = "tasks")]
        callers: Callers,
        kind: Kind,
        wire: Wire,
        /// Put before every tool name (`mcp__bench__` through the gateway).
        prefix: String,
        /// The server: a command and its arguments (stdio), or a URL (http).
        #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
        target: Vec<String>,
    },
    /// Start COUNT servers at once, twice, and print the milliseconds until every one answered its tool list the
    /// first and the second time, and this process's RSS (KiB) then.
    Fleet {
        kind: FleetKind,
        count: usize,
        #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
        command: Vec<String>,
    },
    /// Run a stdio server behind a process that only copies bytes between it and this process's stdio.
    Relay {
        #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
        command: Vec<String>,
    },
    /// Run a command to its end; print its wall time (µs) and its peak RSS (KiB).
    Measure {
        #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
        command: Vec<String>,
    },
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Kind {
    /// No SDK: a blocking pipe loop (stdio) or a keep-alive HTTP/1.1 loop.
    Floor,
    /// rmcp's client as it comes.
    Rmcp,
    /// Plugboard's supervisor (the engine every front end calls through).
    Supervisor,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Wire {
    Stdio,
    Http,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum FleetKind {
    Rmcp,
    Supervisor,
}

/// A connected side that can run rounds.
trait Side {
    fn round(&mut self, tool: Tool, calls: usize, concurrency: usize) -> anyhow::Result<Round>;
}

fn main() -> anyhow::Result<()> {
    match Cli::parse() {
        Cli::Loop { callers, kind, wire, prefix, target } => {
            serve_rounds(connect(kind, wire, prefix, &target, callers)?.as_mut())
        }
        Cli::Fleet { kind, count, command } => {
            let (program, args) = split(&command);
            let (first, again, rss_kib) = fleet::start(kind, count, &program, args)?;
            println!("{} {} {rss_kib}", first.as_secs_f64() * 1e3, again.as_secs_f64() * 1e3);
            Ok(())
        }
        Cli::Relay { command } => {
            let (program, args) = split(&command);
            relay::run(&program, args)
        }
        Cli::Measure { command } => {
            let (program, args) = split(&command);
            let (took, peak_kib) = measure::run(&program, args)?;
            println!("{} {peak_kib}", took.as_secs_f64() * 1e6);
            Ok(())
        }
    }
}

fn split(command: &[String]) -> (PathBuf, &[String]) {
    (PathBuf::from(&command[0]), &command[1..])
}

/// Starts `program args` with its stdin and stdout piped to this process (its stderr passes through).
fn spawn_piped(program: &std::path::Path, args: &[String]) -> anyhow::Result<std::process::Child> {
    std::process::Command::new(program)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot start {}", program.display()))
}

fn connect(
    kind: Kind,
    wire: Wire,
    prefix: String,
    target: &[String],
    callers: Callers,
) -> anyhow::Result<Box<dyn Side>> {
    let (program, args) = split(target);
    Ok(match (kind, wire) {
        (Kind::Floor, Wire::Stdio) => Box::new(floor_stdio::PipeLoop::start(&program, args, prefix)?),
        (Kind::Floor, Wire::Http) => Box::new(floor_http::KeepAlive::start(&target[0], prefix)?),
        (Kind::Rmcp, Wire::Stdio) => {
            Box::new(clients::Async::rmcp_stdio(&program, args, prefix)?.with_callers(callers))
        }
        (Kind::Rmcp, Wire::Http) => Box::new(clients::Async::rmcp_http(&target[0], prefix)?.with_callers(callers)),
        (Kind::Supervisor, Wire::Stdio) => {
            Box::new(clients::Async::supervisor_stdio(&program, args)?.with_callers(callers))
        }
        (Kind::Supervisor, Wire::Http) => Box::new(clients::Async::supervisor_http(&target[0])?.with_callers(callers)),
    })
}

/// Checks the side with one call, says `ready`, then runs each requested round until stdin closes.
fn serve_rounds(side: &mut dyn Side) -> anyhow::Result<()> {
    side.round(Tool::Echo, 1, 1).context("the first call")?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "ready")?;
    out.flush()?;
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let (tool, calls, concurrency) = parse_run_line(&line).with_context(|| format!("not a round: {line}"))?;
        let round = side.round(tool, calls, concurrency)?;
        writeln!(out, "{}", round.to_line())?;
        out.flush()?;
    }
    Ok(())
}
