//! The async sides: rmcp's client as it comes (stdio: a child process; Streamable HTTP: its default transport) and
//! Plugboard's supervisor over the same servers (a memory vault and the bench's own approvals, as the engine runs
//! them). Each round runs `concurrency` callers on one runtime, each making its share of calls one after another, as
//! tasks of the runtime or on the main thread ([`Callers`]).

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use plugboard_bench::{Callers, Round, Tool};
use plugboard_core::config::model::{HttpMode, HttpSpec, ServerConfig, ServerName, StdioSpec, Transport};
use plugboard_core::secrets::{MemoryStore, Vault};
use plugboard_core::supervisor::{LiveConnector, Supervisor};
use plugboard_core::trust::{Approvals, Decision, LaunchDefinition};
use rmcp::ServiceExt;
use rmcp::model::ProtocolVersion;
use rmcp::model::{CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use tempfile::TempDir;
use tokio::runtime::Runtime;

use crate::Side;

/// The supervisor's name for the one server it runs.
const SERVER: &str = "bench";

pub type Bare = RunningService<RoleClient, ClientConfig>;

enum Client {
    Rmcp { client: Bare, prefix: String },
    Supervisor(Supervisor),
}

pub struct Async {
    runtime: Runtime,
    client: Arc<Client>,
    callers: Callers,
    /// The supervisor's approvals file lives here, as long as the supervisor.
    _trust: Option<TempDir>,
}

impl Async {
    pub fn rmcp_stdio(program: &Path, args: &[String], prefix: String) -> anyhow::Result<Async> {
        let runtime = runtime()?;
        let client = runtime.block_on(bare_stdio(program, args))?;
        // Through the gateway the first list waits for its servers to be ready, so the first call finds its tool.
        runtime.block_on(client.list_all_tools())?;
        Ok(Async { runtime, client: Arc::new(Client::Rmcp { client, prefix }), callers: Callers::Tasks, _trust: None })
    }

    pub fn rmcp_http(url: &str, prefix: String) -> anyhow::Result<Async> {
        let runtime = runtime()?;
        // The transport starts its worker task as it is made: inside the runtime.
        let client = runtime.block_on(async {
            bare_client_info().serve(StreamableHttpClientTransport::from_uri(url.to_owned())).await
        })?;
        Ok(Async { runtime, client: Arc::new(Client::Rmcp { client, prefix }), callers: Callers::Tasks, _trust: None })
    }

    pub fn supervisor_stdio(program: &Path, args: &[String]) -> anyhow::Result<Async> {
        let spec = StdioSpec {
            command: program.display().to_string(),
            args: args.to_vec(),
            env: Default::default(),
            cwd: None,
        };
        Async::supervised(Transport::Stdio(spec))
    }

    pub fn supervisor_http(url: &str) -> anyhow::Result<Async> {
        let spec = HttpSpec { url: url.to_owned(), headers: Default::default(), mode: HttpMode::StreamableHttp };
        Async::supervised(Transport::Http(spec))
    }

    pub fn with_callers(mut self, callers: Callers) -> Async {
        self.callers = callers;
        self
    }

    fn supervised(transport: Transport) -> anyhow::Result<Async> {
        let runtime = runtime()?;
        let config = ServerConfig::new(ServerName::parse(SERVER)?, transport);
        let (supervisor, trust) = runtime.block_on(ready_supervisor(vec![config]))?;
        Ok(Async {
            runtime,
            client: Arc::new(Client::Supervisor(supervisor)),
            callers: Callers::Tasks,
            _trust: Some(trust),
        })
    }
}

impl Side for Async {
    fn round(&mut self, tool: Tool, calls: usize, concurrency: usize) -> anyhow::Result<Round> {
        let per_caller = calls / concurrency;
        let (client, placement) = (self.client.clone(), self.callers);
        self.runtime.block_on(async move {
            let begun = Instant::now();
            let callers = (0..concurrency).map(|_| {
                let client = client.clone();
                async move {
                    let mut latencies = Vec::with_capacity(per_caller);
                    for _ in 0..per_caller {
                        let at = Instant::now();
                        let result = client.call(tool).await?;
                        latencies.push(at.elapsed());
                        check(tool, &result)?;
                    }
                    anyhow::Ok(latencies)
                }
            });
            let results: Vec<anyhow::Result<Vec<Duration>>> = match placement {
                Callers::Tasks => {
                    let handles: Vec<_> = callers.map(tokio::spawn).collect();
                    let joined = futures::future::join_all(handles).await;
                    joined.into_iter().map(|caller| caller.context("a caller panicked").and_then(|r| r)).collect()
                }
                Callers::Main => futures::future::join_all(callers).await,
            };
            let wall = begun.elapsed();
            let mut all = Vec::with_capacity(calls);
            for caller in results {
                all.extend(caller?);
            }
            Ok(Round::new(wall, &all))
        })
    }
}

impl Drop for Async {
    /// The supervisor stops its servers; rmcp's client closes its own when dropped.
    fn drop(&mut self) {
        if let Client::Supervisor(supervisor) = self.client.as_ref() {
            self.runtime.block_on(supervisor.shutdown());
        }
    }
}

impl Client {
    async fn call(&self, tool: Tool) -> anyhow::Result<CallToolResult> {
        Ok(match self {
            Client::Rmcp { client, prefix } => {
                let params = CallToolRequestParams::new(format!("{prefix}{}", tool.name()));
                client.call_tool(params.with_arguments(tool.arguments())).await?
            }
            Client::Supervisor(supervisor) => supervisor.call(SERVER, tool.name(), tool.arguments(), None).await?,
        })
    }
}

fn check(tool: Tool, result: &CallToolResult) -> anyhow::Result<()> {
    if !plugboard_bench::is_right(tool, result) {
        bail!("wrong answer to {}: {:.200}", tool.name(), format!("{result:?}"));
    }
    Ok(())
}

/// The runtime an rmcp user starts with `#[tokio::main]`: one worker per CPU the process may use.
pub fn runtime() -> anyhow::Result<Runtime> {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().context("cannot start a tokio runtime")
}

pub fn bare_client_info() -> ClientConfig {
    ClientConfig::new(ClientCapabilities::default(), Implementation::new("plugboard-bench", "0"))
        .with_protocol_version(ProtocolVersion::V_2025_11_25)
}

pub async fn bare_stdio(program: &Path, args: &[String]) -> anyhow::Result<Bare> {
    let mut command = tokio::process::Command::new(program);
    command.args(args);
    Ok(bare_client_info().serve(TokioChildProcess::new(command)?).await?)
}

/// A supervisor over a memory vault, `configs` approved as the person would, every one of them Ready; with the
/// folder of its approvals.
pub async fn ready_supervisor(configs: Vec<ServerConfig>) -> anyhow::Result<(Supervisor, TempDir)> {
    let (supervisor, trust) = approved_supervisor(&configs)?;
    let count = configs.len();
    supervisor.reconcile(configs).await;
    let statuses = supervisor.settle_all(Duration::from_secs(300)).await;
    let ready = statuses.iter().filter(|(_, status)| status.label() == "ready").count();
    if ready != count {
        bail!("{ready} of {count} servers came up: {statuses:?}");
    }
    Ok((supervisor, trust))
}

/// A supervisor that runs what `configs` define, approved in a trust file of its own (in the folder returned).
pub fn approved_supervisor(configs: &[ServerConfig]) -> anyhow::Result<(Supervisor, TempDir)> {
    let dir = tempfile::tempdir()?;
    let approvals = Approvals::at(dir.path().join("trust.json"));
    for config in configs {
        approvals.record(&LaunchDefinition::of(config), Decision::Approved)?;
    }
    Ok((supervisor_over(dir.path()), dir))
}

/// A supervisor over a memory vault and the approvals (and tool pins) kept in `dir`.
pub fn supervisor_over(dir: &Path) -> Supervisor {
    let approvals = Approvals::at(dir.join("trust.json"));
    let vault = Arc::new(Vault::with_store(Arc::new(MemoryStore::default())));
    Supervisor::new(Arc::new(LiveConnector::new(vault, approvals)))
}
