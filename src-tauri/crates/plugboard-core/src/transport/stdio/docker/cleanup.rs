//! Removing a container Plugboard started: `docker rm -f <name>` with the same docker binary and environment that
//! ran it, awaited (bounded) or, from a destructor, started and reaped on a thread; and running a short docker
//! command with a deadline. It must never remove a container by anything but the name Plugboard gave or recorded.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

/// How long `docker rm -f` / `docker ps` may take before we give up on them.
pub(crate) const DOCKER_TIMEOUT: Duration = Duration::from_secs(20);

/// What is needed to remove one container: the same docker binary and environment (DOCKER_HOST, contexts).
#[derive(Debug, Clone)]
pub(crate) struct DockerCleanup {
    pub docker: PathBuf,
    pub container: String,
    pub env: Vec<(OsString, OsString)>,
    /// Removed before the staged shutdown rather than after: an HTTP server's container (or a probe that turned
    /// out to be one) does not end when its stdin closes, so waiting for that would only cost the grace.
    pub first: bool,
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

/// Runs `docker args` to completion within [`DOCKER_TIMEOUT`], capturing (at most 4 MiB of) its output. Blocking.
pub(crate) fn run_bounded(
    docker: &Path,
    env: &[(OsString, OsString)],
    args: &[&str],
) -> std::io::Result<std::process::Output> {
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

/// The first 500 characters of a failed docker command's stderr, for an error message.
pub(crate) fn stderr_text(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).trim().chars().take(500).collect()
}
