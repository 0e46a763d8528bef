//! `plugboard approve SERVER… | --all [--yes | --refuse]`: shows exactly what each server would run (or where its
//! secrets would go), with what deserves a second look, and the tools, prompts, resource templates and instructions
//! withheld since it was approved (as a diff), and records the person's decision. It asks on a terminal;
//! `--yes` is the script's explicit consent. It must never approve with no terminal and no `--yes`.

use std::io::{BufRead, IsTerminal, Write};

use anyhow::Context;
use clap::Args;
use plugboard_core::engine::{Engine, ToolChangeView};
use plugboard_core::trust::{ApprovalRequest, Decision, PinChange, Subject};

use super::runtimes;

#[derive(Debug, Args)]
pub struct ApproveArgs {
    /// The servers to approve.
    #[arg(required_unless_present = "all", conflicts_with = "all")]
    servers: Vec<String>,
    /// Every server whose definition is not approved (new, changed, or refused before), turned on or not, and every
    /// approved one with something withheld since.
    #[arg(long)]
    all: bool,
    /// Approve without asking (for scripts): you vouch for what is printed.
    #[arg(long, conflicts_with = "refuse")]
    yes: bool,
    /// Refuse instead: the server stays off until its definition changes.
    #[arg(long)]
    refuse: bool,
}

pub fn run(out: &mut impl Write, engine: &Engine, args: &ApproveArgs) -> anyhow::Result<()> {
    runtimes::one_shot()?.block_on(async {
        let names: Vec<String> = if args.all {
            engine.registry().configs().into_iter().map(|c| c.name.to_string()).collect()
        } else {
            args.servers.clone()
        };
        let mut requests = Vec::new();
        let mut tool_changes = Vec::new();
        for server in &names {
            let request = engine.approval_request(server).await?;
            // Tools are pinned under an approved definition: a definition awaiting approval has none to review.
            let changes =
                if request.decision == Some(Decision::Approved) { engine.tool_changes(server).await? } else { vec![] };
            let named_and_nothing_else = !args.all && changes.is_empty();
            if request.decision != Some(Decision::Approved) || named_and_nothing_else {
                requests.push(request);
            }
            if !changes.is_empty() {
                tool_changes.push((server.clone(), changes));
            }
        }
        if requests.is_empty() && tool_changes.is_empty() {
            writeln!(out, "Nothing awaits approval.")?;
            return Ok(());
        }
        for request in &requests {
            print_request(out, request)?;
        }
        for (server, changes) in &tool_changes {
            print_tool_changes(out, server, changes)?;
        }
        let decision = if args.refuse {
            Decision::Refused
        } else if args.yes {
            Decision::Approved
        } else {
            ask(out, requests.len() + tool_changes.len())?
        };
        for request in &requests {
            engine.decide(&request.server, &request.digest, decision).await?;
            let word = if decision == Decision::Approved { "approved" } else { "refused" };
            writeln!(out, "{word} {}", request.server)?;
        }
        for (server, changes) in &tool_changes {
            if decision == Decision::Approved {
                let approved = engine.approve_tool_changes(server, changes).await?;
                writeln!(out, "approved {server}'s changes: {}", approved.join(", "))?;
            } else {
                writeln!(out, "{server}'s changes stay withheld")?;
            }
        }
        Ok(())
    })
}

/// What changed in what a server tells a model since it was approved, as a diff per tool, prompt, resource template
/// or instructions.
fn print_tool_changes(out: &mut impl Write, server: &str, changes: &[ToolChangeView]) -> std::io::Result<()> {
    writeln!(out, "{server}: withheld since it was approved")?;
    for change in changes {
        let what = match change.change {
            PinChange::New => "new",
            PinChange::Changed => "changed",
        };
        let subject = Subject { kind: change.kind, name: change.name.clone() };
        writeln!(out, "  {subject} ({what}):")?;
        for line in change.diff.lines() {
            writeln!(out, "    {line}")?;
        }
    }
    Ok(())
}

fn print_request(out: &mut impl Write, request: &ApprovalRequest) -> std::io::Result<()> {
    let before = match request.decision {
        Some(Decision::Refused) => " (refused before)",
        Some(Decision::Approved) => " (already approved)",
        None => "",
    };
    writeln!(out, "{}{before}", request.server)?;
    let what = if request.launches { "runs" } else { "connects to" };
    writeln!(out, "  {what}: {}", request.summary)?;
    if let Some(cwd) = &request.cwd {
        writeln!(out, "  in: {cwd}")?;
    }
    for line in &request.env {
        let kind = if request.launches { "env" } else { "header" };
        writeln!(out, "  {kind}: {line}")?;
    }
    for flag in &request.flags {
        writeln!(out, "  look twice: {}", flag.message)?;
    }
    Ok(())
}

/// The person's answer on a terminal; without one there is nobody to ask, and nothing is approved.
fn ask(out: &mut impl Write, count: usize) -> anyhow::Result<Decision> {
    if !std::io::stdin().is_terminal() {
        anyhow::bail!(
            "nothing was approved: there is no terminal to ask on. Read the above and pass --yes to approve it \
             (or --refuse)"
        );
    }
    let what = if count == 1 { "this server".to_owned() } else { format!("these {count} servers") };
    write!(out, "Approve {what}? [y/N] ")?;
    out.flush()?;
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer).context("reading the answer")?;
    Ok(if matches!(answer.trim(), "y" | "Y" | "yes" | "Yes") { Decision::Approved } else { Decision::Refused })
}
