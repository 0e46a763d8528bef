//! Per call and large result: every side against one identical server (stdio: `plugboard-testserver`, one process
//! per side; Streamable HTTP: the suite's minimal server, shared), rounds interleaved in an order shuffled each round, then
//! the table with paired ratios and the goals. Every side runs pinned with its server to one CPU, over
//! HTTP as over stdio; the one-call-at-a-time comparisons also run unpinned, printed beside them with no goal. It
//! must never compare sides across runs: every ratio is of rounds of one run.

use anyhow::Context;
use plugboard_bench::{Callers, Tool};

use crate::args;
use crate::home::Home;
use crate::sides::{Driver, Programs, SideSpec, pinned_cpu};
use crate::stats::{Figure, Goal, Series, Summary, order, paired};

pub const FLOOR_STDIO: &str = "no-SDK floor (blocking pipe loop)";
pub const FLOOR_HTTP: &str = "no-SDK floor (keep-alive HTTP loop)";
pub const RMCP: &str = "bare rmcp";
/// The floor of any gateway's hop: bare rmcp through a process that only copies bytes.
pub const RMCP_RELAYED: &str = "bare rmcp through a byte relay (the hop's floor)";
pub const SUPERVISOR: &str = "Plugboard supervisor";
pub const GATEWAY: &str = "Plugboard gateway (rmcp client → serve --stdio)";
/// rmcp's client asks for progress on every call, the TypeScript SDK's only when told to: the two rows show the hop
/// with and without a progress token on every call.
const GATEWAY_BASELINE: &str = "Plugboard gateway, baseline binary (rmcp client)";
pub const GATEWAY_TS: &str = "Plugboard gateway (TypeScript SDK → serve --stdio)";
/// The same clients with their callers on the main thread, as a `#[tokio::main]` body calls (the rows above call
/// from tasks of their runtime, as Plugboard's window and gateway do): each call is handed to a runtime worker and
/// back.
pub const RMCP_MAIN: &str = "bare rmcp, caller on the main thread";
pub const SUPERVISOR_MAIN: &str = "Plugboard supervisor, caller on the main thread";
pub const GATEWAY_MAIN: &str = "Plugboard gateway, rmcp caller on the main thread";
pub const TYPESCRIPT: &str = "TypeScript SDK (Node 22)";
pub const PYTHON: &str = "Python SDK";

const ROUNDS: usize = 10;

/// How many calls a comparison makes of which tool, how many at once.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    pub tool: Tool,
    pub calls: usize,
    pub concurrency: usize,
    pub rounds: usize,
    pub warm_up: usize,
}

/// Calls each side makes before its rounds count: a long-running client is measured as it runs all day. Node's JIT
/// needs about 4,000 echo calls to settle (2026-12-04, pinned: p50 72 µs over the first thousand, 49 µs from the
/// fifth on); with 200, the TypeScript SDK's rows were its warm-up.
const WARM_UP_CALLS: usize = 6_000;

const SEQUENTIAL: Plan = Plan { tool: Tool::Echo, calls: 200, concurrency: 1, rounds: ROUNDS, warm_up: WARM_UP_CALLS };
const CONCURRENT: Plan = Plan { tool: Tool::Echo, calls: 400, concurrency: 8, rounds: ROUNDS, warm_up: WARM_UP_CALLS };
const BIG: Plan = Plan { tool: Tool::Big, calls: 2, concurrency: 1, rounds: ROUNDS, warm_up: 10 };

/// The suite's two minimal HTTP servers: one whose threads share the pinned sides' CPU, one left to the scheduler.
///
/// Unpinned, on this suite's 2-vCPU VMs, a round trip's time is mostly where the scheduler put the two ends: the
/// floor's one blocking thread is woken on its server's CPU (16 µs), while an async client's runtime threads wake
/// each other across CPUs, each wake-up of an idle vCPU 20–30 µs (2026-12-04: a hyper client 33 µs pinned, 63–67 µs
/// unpinned, the same blocking floor 16 and 60–78 µs with its server thread in the same process). So the goals are
/// read pinned, as stdio's are; the unpinned run shows what the scheduler adds.
pub struct HttpUrls {
    pub pinned: String,
    pub unpinned: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    Stdio,
    Http,
}

