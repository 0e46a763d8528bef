//! Start-up: COUNT stdio servers connecting at once, timed to the moment every one is Ready (the supervisor) or has
//! answered its tool list (bare rmcp, the machine's own cost of starting that many processes), with this process's
//! RSS then: the engine's memory with that many servers Ready. Each side starts twice: the first start after the
//! person's approval also pins every server's tools (trust/pins.rs writes tool-pins.json); the second is every
//! day's start.

use std::path::Path;
use std::time::{Duration, Instant};

use plugboard_core::config::model::{ServerConfig, ServerName, StdioSpec, Transport};

use crate::FleetKind;
use crate::clients::{approved_supervisor, bare_stdio, runtime, supervisor_over};
use plugboard_core::supervisor::Supervisor;

/// Two starts, one after the other: how long the first and the second took, and the RSS (KiB) with every server
/// of the second up.
pub fn start(
    kind: FleetKind,
    count: usize,
    program: &Path,
    args: &[String],
) -> anyhow::Result<(Duration, Duration, u64)> {
    let runtime = runtime()?;
    runtime.block_on(async {
        match kind {
            FleetKind::Supervisor => {
                let configs = configs(count, program, args)?;
                let (supervisor, trust) = approved_supervisor(&configs)?;
                let (first, _) = supervised(&supervisor, configs.clone()).await?;
                let again = supervisor_over(trust.path());
                let (second, rss) = supervised(&again, configs).await?;
                Ok((first, second, rss))
            }
            FleetKind::Rmcp => {
                let (first, _) = bare(count, program, args).await?;
                let (second, rss) = bare(count, program, args).await?;
                Ok((first, second, rss))
            }
        }
    })
}

fn configs(count: usize, program: &Path, args: &[String]) -> anyhow::Result<Vec<ServerConfig>> {
    (0..count)
        .map(|i| {
            let spec = StdioSpec {
                command: program.display().to_string(),
                args: args.to_vec(),
                env: Default::default(),
                cwd: None,
            };
            Ok(ServerConfig::new(ServerName::parse(&format!("s{i}"))?, Transport::Stdio(spec)))
        })
        .collect()
}

/// Brings `configs` to Ready through `supervisor`, then stops them: how long, and the RSS (KiB) while Ready.
async fn supervised(supervisor: &Supervisor, configs: Vec<ServerConfig>) -> anyhow::Result<(Duration, u64)> {
    let count = configs.len();
    let begun = Instant::now();
    supervisor.reconcile(configs).await;
    let statuses = supervisor.settle_all(Duration::from_secs(300)).await;
    let took = begun.elapsed();
    let ready = statuses.iter().filter(|(_, status)| status.label() == "ready").count();
    let rss = rss_kib();
    supervisor.shutdown().await;
    anyhow::ensure!(ready == count, "{ready} of {count} servers came up: {statuses:?}");
    Ok((took, rss))
}

async fn bare(count: usize, program: &Path, args: &[String]) -> anyhow::Result<(Duration, u64)> {
    let begun = Instant::now();
    let clients = futures::future::try_join_all((0..count).map(|_| async {
        let client = bare_stdio(program, args).await?;
        client.list_all_tools().await?;
        anyhow::Ok(client)
    }))
    .await?;
    let took = begun.elapsed();
    let rss = rss_kib();
    futures::future::join_all(clients.into_iter().map(|c| async move { drop(c.cancel().await) })).await;
    Ok((took, rss))
}

/// This process's resident set (KiB), from /proc.
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:")).map(str::to_owned))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        .unwrap_or(0)
}
