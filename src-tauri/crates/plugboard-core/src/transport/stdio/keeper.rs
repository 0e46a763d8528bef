//! `plugboard-keeper`'s whole life (its binary only calls [`run_keeper`]): the small process between Plugboard and
//! a stdio server on Linux. It blocks its signals, sets its parent-death signal and makes itself the subreaper of
//! everything below it, so an orphaned descendant — even one that left the process group — becomes its child instead
//! of init's. Then it waits for the server's launch on its stdin (launch.rs): Plugboard may start it before the
//! server is approved, to have it ready, and writes the launch only once it is. It starts the server with the same
//! stdin and a death signal of its own (SIGKILL when the keeper dies); then it only waits. When the server exits it
//! ends what is left of the tree and exits with the server's status; when Plugboard dies it ends the whole tree. An
//! input that ends before a launch starts nothing. None of it needs privileges. It must never outlive its server,
//! run anything but the launch Plugboard wrote, or hold on to the server's stdio.

#![allow(clippy::print_stderr, reason = "the keeper's stderr is its server's: what it says lands in the stderr tail")]

use std::ffi::OsString;
use std::os::fd::AsFd;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::sys::prctl;
use nix::sys::signal::{SigSet, SigmaskHow, Signal, kill, killpg, pthread_sigmask};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::{Pid, getpgrp, getpid, getppid};

use super::containment::{KEEPER_BINARY, KEEPER_BLOCKED, KEEPER_DEATH_SIGNAL};
use super::launch::Launch;

/// After SIGTERM, how long what is left of the tree gets before SIGKILL (the guard's own TERM grace).
const GRACE: Duration = super::guard::TERM_GRACE;
/// How long to go on killing and reaping before giving up on a process that will not die (uninterruptible I/O).
const GIVE_UP: Duration = Duration::from_secs(3);
const POLL: Duration = Duration::from_millis(10);

/// `--parent PID`: the app that started us (what to run comes on stdin).
#[derive(Debug, PartialEq)]
struct Invocation {
    parent: Pid,
}

fn parse(mut argv: impl Iterator<Item = OsString>) -> Option<Invocation> {
    if argv.next()? != "--parent" {
        return None;
    }
    let parent = argv.next()?.to_str()?.parse::<i32>().ok().filter(|pid| *pid > 1)?;
    argv.next().is_none().then_some(Invocation { parent: Pid::from_raw(parent) })
}

/// The keeper's `main`.
pub fn run_keeper() -> ExitCode {
    let Some(invocation) = parse(std::env::args_os().skip(1)) else {
        if std::env::args_os().nth(3).is_some_and(|word| word == "--") {
            // Plugboard was upgraded while it ran: the running one still writes the command on the command line.
            eprintln!("{KEEPER_BINARY} was upgraded while Plugboard ran: restart Plugboard to start servers again");
        } else {
            eprintln!(
                "usage: {KEEPER_BINARY} --parent PID, the server's launch on stdin (Plugboard starts it; a person does not)"
            );
        }
        return ExitCode::from(2);
    };
    match keep(&invocation) {
        Ok(status) => status,
        Err(message) => {
            eprintln!("{KEEPER_BINARY}: {message}");
            ExitCode::from(127)
        }
    }
}

fn keep(invocation: &Invocation) -> Result<ExitCode, String> {
    let mut blocked = SigSet::empty();
    for signal in KEEPER_BLOCKED {
        blocked.add(signal);
    }
    // Before anything else: from here on a stop signal for the server waits until the keeper reaps it.
    pthread_sigmask(SigmaskHow::SIG_BLOCK, Some(&blocked), None).map_err(|e| format!("signal mask: {e}"))?;
    if let Err(e) = prctl::set_child_subreaper(true) {
        eprintln!(
            "{KEEPER_BINARY}: cannot adopt orphans ({e}): a process that leaves the server may outlive Plugboard"
        );
    }
    prctl::set_pdeathsig(KEEPER_DEATH_SIGNAL).map_err(|e| format!("death signal: {e}"))?;
    if getppid() != invocation.parent {
        // Plugboard died before the death signal was set: it will never come, and nobody wants the server now.
        return Ok(ExitCode::from(1));
    }
    let Some(launch) = read_launch()? else {
        // Plugboard let go of the keeper it started ahead (the server was not approved, or it exited).
        return Ok(ExitCode::SUCCESS);
    };
    let server = spawn(&launch)?;
    release_stdio();
    let mut waited = SigSet::empty();
    waited.add(Signal::SIGCHLD);
    waited.add(KEEPER_DEATH_SIGNAL);
    loop {
        if let Some(status) = reap(server) {
            end_tree();
            return Ok(status);
        }
        // The death signal is only a wake-up: anyone may send SIGUSR1, only a new parent means Plugboard is gone.
        if getppid() != invocation.parent {
            end_tree();
            return Ok(ExitCode::from(1));
        }
        let _ = waited.wait();
    }
}

/// The launch, read from stdin through an unbuffered handle: the bytes after it are the server's. The death signal
/// cannot interrupt the read (it is blocked), but Plugboard's death closes the pipe, which ends it.
fn read_launch() -> Result<Option<Launch>, String> {
    let stdin = std::io::stdin().as_fd().try_clone_to_owned().map_err(|e| format!("stdin: {e}"))?;
    Launch::read_from(&mut std::fs::File::from(stdin)).map_err(|e| format!("the launch on stdin: {e}"))
}

