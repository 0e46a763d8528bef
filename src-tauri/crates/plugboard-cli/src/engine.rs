//! `plugboard status | tools | call`: the connection engine from the terminal. Each run starts the servers it
//! needs, waits for them (bounded), prints, and stops them again; no server process outlives the command.

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;

use super::runtimes;
use plugboard_core::config::model::Transport;
use plugboard_core::engine::Engine;
use plugboard_core::supervisor::{ServerStatus, SupervisorError, SupervisorEvent};
use plugboard_core::transport::Era;
use rmcp::model::{CallToolResult, ContentBlock};
use tokio::runtime::Runtime;

/// How long a command waits for servers to come up.
const SETTLE: Duration = Duration::from_secs(60);

pub fn status(out: &mut impl Write, engine: &Engine) -> anyhow::Result<()> {
    runtimes::one_shot()?.block_on(async {
        engine.start(None).await?;
        let supervisor = engine.supervisor();
        let mut warnings = supervisor.subscribe();
        let statuses = supervisor.settle_all(SETTLE).await;
        let required = supervisor.required_failures();
        engine.shutdown().await;
        let list = engine.registry().list();
        if statuses.is_empty() && list.invalid.is_empty() {
            writeln!(out, "No servers configured yet (see `plugboard add` and `plugboard import`).")?;
        }
        let width = statuses.iter().map(|(n, _)| n.chars().count()).max().unwrap_or(4).max(4);
        for (name, status) in &statuses {
            writeln!(out, "{name:width$}  {:<13} {}", status.label(), detail(status))?;
        }
        super::servers::write_notes_and_invalid(out, &list)?;
        while let Ok(event) = warnings.try_recv() {
            if let SupervisorEvent::Warned { message, .. } = event {
                writeln!(out, "warning: {message}")?;
            }
        }
        if let Some((name, status)) = required.first() {
            anyhow::bail!("{name} is required and is {}: start-up stops here ({})", status.label(), detail(status));
        }
        Ok(())
    })
}

fn detail(status: &ServerStatus) -> String {
    match status {
        ServerStatus::Ready { tools, protocol_version, server_name } => format!(
            "{tools} tool(s), protocol {protocol_version} ({}){}",
            Era::of_version(protocol_version).label(),
            server_name.as_deref().map(|n| format!(", {n}")).unwrap_or_default()
        ),
        ServerStatus::NeedsLogin { hint }
        | ServerStatus::NeedsApproval { hint, .. }
        | ServerStatus::KeychainLocked { hint } => hint.clone(),
        ServerStatus::Reconnecting { attempt, reason, .. } => format!("attempt {attempt}: {reason}"),
        ServerStatus::Failed { error, stderr_tail } => match stderr_tail.as_deref().map(str::trim) {
            Some(tail) if !tail.is_empty() => format!("{error}\n    stderr:\n{}", indent(tail)),
            _ => error.clone(),
        },
        ServerStatus::Disabled => "turned off in the config".into(),
        ServerStatus::Stopped | ServerStatus::Connecting => String::new(),
    }
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("      {l}")).collect::<Vec<_>>().join("\n")
}

pub fn tools(out: &mut impl Write, engine: &Engine, server: &str) -> anyhow::Result<()> {
    runtimes::one_shot()?.block_on(async {
        engine.start(Some(server)).await?;
        let supervisor = engine.supervisor();
        let status = supervisor.settled(server, SETTLE).await?;
        let tools = supervisor.tools(server);
        engine.shutdown().await;
        if !matches!(status, ServerStatus::Ready { .. }) {
            anyhow::bail!("{server} is {}: {}", status.label(), detail(&status));
        }
        for tool in tools? {
            let mark = if tool.allowed { " " } else { "-" };
            let description = tool.description.as_deref().unwrap_or("").lines().next().unwrap_or("");
            writeln!(out, "{mark} {:<32} {:<48} {description}", tool.name, tool.exposed_name)?;
        }
        Ok(())
    })
}

