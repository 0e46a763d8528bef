//! The `plugboard` command over the core alone: it never links a GUI library, so a client launching
//! `plugboard serve --stdio` pays milliseconds; with no subcommand it starts the window binary (window.rs). Each
//! subcommand lives in its own file; this one parses arguments and reports errors.

mod approve;
pub mod browser;
mod clients;
mod engine;
mod gateway_token;
mod import;
mod install;
pub mod logging;
mod login;
mod mcp_registry;
mod presets;
mod runtimes;
mod secret;
mod serve;
mod servers;
pub mod window;

use clap::{Parser, Subcommand};
use plugboard_core::config;
use plugboard_core::console::DamageCheck;
use plugboard_core::engine::{Engine, EngineOptions, PersonAnswers};
use plugboard_core::registry::Registry;
use plugboard_core::secrets::{Fallback, LogScrub};
use plugboard_core::transport::DownstreamLink;
use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;
use tokio::runtime::Runtime;

#[derive(Debug, Parser)]
#[command(
    name = "plugboard",
    version,
    about = "Connect, curate and try every MCP server you use.",
    after_help = "Run `plugboard` with no arguments to open the window."
)]
struct Cli {
    /// When no OS keychain is reachable, keep secrets in a plaintext file (0600) in the data dir instead of
    /// refusing to store them. INSECURE: anyone who can read that file can use them. Same as
    /// PLUGBOARD_INSECURE_PLAINTEXT_SECRETS=1.
    #[arg(long, global = true)]
    insecure_plaintext_secrets: bool,
    #[command(subcommand)]
    command: Command,
}

