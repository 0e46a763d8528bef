//! `docker run` servers: killing the docker client leaves the container running, so each container Plugboard
//! starts gets a name and a label, is removed with `docker rm -f` when the server stops, and is swept at start-up
//! if the Plugboard process that started it is gone. It must never touch a container it did not label.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The label on every container Plugboard starts.
pub(crate) const MANAGED_LABEL: &str = "dev.plugboard.managed=1";
/// The label naming the Plugboard process that started it, for the sweep.
const PID_LABEL_KEY: &str = "dev.plugboard.pid";
/// How long `docker rm -f` / `docker ps` may take before we give up on them.
const DOCKER_TIMEOUT: Duration = Duration::from_secs(20);

/// `docker run …` rewritten to carry our name and labels.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct DockerRun {
    pub args: Vec<String>,
    pub container: String,
}

/// Whether `program args` runs a container (`docker run …`): such servers leave containers behind when a Plugboard
/// process dies, so long-running engines sweep for them.
pub fn is_docker_run(program: &Path, args: &[String]) -> bool {
    program.file_stem().and_then(|s| s.to_str()).is_some_and(|stem| stem.eq_ignore_ascii_case("docker"))
        && args.first().map(String::as_str) == Some("run")
}

/// If `program args` is `docker run …`, the args with `--name plugboard-<server>-<pid>-<n>` (unless the person
/// set `--name`) and our labels inserted right after `run`, and the container's name.
pub(crate) fn plan_run(program: &Path, args: &[String], server: &str, app_pid: u32) -> Option<DockerRun> {
    if !is_docker_run(program, args) {
        return None;
    }
    // `docker run` options end at the image: a `--name` after it belongs to the server, not to docker.
    let own_name = find_name(&args[1..]);
    let container = own_name.clone().unwrap_or_else(|| {
        static SEQUENCE: AtomicU64 = AtomicU64::new(0);
        let n = SEQUENCE.fetch_add(1, Ordering::Relaxed);
        format!("plugboard-{}-{app_pid}-{n}", sanitize(server))
    });
    let mut rewritten = vec!["run".to_owned()];
    if own_name.is_none() {
        rewritten.extend(["--name".to_owned(), container.clone()]);
    }
    rewritten.extend(["--label".to_owned(), MANAGED_LABEL.to_owned()]);
    rewritten.extend(["--label".to_owned(), format!("{PID_LABEL_KEY}={app_pid}")]);
    rewritten.extend(args[1..].iter().cloned());
    Some(DockerRun { args: rewritten, container })
}

/// The value of `--name x` / `--name=x` among docker's options, which end at the image (a `--name` after the image
/// is the server's own argument).
fn find_name(options: &[String]) -> Option<String> {
    let mut it = options.iter();
    while let Some(arg) = it.next() {
        if arg == "--" || !arg.starts_with('-') {
            return None;
        }
        if let Some(value) = arg.strip_prefix("--name=") {
            return Some(value.to_owned());
        }
        if arg == "--name" {
            return it.next().cloned();
        }
        if !arg.contains('=') && !is_boolean_flag(arg) {
            // `-e TOKEN`, `-v a:b`: the next argument is this flag's value, not the image.
            it.next();
        }
    }
    None
}

/// `docker run`'s flags that take no value (`-it` is `-i -t`).
fn is_boolean_flag(arg: &str) -> bool {
    const LONG: &[&str] = &[
        "--detach",
        "--interactive",
        "--tty",
        "--rm",
        "--init",
        "--privileged",
        "--read-only",
        "--publish-all",
        "--oom-kill-disable",
        "--no-healthcheck",
        "--sig-proxy",
        "--quiet",
        "--help",
        "--use-api-socket",
    ];
    match arg.strip_prefix("--") {
        Some(_) => LONG.contains(&arg),
        None => arg.len() > 1 && arg[1..].chars().all(|c| "dithPq".contains(c)),
    }
}

/// Docker names allow `[a-zA-Z0-9][a-zA-Z0-9_.-]*`.
fn sanitize(server: &str) -> String {
    let cleaned: String =
        server.chars().map(|c| if c.is_ascii_alphanumeric() || "_.-".contains(c) { c } else { '-' }).take(64).collect();
    if cleaned.is_empty() { "server".into() } else { cleaned }
}

/// What is needed to remove one container: the same docker binary and environment (DOCKER_HOST, contexts).
#[derive(Debug, Clone)]
pub(crate) struct DockerCleanup {
    pub docker: PathBuf,
    pub container: String,
    pub env: Vec<(OsString, OsString)>,
}

impl DockerCleanup {
    fn command(&self) -> std::process::Command {
        let mut command = std::process::Command::new(&self.docker);
        command.args(["rm", "-f", &self.container]).env_clear().envs(self.env.iter().cloned());
        command.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
        command
    }

    /// `docker rm -f <name>`, awaited (bounded).
    pub(crate) async fn remove(&self) {
        let mut command = tokio::process::Command::from(self.command());
        command.kill_on_drop(true);
        match tokio::time::timeout(DOCKER_TIMEOUT, command.status()).await {
            Ok(Ok(_)) => tracing::info!(container = %self.container, "removed the server's container"),
            Ok(Err(e)) => tracing::warn!(container = %self.container, error = %e, "docker rm -f failed to start"),
            Err(_) => tracing::warn!(container = %self.container, "docker rm -f did not finish in time"),
        }
    }

