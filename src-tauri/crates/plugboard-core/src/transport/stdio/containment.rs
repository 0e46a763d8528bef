//! How a server's process tree is tied to Plugboard so that nothing outlives it, even a `kill -9` of the app, for a
//! normal user. Every server leads its own process group (Unix) or Job Object (Windows). On Linux it also runs under
//! `plugboard-keeper` (keeper.rs): a small process, found beside Plugboard's own binary, that hears Plugboard die
//! (a parent-death signal it sets itself, first thing) and, as the subreaper of everything below it, ends the whole
//! tree. The keeper's command line names only the app; the server's launch reaches it on stdin (launch.rs), so a
//! keeper can be started before the approval check ends (warm_keepers.rs). Without the keeper binary the server
//! itself gets SIGKILL when the app dies (its children may survive that). Nothing here needs privileges. It must
//! never wrap through a shell, nor find the keeper through PATH.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// How strongly a launched server is tied to the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Containment {
    /// Its own process group: stopped as a whole by our guard; a `kill -9` of the app leaves it running.
    ProcessGroup,
    /// Process group, and the server gets SIGKILL when the app dies (its own children may survive that): Linux when
    /// the keeper binary is missing.
    ParentDeathSignal,
    /// Process group under `plugboard-keeper`: when the app dies, however it dies, the whole tree dies, including a
    /// process that left the group.
    Keeper,
    /// A Windows Job Object that kills the tree when its last handle (ours) closes, even if the app crashes.
    JobObject,
}

/// What the caller asks for. Tests ask for the bare group to exercise the group-killing code path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum ContainmentPolicy {
    #[default]
    Strongest,
    #[cfg_attr(not(test), allow(dead_code))]
    ProcessGroupOnly,
}

/// The keeper's file name, beside the `plugboard` and `plugboard-desktop` binaries.
pub const KEEPER_BINARY: &str = "plugboard-keeper";

/// The signal the keeper gets when Plugboard dies (its parent-death signal). Not SIGTERM: that one the keeper must
/// ignore, since our guard sends it to the whole group and the keeper has to outlive its server to clean up.
#[cfg(target_os = "linux")]
pub(crate) const KEEPER_DEATH_SIGNAL: nix::sys::signal::Signal = nix::sys::signal::Signal::SIGUSR1;

/// Blocked by the keeper first thing, before it starts its server: the ones it waits for, and the ones meant for its
/// server (one that comes before is harmless: the keeper dies of it with no server started yet).
#[cfg(target_os = "linux")]
pub(crate) const KEEPER_BLOCKED: [nix::sys::signal::Signal; 6] = {
    use nix::sys::signal::Signal::{SIGCHLD, SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    [KEEPER_DEATH_SIGNAL, SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGQUIT]
};

/// The keeper binary beside the running one (or, for cargo's test binaries in `deps/`, one folder up), probed once.
fn keeper() -> Option<&'static Path> {
    static KEEPER: OnceLock<Option<PathBuf>> = OnceLock::new();
    KEEPER
        .get_or_init(|| {
            let found = find_keeper(std::env::current_exe().ok()?.parent()?);
            match &found {
                Some(path) => tracing::info!(keeper = %path.display(), "stdio servers run under the keeper"),
                None => tracing::warn!(
                    "{KEEPER_BINARY} is not installed beside Plugboard: a server's children may outlive a crash of the app"
                ),
            }
            found
        })
        .as_deref()
}

fn find_keeper(dir: &Path) -> Option<PathBuf> {
    let beside = dir.join(KEEPER_BINARY);
    if beside.is_file() {
        return Some(beside);
    }
    // cargo puts test binaries in target/<profile>/deps and the other binaries one folder up.
    let up = dir.file_name().is_some_and(|n| n == "deps").then(|| dir.parent()).flatten()?.join(KEEPER_BINARY);
    up.is_file().then_some(up)
}

/// The argv to spawn for `program args`, and how it is contained. Under the keeper that is the keeper with only
/// `--parent PID`: the server's program, arguments, environment and folder reach it on its stdin (launch.rs).
pub(crate) fn wrap(
    policy: ContainmentPolicy,
    program: &Path,
    args: &[String],
) -> (PathBuf, Vec<OsString>, Containment) {
    let plain = || (program.to_path_buf(), args.iter().map(OsString::from).collect(), Containment::ProcessGroup);
    if cfg!(windows) {
        let (program, args, _) = plain();
        return (program, args, Containment::JobObject);
    }
    if policy != ContainmentPolicy::Strongest || !cfg!(target_os = "linux") {
        return plain();
    }
    let Some(keeper) = keeper() else {
        let (program, args, _) = plain();
        return (program, args, Containment::ParentDeathSignal);
    };
    (keeper.to_path_buf(), keeper_args(), Containment::Keeper)
}