// Each subcommand's arguments are defined when it is the one run: defining all of them took a cold `plugboard
// call` 0.15 ms before it could start anything.
#[derive(Debug, Subcommand)]
#[command(defer = true)]
enum Command {
    /// List the configured servers.
    List {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Add a server: `plugboard add NAME -- COMMAND [ARGS…]` or `plugboard add NAME --url URL`.
    Add(servers::AddArgs),
    /// Remove a server and delete its secrets from the keychain.
    Remove { name: String },
    /// Rename a server (its secrets move with it).
    Rename { from: String, to: String },
    /// Turn a server on.
    Enable { name: String },
    /// Turn a server off without removing it.
    Disable { name: String },
    /// Import servers from other MCP clients (Cursor, Claude Desktop, VS Code, …).
    Import(import::ImportArgs),
    /// Connect other MCP clients to Plugboard: list them, connect or disconnect one, restore its file.
    Clients(clients::ClientsArgs),
    /// The catalog of one-click integrations: list them, add one as a server.
    Presets {
        #[command(subcommand)]
        action: presets::PresetsAction,
    },
    /// The MCP Registry: search its servers, add one, choose which registries are searched.
    Registry {
        #[command(subcommand)]
        action: mcp_registry::RegistryAction,
    },
    /// Add the server a `plugboard://install` link offers, after showing what it runs and asking.
    Install(install::InstallArgs),
    /// Store or delete a server's secret in the OS keychain.
    Secret {
        #[command(subcommand)]
        action: secret::SecretAction,
    },
    /// Show what a server would run and approve it (nothing runs before): `plugboard approve NAME`, or `--all`.
    Approve(approve::ApproveArgs),
    /// Start every server and show how each one is doing.
    Status,
    /// List a server's tools with the names other clients see; '-' marks a tool the allowlist hides.
    Tools { server: String },
    /// Call a tool: `plugboard call SERVER TOOL --args '{"message":"hi"}'`. Exits 1 when the tool reports an error.
    Call {
        server: String,
        tool: String,
        /// The arguments as a JSON object.
        #[arg(long, default_value = "{}")]
        args: String,
    },
    /// Log in to an OAuth server: prints the authorization URL, opens a browser when there is one, and waits.
    Login { server: String },
    /// Forget an OAuth server's login (its tokens leave the keychain).
    Logout { server: String },
    /// Walk every step of connecting a server and say which one fails and what to do.
    Doctor { server: String },
    /// Serve every curated tool as one MCP server: `serve --stdio` for a client to launch, `serve --http` on
    /// 127.0.0.1 behind a token.
    Serve(serve::ServeArgs),
    /// The gateway's HTTP endpoint: its token.
    Gateway {
        #[command(subcommand)]
        action: gateway_token::GatewayAction,
    },
    /// Show where Plugboard keeps its files.
    Config {
        #[command(subcommand)]
        action: ConfigAction,
    },
}

#[derive(Debug, Subcommand)]
enum ConfigAction {
    /// Print the path of servers.json.
    Path,
}

/// Parses `args` (including the program name) and runs the subcommand, or opens the window.
pub fn run(args: Vec<OsString>) -> ExitCode {
    if window::opens_window(&args) {
        return window::open(&args[1..]);
    }
    // A call's server most likely runs over stdio: its keeper starts now, before the arguments are parsed (0.2 ms of
    // clap's) and beside the log, the config and the approval check, rather than once they are done; traced, the
    // keeper's own start was still the spawn's last wait. A remote server's call lets it go unused: it runs nothing.
    // `plugboard --flag call …` is not recognised here and orders its keeper once parsed.
    let early_call = args.get(1).is_some_and(|word| word == "call");
    let mut call_runtime = None;
    if early_call {
        // Before the runtime's threads start.
        runtimes::share_one_heap();
        call_runtime = runtimes::for_a_call();
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        // clap prints help and version to stdout with success, usage errors to stderr with failure.
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
        }
    };
    if !early_call && !matches!(cli.command, Command::Serve(_)) {
        // Before the log's writer thread starts.
        runtimes::share_one_heap();
    }
    match &cli.command {
        Command::Call { .. } if call_runtime.is_none() => {
            call_runtime = runtimes::for_a_call();
        }
        Command::Tools { .. } => {
            // Its server starts on a runtime `engine::tools` builds: only the thread that spawns it starts ahead.
            plugboard_core::transport::start_spawner_thread();
        }
        _ => {}
    }
    let scrub = LogScrub::default();
    let _log = logging::init(logging::Mode::Cli, &scrub);
    let fallback = if cli.insecure_plaintext_secrets { Fallback::chosen(true) } else { Fallback::from_env() };
    match dispatch(cli.command, &fallback, scrub, call_runtime) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn dispatch(
    command: Command,
    fallback: &Fallback,
    scrub: LogScrub,
    call_runtime: Option<Runtime>,
) -> anyhow::Result<()> {
    if let Command::Config { action: ConfigAction::Path } = command {
        return Ok(writeln!(io::stdout(), "{}", config::config_path().display())?);
    }
    // Without a keychain, secrets are memory-only (commands that would lose a secret that way refuse) unless the
    // person opted into the insecure file store. Nobody is there to answer a server's form mid-command; the
    // gateway's client answers them for `serve`.
    let person = match command {
        Command::Serve(_) => PersonAnswers::Client(DownstreamLink::default()),
        _ => PersonAnswers::Declined,
    };
    // A command appends a row at most and must start at once: reading every page of the history for damage is the
    // window's to do (it took 40–70 ms for 10,000 rows at each start, seconds from a cold disk).
    let options = EngineOptions::for_this_user(fallback.clone(), person)
        .with_log_scrub(scrub)
        .with_history_check(DamageCheck::OnUse);
    let engine = Engine::open(options)?;
    if let Command::Serve(args) = &command {
        // Before stdout is locked below: the gateway writes MCP to it from another thread.
        return serve::run(engine, args);
    }
    let mut out = io::stdout().lock();
    let registry = engine.registry();
    match command {
        Command::Serve(_) => Ok(()),
        Command::Config { .. } => Ok(()),
        Command::Gateway { action } => gateway_token::run(&mut out, &engine, &action),
        Command::List { json } => servers::list(&mut out, registry, json),
        Command::Add(args) => servers::add(&mut out, registry, args),
        Command::Remove { name } => servers::remove(&mut out, registry, &name),
        Command::Rename { from, to } => servers::rename(&mut out, registry, &from, &to),
        Command::Enable { name } => servers::set_enabled(&mut out, registry, &name, true),
        Command::Disable { name } => servers::set_enabled(&mut out, registry, &name, false),
        Command::Import(args) => import::run(&mut out, &engine, &args),
        Command::Clients(args) => clients::run(&mut out, &engine, args),
        Command::Presets { action } => presets::run(&mut out, registry, action),
        Command::Registry { action } => mcp_registry::run(&mut out, registry, action),
        Command::Install(args) => install::run(&mut out, registry, &args),
        Command::Secret { action } => secret::run(&mut out, registry, action),
        Command::Approve(args) => approve::run(&mut out, &engine, &args),
        Command::Status => engine::status(&mut out, &engine),
        Command::Tools { server } => engine::tools(&mut out, &engine, &server),
        Command::Login { server } => login::login(&mut out, &engine, &server),
        Command::Logout { server } => login::logout(&mut out, &engine, &server),
        Command::Doctor { server } => {
            if engine::doctor(&mut out, &engine, &server)? {
                anyhow::bail!("{server} cannot connect: see the failed step above");
            }
            Ok(())
        }
        Command::Call { server, tool, args } => {
            let runtime = match call_runtime {
                Some(runtime) => runtime,
                None => runtimes::one_shot()?,
            };
            if engine::call(&mut out, &engine, &runtime, &server, &tool, &args)? {
                anyhow::bail!("the tool reported an error (isError)");
            }
            // Everything the call started has ended: its server stopped, its row is in the history (in the WAL until
            // that is due to be copied, `History::write_back`). The engine and the runtime hold only memory, idle
            // threads and SQLite's open file now, which the exit releases sooner than their destructors would
            // (plugboard-bench's HISTORY.md: "A cold call's last steps").
            std::mem::forget((engine, runtime));
            Ok(())
        }
    }
}

/// Fails when secrets would only live in this process's memory and so vanish when the command exits.
fn require_persistent_secrets(registry: &Registry) -> anyhow::Result<()> {
    if registry.vault().status().persists {
        return Ok(());
    }
    let reason = registry.vault().keychain_problem().map(ToString::to_string).unwrap_or_default();
    anyhow::bail!(
        "secrets cannot be stored, so nothing was changed: {reason}\n(to keep them in a plaintext file instead, \
         INSECURE, pass --insecure-plaintext-secrets)"
    )
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    /// clap's own checks over every subcommand, the deferred ones defined as they would be when run: a clash between
    /// a subcommand's argument and the global one would otherwise surface only when a person runs it.
    #[test]
    fn every_subcommand_is_well_defined() {
        Cli::command().debug_assert();
    }

    /// A deferred subcommand still parses its own arguments and takes the global flag after them.
    #[test]
    fn a_deferred_subcommand_parses_its_arguments_and_the_global_flag() {
        let args = ["plugboard", "call", "bench", "echo", "--args", "{}", "--insecure-plaintext-secrets"];
        let cli = Cli::try_parse_from(args).unwrap();
        assert!(cli.insecure_plaintext_secrets);
        let Command::Call { server, tool, args } = cli.command else { panic!("not a call: {:?}", cli.command) };
        assert_eq!((server.as_str(), tool.as_str(), args.as_str()), ("bench", "echo", "{}"));
    }
}