    /// `docker rm -f <name>` from a destructor: started now, reaped by a detached thread, so it completes even if
    /// the app exits meanwhile (the sweep at next start-up catches the rest).
    pub(crate) fn remove_detached(&self) {
        match self.command().spawn() {
            Ok(mut child) => {
                let _ = std::thread::Builder::new().name("plugboard-docker-rm".into()).spawn(move || child.wait());
            }
            Err(e) => tracing::warn!(container = %self.container, error = %e, "docker rm -f failed to start"),
        }
    }
}

/// Why the start-up sweep could not run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DockerSweepError {
    /// `docker` ran but failed (the engine is stopped, permission denied, …).
    #[error("`docker ps` failed: {message}")]
    Docker { message: String },
    /// `docker` could not be started or did not answer in time.
    #[error("could not run docker: {0}")]
    Io(#[from] std::io::Error),
}

impl DockerSweepError {
    /// A stopped engine or a slow answer may be fine on the next try.
    pub fn is_transient(&self) -> bool {
        match self {
            Self::Docker { .. } => true,
            Self::Io(e) => e.kind() == std::io::ErrorKind::TimedOut,
        }
    }
}

/// What the sweep found and removed.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct SweepReport {
    /// Where docker was found; `None` means there is no docker, so nothing to sweep.
    pub docker: Option<PathBuf>,
    /// Containers removed because the Plugboard process that started them is gone.
    pub removed: Vec<String>,
    /// Labelled containers left alone because their Plugboard process is still running.
    pub kept: Vec<String>,
}

/// Removes the containers Plugboard labelled whose starting process no longer exists. Blocking (it runs docker):
/// call it from a blocking thread at start-up.
pub fn sweep_docker_leftovers() -> Result<SweepReport, DockerSweepError> {
    let search = super::path_resolution::search_path(None);
    let Ok(docker) = super::path_resolution::resolve_program(Path::new("docker"), &search, None) else {
        return Ok(SweepReport::default());
    };
    let env = super::env::child_environment(std::env::vars_os(), &search, &Default::default());
    sweep_with(&docker, &env, process_exists)
}

/// The sweep against a given docker binary and environment; `alive` says whether a pid still runs.
pub(crate) fn sweep_with(
    docker: &Path,
    env: &[(OsString, OsString)],
    alive: impl Fn(u32) -> bool,
) -> Result<SweepReport, DockerSweepError> {
    let format = format!("{{{{.Names}}}}\t{{{{.Label \"{PID_LABEL_KEY}\"}}}}");
    let filter = format!("label={MANAGED_LABEL}");
    let listing = run_bounded(docker, env, &["ps", "-a", "--filter", &filter, "--format", &format])?;
    if !listing.status.success() {
        let message = String::from_utf8_lossy(&listing.stderr).trim().chars().take(500).collect();
        return Err(DockerSweepError::Docker { message });
    }
    let mut report = SweepReport { docker: Some(docker.to_path_buf()), ..SweepReport::default() };
    for line in String::from_utf8_lossy(&listing.stdout).lines() {
        let mut fields = line.split('\t');
        let (Some(name), pid) = (fields.next().filter(|n| !n.is_empty()), fields.next()) else { continue };
        // A container without our pid label (or an unparsable one) is not provably orphaned: keep it.
        match pid.and_then(|p| p.trim().parse::<u32>().ok()) {
            Some(pid) if !alive(pid) => report.removed.push(name.to_owned()),
            _ => report.kept.push(name.to_owned()),
        }
    }
    if !report.removed.is_empty() {
        let mut args = vec!["rm", "-f"];
        args.extend(report.removed.iter().map(String::as_str));
        let removed = run_bounded(docker, env, &args)?;
        if !removed.status.success() {
            tracing::warn!(containers = ?report.removed, "docker rm -f of leftover containers reported an error");
        }
        tracing::info!(containers = ?report.removed, "removed containers left by earlier Plugboard processes");
    }
    Ok(report)
}

fn run_bounded(docker: &Path, env: &[(OsString, OsString)], args: &[&str]) -> std::io::Result<std::process::Output> {
    let mut child = std::process::Command::new(docker)
        .args(args)
        .env_clear()
        .envs(env.iter().cloned())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    // Read on threads so a large listing cannot block the child on a full pipe while we wait.
    let stdout = child.stdout.take().map(|s| std::thread::spawn(move || read_all(s)));
    let stderr = child.stderr.take().map(|s| std::thread::spawn(move || read_all(s)));
    let deadline = std::time::Instant::now() + DOCKER_TIMEOUT;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if std::time::Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "docker did not answer in time"));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let join = |h: Option<std::thread::JoinHandle<Vec<u8>>>| h.and_then(|h| h.join().ok()).unwrap_or_default();
    Ok(std::process::Output { status, stdout: join(stdout), stderr: join(stderr) })
}

fn read_all(mut pipe: impl std::io::Read) -> Vec<u8> {
    let mut out = Vec::new();
    let _ = std::io::Read::read_to_end(&mut std::io::Read::take(&mut pipe, 4 << 20), &mut out);
    out
}

/// Whether a process with this pid exists (EPERM means it exists but is not ours).
#[cfg(unix)]
fn process_exists(pid: u32) -> bool {
    let Ok(pid) = i32::try_from(pid) else { return false };
    pid > 0 && nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None) != Err(nix::errno::Errno::ESRCH)
}

/// Without a cheap liveness check, every container is treated as still owned (never removes a live one).
#[cfg(not(unix))]
fn process_exists(_pid: u32) -> bool {
    true
}
