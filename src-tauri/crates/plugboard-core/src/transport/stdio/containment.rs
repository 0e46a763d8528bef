//! How a server's process tree is tied to Plugboard so that nothing outlives it, even a `kill -9` of the app.
//! Every server leads its own process group (Unix) or Job Object (Windows). On Linux it is also wrapped, where the
//! system permits, in `setpriv --pdeathsig KILL` (the server dies with the app) and `unshare --pid --fork
//! --kill-child` (its whole tree dies with it). Both are probed once. It must never wrap through a shell.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// How strongly a launched server is tied to the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Containment {
    /// Its own process group: stopped as a whole by our guard; a `kill -9` of the app leaves it running.
    ProcessGroup,
    /// Process group, and the server gets SIGKILL when the app dies (its own children may survive that).
    ParentDeathSignal,
    /// Process group, death signal and its own PID namespace: when the app dies, the whole tree dies.
    PidNamespace,
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

/// The wrappers this system allows, probed once per process.
#[derive(Debug, Default)]
struct Available {
    setpriv: Option<PathBuf>,
    unshare: Option<PathBuf>,
}

/// Only well-known system locations: a wrapper found through the person's PATH could be anything.
#[cfg(target_os = "linux")]
const SYSTEM_DIRS: &[&str] = &["/usr/bin", "/bin", "/usr/sbin", "/sbin"];

#[cfg(target_os = "linux")]
fn available() -> &'static Available {
    static AVAILABLE: OnceLock<Available> = OnceLock::new();
    AVAILABLE.get_or_init(|| {
        let find = |name: &str| SYSTEM_DIRS.iter().map(|d| Path::new(d).join(name)).find(|p| p.is_file());
        let works = |program: &Path, args: &[&str]| {
            std::process::Command::new(program)
                .args(args)
                .env_clear()
                .env("PATH", "/usr/bin:/bin")
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        };
        let setpriv = find("setpriv").filter(|p| works(p, &["--pdeathsig", "KILL", "--", "true"]));
        // An unprivileged user without user namespaces gets EPERM here: then the tree is only group-contained.
        let unshare = find("unshare").filter(|p| works(p, &["--pid", "--fork", "--kill-child", "--", "true"]));
        tracing::info!(
            death_signal = setpriv.is_some(),
            pid_namespace = unshare.is_some(),
            "probed how stdio servers can be tied to the app"
        );
        Available { setpriv, unshare }
    })
}

#[cfg(not(target_os = "linux"))]
fn available() -> &'static Available {
    static AVAILABLE: OnceLock<Available> = OnceLock::new();
    AVAILABLE.get_or_init(Available::default)
}

/// The argv to spawn for `program args`, with the wrappers the policy and the system allow.
pub(crate) fn wrap(
    policy: ContainmentPolicy,
    program: &Path,
    args: &[String],
) -> (PathBuf, Vec<OsString>, Containment) {
    let mut argv: Vec<OsString> = Vec::new();
    let mut containment = if cfg!(windows) { Containment::JobObject } else { Containment::ProcessGroup };
    let available = available();
    if policy == ContainmentPolicy::Strongest {
        // The death signal goes on the outermost process, which is our direct child; it then execs the rest.
        if let Some(setpriv) = &available.setpriv {
            argv.extend([setpriv.as_os_str(), "--pdeathsig".as_ref(), "KILL".as_ref(), "--".as_ref()].map(Into::into));
            containment = Containment::ParentDeathSignal;
        }
        // unshare's forked child becomes PID 1 of a new namespace; when unshare dies (by the death signal above,
        // or by our SIGKILL), `--kill-child` kills that PID 1 and the kernel kills everything else in it.
        if containment == Containment::ParentDeathSignal
            && let Some(unshare) = &available.unshare
        {
            let flags = ["--pid", "--fork", "--kill-child", "--"];
            argv.push(unshare.into());
            argv.extend(flags.map(OsString::from));
            containment = Containment::PidNamespace;
        }
    }
    argv.push(program.into());
    argv.extend(args.iter().map(OsString::from));
    let program = PathBuf::from(argv.remove(0));
    (program, argv, containment)
}

type Job = Box<dyn FnOnce() + Send>;

/// Runs `job` on the one long-lived spawner thread. PR_SET_PDEATHSIG fires when the *thread* that forked the child
/// exits, not the process: spawning from a pooled thread (spawn_blocking, which exits after ~10 s idle) would
/// kill healthy servers. `Err(job)` back if the thread is gone, so the caller can run it itself.
pub(crate) fn on_spawner_thread(job: Job) -> Result<(), Job> {
    static SPAWNER: OnceLock<Option<std::sync::mpsc::Sender<Job>>> = OnceLock::new();
    let sender = SPAWNER.get_or_init(|| {
        let (tx, rx) = std::sync::mpsc::channel::<Job>();
        let started = std::thread::Builder::new().name("plugboard-spawner".into()).spawn(move || {
            for job in rx {
                job();
            }
        });
        started.ok().map(|_| tx)
    });
    match sender {
        Some(sender) => sender.send(job).map_err(|e| e.0),
        None => Err(job),
    }
}