/// Runs one tool call and records it in the console's history (as the app's console does); returns whether the
/// tool reported an error (`isError`).
pub fn call(
    out: &mut impl Write,
    engine: &Engine,
    runtime: &Runtime,
    server: &str,
    tool: &str,
    json: &str,
) -> anyhow::Result<bool> {
    let arguments: serde_json::Value = serde_json::from_str(json).context("--args must be a JSON object")?;
    let arguments = arguments.as_object().cloned().context("--args must be a JSON object, like '{\"a\": 1}'")?;
    let launches = plugboard_core::transport::launches();
    runtime.block_on(engine.start(Some(server)))?;
    // The server starts on the runtime's threads while this one opens the history (SQLite's files and schema), once
    // the server is launched: opened at once, on two CPUs, it took the CPU the approval check and the spawn waited for.
    runtime.block_on(underway(engine, server, launches));
    let console = match engine.console() {
        Ok(console) => console,
        Err(e) => {
            runtime.block_on(engine.shutdown());
            return Err(e.into());
        }
    };
    if let Some(problem) = engine.history_problem() {
        // On stderr: stdout carries the result, which scripts read.
        let _ = writeln!(std::io::stderr(), "warning: this call will not be in the history: {problem}");
    }
    runtime.block_on(async {
        let (ran, ()) = console.run_last(server, tool, arguments, engine.shutdown()).await;
        let ran = ran?;
        if let Some(why) = &ran.entry.unrecorded {
            let _ = writeln!(std::io::stderr(), "warning: this call is not in the history: {why}");
        }
        let result = ran.result.map_err(|e: SupervisorError| anyhow::anyhow!(e))?;
        print_result(out, &result)?;
        Ok(result.is_error == Some(true))
    })
}

/// Returns once a stdio `server` is launched, or has stopped connecting without it (it needs approval, it failed);
/// at once for a remote server, which launches nothing.
async fn underway(engine: &Engine, server: &str, mut launches: tokio::sync::watch::Receiver<u64>) {
    let supervisor = engine.supervisor();
    if !supervisor.config(server).is_ok_and(|config| matches!(config.transport, Transport::Stdio(_))) {
        return;
    }
    tokio::select! {
        _ = launches.changed() => {}
        _ = supervisor.settled(server, SETTLE) => {}
    }
}

fn print_result(out: &mut impl Write, result: &CallToolResult) -> std::io::Result<()> {
    if result.is_error == Some(true) {
        writeln!(out, "isError: true")?;
    }
    for block in &result.content {
        let line = match block {
            ContentBlock::Text(text) => text.text.clone(),
            ContentBlock::Image(image) => format!("[image {}, {} bytes of base64]", image.mime_type, image.data.len()),
            ContentBlock::Audio(audio) => format!("[audio {}, {} bytes of base64]", audio.mime_type, audio.data.len()),
            ContentBlock::Resource(resource) => {
                format!("[resource {}]", serde_json::to_string(&resource.resource).unwrap_or_default())
            }
            ContentBlock::ResourceLink(link) => format!("[link {} {}]", link.name, link.uri),
            other => serde_json::to_string(other).unwrap_or_default(),
        };
        writeln!(out, "{line}")?;
    }
    if let Some(structured) = &result.structured_content {
        writeln!(out, "structuredContent: {}", serde_json::to_string_pretty(structured).unwrap_or_default())?;
    }
    Ok(())
}

/// Walks every step of connecting `server` and prints each; returns whether a step failed.
pub fn doctor(out: &mut impl Write, engine: &Engine, server: &str) -> anyhow::Result<bool> {
    use plugboard_core::doctor::{StepOutcome, diagnose};
    let entry = engine.registry().get(server)?;
    let steps = runtimes::one_shot()?.block_on(diagnose(server, &entry, Arc::clone(engine.vault())));
    for step in &steps {
        match &step.outcome {
            StepOutcome::Passed { detail } => writeln!(out, "ok    {:<20} {detail}", step.name)?,
            StepOutcome::Warning { detail } => writeln!(out, "warn  {:<20} {detail}", step.name)?,
            StepOutcome::Failed { detail, what_to_do } => {
                writeln!(out, "FAIL  {:<20} {detail}", step.name)?;
                writeln!(out, "      {:<20} what to do: {what_to_do}", "")?;
            }
            StepOutcome::Skipped => writeln!(out, "-     {:<20} skipped", step.name)?,
        }
    }
    Ok(steps.iter().any(|s| s.is_failed()))
}