/// The keeper's whole command line: the app it watches.
pub(crate) fn keeper_args() -> Vec<OsString> {
    vec!["--parent".into(), std::process::id().to_string().into()]
}

/// The keeper beside this binary, on Linux, where stdio servers run under it.
pub(crate) fn linux_keeper() -> Option<&'static Path> {
    if cfg!(target_os = "linux") { keeper() } else { None }
}

/// Between fork and exec of a server started without the keeper: its parent-death signal (SIGKILL), and a check that
/// the app did not die before it was set (it would never come then). The keeper needs no such step: it sets its own
/// death signal and signal mask first thing and then checks its parent the same way, so its spawn has no pre-exec
/// closure and the standard library starts it with posix_spawn (a vfork) rather than fork. A fork copies the app's
/// page tables and then makes the app fault on every page it writes until the child has exec'd; with 50 servers
/// starting at once that was a quarter of the start's CPU time.
#[cfg(target_os = "linux")]
#[allow(unsafe_code, reason = "pre_exec is unsafe: the closure runs between fork and exec")]
pub(crate) fn tie_to_app(command: &mut tokio::process::Command, containment: Containment) {
    use nix::sys::signal::Signal;
    if containment != Containment::ParentDeathSignal {
        return;
    }
    let app = nix::unistd::getpid();
    // SAFETY: in the forked child only async-signal-safe calls may run. prctl and getppid are bare system calls:
    // nothing allocates or takes a lock.
    unsafe {
        command.pre_exec(move || {
            nix::sys::prctl::set_pdeathsig(Signal::SIGKILL)?;
            if nix::unistd::getppid() != app {
                return Err(std::io::Error::other("Plugboard exited while starting the server"));
            }
            Ok(())
        });
    }
}

/// Runs `job` on the one long-lived spawner thread. PR_SET_PDEATHSIG fires when the *thread* that forked the child
/// exits, not the process: spawning from a pooled thread (spawn_blocking, which exits after ~10 s idle) would
/// kill healthy servers. `Err(job)` back if the thread is gone, so the caller can run it itself.
pub(crate) fn on_spawner_thread(job: Job) -> Result<(), Job> {
    match spawner() {
        Some(sender) => sender.send(job).map_err(|e| e.0),
        None => Err(job),
    }
}

/// Starts the spawner thread now, if it is not running yet: a first spawn then only hands it its job. Starting a
/// thread is a few hundred microseconds of the first server's start (a cold `plugboard call`'s) otherwise.
pub fn start_spawner_thread() {
    let _ = spawner();
}

fn spawner() -> &'static Option<std::sync::mpsc::Sender<Job>> {
    static SPAWNER: OnceLock<Option<std::sync::mpsc::Sender<Job>>> = OnceLock::new();
    SPAWNER.get_or_init(|| {
        let (tx, rx) = std::sync::mpsc::channel::<Job>();
        let started = std::thread::Builder::new().name("plugboard-spawner".into()).spawn(move || {
            for job in rx {
                job();
            }
        });
        started.ok().map(|_| tx)
    })
}

type Job = Box<dyn FnOnce() + Send>;

/// Returns once every job handed to the spawner thread before this call has run (it runs them in order).
#[cfg(test)]
pub(crate) fn spawner_caught_up() {
    let (tx, rx) = std::sync::mpsc::channel();
    if on_spawner_thread(Box::new(move || {
        let _ = tx.send(());
    }))
    .is_ok()
    {
        let _ = rx.recv();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keeper is found beside the binary, or one folder up from cargo's `deps/`, and nowhere else.
    #[test]
    fn the_keeper_is_found_beside_the_binary_or_above_deps() {
        let root = tempfile::tempdir().unwrap();
        let deps = root.path().join("deps");
        std::fs::create_dir(&deps).unwrap();
        assert_eq!(find_keeper(&deps), None);
        std::fs::write(root.path().join(KEEPER_BINARY), "").unwrap();
        assert_eq!(find_keeper(&deps), Some(root.path().join(KEEPER_BINARY)));
        let other = root.path().join("bin");
        std::fs::create_dir(&other).unwrap();
        assert_eq!(find_keeper(&other), None, "only cargo's deps/ looks one folder up");
        std::fs::write(other.join(KEEPER_BINARY), "").unwrap();
        assert_eq!(find_keeper(&other), Some(other.join(KEEPER_BINARY)));
    }
}
