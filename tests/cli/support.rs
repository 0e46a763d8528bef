//! Shared helpers: an isolated set of Plugboard dirs and a way to run the real binary in them.
// Test support panics on purpose: a failed setup step is the clearest failure report a test can give.
#![allow(clippy::expect_used)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use tempfile::TempDir;

/// Config and data dirs of their own, removed when dropped.
pub struct Sandbox {
    root: TempDir,
}

impl Sandbox {
    pub fn new() -> Self {
        Self { root: tempfile::tempdir().expect("temp dir") }
    }

    pub fn config_dir(&self) -> PathBuf {
        self.root.path().join("config")
    }

    pub fn data_dir(&self) -> PathBuf {
        self.root.path().join("data")
    }

    /// The HOME the binary sees; other clients' config files are planted under it.
    pub fn home(&self) -> PathBuf {
        self.root.path().join("home")
    }

    /// Writes a file under HOME (creating folders), e.g. `.cursor/mcp.json`.
    pub fn write_home_file(&self, relative: &str, text: &str) -> PathBuf {
        let path = self.home().join(relative);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dirs");
        std::fs::write(&path, text).expect("write home file");
        path
    }

    /// The whole sandbox, for scanning every file the app may have written.
    pub fn root(&self) -> &Path {
        self.root.path()
    }

    /// Writes `servers.json` with the given text.
    pub fn write_config(&self, text: &str) -> PathBuf {
        std::fs::create_dir_all(self.config_dir()).expect("config dir");
        let path = self.config_dir().join("servers.json");
        std::fs::write(&path, text).expect("write config");
        path
    }

    /// Runs the `plugboard` binary with these dirs and no display, as a headless shell would.
    pub fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("run plugboard")
    }

    /// `plugboard approve --all --yes`: the test, as the person, approves every server it configured.
    pub fn approve_all(&self) {
        let approved = self.run(&["approve", "--all", "--yes"]);
        assert!(approved.status.success(), "approve --all: {}", String::from_utf8_lossy(&approved.stderr));
    }

    /// Runs the binary with `input` on stdin.
    pub fn run_with_stdin(&self, args: &[&str], input: &str) -> Output {
        output_with_stdin(self.command(args), input)
    }

    /// The command with the sandbox's environment; the D-Bus session (the keychain) is inherited.
    pub fn command(&self, args: &[&str]) -> Command {
        self.command_of(Path::new(env!("CARGO_BIN_EXE_plugboard")), args)
    }

    /// `program` (a copy of the binary, say) with the sandbox's environment.
    pub fn command_of(&self, program: &Path, args: &[&str]) -> Command {
        std::fs::create_dir_all(self.home()).expect("home");
        let mut command = Command::new(program);
        command
            .args(args)
            .current_dir(self.home())
            .env("HOME", self.home())
            .env("XDG_CONFIG_HOME", self.home().join(".config"))
            .env("XDG_DATA_HOME", self.home().join(".local/share"))
            .env("PLUGBOARD_CONFIG_DIR", self.config_dir())
            .env("PLUGBOARD_DATA_DIR", self.data_dir())
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .env_remove("PLUGBOARD_LOG");
        command
    }
}

/// Runs `command` with `input` on stdin and collects its output.
pub fn output_with_stdin(mut command: Command, input: &str) -> Output {
    let mut child = command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write stdin");
    child.wait_with_output().expect("wait")
}

/// The repository root (the app package's manifest dir).
/// The repository's root (this crate lives three folders below it).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// No process whose command line holds `marker` is left once `within` has passed.
pub fn assert_gone_within(marker: &str, within: std::time::Duration) {
    let deadline = std::time::Instant::now() + within;
    while std::time::Instant::now() < deadline {
        let found = Command::new("pgrep").args(["-f", marker]).output().expect("pgrep");
        if found.stdout.is_empty() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_no_process_with(marker);
}

/// No process whose command line holds `marker` is still running.
pub fn assert_no_process_with(marker: &str) {
    let found = Command::new("pgrep").args(["-f", marker]).output().expect("pgrep");
    assert!(found.stdout.is_empty(), "left behind: {}", String::from_utf8_lossy(&found.stdout));
}

/// Every file under `dir`, except `skip`, that contains `needle`.
pub fn files_containing(dir: &Path, needle: &str, skip: &[PathBuf]) -> Vec<String> {
    every_file(dir, skip)
        .into_iter()
        .filter(|(_, bytes)| bytes.windows(needle.len()).any(|w| w == needle.as_bytes()))
        .map(|(path, _)| path.display().to_string())
        .collect()
}

/// Every file under `dir` but `skip`, with its bytes.
pub fn every_file(dir: &Path, skip: &[PathBuf]) -> Vec<(PathBuf, Vec<u8>)> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(std::fs::read_dir(&path).into_iter().flatten().flatten().map(|e| e.path()));
        } else if !skip.contains(&path)
            && let Ok(bytes) = std::fs::read(&path)
        {
            found.push((path, bytes));
        }
    }
    found
}

/// A free TCP port on 127.0.0.1 (taken and released: a moment's race, fine on the test's own machine).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind(("127.0.0.1", 0)).and_then(|l| l.local_addr()).map(|a| a.port()).expect("free port")
}

/// Waits until something accepts connections on 127.0.0.1:`port`; `what` names it if it never does (20 s).
pub fn wait_listening(port: u16, what: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(std::time::Instant::now() < deadline, "{what} did not listen on {port}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// The npm reference server the engine tests run (`make deps` installs it into tests/node_modules).
pub fn everything() -> String {
    let bin = repo_root().join("tests/node_modules/.bin/mcp-server-everything");
    assert!(bin.exists(), "{} is missing: run `make deps`", bin.display());
    bin.display().to_string()
}

/// Copies the executable `from` to `to` with `cp`, so `to` is never open for writing in this process: a child another
/// test thread forks meanwhile would hold it open until its own exec, and running `to` then fails with "Text file
/// busy" (ETXTBSY), as a CI run saw.
pub fn copy_executable(from: &Path, to: &Path) {
    let copied = Command::new("cp").arg(from).arg(to).status().expect("run cp");
    assert!(copied.success(), "cp {} {}", from.display(), to.display());
}

/// Writes `body` as an executable at `path`, by way of a draft beside it and [`copy_executable`].
pub fn write_executable(path: &Path, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    let name = path.file_name().expect("a file name").to_string_lossy();
    let draft = path.with_file_name(format!(".{name}.draft"));
    std::fs::write(&draft, body).expect("write the draft");
    std::fs::set_permissions(&draft, std::fs::Permissions::from_mode(0o755)).expect("chmod the draft");
    copy_executable(&draft, path);
}
