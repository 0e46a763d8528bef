//! Opening the window from the command: `plugboard` alone, or with a `plugboard://` link, starts the window binary
//! installed beside this one (`plugboard-desktop`), so the command itself never loads a GUI library. It must never
//! pass on anything but the arguments it was given.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

/// The window binary's file name (the Tauri app's main binary).
pub const WINDOW_BINARY: &str = if cfg!(windows) { "plugboard-desktop.exe" } else { "plugboard-desktop" };

/// Whether these arguments (with the program name) ask for the window: none at all, or one `plugboard://` URL.
pub fn opens_window(args: &[OsString]) -> bool {
    match args {
        [_] => true,
        [_, url] => url.to_str().is_some_and(|u| u.starts_with(&format!("{}:", plugboard_core::DEEP_LINK_SCHEME))),
        _ => false,
    }
}

/// Runs the window binary with `args` (without the program name) in this process's place where the platform allows
/// (Unix: `exec`, so the window keeps this pid), else as a child waited for.
pub fn open(args: &[OsString]) -> ExitCode {
    let Some(window) = beside_this_binary() else {
        return missing();
    };
    let mut command = std::process::Command::new(&window);
    command.args(args);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // Only returns when the exec failed.
        let error = command.exec();
        report(&format!("the window ({}) could not be started: {error}", window.display()));
        ExitCode::FAILURE
    }
    #[cfg(not(unix))]
    match command.status() {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(error) => {
            report(&format!("the window ({}) could not be started: {error}", window.display()));
            ExitCode::FAILURE
        }
    }
}

fn beside_this_binary() -> Option<PathBuf> {
    let here = std::env::current_exe().ok()?;
    let window = here.with_file_name(WINDOW_BINARY);
    window.is_file().then_some(window)
}

fn missing() -> ExitCode {
    report(&format!(
        "the Plugboard window ({WINDOW_BINARY}) is not installed next to this command; run a subcommand \
         (see `plugboard --help`) or reinstall Plugboard"
    ));
    ExitCode::FAILURE
}

fn report(message: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "error: {message}");
}

#[cfg(test)]
mod tests {
    use super::opens_window;

    fn args(list: &[&str]) -> Vec<std::ffi::OsString> {
        list.iter().map(Into::into).collect()
    }

    /// No argument or a single plugboard:// URL opens the window; subcommands and flags stay in the CLI.
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
