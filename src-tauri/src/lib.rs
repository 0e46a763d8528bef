//! The Tauri shell: the window, its plugins, commands and events. It decides no MCP behaviour; everything it does is
//! a call into `plugboard_core`. The command line is another binary (`plugboard`, crates/plugboard-cli), which starts
//! this one for the window.

mod bundle_drop;
mod command_path;
pub mod commands;
mod deep_link;
pub mod error;
pub mod events;
pub mod ipc;
mod login;
mod notify;
mod reveal;
mod state;
mod tray;
mod webkit_env;
mod window;

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use plugboard_cli::logging;

/// Entry point of the window binary: no argument, a `plugboard://` URL or a `.mcpb` bundle opens the window,
/// `--hidden` starts it in the tray (at login); anything else belongs to the `plugboard` command.
pub fn start(args: &[OsString]) -> ExitCode {
    if !plugboard_cli::window::opens_window(args) {
        let _ = writeln!(
            std::io::stderr(),
            "error: this is the Plugboard window; run commands with `plugboard` (see `plugboard --help`)"
        );
        return ExitCode::from(2);
    }
    // Before logging: it starts a writer thread, and the environment must be written while there is one thread.
    webkit_env::prefer_cpu_drawing_without_a_gpu();
    let scrub = plugboard_core::secrets::LogScrub::default();
    let _log = logging::init(logging::Mode::Window, &scrub);
    let hidden = args.get(1).is_some_and(|a| a == plugboard_cli::window::HIDDEN_FLAG);
    // Opened with Plugboard from a file manager: the bundle waits for the page (bundle_drop.rs).
    let here = std::env::current_dir().unwrap_or_default();
    let bundles = args.iter().skip(1).filter_map(|a| plugboard_cli::window::bundle_argument(a, &here)).collect();
    match window::run(hidden, bundles, scrub) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("the window could not start: {e:#}");
            ExitCode::FAILURE
        }
    }
}
