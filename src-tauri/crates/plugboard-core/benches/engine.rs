//! Benchmarks of the connection engine, each printed side by side with its baseline from the same run and the same
//! server binary: per-call latency through the supervisor vs a bare rmcp client (stdio, over the reference
//! server-everything and over Plugboard's own Rust test server), a 5 MiB tool result, Streamable HTTP vs rmcp's
//! default client (over server-everything and over a minimal server that makes client costs visible), and 50 stdio
//! servers connecting at once vs the slowest single start, with the engine's RSS.
//! Rounds of the two sides alternate, so load from other work on the machine hits both alike.
//! Run with `make bench` (it builds `plugboard-testserver` in release first; needs `make deps` for node_modules).
#![allow(clippy::print_stdout, clippy::expect_used, clippy::unwrap_used)]

#[path = "engine/mini_http.rs"]
mod mini_http;

use std::future::Future;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use plugboard_core::config::model::{HttpMode, HttpSpec, ServerConfig, ServerName, StdioSpec, Transport};
use plugboard_core::secrets::{MemoryStore, Vault};
use plugboard_core::supervisor::{LiveConnector, Supervisor};
use plugboard_core::trust::{Approvals, Decision, LaunchDefinition};
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation, ProtocolVersion};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};

/// Per-call latency: rounds of `PER_ROUND` calls, alternating sides, after `WARM_UP` calls per side.
const ROUNDS: usize = 6;
const PER_ROUND: usize = 100;
const WARM_UP: usize = 300;
/// The large result: rounds of one call each.
const BIG_BYTES: usize = 5 * 1024 * 1024;
const BIG_ROUNDS: usize = 15;
const FLEET: usize = 50;
/// Single starts measured one after the other; the slowest is the fleet's baseline.
const SINGLE_STARTS: usize = 3;

type Bare = RunningService<RoleClient, ClientConfig>;

fn everything() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../tests/node_modules/.bin/mcp-server-everything")
}

/// `plugboard-testserver` from the same release target dir as this bench (`target/release/deps/engine-…`).
fn testserver() -> PathBuf {
    let exe = std::env::current_exe().expect("bench path");
    exe.parent().and_then(|deps| deps.parent()).expect("target/release").join("plugboard-testserver")
}

fn echo_args() -> rmcp::model::JsonObject {
    serde_json::json!({ "message": "benchmark" }).as_object().cloned().unwrap()
}

fn big_args() -> rmcp::model::JsonObject {
    serde_json::json!({ "bytes": BIG_BYTES }).as_object().cloned().unwrap()
}

fn stdio_config(name: &str, program: &Path, args: &[&str]) -> ServerConfig {
    let spec = StdioSpec {
        command: program.display().to_string(),
        args: args.iter().map(|a| (*a).to_owned()).collect(),
        env: Default::default(),
        cwd: None,
    };
    ServerConfig::new(ServerName::parse(name).unwrap(), Transport::Stdio(spec))
}

fn http_config(name: &str, url: &str) -> ServerConfig {
    let spec = HttpSpec { url: url.to_owned(), headers: Default::default(), mode: HttpMode::StreamableHttp };
    ServerConfig::new(ServerName::parse(name).unwrap(), Transport::Http(spec))
}

/// A supervisor over a memory vault that runs what `approvals` holds approved.
fn supervisor(approvals: Approvals) -> Supervisor {
    let vault = Arc::new(Vault::with_store(Arc::new(MemoryStore::default())));
    Supervisor::new(Arc::new(LiveConnector::new(vault, approvals)))
}

/// Approvals of `configs`, in a file of the bench's own, as the person would give them.
fn approved(configs: &[ServerConfig]) -> Approvals {
    let dir = tempfile::tempdir().expect("temp dir");
    let approvals = Approvals::at(dir.keep().join("trust.json"));
    for config in configs {
        approvals.record(&LaunchDefinition::of(config), Decision::Approved).expect("approve");
    }
    approvals
}

async fn ready_supervisor(config: ServerConfig) -> Supervisor {
    let name = config.name.to_string();
    let sup = supervisor(approved(std::slice::from_ref(&config)));
    sup.reconcile(vec![config]).await;
    let status = sup.settled(&name, Duration::from_secs(60)).await.expect("settled");
    assert_eq!(status.label(), "ready", "{name}: {status:?}");
    sup
}

fn bare_client_info() -> ClientConfig {
    ClientConfig::new(ClientCapabilities::default(), Implementation::new("bench", "0"))
        .with_protocol_version(ProtocolVersion::V_2025_11_25)
}

async fn bare_stdio(program: &Path, args: &[&str]) -> Bare {
    let mut command = tokio::process::Command::new(program);
    command.args(args);
    bare_client_info().serve(TokioChildProcess::new(command).unwrap()).await.expect("bare stdio client")
}

/// p50 and p99 of `samples`, in microseconds.
fn percentiles(mut samples: Vec<Duration>) -> (u128, u128) {
    samples.sort();
    let at = |q: f64| samples[((samples.len() as f64 - 1.0) * q).round() as usize].as_micros();
    (at(0.50), at(0.99))
}