/// The sides of one wire, each `pinned` to one CPU with its server or not. Over HTTP the gateway is no side: the
/// issue's gateway row is `serve --stdio`.
fn sides(programs: &Programs, wire: Wire, url: &str, pinned: bool) -> Vec<SideSpec> {
    let driver = &programs.driver;
    let server = &programs.testserver;
    let mut specs = match wire {
        Wire::Stdio => vec![
            SideSpec::new(FLOOR_STDIO, driver, args!["loop", "floor", "stdio", "", server], pinned),
            SideSpec::new(RMCP, driver, args!["loop", "rmcp", "stdio", "", server], pinned),
            SideSpec::new(RMCP_RELAYED, driver, args!["loop", "rmcp", "stdio", "", driver, "relay", server], pinned),
            SideSpec::new(SUPERVISOR, driver, args!["loop", "supervisor", "stdio", "", server], pinned),
            SideSpec::new(
                GATEWAY,
                driver,
                args!["loop", "rmcp", "stdio", "mcp__bench__", &programs.plugboard, "serve", "--stdio"],
                pinned,
            ),
        ],
        Wire::Http => vec![
            SideSpec::new(FLOOR_HTTP, driver, args!["loop", "floor", "http", "", url], pinned),
            SideSpec::new(RMCP, driver, args!["loop", "rmcp", "http", "", url], pinned),
            SideSpec::new(SUPERVISOR, driver, args!["loop", "supervisor", "http", "", url], pinned),
        ],
    };
    if let (Wire::Stdio, Some(baseline)) = (wire, &programs.baseline) {
        let gateway = args!["loop", "rmcp", "stdio", "mcp__bench__", baseline, "serve", "--stdio"];
        specs.push(SideSpec::new(GATEWAY_BASELINE, driver, gateway, pinned));
    }
    let (wire_arg, target) = match wire {
        Wire::Stdio => ("stdio", server.as_os_str().to_owned()),
        Wire::Http => ("http", url.into()),
    };
    if let Some(node) = &programs.node22 {
        let script = programs.node_driver();
        specs.push(SideSpec::new(TYPESCRIPT, node, args![&script, "loop", wire_arg, "", &target], pinned));
        if wire == Wire::Stdio {
            let gateway = args![script, "loop", "stdio", "mcp__bench__", &programs.plugboard, "serve", "--stdio"];
            specs.push(SideSpec::new(GATEWAY_TS, node, gateway, pinned));
        }
    } else {
        println!("  ({TYPESCRIPT} skipped: no Node >= 22; `make deps-tests` installs it under .tools/node22)");
    }
    if let Some(python) = &programs.python {
        let script = programs.python_driver();
        specs.push(SideSpec::new(PYTHON, python, args![script, "loop", wire_arg, "", &target], pinned));
    } else {
        println!("  ({PYTHON} skipped: no .tools/py; `make deps-tests` installs the `mcp` package there)");
    }
    specs
}

/// The Rust sides of `sides` whose callers can run elsewhere, again with their callers on the main thread (see
/// [`RMCP_MAIN`]): the same arguments with the driver's `--callers main` first.
fn main_thread_sides(sides: &[SideSpec]) -> Vec<SideSpec> {
    [(RMCP, RMCP_MAIN), (SUPERVISOR, SUPERVISOR_MAIN), (GATEWAY, GATEWAY_MAIN)]
        .into_iter()
        .filter_map(|(from_tasks, on_main)| {
            let side = sides.iter().find(|side| side.label == from_tasks)?;
            let (verb, rest) = side.args.split_first()?;
            let mut args = vec![verb.clone()];
            args.extend(Callers::Main.flag().map(std::ffi::OsString::from));
            args.extend_from_slice(rest);
            Some(SideSpec { label: on_main.to_owned(), args, ..side.clone() })
        })
        .collect()
}

