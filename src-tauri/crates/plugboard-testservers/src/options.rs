//! The command line: which server to be and which fault to show. Faults combine freely with the `echo` server.

use std::path::PathBuf;

use crate::era::Era;

/// An MCP test server for Plugboard's fault tests (stdio).
#[derive(Debug, clap::Parser)]
#[command(name = "plugboard-testserver")]
pub struct Options {
    /// Which server to be (only `echo`: tools echo, slow, progress, big, fail, jsonrpc_error).
    #[arg(value_enum, default_value_t = Kind::Echo)]
    pub kind: Kind,
    /// Offer a `crash` tool that exits with status 1 while its call is in flight, and `crash_read_only`, which does
    /// the same but is annotated `readOnlyHint` (so a client may repeat it).
    #[arg(long)]
    pub crash_mid_call: bool,
    /// With --crash-mid-call: crash only if this file does not exist yet (it is created just before crashing), so
    /// the next process answers normally.
    #[arg(long, value_name = "FILE")]
    pub crash_once: Option<PathBuf>,
    /// Answer initialize and tools/list, but never answer tools/call.
    #[arg(long)]
    pub hang: bool,
    /// Answer initialize, but never answer tools/list.
    #[arg(long)]
    pub hang_tools_list: bool,
    /// Write lines that are not JSON to stdout around every valid message.
    #[arg(long)]
    pub garbage_stdout: bool,
    /// Write "fatal: …" lines to stderr and exit with status 1 before initializing.
    #[arg(long)]
    pub exit_with_stderr: bool,
    /// Sleep this many milliseconds before reading stdin.
    #[arg(long, value_name = "MS")]
    pub slow_start: Option<u64>,
    /// Offer an `add_tool` tool that adds a tool and sends notifications/tools/list_changed, and `add_resource` and
    /// `add_prompt`, which do the same for resources and prompts.
    #[arg(long)]
    pub list_changed: bool,
    /// Also offer a `hostile` tool whose description is markup and script (XSS payloads) with hidden characters, so a
    /// UI can be checked to show it as inert text.
    #[arg(long)]
    pub hostile_tool: bool,
    /// Describe the `echo` tool with this file's text (read at start), so a test can change a tool's definition
    /// between runs without changing the command line (a rug pull).
    #[arg(long, value_name = "FILE")]
    pub echo_description_file: Option<PathBuf>,
    /// Offer instructions, a prompt `brief` and a resource template `note://{id}`, each described with this file's
    /// text (read at start), so a test can change them between runs (a rug pull of what is not a tool).
    #[arg(long, value_name = "FILE")]
    pub extras_description_file: Option<PathBuf>,
    /// Append one line per received tool call ("call NAME") and per cancellation ("cancelled NAME") to this file.
    #[arg(long, value_name = "FILE")]
    pub journal: Option<PathBuf>,
    /// Offer an `endless_line` tool that writes `mib` MiB to stdout without a newline (a message that never ends),
    /// then waits to be killed.
    #[arg(long)]
    pub endless_line: bool,
    /// Offer a `flood` tool that sends `count` log notifications as fast as it can, then answers.
    #[arg(long)]
    pub flood_notifications: bool,
    /// Which protocol era to speak: `legacy` (`initialize` only), `modern` (2026-07-28 only), `dual`, or `future` (only
    /// a version newer than any client speaks, refusing every opening).
    #[arg(long, value_enum, default_value_t = Era::Legacy)]
    pub era: Era,
    /// Answer `initialize` with this protocol version whatever the client asks, as an older server does.
    #[arg(long, value_name = "VERSION")]
    pub legacy_version: Option<String>,
    /// Append "discover" or "initialize" to this file for every opening the server is asked for.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Append "tools/list" to this file for every tool list the server answers.
    #[arg(long, value_name = "FILE")]
    pub listings: Option<PathBuf>,
    /// Say in every tool list that it stays fresh this many milliseconds (2026-07-28's `ttlMs`), `private` to its
    /// client; without it the list carries no ttl of its own (rmcp gives a 2026-07-28 client 0).
    #[arg(long, value_name = "MS")]
    pub tools_ttl_ms: Option<u64>,
    /// Ignored: lets a test find its own server processes (`pgrep -f TAG`).
    #[arg(long, value_name = "TAG")]
    pub tag: Option<String>,
}

/// The servers this binary can be.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Kind {
    /// A well-behaved server with a few tools.
    Echo,
}
