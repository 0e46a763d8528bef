//! The Tauri shell: picks window or CLI, wires plugins, commands and logging. It decides no MCP behaviour;
//! everything it does is a call into `plugboard_core`.

mod browser;
mod cli;
pub mod commands;
mod deep_link;
pub mod error;
pub mod events;
pub mod ipc;
mod logging;
mod login;
mod state;
mod webkit_env;
mod window;

use std::ffi::OsString;
use std::process::ExitCode;

/// The scheme of Plugboard's deep links (`plugboard://oauth/callback`, `plugboard://install`).
pub const DEEP_LINK_SCHEME: &str = "plugboard";

/// Entry point of the binary: no argument or a `plugboard://` URL opens the window, anything else is the CLI.
pub fn start(args: Vec<OsString>) -> ExitCode {
    if opens_window(&args) {
        // Before logging: it starts a writer thread, and the environment must be written while there is one thread.
        webkit_env::prefer_cpu_drawing_without_a_gpu();
        let _log = logging::init(logging::Mode::Window);
        match window::run() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                tracing::error!("the window could not start: {e:#}");
                ExitCode::FAILURE
            }
        }
    } else {
        cli::run(args)
    }
}

fn opens_window(args: &[OsString]) -> bool {
    match args {
        [_] => true,
        [_, url] => url.to_str().is_some_and(|u| u.starts_with(&format!("{DEEP_LINK_SCHEME}:"))),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::opens_window;

    fn args(list: &[&str]) -> Vec<std::ffi::OsString> {
        list.iter().map(Into::into).collect()
    }

    /// No argument or a single plugboard:// URL opens the window; subcommands and flags go to the CLI.
    #[test]
    fn window_or_cli_is_chosen_from_the_arguments() {
        assert!(opens_window(&args(&["plugboard"])));
        assert!(opens_window(&args(&["plugboard", "plugboard://oauth/callback?code=x"])));
        assert!(!opens_window(&args(&["plugboard", "list"])));
        assert!(!opens_window(&args(&["plugboard", "--help"])));
        assert!(!opens_window(&args(&["plugboard", "https://evil.example"])));
        assert!(!opens_window(&args(&["plugboard", "plugboard://x", "extra"])));
    }
}