/// A side once started: running, or why not.
struct Slot {
    label: String,
    driver: Result<Driver, String>,
}

fn start(specs: &[SideSpec], home: &Home) -> Vec<Slot> {
    specs
        .iter()
        .map(|spec| Slot { label: spec.label.clone(), driver: Driver::start(spec, home).map_err(|e| format!("{e:#}")) })
        .collect()
}

/// Warms every side up, then runs `plan.rounds` rounds, each side once per round, in [`order`].
fn run(slots: &mut [Slot], plan: Plan) -> Vec<Series> {
    let mut series: Vec<Series> = slots
        .iter()
        .map(|slot| Series {
            label: slot.label.clone(),
            failed: slot.driver.as_ref().err().cloned(),
            ..Series::default()
        })
        .collect();
    let step = |slot: &mut Slot, series: &mut Series, calls: usize, keep: bool| {
        let Ok(driver) = &mut slot.driver else { return };
        match driver.round(plan.tool, calls, plan.concurrency) {
            Ok(round) if keep => series.rounds.push(round),
            Ok(_) => {}
            Err(e) => {
                series.failed = Some(format!("{e:#}"));
                slot.driver = Err(format!("{e:#}"));
            }
        }
    };
    for (slot, series) in slots.iter_mut().zip(&mut series) {
        step(slot, series, plan.warm_up, false);
    }
    let count = slots.len();
    for round in 0..plan.rounds {
        for i in order(round, count) {
            step(&mut slots[i], &mut series[i], plan.calls, true);
        }
    }
    series
}

/// A latency in the unit that reads best.
pub fn time(us: f64) -> String {
    if us < 1_000.0 {
        format!("{us:.0} µs")
    } else if us < 100_000.0 {
        format!("{:.2} ms", us / 1e3)
    } else {
        format!("{:.0} ms", us / 1e3)
    }
}

fn ratio(value: Option<f64>) -> String {
    value.map_or_else(|| "–".to_owned(), |r| format!("{r:.2}×"))
}

/// Prints the table, each side's ratios paired with `reference`'s, and adds its rows to the summary.
fn table(summary: &mut Summary, title: &str, series: &[Series], reference: &str) {
    println!("\n{title}");
    let short = title.split(" (").next().unwrap_or(title).to_owned();
    println!(
        "  {:<50} {:>10} {:>10} {:>10}  {:>14} {:>16}",
        "side", "p50", "p99", "calls/s", "p50 ÷ ref", "calls/s ÷ ref"
    );
    let Some(base) = series.iter().find(|s| s.label == reference) else { return };
    for s in series {
        if let Some(why) = &s.failed {
            println!("  {:<50} failed: {why}", s.label);
            summary.row(&[
                short.clone(),
                s.label.clone(),
                format!("failed: {why}"),
                String::new(),
                String::new(),
                String::new(),
            ]);
            continue;
        }
        let (p50, p99, rate) = (time(s.p50()), time(s.p99()), format!("{:.0}", s.calls_per_second()));
        let by_p50 = ratio(paired(s, base, Figure::P50));
        let by_rate = ratio(paired(s, base, Figure::Throughput));
        println!("  {:<50} {p50:>10} {p99:>10} {rate:>10}  {by_p50:>14} {by_rate:>16}", s.label);
        summary.row(&[short.clone(), s.label.clone(), p50, p99, rate, format!("{by_p50} p50 of {reference}")]);
    }
    println!("  (ref = {reference}; a ratio is the median over rounds of the two sides' figures in the same round)");
}

fn find<'a>(series: &'a [Series], label: &str) -> Option<&'a Series> {
    series.iter().find(|s| s.label == label)
}

/// The p50 ratio of side `a` over side `b`, paired by round.
fn p50_ratio(series: &[Series], a: &str, b: &str) -> Option<f64> {
    paired(find(series, a)?, find(series, b)?, Figure::P50)
}

