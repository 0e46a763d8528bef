//! The sides of a comparison as processes: where each program is (the release binaries beside this one, Node 22 and
//! the Python SDK's venv under .tools), how a side is launched (pinned with its server to one CPU for stdio), and
//! the line protocol that asks a running side for a round. It must never time a call itself: a side times its own.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use anyhow::{Context, bail};
use plugboard_bench::{Round, Tool, run_line};
use plugboard_core::transport::KEEPER_BINARY;

use crate::home::Home;
use crate::installed::Installed;

/// Every program the suite runs; a missing SDK runtime is `None` and its sides are skipped, said so. The binaries it
/// times are copies (installed.rs), the build's and the baseline's alike.
pub struct Programs {
    pub release: PathBuf,
    pub driver: PathBuf,
    pub rmcp_call: PathBuf,
    pub testserver: PathBuf,
    pub plugboard: PathBuf,
    /// Another `plugboard` to run beside this build's in the same rounds, see [`baseline_plugboard`].
    pub baseline: Option<PathBuf>,
    pub repo: PathBuf,
    pub node22: Option<PathBuf>,
    pub python: Option<PathBuf>,
    /// Holds the copies.
    _installed: Installed,
}

impl Programs {
    pub fn find() -> anyhow::Result<Programs> {
        let exe = std::env::current_exe()?;
        let release = exe.parent().context("the suite's folder")?.to_path_buf();
        let repo = std::env::var_os("PLUGBOARD_REPO")
            .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.."), PathBuf::from);
        // The keeper too: Plugboard runs every stdio server under it, and a side without it would not be as installed.
        // The driver too: its fleets find the keeper beside it.
        let built =
            ["plugboard-bench-rmcp-call", "plugboard-testserver", "plugboard", "plugboard-bench-driver", KEEPER_BINARY]
                .map(|n| release.join(n));
        for needed in &built {
            if !needed.exists() {
                bail!(
                    "{} is missing: cargo build --release -p plugboard-bench -p plugboard-testservers -p plugboard-cli \
                     -p plugboard-core (make bench does)",
                    needed.display()
                );
            }
        }
        let installed = Installed::new().context("a folder for the binaries' copies")?;
        let copies = installed.install("build", &built.each_ref().map(PathBuf::as_path))?;
        let [rmcp_call, testserver, plugboard, driver, _keeper]: [PathBuf; 5] =
            copies.try_into().map_err(|_| anyhow::anyhow!("a copy is missing"))?;
        let baseline = match baseline_plugboard() {
            Some(baseline) => {
                let keeper = baseline.with_file_name(KEEPER_BINARY);
                let files: Vec<&Path> = [baseline.as_path(), &keeper].into_iter().filter(|f| f.exists()).collect();
                installed.install("baseline", &files)?.into_iter().next()
            }
            None => None,
        };
        Ok(Programs {
            driver,
            rmcp_call,
            testserver,
            plugboard,
            baseline,
            node22: node22(&repo),
            python: Some(repo.join(".tools/py/bin/python3")).filter(|p| p.exists()),
            repo,
            release,
            _installed: installed,
        })
    }

    pub fn node_driver(&self) -> PathBuf {
        self.repo.join("tests/bench/driver.mjs")
    }

    pub fn python_driver(&self) -> PathBuf {
        self.repo.join("tests/bench/driver.py")
    }
}

/// Another `plugboard` binary to run beside this build's in the same rounds (`PLUGBOARD_BENCH_BASELINE`: a build from
/// before a change, with its keeper beside it if it uses one), so that a change is judged paired, not across runs.
fn baseline_plugboard() -> Option<PathBuf> {
    std::env::var_os("PLUGBOARD_BENCH_BASELINE").map(PathBuf::from)
}

/// Node >= 22 for the TypeScript SDK: the PATH's when recent enough, else the one install-deps.sh puts in .tools.
fn node22(repo: &Path) -> Option<PathBuf> {
    let recent = |node: &Path| {
        Command::new(node)
            .args(["-e", "process.exit(+process.versions.node.split('.')[0] >= 22 ? 0 : 1)"])
            .status()
            .is_ok_and(|s| s.success())
    };
    [PathBuf::from("node"), repo.join(".tools/node22/bin/node")].into_iter().find(|node| recent(node))
}

/// A side's arguments, each anything that converts into an `OsString` (text, paths).
#[macro_export]
macro_rules! args {
    ($($arg:expr),* $(,)?) => { vec![$(std::ffi::OsString::from($arg)),*] };
}

/// How to launch one side.
#[derive(Debug, Clone)]
pub struct SideSpec {
    pub label: String,
    pub program: PathBuf,
    pub args: Vec<OsString>,
    /// Run it (and the server it starts) on one CPU only.
    pub pinned: bool,
}

impl SideSpec {
    pub fn new(label: &str, program: &Path, args: Vec<OsString>, pinned: bool) -> SideSpec {
        SideSpec { label: label.to_owned(), program: program.to_owned(), args, pinned }
    }

    pub fn command(&self, home: &Home) -> Command {
        let mut command = if self.pinned {
            let mut taskset = Command::new("taskset");
            taskset.args(["-c", &pinned_cpu().to_string()]).arg(&self.program);
            taskset
        } else {
            Command::new(&self.program)
        };
        command.args(&self.args);
        home.apply(&mut command);
        command
    }
}

/// The CPU pinned sides share: the last one, away from CPU 0's interrupts and the suite's own work.
pub fn pinned_cpu() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()) - 1
}

/// A running side that answers rounds.
pub struct Driver {
    pub label: String,
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Driver {
    /// Launches `spec` and waits for its `ready`.
    pub fn start(spec: &SideSpec, home: &Home) -> anyhow::Result<Driver> {
        let mut child = spec
            .command(home)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .with_context(|| format!("cannot start {}", spec.program.display()))?;
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().context("stdout")?);
        let mut driver = Driver { label: spec.label.clone(), child, stdin, stdout };
        let line = driver.line()?;
        if line.trim() != "ready" {
            bail!("{} did not start: {line}", spec.label);
        }
        Ok(driver)
    }

    pub fn round(&mut self, tool: Tool, calls: usize, concurrency: usize) -> anyhow::Result<Round> {
        let stdin = self.stdin.as_mut().context("closed")?;
        writeln!(stdin, "{}", run_line(tool, calls, concurrency))?;
        stdin.flush()?;
        let line = self.line()?;
        Round::parse(&line).with_context(|| format!("{}: not a round: {:.200}", self.label, line))
    }

    fn line(&mut self) -> anyhow::Result<String> {
        let mut line = String::new();
        if self.stdout.read_line(&mut line)? == 0 {
            bail!("{} exited", self.label);
        }
        Ok(line)
    }
}

impl Drop for Driver {
    /// Closing stdin ends the side (and its server) cleanly; one that does not end in 5 s is killed.
    fn drop(&mut self) {
        self.stdin.take();
        for _ in 0..50 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
