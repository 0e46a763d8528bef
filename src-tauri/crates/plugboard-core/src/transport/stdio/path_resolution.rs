//! Finding the binary behind a bare program name (`npx`, `uvx`, `docker`) the way the person's terminal would.
//! A GUI app starts with a bare PATH, so the login shell's PATH is asked once and cached across processes. It must never run the
//! person's command line through a shell: the shell here only prints its PATH.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant, SystemTime};

use super::login_path_cache;

/// How long a login shell may take to print its PATH (a slow `.zprofile` is common; a hung one must not hang us).
const LOGIN_SHELL_TIMEOUT: Duration = Duration::from_secs(3);
const BEGIN: &str = "__PLUGBOARD_PATH_BEGIN__";
const END: &str = "__PLUGBOARD_PATH_END__";

/// Why a program could not be resolved; `searched` is the PATH that was tried, for the error message.
#[derive(Debug)]
pub(crate) enum Unresolved {
    NotFound { searched: OsString },
    NotExecutable { path: PathBuf },
    Missing { path: PathBuf },
}

impl Unresolved {
    /// The error as the person reads it, with what to do: never the whole PATH, which is long and says nothing
    /// the person can act on, only how many folders were searched.
    pub(crate) fn into_io(self, program: &Path) -> std::io::Error {
        use std::io::{Error, ErrorKind};
        match self {
            Self::NotFound { searched } => {
                let folders = match std::env::split_paths(&searched).filter(|p| !p.as_os_str().is_empty()).count() {
                    1 => "the 1 folder".to_owned(),
                    n => format!("the {n} folders"),
                };
                Error::new(
                    ErrorKind::NotFound,
                    format!("it is not installed (not found in {folders} of PATH). {}", install_hint(program)),
                )
            }
            Self::NotExecutable { path } => Error::new(
                ErrorKind::PermissionDenied,
                format!(
                    "{} is not an executable file. Make it executable (chmod +x) or fix \"command\".",
                    path.display()
                ),
            ),
            Self::Missing { path } => Error::new(
                ErrorKind::NotFound,
                format!("{} does not exist. Check the path in \"command\".", path.display()),
            ),
        }
    }
}

/// What to install for a program that is not on PATH: the launchers MCP servers are published for by name.
pub fn install_hint(program: &Path) -> String {
    let name = program.file_name().and_then(OsStr::to_str).unwrap_or_default();
    let tool = match name.strip_suffix(".exe").unwrap_or(name) {
        "npx" | "npm" | "node" => Some("Node.js (it brings npx and node)"),
        "uvx" | "uv" => Some("uv (it brings uvx)"),
        "python" | "python3" | "pip" | "pipx" => Some("Python 3"),
        "docker" => Some("Docker, and start it"),
        "bun" | "bunx" => Some("Bun"),
        "deno" => Some("Deno"),
        _ => None,
    };
    match tool {
        Some(tool) => format!("Install {tool}, then retry."),
        None => "Install it, or write its full path in \"command\".".to_owned(),
    }
}

/// Asks `shell` as a login shell for its PATH. `env` is the whole environment it gets (tests pass a temporary
/// HOME). `None` when the shell fails, times out or prints nothing usable.
pub(crate) fn query_login_path(shell: &Path, env: &[(OsString, OsString)], timeout: Duration) -> Option<OsString> {
    let script = format!("printf '%s%s%s' {BEGIN} \"$PATH\" {END}");
    let mut command = Command::new(shell);
    command.args(["-l", "-c", &script]).env_clear().envs(env.iter().cloned());
    command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::null());
    #[cfg(unix)]
    {
        // Its own group, so a timeout can stop whatever a slow profile started too.
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    let mut child = command.spawn().ok()?;
    let deadline = Instant::now() + timeout;
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
            _ => {
                tracing::warn!(shell = %shell.display(), "the login shell did not print its PATH in time");
                kill_tree(&mut child);
                return None;
            }
        }
    }
    let mut out = String::new();
    let stdout = child.stdout.take()?;
    std::io::Read::read_to_string(&mut std::io::Read::take(stdout, 1 << 20), &mut out).ok()?;
    // A profile may print banners: only what sits between the markers counts.
    let start = out.rfind(BEGIN)? + BEGIN.len();
    let len = out[start..].find(END)?;
    let path = out[start..start + len].trim();
    (!path.is_empty()).then(|| OsString::from(path))
}

