//! Start-up and the engine's memory: 1 and 50 stdio servers connecting at once, to all Ready, through the
//! supervisor and through bare rmcp (the machine's own cost of starting that many processes), each run a fresh
//! process, rounds interleaved; then `plugboard serve --stdio` with 50 servers Ready and its RSS. It must never read
//! a start-up figure from a process that had already started servers.

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context, bail};
use serde_json::json;

use crate::args;
use crate::home::Home;
use crate::sides::{Programs, SideSpec};
use crate::stats::{Goal, Summary, median, order};

const ROUNDS: usize = 5;
const FLEET: usize = 50;
/// A realistic start: a server that loads something before it reads stdin.
const SLOW_START_MS: &str = "500";

struct Fleet {
    label: String,
    spec: SideSpec,
    runs: Vec<FleetRun>,
}

/// One fresh fleet process's figures, as the driver's `fleet` prints them.
#[derive(Debug, Clone, Copy)]
struct FleetRun {
    /// The first start after approval (it also pins every server's tools), ms to all Ready.
    first_ms: f64,
    /// Every day's start (tools already pinned), ms to all Ready.
    again_ms: f64,
    /// The process's RSS with every server of the second start up.
    rss_kib: f64,
}

pub fn startup(programs: &Programs, summary: &mut Summary) -> anyhow::Result<()> {
    let home = Home::with_servers(&programs.plugboard, 0, &programs.testserver, &[])?;
    let mut fleets = Vec::new();
    for (kind, who) in [("supervisor", "supervisor"), ("rmcp", "bare rmcp")] {
        for slow in [false, true] {
            for count in [1, FLEET] {
                let start = if slow { format!(", {SLOW_START_MS} ms start") } else { String::new() };
                let label = format!("{who}: {count} at once{start}");
                let mut args = args!["fleet", kind, count.to_string(), &programs.testserver];
                if slow {
                    args.extend(args!["--slow-start", SLOW_START_MS]);
                }
                let spec = SideSpec::new(&label, &programs.driver, args, false);
                fleets.push(Fleet { label, spec, runs: Vec::new() });
            }
        }
    }
    for round in 0..ROUNDS {
        let count = fleets.len();
        for i in order(round, count) {
            let fleet = &mut fleets[i];
            fleet.runs.push(run_fleet(&fleet.spec, &home)?);
        }
    }
    let title = format!("start-up: stdio servers connecting at once, to all Ready (median of {ROUNDS}, unpinned)");
    println!("\n{title}");
    let short = title.split(" (").next().unwrap_or(&title).to_owned();
    println!("  {:<44} {:>12} {:>12} {:>12} {:>14}", "side", "first start", "every day", "slowest day", "process RSS");
    for fleet in &fleets {
        let first = median(fleet.runs.iter().map(|r| r.first_ms).collect());
        let again = median(fleet.runs.iter().map(|r| r.again_ms).collect());
        let slowest = fleet.runs.iter().map(|r| r.again_ms).fold(0.0, f64::max);
        let rss = median(fleet.runs.iter().map(|r| r.rss_kib / 1024.0).collect());
        println!("  {:<44} {first:>9.0} ms {again:>9.0} ms {slowest:>9.0} ms {rss:>10.1} MiB", fleet.label);
        summary.row(&[
            short.clone(),
            fleet.label.clone(),
            format!("{again:.0} ms (first start {first:.0} ms)"),
            format!("slowest {slowest:.0} ms"),
            format!("{rss:.1} MiB"),
            String::new(),
        ]);
    }
    println!("  (first start: just after approval, pinning every server's tools; every day: the start after that)");
    let of = |label: &str| fleets.iter().find(|f| f.label == label).map(|f| f.runs.clone()).unwrap_or_default();
    for (who, slow) in [("supervisor", true), ("bare rmcp", true), ("supervisor", false), ("bare rmcp", false)] {
        let start = if slow { format!(", {SLOW_START_MS} ms start") } else { String::new() };
        let all = median(of(&format!("{who}: {FLEET} at once{start}")).iter().map(|r| r.again_ms).collect());
        let alone = of(&format!("{who}: 1 at once{start}")).iter().map(|r| r.again_ms).fold(0.0, f64::max);
        let text = format!("start-up{start}: {who} {FLEET} at once (median) ÷ the slowest one alone");
        if slow {
            summary.goal(&Goal::at_most(&text, Some(all / alone), 1.3));
        } else {
            // The goal is for servers with a realistic start: beside one that is ready in 2–4 ms, this ratio
            // is the machine's spawn rate, not Plugboard's overhead.
            println!("  {text}: {:.2}× (no goal: servers that start at once)", all / alone);
        }
    }
    gateway_memory(programs, summary)
}

/// One fresh fleet process: its two starts and its RSS.
fn run_fleet(spec: &SideSpec, home: &Home) -> anyhow::Result<FleetRun> {
    let output = spec.command(home).stderr(Stdio::inherit()).output().context("cannot start the driver")?;
    let text = String::from_utf8_lossy(&output.stdout);
    let words: Vec<f64> = text.split_whitespace().filter_map(|w| w.parse().ok()).collect();
    match (output.status.success(), words.as_slice()) {
        (true, &[first_ms, again_ms, rss_kib]) => Ok(FleetRun { first_ms, again_ms, rss_kib }),
        _ => bail!("{} failed: {text}", spec.label),
    }
}

/// `plugboard serve --stdio` with `FLEET` servers: the RSS of the gateway process once its first tool list (which
/// waits for the servers to settle) names every server's tools.
fn gateway_memory(programs: &Programs, summary: &mut Summary) -> anyhow::Result<()> {
    let home = Home::with_servers(&programs.plugboard, FLEET, &programs.testserver, &[])?;
    let mut command = std::process::Command::new(&programs.plugboard);
    command.args(["serve", "--stdio", "--first-list-wait-ms", "60000"]);
    home.apply(&mut command);
    let mut child = command.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().context("serve --stdio")?;
    let mut stdin = child.stdin.take().context("stdin")?;
    let mut stdout = BufReader::new(child.stdout.take().context("stdout")?);
    let mut ask = |id: u64, method: &str, params: serde_json::Value| -> anyhow::Result<String> {
        writeln!(stdin, "{}", json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))?;
        loop {
            let mut line = String::new();
            if stdout.read_line(&mut line)? == 0 {
                bail!("serve --stdio exited");
            }
            if line.contains(&format!("\"id\":{id}")) {
                return Ok(line);
            }
        }
    };
    let client = json!({ "name": "plugboard-bench", "version": "0" });
    ask(1, "initialize", json!({ "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": client }))?;
    let tools = ask(2, "tools/list", json!({}))?;
    let servers = (0..FLEET).filter(|i| tools.contains(&format!("\"mcp__s{i}__echo\""))).count();
    // The list is answered before every row of the catalog's bookkeeping settles; a moment more for the RSS.
    std::thread::sleep(Duration::from_millis(500));
    let rss = std::fs::read_to_string(format!("/proc/{}/status", child.id()))?
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse::<f64>().ok()))
        .context("no VmRSS")?;
    let _ = child.kill();
    let _ = child.wait();
    let title = format!("memory: plugboard serve --stdio with {FLEET} servers");
    println!("\n{title}\n  {servers} of {FLEET} servers' tools listed; gateway process RSS {:.1} MiB", rss / 1024.0);
    let label = format!("{servers} of {FLEET} Ready");
    summary.row(&[title, label, String::new(), String::new(), format!("{:.1} MiB", rss / 1024.0), String::new()]);
    Ok(())
}
