//! `plugboard-bench`: the benchmark suite of issue 17. Plugboard beside what a person would use instead — bare
//! rmcp, the official TypeScript and Python SDK clients — and a no-SDK floor, per call (stdio and Streamable HTTP,
//! one at a time and 8 at once), with a 5 MiB result, cold from a shell, at start-up, and on disk. Every comparison
//! runs its sides interleaved round by round and prints medians with paired ratios; the goals are printed, never
//! enforced: a benchmark must never fail a build. Run it with `make bench` (or one part: `make bench-calls`, …).
#![allow(clippy::print_stdout, reason = "a benchmark's figures are its output")]

mod calls;
mod cold;
mod footprint;
mod home;
mod installed;
mod mini_http;
mod sides;
mod startup;
mod stats;

use std::process::ExitCode;

use calls::{HttpUrls, Wire};
use sides::Programs;
use stats::Summary;

/// The parts, in the order `all` runs them; each can be run alone by name.
const PARTS: [&str; 7] = ["calls-stdio", "calls-http", "big-stdio", "big-http", "cold", "startup", "footprint"];

fn main() -> ExitCode {
    let asked: Vec<String> = std::env::args().skip(1).collect();
    let parts: Vec<&str> = if asked.is_empty() || asked.iter().any(|a| a == "all") {
        PARTS.to_vec()
    } else {
        match asked.iter().find(|a| !PARTS.contains(&a.as_str())) {
            Some(unknown) => {
                println!("unknown part {unknown}: the parts are {}, or all", PARTS.join(", "));
                return ExitCode::from(2);
            }
            None => PARTS.iter().copied().filter(|p| asked.iter().any(|a| a == p)).collect(),
        }
    };
    match run(&parts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            println!("the suite could not run: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn mini_http_url(port: u16) -> String {
    format!("http://127.0.0.1:{port}/mcp")
}

fn run(parts: &[&str]) -> anyhow::Result<()> {
    let programs = Programs::find()?;
    println!("plugboard-bench: {} ({} CPUs), {}", machine(), num_cpus(), today());
    let urls = HttpUrls {
        pinned: mini_http_url(mini_http::start(Some(sides::pinned_cpu()))?),
        unpinned: mini_http_url(mini_http::start(None)?),
    };
    let mut summary = Summary::default();
    for part in parts {
        // A part that cannot run says why; the others still run.
        let done = match *part {
            "calls-stdio" => calls::per_call(&programs, &mut summary, Wire::Stdio, &urls),
            "calls-http" => calls::per_call(&programs, &mut summary, Wire::Http, &urls),
            "big-stdio" => calls::big(&programs, &mut summary, Wire::Stdio, &urls),
            "big-http" => calls::big(&programs, &mut summary, Wire::Http, &urls),
            "cold" => cold::cold(&programs, &mut summary),
            "startup" => startup::startup(&programs, &mut summary),
            _ => {
                footprint::footprint(&programs, &mut summary);
                Ok(())
            }
        };
        if let Err(e) = done {
            println!("\n{part}: could not run: {e:#}");
        }
    }
    summary.print();
    Ok(())
}

fn machine() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("model name")).map(|l| l.split(':').nth(1).unwrap_or("").trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".to_owned())
}

fn num_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn today() -> String {
    std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default()
}
