//! Benchmarks of the connection engine against the reference server, each printed side by side with its baseline
//! from the same run: per-call latency through the supervisor vs a bare rmcp client (stdio and Streamable HTTP,
//! where the baseline is rmcp's default HTTP client), and 20 stdio servers connecting at once vs one alone.
//! Run with `make bench` (needs `make deps` for tests/node_modules).
#![allow(clippy::print_stdout, clippy::expect_used, clippy::unwrap_used)]

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use plugboard_core::config::model::{HttpMode, HttpSpec, ServerConfig, ServerName, StdioSpec, Transport};
use plugboard_core::secrets::{MemoryStore, Vault};
use plugboard_core::supervisor::{LiveConnector, Supervisor};
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation, ProtocolVersion};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};

const CALLS: usize = 300;
const FLEET: usize = 20;

fn everything() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../tests/node_modules/.bin/mcp-server-everything")
}

fn args() -> rmcp::model::JsonObject {
    serde_json::json!({ "message": "benchmark" }).as_object().cloned().unwrap()
}

fn stdio_config(name: &str) -> ServerConfig {
    let spec = StdioSpec {
        command: everything().display().to_string(),
        args: vec!["stdio".into()],
        env: Default::default(),
        cwd: None,
    };
    ServerConfig::new(ServerName::parse(name).unwrap(), Transport::Stdio(spec))
}

fn supervisor() -> Supervisor {
    let vault = Arc::new(Vault::with_store(Arc::new(MemoryStore::default())));
    Supervisor::new(Arc::new(LiveConnector::new(vault)))
}

fn bare_client_info() -> ClientConfig {
    ClientConfig::new(ClientCapabilities::default(), Implementation::new("bench", "0"))
        .with_protocol_version(ProtocolVersion::V_2025_11_25)
}

/// p50 and p99 of `samples`, in microseconds.
fn percentiles(mut samples: Vec<Duration>) -> (u128, u128) {
    samples.sort();
    let at = |q: f64| samples[((samples.len() as f64 - 1.0) * q).round() as usize].as_micros();
    (at(0.50), at(0.99))
}

fn row(label: &str, ours: (u128, u128), baseline: (u128, u128), baseline_name: &str) {
    println!(
        "{label:<28} plugboard p50 {:>6} µs p99 {:>6} µs | {baseline_name} p50 {:>6} µs p99 {:>6} µs | p50 ratio {:.2}",
        ours.0,
        ours.1,
        baseline.0,
        baseline.1,
        ours.0 as f64 / baseline.0 as f64
    );
}

async fn supervisor_calls(sup: &Supervisor, server: &str) -> Vec<Duration> {
    let mut samples = Vec::with_capacity(CALLS);
    for _ in 0..CALLS {
        let start = Instant::now();
        sup.call(server, "echo", args(), None).await.expect("call");
        samples.push(start.elapsed());
    }
    samples
}

/// `CALLS` echo calls through a bare rmcp client, after a warm-up round of as many, like the supervisor's.
async fn bare_calls(client: &rmcp::service::RunningService<rmcp::service::RoleClient, ClientConfig>) -> Vec<Duration> {
    let mut samples = Vec::with_capacity(CALLS);
    for _ in 0..2 {
        samples.clear();
        for _ in 0..CALLS {
            let start = Instant::now();
            client.call_tool(CallToolRequestParams::new("echo").with_arguments(args())).await.expect("call");
            samples.push(start.elapsed());
        }
    }
    samples
}

async fn stdio_latency() {
    let sup = supervisor();
    sup.reconcile(vec![stdio_config("bench")]).await;
    sup.settled("bench", Duration::from_secs(60)).await.expect("ready");
    let _ = supervisor_calls(&sup, "bench").await; // warm-up
    let ours = percentiles(supervisor_calls(&sup, "bench").await);
    sup.shutdown().await;

    let mut command = tokio::process::Command::new(everything());
    command.arg("stdio");
    let client = bare_client_info().serve(TokioChildProcess::new(command).unwrap()).await.expect("bare");
    let samples = bare_calls(&client).await;
    let _ = client.cancel().await;
    row("stdio echo", ours, percentiles(samples), "bare rmcp");
}

struct HttpServer(Child, u16);

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start_http() -> HttpServer {
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

async fn http_latency() {
    let server = start_http();
    let url = format!("http://127.0.0.1:{}/mcp", server.1);
    let sup = supervisor();
    let spec = HttpSpec { url: url.clone(), headers: Default::default(), mode: HttpMode::StreamableHttp };
    sup.reconcile(vec![ServerConfig::new(ServerName::parse("http").unwrap(), Transport::Http(spec))]).await;
    sup.settled("http", Duration::from_secs(60)).await.expect("ready");
    let _ = supervisor_calls(&sup, "http").await;
    let ours = percentiles(supervisor_calls(&sup, "http").await);
    sup.shutdown().await;

    let client = bare_client_info().serve(StreamableHttpClientTransport::from_uri(url)).await.expect("bare http");
    let samples = bare_calls(&client).await;
    let _ = client.cancel().await;
    row("streamable http echo", ours, percentiles(samples), "rmcp default client");
}

async fn fleet() {
    let single = supervisor();
    let start = Instant::now();
    single.reconcile(vec![stdio_config("alone")]).await;
    single.settled("alone", Duration::from_secs(120)).await.expect("ready");
    let alone = start.elapsed();
    single.shutdown().await;

    let sup = supervisor();
    let before = rss_kib();
    let start = Instant::now();
    sup.reconcile((0..FLEET).map(|i| stdio_config(&format!("s{i}"))).collect()).await;
    let statuses = sup.settle_all(Duration::from_secs(300)).await;
    let all = start.elapsed();
    let ready = statuses.iter().filter(|(_, s)| s.label() == "ready").count();
    let rss = rss_kib();
    sup.shutdown().await;
    println!(
        "{FLEET} stdio servers at once      all ready in {:>6} ms ({ready} ready) | one alone {:>6} ms | ratio {:.2}",
        all.as_millis(),
        alone.as_millis(),
        all.as_secs_f64() / alone.as_secs_f64()
    );
    println!("engine RSS with {FLEET} ready servers  {} KiB (before starting them {} KiB)", rss, before);
}

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:")).map(str::to_owned))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        .unwrap_or(0)
}

fn main() {
    assert!(everything().exists(), "run `make deps` first: {} is missing", everything().display());
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        println!("plugboard engine benchmarks ({CALLS} calls per sample, after a warm-up of {CALLS})");
        stdio_latency().await;
        http_latency().await;
        fleet().await;
    });
}