fn kill_tree(child: &mut std::process::Child) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(child.id()) {
        let _ = nix::sys::signal::killpg(nix::unistd::Pid::from_raw(pid), nix::sys::signal::Signal::SIGKILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// The login shell's PATH, learned once per process (and kept between processes in the data dir); `None` on
/// Windows, without `$SHELL`, or when it fails.
fn login_shell_path() -> Option<&'static OsString> {
    static LOGIN_PATH: OnceLock<Option<OsString>> = OnceLock::new();
    LOGIN_PATH
        .get_or_init(|| {
            if cfg!(windows) {
                return None;
            }
            let shell = std::env::var_os("SHELL").filter(|s| !s.is_empty())?;
            // The shell gets the same minimal environment a server would, never our secrets.
            let current = std::env::var_os("PATH").unwrap_or_default();
            let env = super::env::child_environment(std::env::vars_os(), &current, &Default::default());
            learn_login_path(Path::new(&shell), &env, &crate::paths::login_path_cache())
        })
        .as_ref()
}

/// `shell`'s login PATH for `env`: from `cache` when an earlier process stored it for the same key, else asked of
/// the shell and stored. A failure is not stored, so the next process asks again.
pub(crate) fn learn_login_path(shell: &Path, env: &[(OsString, OsString)], cache: &Path) -> Option<OsString> {
    let key = login_path_cache::key(shell, env);
    if let Some(path) = login_path_cache::read(cache, &key, SystemTime::now(), login_path_cache::MAX_AGE) {
        tracing::debug!(shell = %shell.display(), "PATH from the login shell, as cached");
        return Some(path);
    }
    let found = query_login_path(shell, env, LOGIN_SHELL_TIMEOUT);
    match &found {
        Some(path) => {
            tracing::info!(shell = %shell.display(), "read PATH from the login shell");
            if let Err(e) = login_path_cache::write(cache, &key, path, SystemTime::now()) {
                tracing::warn!(file = %cache.display(), "could not cache the login shell's PATH: {e}");
            }
        }
        None => tracing::warn!("could not read PATH from the login shell; using the app's PATH"),
    }
    found
}

/// The PATH a launch searches and hands to the server: the configured `PATH` if the person set one, otherwise the
/// login shell's PATH followed by any directory of the app's own PATH it lacks.
pub(crate) fn search_path(configured: Option<&str>) -> OsString {
    if let Some(configured) = configured {
        return OsString::from(configured);
    }
    let current = std::env::var_os("PATH").unwrap_or_default();
    match login_shell_path() {
        Some(login) => merge_paths(login, &current),
        None => current,
    }
}

/// `first`, then the directories of `second` not already in it.
pub(crate) fn merge_paths(first: &OsStr, second: &OsStr) -> OsString {
    let mut dirs: Vec<PathBuf> = std::env::split_paths(first).collect();
    for dir in std::env::split_paths(second) {
        if !dirs.contains(&dir) {
            dirs.push(dir);
        }
    }
    std::env::join_paths(dirs).unwrap_or_else(|_| first.to_owned())
}

/// The file to execute for `program`: one with a path separator is used as is (relative to `cwd`), a bare name
/// is looked up in `search_path` (on Windows with the PATHEXT extensions, so `npx` finds `npx.cmd`).
pub(crate) fn resolve_program(program: &Path, search_path: &OsStr, cwd: Option<&Path>) -> Result<PathBuf, Unresolved> {
    let has_separator = program.parent().is_some_and(|p| !p.as_os_str().is_empty());
    if has_separator {
        let path = match (program.is_absolute(), cwd) {
            (true, _) => program.to_path_buf(),
            (false, Some(cwd)) => cwd.join(program),
            (false, None) => std::env::current_dir().map(|d| d.join(program)).unwrap_or_else(|_| program.into()),
        };
        return match std::fs::metadata(&path) {
            Err(_) => Err(Unresolved::Missing { path }),
            Ok(_) if !is_executable(&path) => Err(Unresolved::NotExecutable { path }),
            Ok(_) => Ok(path),
        };
    }
    let names = candidate_names(program.as_os_str(), std::env::var_os("PATHEXT").as_deref());
    for dir in std::env::split_paths(search_path).filter(|d| d.is_absolute()) {
        // Relative PATH entries (".", "") would make the result depend on the cwd: skipped.
        for name in &names {
            let candidate = dir.join(name);
            if is_executable(&candidate) {
                return Ok(candidate);
            }
        }
    }
    Err(Unresolved::NotFound { searched: search_path.to_owned() })
}

/// The file names a bare `program` may have. On Windows a name without extension is tried with each PATHEXT
/// extension (never bare: npm installs an extensionless `npx` shell script beside `npx.cmd`).
#[cfg_attr(not(windows), allow(dead_code))]
pub(crate) fn windows_candidates(program: &OsStr, pathext: Option<&OsStr>) -> Vec<OsString> {
    if Path::new(program).extension().is_some() {
        return vec![program.to_owned()];
    }
    let pathext = pathext.and_then(OsStr::to_str).unwrap_or(".COM;.EXE;.BAT;.CMD");
    pathext
        .split(';')
        .filter(|e| !e.is_empty())
        .map(|ext| {
            let mut name = program.to_owned();
            name.push(ext.to_ascii_lowercase());
            name
        })
        .collect()
}

fn candidate_names(program: &OsStr, pathext: Option<&OsStr>) -> Vec<OsString> {
    if cfg!(windows) { windows_candidates(program, pathext) } else { vec![program.to_owned()] }
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{Unresolved, install_hint};

    /// The launchers servers are published for name what to install; anything else says how to point at it.
    #[test]
    fn a_missing_launcher_says_what_to_install() {
        assert_eq!(install_hint(Path::new("uvx")), "Install uv (it brings uvx), then retry.");
        assert_eq!(install_hint(Path::new("npx")), "Install Node.js (it brings npx and node), then retry.");
        assert_eq!(install_hint(Path::new("/opt/bin/docker")), "Install Docker, and start it, then retry.");
        assert!(install_hint(Path::new("my-server")).contains("full path"));
    }

    /// Not found says how many folders were searched, never the folders themselves.
    #[test]
    fn not_found_never_lists_the_path() {
        let searched = std::env::join_paths(["/a/secret-dir", "/b", "/c"]).expect("path");
        let text = Unresolved::NotFound { searched }.into_io(Path::new("uvx")).to_string();
        assert_eq!(
            text,
            "it is not installed (not found in the 3 folders of PATH). Install uv (it brings uvx), then retry."
        );
    }
}