fn row(label: &str, ours: Vec<Duration>, baseline: Vec<Duration>, baseline_name: &str) {
    named_row(label, "plugboard", ours, baseline, baseline_name);
}

fn named_row(label: &str, name: &str, ours: Vec<Duration>, baseline: Vec<Duration>, baseline_name: &str) {
    let (ours, baseline) = (percentiles(ours), percentiles(baseline));
    println!(
        "{label:<34} {name:<9} p50 {:>7} µs p99 {:>7} µs | {baseline_name:<19} p50 {:>7} µs p99 {:>7} µs | p50 ratio {:.2}",
        ours.0,
        ours.1,
        baseline.0,
        baseline.1,
        ours.0 as f64 / baseline.0 as f64
    );
}

async fn timed(call: impl Future<Output = ()>) -> Duration {
    let start = Instant::now();
    call.await;
    start.elapsed()
}

/// Warms both sides up, then alternates rounds of `per_round` calls; returns (ours, theirs) samples.
async fn alternate<A, FA, B, FB>(
    rounds: usize,
    per_round: usize,
    warm_up: usize,
    mut ours: A,
    mut theirs: B,
) -> (Vec<Duration>, Vec<Duration>)
where
    A: FnMut() -> FA,
    FA: Future<Output = ()>,
    B: FnMut() -> FB,
    FB: Future<Output = ()>,
{
    for _ in 0..warm_up {
        ours().await;
        theirs().await;
    }
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        // Who goes first alternates too, so neither side always runs right after the other's burst.
        for side in [round % 2, 1 - round % 2] {
            for _ in 0..per_round {
                if side == 0 {
                    a.push(timed(ours()).await);
                } else {
                    b.push(timed(theirs()).await);
                }
            }
        }
    }
    (a, b)
}

async fn sup_call(sup: &Supervisor, server: &str, tool: &str, args: rmcp::model::JsonObject) {
    sup.call(server, tool, args, None).await.expect("call through the supervisor");
}

async fn bare_call(client: &Bare, tool: &'static str, args: rmcp::model::JsonObject) {
    client.call_tool(CallToolRequestParams::new(tool).with_arguments(args)).await.expect("bare call");
}

/// Echo over stdio through the supervisor vs a bare rmcp client, each with its own process of `program`.
async fn stdio_latency(label: &str, program: &Path, args: &[&str]) {
    let sup = ready_supervisor(stdio_config("bench", program, args)).await;
    let bare = bare_stdio(program, args).await;
    let (ours, theirs) = alternate(
        ROUNDS,
        PER_ROUND,
        WARM_UP,
        || sup_call(&sup, "bench", "echo", echo_args()),
        || bare_call(&bare, "echo", echo_args()),
    )
    .await;
    sup.shutdown().await;
    let _ = bare.cancel().await;
    row(label, ours, theirs, "bare rmcp");
}

/// The supervisor's rmcp request options alone (timeout reset by progress, hard maximum) vs rmcp's plain
/// `call_tool`, both bare: how much of the supervisor's per-call cost is rmcp's progress-timeout machinery.
async fn rmcp_options_cost() {
    use rmcp::model::{CallToolRequest, ClientRequest};
    use rmcp::service::PeerRequestOptions;
    let program = testserver();
    let (with_options, plain) = (bare_stdio(&program, &[]).await, bare_stdio(&program, &[]).await);
    let call_with_options = || async {
        let params = CallToolRequestParams::new("echo").with_arguments(echo_args());
        let options = PeerRequestOptions::with_timeout(Duration::from_secs(30))
            .reset_timeout_on_progress()
            .with_max_total_timeout(Duration::from_secs(300));
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
        let handle = with_options.send_request_with_option(request, options).await.expect("send");
        handle.await_response().await.expect("answer");
    };
    let (ours, theirs) =
        alternate(ROUNDS, PER_ROUND, WARM_UP, call_with_options, || bare_call(&plain, "echo", echo_args())).await;
    let _ = with_options.cancel().await;
    let _ = plain.cancel().await;
    named_row("stdio echo (testserver)", "rmcp+opts", ours, theirs, "bare rmcp");
}

/// A 5 MiB text result over stdio (the test server's `big` tool), supervisor vs bare rmcp.
async fn big_result() {
    let program = testserver();
    let sup = ready_supervisor(stdio_config("big", &program, &[])).await;
    let bare = bare_stdio(&program, &[]).await;
    let (ours, theirs) = alternate(
        BIG_ROUNDS,
        1,
        2,
        || sup_call(&sup, "big", "big", big_args()),
        || bare_call(&bare, "big", big_args()),
    )
    .await;
    sup.shutdown().await;
    let _ = bare.cancel().await;
    row("stdio 5 MiB result (testserver)", ours, theirs, "bare rmcp");
}

