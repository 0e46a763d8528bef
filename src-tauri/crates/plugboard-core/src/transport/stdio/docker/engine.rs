//! Questions Plugboard asks the Docker engine itself: where the CLI is (with the environment that picks the
//! engine), whether the daemon answers (and in words, what to do when it does not), whether an image is present and
//! which ports it exposes, and whether the engine has a bridge network to publish ports on. Blocking calls with a
//! deadline; it only reads, and must never start, pull or remove anything.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::cleanup::{run_bounded, stderr_text};

/// The docker CLI on the login shell's PATH and the environment to run it with, or `None` without one.
pub(crate) fn docker_cli() -> Option<(PathBuf, Vec<(OsString, OsString)>)> {
    let search = super::super::path_resolution::search_path(None);
    let docker = super::super::path_resolution::resolve_program(Path::new("docker"), &search, None).ok()?;
    let env = super::super::env::child_environment(std::env::vars_os(), &search, &Default::default());
    Some((docker, super::with_engine_variables(env, std::env::vars_os())))
}

/// Why the engine does not answer, with what the person can do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EngineProblem {
    /// The daemon is not running (or its socket is elsewhere).
    #[error("the Docker engine is not running: {message}")]
    NotRunning { message: String },
    /// The daemon runs but this user may not use it.
    #[error("this user may not use the Docker engine: {message}")]
    PermissionDenied { message: String },
    /// docker could not be run, or did not answer in time.
    #[error("docker did not answer: {message}")]
    NoAnswer { message: String },
}

impl EngineProblem {
    /// The next thing the person can do about it.
    pub fn what_to_do(&self) -> &'static str {
        match self {
            Self::NotRunning { .. } => {
                "start Docker Desktop, or the service (`sudo systemctl start docker`), then retry; if it runs \
                 elsewhere, set DOCKER_HOST or `docker context use` it"
            }
            Self::PermissionDenied { .. } => {
                "add yourself to the docker group (`sudo usermod -aG docker $USER`, then log in again), or use \
                 Docker Desktop"
            }
            Self::NoAnswer { .. } => "run `docker info` in a terminal and fix what it says",
        }
    }
}

/// The engine's version when the daemon answers `docker version`.
pub(crate) fn daemon_version(docker: &Path, env: &[(OsString, OsString)]) -> Result<String, EngineProblem> {
    let output = run_bounded(docker, env, &["version", "--format", "{{.Server.Version}}"])
        .map_err(|e| EngineProblem::NoAnswer { message: e.to_string() })?;
    if output.status.success() {
        return Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned());
    }
    let message = stderr_text(&output);
    let lower = message.to_lowercase();
    Err(if lower.contains("permission denied") {
        EngineProblem::PermissionDenied { message }
    } else if lower.contains("cannot connect") || lower.contains("is the docker daemon running") {
        EngineProblem::NotRunning { message }
    } else {
        EngineProblem::NoAnswer { message }
    })
}

/// The engine's version, for `docker` (the resolved CLI) run with a server's configured `env` (the doctor).
pub fn docker_engine_version(docker: &Path, env: &BTreeMap<String, String>) -> Result<String, EngineProblem> {
    daemon_version(docker, &environment(env))
}

/// The image `args` (`run …`) names and, when the engine has it, the TCP ports it exposes (`None`: not present,
/// so the first start pulls it); an error in words when docker could not be asked.
pub fn docker_image_ports(
    docker: &Path,
    env: &BTreeMap<String, String>,
    args: &[String],
) -> Result<(String, Option<Vec<u16>>), String> {
    let image = super::http::image_of(args).ok_or("the arguments name no image")?;
    let facts = image_facts(docker, &environment(env), &image).map_err(|e| format!("docker did not answer: {e}"))?;
    Ok((image, facts.map(|f| f.exposed_tcp)))
}

/// The CLI's environment as when the server starts (its PATH finds docker's credential helpers).
fn environment(env: &BTreeMap<String, String>) -> Vec<(OsString, OsString)> {
    let search = super::super::path_resolution::search_path(env.get("PATH").map(String::as_str));
    super::client_environment(&search, env)
}

/// What the engine knows of an image: `None` when it is not present locally.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ImageFacts {
    /// TCP ports the image declares (`EXPOSE 3001`), in order.
    pub exposed_tcp: Vec<u16>,
}

/// `docker image inspect` of `image`: `Ok(None)` when the engine does not have it.
pub(crate) fn image_facts(
    docker: &Path,
    env: &[(OsString, OsString)],
    image: &str,
) -> std::io::Result<Option<ImageFacts>> {
    let output = run_bounded(docker, env, &["image", "inspect", "--format", "{{json .Config.ExposedPorts}}", image])?;
    if !output.status.success() {
        return Ok(None);
    }
    let exposed: Option<std::collections::BTreeMap<String, serde_json::Value>> =
        serde_json::from_slice(&output.stdout).unwrap_or_default();
    let mut exposed_tcp: Vec<u16> = exposed
        .unwrap_or_default()
        .keys()
        .filter_map(|port| port.strip_suffix("/tcp").or(Some(port.as_str())).filter(|p| !p.contains('/')))
        .filter_map(|port| port.parse().ok())
        .collect();
    exposed_tcp.sort_unstable();
    Ok(Some(ImageFacts { exposed_tcp }))
}

/// Whether the engine has the default bridge network (ports can then be published to 127.0.0.1); an engine
/// started with `--bridge=none` has not, and a container must share the host's network to be reached.
pub(crate) fn has_bridge(docker: &Path, env: &[(OsString, OsString)]) -> bool {
    run_bounded(docker, env, &["network", "inspect", "--format", "{{.Name}}", "bridge"])
        .is_ok_and(|o| o.status.success())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each way the daemon can be unreachable gets its own advice.
    #[test]
    fn each_problem_says_what_to_do() {
        let running = EngineProblem::NotRunning { message: String::new() }.what_to_do();
        assert!(running.contains("start Docker Desktop"), "{running}");
        let group = EngineProblem::PermissionDenied { message: String::new() }.what_to_do();
        assert!(group.contains("docker group"), "{group}");
    }
}
