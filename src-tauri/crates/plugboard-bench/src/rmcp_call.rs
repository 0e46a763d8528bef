//! `plugboard-bench-rmcp-call PROGRAM [ARGS...]`: what a plain rmcp client binary does for one tool call — start the
//! server, connect, call `echo`, check the answer, exit — the baseline of a cold `plugboard call`. A benchmark tool:
//! it must never be shipped.

use anyhow::{Context, bail};
use plugboard_bench::Tool;
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation};
use rmcp::transport::TokioChildProcess;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let program = args.next().context("usage: plugboard-bench-rmcp-call PROGRAM [ARGS...]")?;
    let mut command = tokio::process::Command::new(program);
    command.args(args);
    let info = ClientConfig::new(ClientCapabilities::default(), Implementation::new("plugboard-bench", "0"));
    let client = info.serve(TokioChildProcess::new(command)?).await?;
    let tool = Tool::Echo;
    let params = CallToolRequestParams::new(tool.name()).with_arguments(tool.arguments());
    let result = client.call_tool(params).await?;
    if !plugboard_bench::is_right(tool, &result) {
        bail!("wrong answer: {result:?}");
    }
    client.cancel().await?;
    Ok(())
}
