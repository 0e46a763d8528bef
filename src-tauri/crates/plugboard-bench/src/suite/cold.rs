//! Cold use: a whole process — start, connect, one call, exit — timed from spawn to exit with its peak RSS, for
//! `plugboard call` beside a plain rmcp client binary and the SDK clients doing the same, rounds interleaved. The
//! processes are not pinned: start-up is what a person's shell sees, threads and all; a baseline `plugboard`
//! (`Programs::baseline`) runs in the same rounds when named. It must never reuse a warm process: every
//! measure is a fresh one.

use std::process::Stdio;

use anyhow::{Context, bail};

use crate::args;
use crate::home::Home;
use crate::sides::{Programs, SideSpec};
use crate::stats::{Goal, Summary, median, order};

const BENCHMARK: &str = r#"{"message":"benchmark"}"#;
/// Unpinned whole processes vary more than calls do: medians of ten moved by ±5% between runs of the suite.
const ROUNDS: usize = 30;
const PLUGBOARD_CALL: &str = "plugboard call";
const PLUGBOARD_CALL_HISTORY: &str = "plugboard call, 10,000 history rows";
const PLUGBOARD_CALL_PINS: &str = "plugboard call, 50 servers pinned";
const BASELINE: &str = "plugboard call, baseline binary";
/// A person's history after some use: every cold call opens it.
const HISTORY_ROWS: usize = 10_000;
/// A person with many servers, each used once: every cold call reads all their pins.
const PINNED_SERVERS: usize = 50;
const RMCP_CALL: &str = "rmcp client binary";
const TYPESCRIPT: &str = "TypeScript SDK client (Node 22)";
const PYTHON: &str = "Python SDK client";

/// One side's runs: (wall ms, peak RSS KiB) each.
struct Runs {
    label: String,
    runs: Vec<(f64, f64)>,
    failed: Option<String>,
}

impl Runs {
    fn median_ms(&self) -> f64 {
        median(self.runs.iter().map(|r| r.0).collect())
    }

    fn median_mib(&self) -> f64 {
        median(self.runs.iter().map(|r| r.1 / 1024.0).collect())
    }
}

pub fn cold(programs: &Programs, summary: &mut Summary) -> anyhow::Result<()> {
    let home = Home::with_servers(&programs.plugboard, 1, &programs.testserver, &[]).context("the CLI's config")?;
    let used = Home::with_servers(&programs.plugboard, 1, &programs.testserver, &[])
        .and_then(|h| h.with_history(HISTORY_ROWS))
        .context("the CLI's config with a used history")?;
    let many = Home::with_servers(&programs.plugboard, PINNED_SERVERS, &programs.testserver, &[])
        .and_then(|h| h.with_every_server_pinned(&programs.plugboard))
        .context("the CLI's config with 50 pinned servers")?;
    let server = &programs.testserver;
    let call = args!["call", "bench", "echo", "--args", BENCHMARK];
    let mut specs = vec![
        SideSpec::new(PLUGBOARD_CALL, &programs.plugboard, call.clone(), false),
        SideSpec::new(PLUGBOARD_CALL_HISTORY, &programs.plugboard, call.clone(), false),
        SideSpec::new(
            PLUGBOARD_CALL_PINS,
            &programs.plugboard,
            args!["call", "s0", "echo", "--args", BENCHMARK],
            false,
        ),
        SideSpec::new(RMCP_CALL, &programs.rmcp_call, args![server], false),
    ];
    if let Some(baseline) = &programs.baseline {
        specs.push(SideSpec::new(BASELINE, baseline, call, false));
    }
    if let Some(node) = &programs.node22 {
        specs.push(SideSpec::new(TYPESCRIPT, node, args![programs.node_driver(), "cold", "stdio", "", server], false));
    }
    if let Some(python) = &programs.python {
        specs.push(SideSpec::new(PYTHON, python, args![programs.python_driver(), "cold", "stdio", "", server], false));
    }
    let mut sides: Vec<Runs> =
        specs.iter().map(|s| Runs { label: s.label.clone(), runs: Vec::new(), failed: None }).collect();
    // One unmeasured run each first: the page cache holds every binary and script from then on.
    for round in 0..=ROUNDS {
        for i in order(round, specs.len()) {
            if sides[i].failed.is_some() {
                continue;
            }
            let home = match specs[i].label.as_str() {
                PLUGBOARD_CALL_HISTORY => &used,
                PLUGBOARD_CALL_PINS => &many,
                _ => &home,
            };
            match measure(programs, &specs[i], home) {
                Ok(run) if round > 0 => sides[i].runs.push(run),
                Ok(_) => {}
                Err(e) => sides[i].failed = Some(format!("{e:#}")),
            }
        }
    }
    let title = format!("cold use: start → connect → one echo call → exit (median of {ROUNDS}, unpinned)");
    println!("\n{title}");
    let short = title.split(" (").next().unwrap_or(&title).to_owned();
    println!("  {:<34} {:>10} {:>14} {:>22}", "side", "wall", "peak RSS", "wall ÷ plugboard call");
    let ours = sides.iter().find(|s| s.label == PLUGBOARD_CALL).map(Runs::median_ms);
    for side in &sides {
        if let Some(why) = &side.failed {
            println!("  {:<34} failed: {why}", side.label);
            continue;
        }
        let ratio = ours.map_or_else(|| "–".to_owned(), |o| format!("{:.2}×", side.median_ms() / o));
        let (ms, mib) = (format!("{:.1} ms", side.median_ms()), format!("{:.1} MiB", side.median_mib()));
        println!("  {:<34} {ms:>10} {mib:>14} {ratio:>22}", side.label);
        summary.row(&[short.clone(), side.label.clone(), ms, String::new(), mib, format!("{ratio} of plugboard call")]);
    }
    let of = |label: &str| sides.iter().find(|s| s.label == label && s.failed.is_none()).map(Runs::median_ms);
    let ratio = |a: Option<f64>, b: Option<f64>| a.zip(b).map(|(a, b)| a / b);
    summary.goal(&Goal::at_most(
        "cold: plugboard call ÷ rmcp client binary",
        ratio(of(PLUGBOARD_CALL), of(RMCP_CALL)),
        2.0,
    ));
    summary.goal(&Goal::at_least(
        "cold: TypeScript SDK client ÷ plugboard call",
        ratio(of(TYPESCRIPT), of(PLUGBOARD_CALL)),
        20.0,
    ));
    Ok(())
}

/// One fresh process of `spec` under the driver's `measure`: (wall ms, peak RSS KiB).
fn measure(programs: &Programs, spec: &SideSpec, home: &Home) -> anyhow::Result<(f64, f64)> {
    let mut command = std::process::Command::new(&programs.driver);
    command.arg("measure").arg(&spec.program).args(&spec.args).stderr(Stdio::inherit());
    home.apply(&mut command);
    let output = command.output().context("cannot start the driver")?;
    if !output.status.success() {
        bail!("{} failed", spec.label);
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let mut words = text.split_whitespace().map(str::parse::<f64>);
    match (words.next(), words.next()) {
        (Some(Ok(us)), Some(Ok(kib))) => Ok((us / 1e3, kib)),
        _ => bail!("{}: not a measure: {text}", spec.label),
    }
}
