//! Opening the window from the command: `plugboard` alone, or with a `plugboard://` link, starts the window binary
//! installed beside this one (`plugboard-desktop`), so the command itself never loads a GUI library. It must never
//! pass on anything but the arguments it was given.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The window binary's file name (the Tauri app's main binary).
pub const WINDOW_BINARY: &str = if cfg!(windows) { "plugboard-desktop.exe" } else { "plugboard-desktop" };

/// The command's file name: what a client's entry launches (`plugboard serve --stdio`).
pub const COMMAND_BINARY: &str = if cfg!(windows) { "plugboard.exe" } else { "plugboard" };

/// The argument that starts the window hidden (in the tray): how it starts at login.
pub const HIDDEN_FLAG: &str = "--hidden";

/// Whether these arguments (with the program name) ask for the window: none at all, one `plugboard://` URL or OAuth
/// redirect (`dev.plugboard.desktop:/oauth/callback?…`), one `.mcpb` bundle (a path or a `file:` URL, as a file
/// manager opens it with Plugboard), or `--hidden` (started at login, it stays in the tray until opened).
pub fn opens_window(args: &[OsString]) -> bool {
    match args {
        [_] => true,
        [_, flag] if flag == HIDDEN_FLAG => true,
        [_, arg] if bundle_argument(arg, Path::new("/")).is_some() => true,
        [_, url] => url.to_str().is_some_and(|u| {
            [plugboard_core::DEEP_LINK_SCHEME, plugboard_core::OAUTH_REDIRECT_SCHEME]
                .iter()
                .any(|scheme| u.starts_with(&format!("{scheme}:")))
        }),
        _ => false,
    }
}

/// The `.mcpb` bundle an argument names, as an absolute path (a relative one is taken from `cwd`, the folder of the
/// launch that gave it): a path, or a `file:` URL (the desktop entry's `%u` may pass either). Only the name is
/// looked at: what the file holds is the core's to judge when the person is shown it.
pub fn bundle_argument(arg: &std::ffi::OsStr, cwd: &Path) -> Option<PathBuf> {
    let path = match arg.to_str().map(url::Url::parse) {
        Some(Ok(url)) if url.scheme() == "file" => url.to_file_path().ok()?,
        // A link of any other scheme names no file (a Windows drive letter parses as a one-letter scheme).
        Some(Ok(url)) if url.scheme().len() > 1 => return None,
        _ => PathBuf::from(arg),
    };
    is_bundle(&path).then(|| cwd.join(path))
}

/// Whether `path` is named as a `.mcpb` bundle (any case), the one test of an argument and of a dropped file.
pub fn is_bundle(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("mcpb"))
}

/// The `plugboard` command installed beside the binary `exe` (the window's or its own), as the absolute path a
/// client's entry launches; `None` when it is not there.
pub fn command_beside(exe: &Path) -> Option<PathBuf> {
    let exe = std::fs::canonicalize(exe).ok()?;
    let command = exe.with_file_name(COMMAND_BINARY);
    command.is_file().then(|| without_verbatim_prefix(command))
}

/// A canonical Windows path starts with `\\?\`, which some clients cannot launch; a drive path does without it.
pub(crate) fn without_verbatim_prefix(path: PathBuf) -> PathBuf {
    match path.to_str().and_then(|p| p.strip_prefix(r"\\?\")) {
        Some(rest) if !rest.starts_with("UNC\\") => PathBuf::from(rest),
        _ => path,
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
    use std::path::PathBuf;

    use std::path::Path;

    use super::{bundle_argument, opens_window, without_verbatim_prefix};

    /// A verbatim drive path loses its `\\?\`; a verbatim UNC path and a Unix path are left alone.
    #[test]
    fn verbatim_prefixes_are_dropped_from_drive_paths_only() {
        let strip = |p: &str| without_verbatim_prefix(PathBuf::from(p)).display().to_string();
        assert_eq!(strip(r"\\?\C:\Program Files\Plugboard\plugboard.exe"), r"C:\Program Files\Plugboard\plugboard.exe");
        assert_eq!(strip(r"\\?\UNC\server\share\plugboard.exe"), r"\\?\UNC\server\share\plugboard.exe");
        assert_eq!(strip("/usr/bin/plugboard"), "/usr/bin/plugboard");
    }

    fn args(list: &[&str]) -> Vec<std::ffi::OsString> {
        list.iter().map(Into::into).collect()
    }

    /// No argument or a single plugboard:// URL opens the window; subcommands and flags stay in the CLI.
    #[test]
    fn window_or_cli_is_chosen_from_the_arguments() {
        assert!(opens_window(&args(&["plugboard"])));
        assert!(opens_window(&args(&["plugboard", "plugboard://install?name=x"])));
        assert!(opens_window(&args(&["plugboard", "dev.plugboard.desktop:/oauth/callback?code=x"])));
        assert!(opens_window(&args(&["plugboard", "--hidden"])));
        assert!(!opens_window(&args(&["plugboard", "--hidden", "plugboard://x"])));
        assert!(!opens_window(&args(&["plugboard", "list"])));
        assert!(!opens_window(&args(&["plugboard", "--help"])));
        assert!(!opens_window(&args(&["plugboard", "https://evil.example"])));
        assert!(!opens_window(&args(&["plugboard", "plugboard://x", "extra"])));
        assert!(opens_window(&args(&["plugboard", "/home/ada/Downloads/weather.mcpb"])));
        assert!(opens_window(&args(&["plugboard", "file:///home/ada/Downloads/weather.MCPB"])));
        assert!(!opens_window(&args(&["plugboard", "/home/ada/weather.zip"])));
        assert!(!opens_window(&args(&["plugboard", "install", "weather.mcpb"])));
    }

    /// A bundle argument becomes an absolute path: a relative one from the launch's folder, a `file:` URL decoded;
    /// anything not named `.mcpb` is no bundle.
    #[test]
    fn bundle_arguments_are_absolute_paths() {
        let from = |arg: &str| bundle_argument(arg.as_ref(), Path::new("/home/ada")).map(|p| p.display().to_string());
        assert_eq!(from("Downloads/weather.mcpb").as_deref(), Some("/home/ada/Downloads/weather.mcpb"));
        assert_eq!(from("/tmp/weather.mcpb").as_deref(), Some("/tmp/weather.mcpb"));
        assert_eq!(from("file:///tmp/my%20weather.mcpb").as_deref(), Some("/tmp/my weather.mcpb"));
        assert_eq!(from("file://example.com/weather.mcpb"), None, "a file on another host is not opened");
        assert_eq!(from("weather.mcpb.zip"), None);
        assert_eq!(from("plugboard://install?name=x.mcpb"), None);
        assert_eq!(from("--hidden"), None);
    }
}