struct HttpServer(Child, u16);

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start_everything_http() -> HttpServer {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = Command::new(everything())
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("server");
    let server = HttpServer(child, port);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        std::thread::sleep(Duration::from_millis(50));
    }
    server
}

/// Echo over Streamable HTTP: the supervisor's pooled keep-alive client vs rmcp's default client (a new TCP
/// connection per POST), both against `url`.
async fn http_latency(label: &str, url: &str) {
    let sup = ready_supervisor(http_config("http", url)).await;
    let bare = bare_client_info().serve(StreamableHttpClientTransport::from_uri(url)).await.expect("bare http");
    let (ours, theirs) = alternate(
        ROUNDS,
        PER_ROUND,
        WARM_UP,
        || sup_call(&sup, "http", "echo", echo_args()),
        || bare_call(&bare, "echo", echo_args()),
    )
    .await;
    sup.shutdown().await;
    let _ = bare.cancel().await;
    row(label, ours, theirs, "rmcp default client");
}

/// How long one supervisor takes to bring `configs` to Ready, and its RSS (KiB) once they are.
async fn start_all(configs: Vec<ServerConfig>) -> (Duration, u64) {
    let count = configs.len();
    let sup = supervisor(approved(&configs));
    let start = Instant::now();
    sup.reconcile(configs).await;
    let statuses = sup.settle_all(Duration::from_secs(300)).await;
    let took = start.elapsed();
    let ready = statuses.iter().filter(|(_, s)| s.label() == "ready").count();
    assert_eq!(ready, count, "not every server came up: {statuses:?}");
    let rss = rss_kib();
    sup.shutdown().await;
    (took, rss)
}

/// How long bare rmcp takes to start `count` servers at once and list their tools (the machine's own cost of
/// starting that many processes, without Plugboard).
async fn bare_start_all(count: usize, program: &Path, args: &[&str]) -> Duration {
    let start = Instant::now();
    let clients = futures::future::join_all((0..count).map(|_| async {
        let client = bare_stdio(program, args).await;
        client.list_all_tools().await.expect("tools");
        client
    }))
    .await;
    let took = start.elapsed();
    futures::future::join_all(clients.into_iter().map(|c| async move { drop(c.cancel().await) })).await;
    took
}

/// `FLEET` test servers started at once vs the slowest of `SINGLE_STARTS` single starts, through the supervisor
/// and, as the machine's baseline, through bare rmcp.
async fn fleet(label: &str, args: &[&str]) {
    let program = testserver();
    let (mut slowest, mut bare_slowest) = (Duration::ZERO, Duration::ZERO);
    for i in 0..SINGLE_STARTS {
        let (took, _) = start_all(vec![stdio_config(&format!("alone{i}"), &program, args)]).await;
        slowest = slowest.max(took);
        bare_slowest = bare_slowest.max(bare_start_all(1, &program, args).await);
    }
    let before = rss_kib();
    let configs = (0..FLEET).map(|i| stdio_config(&format!("s{i}"), &program, args)).collect();
    let (all, rss) = start_all(configs).await;
    let bare_all = bare_start_all(FLEET, &program, args).await;
    let ms = |d: Duration| d.as_millis();
    println!(
        "{label:<34} {FLEET} at once {:>6} ms | slowest single {:>5} ms | ratio {:>5.2} || bare rmcp {FLEET} at once \
         {:>6} ms | single {:>5} ms | ratio {:>5.2} || engine RSS with {FLEET} ready {rss} KiB (before {before} KiB)",
        ms(all),
        ms(slowest),
        all.as_secs_f64() / slowest.as_secs_f64(),
        ms(bare_all),
        ms(bare_slowest),
        bare_all.as_secs_f64() / bare_slowest.as_secs_f64()
    );
}

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:")).map(str::to_owned))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        .unwrap_or(0)
}

fn main() {
    let server = testserver();
    let build = "cargo build --release -p plugboard-testservers (make bench does)";
    assert!(server.exists(), "{} is missing: {build}", server.display());
    // The reference server's rows need tests/node_modules (`make deps`); without it they are skipped, said so.
    let reference = everything().exists();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        println!("plugboard engine benchmarks: {ROUNDS} alternating rounds of {PER_ROUND} calls per side");
        if reference {
            stdio_latency("stdio echo (server-everything)", &everything(), &["stdio"]).await;
        }
        stdio_latency("stdio echo (testserver)", &server, &[]).await;
        rmcp_options_cost().await;
        big_result().await;
        if reference {
            let everything_http = start_everything_http();
            let url = format!("http://127.0.0.1:{}/mcp", everything_http.1);
            http_latency("http echo (server-everything)", &url).await;
        } else {
            println!("server-everything rows skipped: {} is missing (make deps)", everything().display());
        }
        let port = mini_http::start();
        http_latency("http echo (minimal server)", &format!("http://127.0.0.1:{port}/mcp")).await;
        fleet("stdio fleet (testserver)", &[]).await;
        fleet("stdio fleet (testserver, 500 ms start)", &["--slow-start", "500"]).await;
    });
}
