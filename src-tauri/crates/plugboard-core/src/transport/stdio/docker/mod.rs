//! `docker run` servers: killing the docker client leaves the container running, so each container Plugboard
//! starts gets a name and a label, is removed with `docker rm -f` when the server stops (cleanup.rs), and is swept
//! at start-up if the Plugboard process that started it is gone (sweep.rs). Each runs with safe defaults the person
//! sees in the approval dialog (run_args.rs). An image that serves HTTP instead of stdio is found and run again on
//! a loopback port (http.rs). It must never touch a container it did not label.

mod cleanup;
pub(crate) mod engine;
pub(crate) mod http;
mod memory;
mod run_args;
mod signs;
mod sweep;

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

pub(crate) use cleanup::DockerCleanup;
pub use run_args::hardened_args;
pub(crate) use run_args::split_run;
#[cfg(test)]
pub(crate) use sweep::sweep_with;
pub use sweep::{DockerSweepError, SweepReport, sweep_docker_leftovers};

/// The label on every container Plugboard starts.
pub(crate) const MANAGED_LABEL: &str = "dev.plugboard.managed=1";
/// The label naming the Plugboard process that started it, for the sweep.
pub(crate) const PID_LABEL_KEY: &str = "dev.plugboard.pid";

/// The variables that tell the docker CLI which engine to use. The CLI gets them from Plugboard's environment (the
/// container never sees them: only what `-e` names reaches it), else it would talk to the default engine while the
/// person's terminal talks to another.
const ENGINE_VARIABLES: &[&str] =
    &["DOCKER_HOST", "DOCKER_CONTEXT", "DOCKER_CONFIG", "DOCKER_CERT_PATH", "DOCKER_TLS_VERIFY", "DOCKER_API_VERSION"];

/// `docker run …` rewritten to carry our name and labels (and the safe defaults).
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

/// If `program args` is `docker run …`, the hardened args ([`hardened_args`]) with `--name
/// plugboard-<server>-<pid>-<n>` (unless the person set `--name`) and our labels inserted right after `run`, and
/// the container's name.
pub(crate) fn plan_run(program: &Path, args: &[String], server: &str, app_pid: u32) -> Option<DockerRun> {
    if !is_docker_run(program, args) {
        return None;
    }
    let hardened = hardened_args(args)?;
    let own_name = split_run(&hardened[1..]).name;
    let container = own_name.clone().unwrap_or_else(|| fresh_name(server, app_pid, ""));
    Some(DockerRun { args: with_identity(&hardened, own_name.is_none().then_some(&container), app_pid), container })
}

/// A container name no other Plugboard process or probe of this one uses: the server, our pid and a sequence.
pub(crate) fn fresh_name(server: &str, app_pid: u32, suffix: &str) -> String {
    static SEQUENCE: AtomicU64 = AtomicU64::new(0);
    let n = SEQUENCE.fetch_add(1, Ordering::Relaxed);
    format!("plugboard-{}-{app_pid}-{n}{suffix}", sanitize(server))
}

/// `run` + `--name` (when given) + our labels + the rest of `args` (which start with `run`).
pub(crate) fn with_identity(args: &[String], name: Option<&String>, app_pid: u32) -> Vec<String> {
    let mut rewritten = vec!["run".to_owned()];
    if let Some(name) = name {
        rewritten.extend(["--name".to_owned(), name.clone()]);
    }
    rewritten.extend(["--label".to_owned(), MANAGED_LABEL.to_owned()]);
    rewritten.extend(["--label".to_owned(), format!("{PID_LABEL_KEY}={app_pid}")]);
    rewritten.extend(args[1..].iter().cloned());
    rewritten
}

/// Docker names allow `[a-zA-Z0-9][a-zA-Z0-9_.-]*`.
fn sanitize(server: &str) -> String {
    let cleaned: String =
        server.chars().map(|c| if c.is_ascii_alphanumeric() || "_.-".contains(c) { c } else { '-' }).take(64).collect();
    if cleaned.is_empty() { "server".into() } else { cleaned }
}

/// The docker CLI's environment for a server configured with `configured`: the server's minimal environment (env.rs)
/// plus the engine variables.
pub(crate) fn client_environment(
    search_path: &OsStr,
    configured: &BTreeMap<String, String>,
) -> Vec<(OsString, OsString)> {
    let env = super::env::child_environment(std::env::vars_os(), search_path, configured);
    with_engine_variables(env, std::env::vars_os())
}

/// The docker CLI's environment: `env` (the server's, already minimal) plus the engine variables of Plugboard's
/// own environment that `env` does not set.
pub(crate) fn with_engine_variables(
    mut env: Vec<(OsString, OsString)>,
    parent: impl IntoIterator<Item = (OsString, OsString)>,
) -> Vec<(OsString, OsString)> {
    for (name, value) in parent {
        let wanted = name.to_str().is_some_and(|n| ENGINE_VARIABLES.contains(&n));
        if wanted && !env.iter().any(|(k, _)| *k == name) {
            env.push((name, value));
        }
    }
    env
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine variables reach the docker CLI from Plugboard's environment, a configured one wins, and nothing
    /// else of the parent's passes.
    #[test]
    fn the_docker_cli_gets_the_engine_variables_only() {
        let os = |k: &str, v: &str| (OsString::from(k), OsString::from(v));
        let env = vec![os("PATH", "/usr/bin"), os("DOCKER_CONTEXT", "configured")];
        let parent = [os("DOCKER_HOST", "unix:///tmp/d.sock"), os("DOCKER_CONTEXT", "parent"), os("AWS_KEY", "x")];
        let got = with_engine_variables(env, parent);
        assert_eq!(
            got,
            [os("PATH", "/usr/bin"), os("DOCKER_CONTEXT", "configured"), os("DOCKER_HOST", "unix:///tmp/d.sock")]
        );
    }
}
