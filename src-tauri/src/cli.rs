//! The headless CLI over the same core as the window: it never starts Tauri or the single-instance check.

use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use plugboard_core::config::{self, ServerList, TransportKind};

use crate::logging;

/// Connect, curate and try every MCP server you use. Run without arguments to open the window.
#[derive(Debug, Parser)]
#[command(
    name = "plugboard",
    version,
    about = "Connect, curate and try every MCP server you use.",
    after_help = "Run `plugboard` with no arguments to open the window."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the configured servers.
    List {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
}

/// Parses `args` (including the program name) and runs the subcommand.
pub fn run(args: Vec<OsString>) -> ExitCode {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        // clap prints help and version to stdout with success, usage errors to stderr with failure.
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
        }
    };
    let _log = logging::init(logging::Mode::Cli);
    let result = match cli.command {
        Command::List { json } => list(json),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn list(json: bool) -> anyhow::Result<()> {
    let list = config::load_server_list(&config::config_path())?;
    let mut out = io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, &list)?;
        writeln!(out)?;
    } else {
        write_table(&mut out, &list)?;
    }
    Ok(())
}

fn write_table(out: &mut impl Write, list: &ServerList) -> io::Result<()> {
    if list.servers.is_empty() {
        return writeln!(out, "No servers configured yet. Plugboard reads them from {}", list.config_path);
    }
    let width = list.servers.iter().map(|s| s.name.chars().count()).max().unwrap_or(0).max(4);
    writeln!(out, "{:width$}  {:<15}  {:<8}  TARGET", "NAME", "TRANSPORT", "STATE")?;
    for server in &list.servers {
        let state = if server.enabled { "enabled" } else { "disabled" };
        let transport = transport_label(server.transport);
        writeln!(out, "{:width$}  {transport:<15}  {state:<8}  {}", server.name, server.target)?;
    }
    Ok(())
}

fn transport_label(kind: TransportKind) -> &'static str {
    match kind {
        TransportKind::Stdio => "stdio",
        TransportKind::StreamableHttp => "streamable-http",
        TransportKind::Sse => "sse",
        TransportKind::Probe => "http (probe)",
    }
}
