//! The start-up sweep of containers: every container Plugboard labelled whose starting process is gone is removed
//! with `docker rm -f`. It must never remove a container without our label, nor one whose process still runs.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::cleanup::{run_bounded, stderr_text};
use super::{MANAGED_LABEL, PID_LABEL_KEY};

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
    let Some((docker, env)) = super::engine::docker_cli() else { return Ok(SweepReport::default()) };
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
        return Err(DockerSweepError::Docker { message: stderr_text(&listing) });
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