/// Starts the server with the keeper's stdio, the launch's environment and folder, its own death signal and no
/// blocked signals.
#[allow(unsafe_code, reason = "pre_exec is unsafe: the closure runs between fork and exec")]
fn spawn(launch: &Launch) -> Result<Pid, String> {
    let keeper = getpid();
    let mut command = Command::new(&launch.program);
    command.args(&launch.args).env_clear().envs(launch.env.iter().map(|(k, v)| (k, v)));
    if let Some(cwd) = &launch.cwd {
        command.current_dir(cwd);
    }
    // SAFETY: the keeper is single-threaded, and the closure makes only bare system calls (prctl, getppid,
    // pthread_sigmask) on values that live on the stack.
    unsafe {
        command.pre_exec(move || {
            prctl::set_pdeathsig(Signal::SIGKILL)?;
            if getppid() != keeper {
                return Err(std::io::Error::other("the keeper exited while starting the server"));
            }
            pthread_sigmask(SigmaskHow::SIG_SETMASK, Some(&SigSet::empty()), None)?;
            Ok(())
        });
    }
    let child =
        command.spawn().map_err(|e| format!("could not start {}: {e}", Path::new(&launch.program).display()))?;
    i32::try_from(child.id()).map(Pid::from_raw).map_err(|e| e.to_string())
}

/// Points the keeper's own stdin, stdout and stderr at /dev/null, so that the server's pipes close when the server
/// (and whatever it started) closes them, not when the keeper does.
fn release_stdio() {
    let Ok(null) = std::fs::OpenOptions::new().read(true).write(true).open("/dev/null") else { return };
    let _ = nix::unistd::dup2_stdin(&null);
    let _ = nix::unistd::dup2_stdout(&null);
    let _ = nix::unistd::dup2_stderr(&null);
}

/// Reaps every child that ended; the server's status once it is among them (128 + the signal if one killed it).
fn reap(server: Pid) -> Option<ExitCode> {
    let mut ended = None;
    loop {
        match waitpid(Pid::from_raw(-1), Some(WaitPidFlag::WNOHANG)) {
            Ok(WaitStatus::Exited(pid, code)) if pid == server => {
                ended = Some(ExitCode::from(u8::try_from(code).unwrap_or(1)));
            }
            Ok(WaitStatus::Signaled(pid, signal, _)) if pid == server => {
                ended = Some(ExitCode::from(u8::try_from(128 + signal as i32).unwrap_or(1)));
            }
            Err(Errno::EINTR) => {}
            // Nothing more has ended (or no child is left at all).
            Ok(WaitStatus::StillAlive) | Err(_) => return ended,
            // Another descendant, adopted and now reaped.
            Ok(_) => {}
        }
    }
}

/// Ends what is below the keeper: SIGTERM to its group and to every child, up to [`GRACE`] for them to go; then
/// SIGKILL child by child (each dying process's children become the keeper's), until none is left or [`GIVE_UP`]
/// passes.
fn end_tree() {
    // No child at all (the usual stop: the server ended and was reaped) means nothing is left below the keeper: every
    // orphan of the server's tree is re-parented to the keeper, the subreaper. This spares reading every process's
    // /proc entry, a few µs each, hundreds of them on a desktop, at each server's stop.
    if !has_children() {
        return;
    }
    // Only the keeper's own group: were it in Plugboard's, this would signal Plugboard. SIGTERM is blocked here.
    if getpgrp() == getpid() {
        let _ = killpg(getpgrp(), Signal::SIGTERM);
    }
    for child in children() {
        let _ = kill(child, Signal::SIGTERM);
    }
    let deadline = Instant::now() + GRACE;
    while Instant::now() < deadline {
        if !has_children() {
            return;
        }
        std::thread::sleep(POLL);
    }
    let deadline = Instant::now() + GIVE_UP;
    while Instant::now() < deadline {
        for child in children() {
            let _ = kill(child, Signal::SIGKILL);
        }
        if !has_children() {
            return;
        }
        std::thread::sleep(POLL);
    }
}

/// Reaps what ended; whether any child (running or not yet reaped) is left.
fn has_children() -> bool {
    loop {
        match waitpid(Pid::from_raw(-1), Some(WaitPidFlag::WNOHANG)) {
            Ok(WaitStatus::StillAlive) => return true,
            Err(Errno::EINTR) | Ok(_) => {}
            Err(_) => return false,
        }
    }
}

/// The keeper's children, from /proc (which every Linux has, unlike the optional `children` file).
fn children() -> Vec<Pid> {
    let me = getpid().as_raw();
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    dir.filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).ok().as_deref().and_then(parent_of) == Some(me)
        })
        .map(Pid::from_raw)
        .collect()
}

/// The parent's pid from a /proc/<pid>/stat line; the command name may hold spaces and parentheses.
fn parent_of(stat: &str) -> Option<i32> {
    stat[stat.rfind(')')? + 1..].split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(words: &[&str]) -> impl Iterator<Item = OsString> {
        words.iter().map(OsString::from).collect::<Vec<_>>().into_iter()
    }

    /// Only the exact shape Plugboard writes is accepted: what to run never comes from the command line.
    #[test]
    fn the_invocation_is_parsed_strictly() {
        assert_eq!(parse(argv(&["--parent", "4242"])).unwrap().parent, Pid::from_raw(4242));
        for bad in [
            &["/bin/sh", "-c", "x"][..],
            &["--parent", "1"],
            &["--parent", "7", "x"],
            &["--parent", "7", "--", "/bin/sh"],
            &["--parent"],
        ] {
            assert_eq!(parse(argv(bad)), None, "{bad:?}");
        }
    }

    /// The parent pid is read past a command name with spaces and parentheses.
    #[test]
    fn the_parent_is_read_from_stat() {
        assert_eq!(parent_of("123 (a (weird) name) S 77 123 123 0"), Some(77));
    }
}
