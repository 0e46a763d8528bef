//! Benchmark of the console's call history with 10,000 rows: a search page and deep paging printed side by side
//! with the baseline, a plain unfiltered first page, plus the cost of recording one call (insert and prune).
//! Run with `cargo bench -p plugboard-core --bench history` (a few seconds; `make bench` runs it too).
#![allow(clippy::print_stdout, clippy::expect_used, clippy::unwrap_used)]

use std::time::{Duration, Instant};

use plugboard_core::console::{CallOutcome, History, NewCall};

const ROWS: u32 = 10_000;
const ITERATIONS: usize = 200;
const PAGE: u32 = 100;

fn call(i: u32) -> NewCall {
    let server = ["github", "files", "everything", "postgres"][i as usize % 4];
    NewCall {
        server: server.into(),
        tool: format!("tool_{}", i % 37),
        arguments: format!(r#"{{"query":"item {i} of the benchmark","path":"/srv/data/{}.json","limit":50}}"#, i % 101),
        started_at_ms: 1_700_000_000_000.0 + f64::from(i),
        duration_ms: i % 900,
        outcome: CallOutcome::Result {
            is_error: false,
            result: format!(r#"{{"content":[{{"text":"{i}"}}]}}"#),
            truncated: false,
        },
        origin: i.is_multiple_of(3).then(|| "claude-ai".to_owned()),
    }
}

/// The median of `ITERATIONS` runs of `op`.
fn median(mut op: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..ITERATIONS)
        .map(|_| {
            let start = Instant::now();
            op();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn row(name: &str, measured: Duration, baseline: Duration) {
    let ratio = measured.as_secs_f64() / baseline.as_secs_f64();
    println!("{name:<44} {:>9.1} µs  vs baseline {:>7.1} µs  = {ratio:.2}", micros(measured), micros(baseline));
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let history = History::open(&dir.path().join("history.sqlite3")).unwrap();
    let filled = Instant::now();
    for i in 0..ROWS {
        history.record(call(i)).unwrap();
    }
    println!(
        "history benchmark: {ROWS} rows (filled in {:.2} s), median of {ITERATIONS} runs, pages of {PAGE}",
        filled.elapsed().as_secs_f64()
    );
    let baseline = median(|| assert_eq!(history.page("", None, PAGE).unwrap().entries.len(), PAGE as usize));
    println!("{:<44} {:>9.1} µs", "baseline: first page, no query", micros(baseline));
    let server = median(|| assert!(history.page("GitHub", None, PAGE).unwrap().total > 0));
    row("search \"GitHub\" (1 row in 4 matches)", server, baseline);
    let rare = median(|| assert_eq!(history.page("item 4242 of", None, PAGE).unwrap().total, 1));
    row("search \"item 4242 of\" (1 match: full scan)", rare, baseline);
    let none = median(|| assert_eq!(history.page("no such text", None, PAGE).unwrap().total, 0));
    row("search with no match", none, baseline);
    let deep = median(|| assert_eq!(history.page("", Some(200), PAGE).unwrap().entries.len(), PAGE as usize));
    row("deep page (before id 200), no query", deep, baseline);
    let mut next = ROWS;
    let record = median(|| {
        history.record(call(next)).unwrap();
        next += 1;
    });
    row("record one call (insert + prune)", record, baseline);
}