/// Per call over `wire`: one call at a time, then 8 at once, with the goals.
pub fn per_call(programs: &Programs, summary: &mut Summary, wire: Wire, urls: &HttpUrls) -> anyhow::Result<()> {
    let home = Home::with_servers(&programs.plugboard, 1, &programs.testserver, &[]).context("the gateway's config")?;
    let mut specs = sides(programs, wire, &urls.pinned, true);
    // One call at a time only: the main-thread shape is the cost of a hand-off per call, and 8 callers on one
    // thread would measure join_all's polling instead.
    let concurrent_sides = specs.len();
    specs.extend(main_thread_sides(&specs));
    let mut slots = start(&specs, &home);
    let name = match wire {
        Wire::Stdio => "stdio",
        Wire::Http => "Streamable HTTP",
    };
    let pinning = format!(", each side and its server pinned to CPU {}", pinned_cpu());
    let sequential = run(&mut slots, SEQUENTIAL);
    let title =
        format!("{name} echo, one call at a time ({ROUNDS} rounds × {} calls a side{pinning})", SEQUENTIAL.calls);
    table(summary, &title, &sequential, SUPERVISOR);
    println!(
        "  (the Rust sides call from tasks of their runtime, as Plugboard's window and gateway do; \"on the main thread\": from a `#[tokio::main]` body)"
    );
    goals(summary, wire, &sequential, Callers::Tasks);
    goals(summary, wire, &sequential, Callers::Main);
    slots.truncate(concurrent_sides);
    let concurrent = run(&mut slots, CONCURRENT);
    let title = format!("{name} echo, 8 calls at once ({ROUNDS} rounds × {} calls a side{pinning})", CONCURRENT.calls);
    table(summary, &title, &concurrent, SUPERVISOR);
    drop(slots);
    unpinned(programs, summary, wire, &urls.unpinned, &home);
    Ok(())
}

/// The per-call goals over `wire`, read from the Rust sides whose callers run as `callers` say.
fn goals(summary: &mut Summary, wire: Wire, sequential: &[Series], callers: Callers) {
    let (rmcp, supervisor, gateway, shape) = match callers {
        Callers::Tasks => (RMCP, SUPERVISOR, GATEWAY, ""),
        Callers::Main => (RMCP_MAIN, SUPERVISOR_MAIN, GATEWAY_MAIN, " (callers on the main thread)"),
    };
    let ratio = |a: &str, b: &str| p50_ratio(sequential, a, b);
    match wire {
        Wire::Stdio => {
            summary.goal(&Goal::at_most(
                &format!("stdio p50: supervisor ÷ bare rmcp{shape}"),
                ratio(supervisor, rmcp),
                1.2,
            ));
            summary.goal(&Goal::at_least(
                &format!("stdio p50: TypeScript SDK ÷ supervisor{shape}"),
                ratio(TYPESCRIPT, supervisor),
                1.5,
            ));
            summary.goal(&Goal::at_most(
                &format!("gateway hop p50, rmcp client: through serve --stdio ÷ direct{shape}"),
                ratio(gateway, rmcp),
                1.5,
            ));
            if callers == Callers::Tasks {
                summary.goal(&Goal::at_most(
                    "gateway hop p50, TypeScript SDK: through serve --stdio ÷ direct",
                    ratio(GATEWAY_TS, TYPESCRIPT),
                    1.5,
                ));
                // Not a goal of the issue: what the hop's goal is measured against.
                if let Some(floor) = ratio(RMCP_RELAYED, RMCP) {
                    println!(
                        "  the hop's floor: bare rmcp through a byte relay ÷ direct: {floor:.2}× (no MCP work at all)"
                    );
                }
            }
        }
        Wire::Http => {
            summary.goal(&Goal::at_most(
                &format!("HTTP p50: supervisor ÷ no-SDK floor{shape}"),
                ratio(supervisor, FLOOR_HTTP),
                3.0,
            ));
            summary.goal(&Goal::at_least(
                &format!("HTTP p50: TypeScript SDK ÷ supervisor{shape}"),
                ratio(TYPESCRIPT, supervisor),
                5.0,
            ));
        }
    }
}

/// HTTP one call at a time with every side and the server left to the scheduler: no goal (see [`HttpUrls`]).
fn unpinned(programs: &Programs, summary: &mut Summary, wire: Wire, url: &str, home: &Home) {
    let mut slots = start(&sides(programs, wire, url, false), home);
    let sequential = run(&mut slots, SEQUENTIAL);
    let name = match wire {
        Wire::Stdio => "stdio",
        Wire::Http => "Streamable HTTP",
    };
    let title = format!(
        "{name} echo, one call at a time, unpinned ({ROUNDS} rounds × {} calls a side; no goal)",
        SEQUENTIAL.calls
    );
    table(summary, &title, &sequential, SUPERVISOR);
    let ratio_of = |a: &str, b: &str| ratio(p50_ratio(&sequential, a, b));
    match wire {
        Wire::Stdio => println!(
            "  unpinned: supervisor ÷ bare rmcp {}, TypeScript SDK ÷ supervisor {}, gateway hop (rmcp client) {}, gateway hop (TypeScript SDK) {}",
            ratio_of(SUPERVISOR, RMCP),
            ratio_of(TYPESCRIPT, SUPERVISOR),
            ratio_of(GATEWAY, RMCP),
            ratio_of(GATEWAY_TS, TYPESCRIPT),
        ),
        Wire::Http => println!(
            "  unpinned: supervisor ÷ no-SDK floor {}, TypeScript SDK ÷ supervisor {}",
            ratio_of(SUPERVISOR, FLOOR_HTTP),
            ratio_of(TYPESCRIPT, SUPERVISOR)
        ),
    }
}

/// A 5 MiB tool result through every side of `wire`.
pub fn big(programs: &Programs, summary: &mut Summary, wire: Wire, urls: &HttpUrls) -> anyhow::Result<()> {
    let home = Home::with_servers(&programs.plugboard, 1, &programs.testserver, &[]).context("the gateway's config")?;
    let mut slots = start(&sides(programs, wire, &urls.pinned, true), &home);
    let series = run(&mut slots, BIG);
    let name = if wire == Wire::Stdio { "stdio" } else { "Streamable HTTP" };
    let title = format!(
        "{name} 5 MiB result ({ROUNDS} rounds × {} calls a side, each side and its server pinned to CPU {})",
        BIG.calls,
        pinned_cpu()
    );
    table(summary, &title, &series, SUPERVISOR);
    if wire == Wire::Stdio {
        summary.goal(&Goal::at_most(
            "5 MiB result p50: supervisor ÷ bare rmcp",
            p50_ratio(&series, SUPERVISOR, RMCP),
            1.2,
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::ffi::OsString;
    use std::path::Path;

    use super::*;

    /// A main-thread side is its tasks side with `--callers main` after the verb, nothing else changed; a side
    /// whose callers cannot move (a floor, another SDK) gets none.
    #[test]
    fn main_thread_sides_are_the_rust_sides_with_callers_on_main() {
        let driver = Path::new("/bench/driver");
        let specs = vec![
            SideSpec::new(FLOOR_STDIO, driver, args!["loop", "floor", "stdio", "", "server"], true),
            SideSpec::new(RMCP, driver, args!["loop", "rmcp", "stdio", "", "server"], true),
            SideSpec::new(SUPERVISOR, driver, args!["loop", "supervisor", "stdio", "", "server"], true),
        ];
        let on_main = main_thread_sides(&specs);
        let labels: Vec<&str> = on_main.iter().map(|side| side.label.as_str()).collect();
        assert_eq!(labels, [RMCP_MAIN, SUPERVISOR_MAIN]);
        let expected: Vec<OsString> = args!["loop", "--callers", "main", "rmcp", "stdio", "", "server"];
        assert_eq!(on_main[0].args, expected);
        assert_eq!((on_main[0].program.as_path(), on_main[0].pinned), (driver, true));
    }
}
