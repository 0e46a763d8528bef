//! The owner of a server's process group: it stops the whole group in stages, from `close()` (async) and from
//! `Drop` (synchronously, because a tokio task spawned in a destructor never runs when the app is exiting). It
//! must never signal a group it has seen empty (its id may be reused), nor leave a grandchild behind.

use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use process_wrap::tokio::ChildWrapper;

use super::docker::DockerCleanup;

/// After stdin closes, how long the server gets to exit by itself (the MCP spec's first shutdown step).
pub(crate) const EOF_GRACE: Duration = Duration::from_secs(2);
/// After SIGTERM to the group, how long before SIGKILL.
pub(crate) const TERM_GRACE: Duration = Duration::from_secs(1);
/// The same grace from `Drop`, which blocks its thread (and at app exit runs once per server): short.
const DROP_TERM_GRACE: Duration = Duration::from_millis(250);
/// After SIGKILL, how long to wait for the kernel to clear the group before saying something survived.
const KILL_WAIT: Duration = Duration::from_secs(1);
/// The longest wait between two looks at a stopping process.
const POLL: Duration = Duration::from_millis(20);

/// The waits between looks at a stopping process: 1 ms, doubling up to [`POLL`]. Most servers exit within a
/// millisecond or two of losing stdin, and a first look after a whole `POLL` cost every short-lived use (one
/// `plugboard call`) ~20 ms of its wall time.
fn poll_waits() -> impl Iterator<Item = Duration> {
    std::iter::successors(Some(Duration::from_millis(1)), |wait| Some((*wait * 2).min(POLL)))
}

/// How a shutdown ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShutdownStage {
    /// Already stopped earlier (a second close, or close after drop-time cleanup).
    AlreadyStopped,
    /// Leader and group were gone after stdin closed (or before we asked).
    Exited,
    /// The group needed SIGTERM.
    Terminated,
    /// The group needed SIGKILL.
    Killed,
    /// Something was still alive after SIGKILL (e.g. stuck in uninterruptible I/O); logged.
    Survived,
}

/// What a shutdown did and how long it took.
#[derive(Debug, Clone, Copy)]
pub struct ShutdownReport {
    pub stage: ShutdownStage,
    pub elapsed: Duration,
}

/// Owns the leader and stops its whole group; see the module docs.
#[derive(Debug)]
pub(crate) struct ProcessGuard {
    tracked: Mutex<Option<Tracked>>,
    server: String,
}

#[derive(Debug)]
struct Tracked {
    child: Box<dyn ChildWrapper>,
    /// The group id (= the leader's pid); `None` where groups do not exist (Windows: the Job Object does it).
    pgid: Option<i32>,
    leader_exited: bool,
    docker: Option<DockerCleanup>,
}

impl Tracked {
    fn leader_exited(&mut self) -> bool {
        if !self.leader_exited {
            // Reaps the leader (and any zombie of ours in its group), so it stops counting as a group member.
            self.leader_exited = !matches!(self.child.try_wait(), Ok(None));
        }
        self.leader_exited
    }

    fn group_gone(&mut self) -> bool {
        let leader_exited = self.leader_exited();
        match self.pgid {
            Some(pgid) => leader_exited && !group_alive(pgid),
            None => leader_exited,
        }
    }

    fn signal_group(&mut self, terminate: bool) {
        #[cfg(unix)]
        if let Some(pgid) = self.pgid {
            use nix::sys::signal::{Signal, killpg};
            let signal = if terminate { Signal::SIGTERM } else { Signal::SIGKILL };
            // ESRCH (nobody left) is the good outcome, not an error.
            if let Err(e) = killpg(nix::unistd::Pid::from_raw(pgid), signal)
                && e != nix::errno::Errno::ESRCH
            {
                tracing::warn!(pgid, %signal, error = %e, "could not signal the server's process group");
            }
            return;
        }
        // Windows: no SIGTERM; the Job Object terminates the whole tree at the kill stage.
        if !terminate {
            let _ = self.child.start_kill();
        }
    }
}

impl ProcessGuard {
    pub(crate) fn new(child: Box<dyn ChildWrapper>, docker: Option<DockerCleanup>, server: &str) -> Self {
        let pgid =
            if cfg!(unix) { child.id().and_then(|id| i32::try_from(id).ok()).filter(|id| *id > 1) } else { None };
        let tracked = Tracked { child, pgid, leader_exited: false, docker };
        Self { tracked: Mutex::new(Some(tracked)), server: server.to_owned() }
    }

    fn with<T>(&self, f: impl FnOnce(&mut Tracked) -> T) -> Option<T> {
        self.tracked.lock().unwrap_or_else(PoisonError::into_inner).as_mut().map(f)
    }

    /// The group id (the leader's pid) while the guard still owns the group.
    pub(crate) fn pgid(&self) -> Option<i32> {
        self.with(|t| t.pgid).flatten()
    }

    /// Removes its container before the staged shutdown rather than after (see [`DockerCleanup::first`]).
    pub(crate) fn remove_container_first(&self) {
        self.with(|t| {
            if let Some(docker) = &mut t.docker {
                docker.first = true;
            }
        });
    }

    /// Whether the leader has exited (the server is dead even if a grandchild still holds its stdout open).
    pub(crate) fn leader_exited(&self) -> bool {
        self.with(Tracked::leader_exited).unwrap_or(true)
    }

    /// The staged shutdown, after the caller has closed stdin: wait ≤ [`EOF_GRACE`] for the leader, SIGTERM the
    /// group if anything of it is left, wait ≤ [`TERM_GRACE`], SIGKILL the group; then remove a Docker container.
    pub(crate) async fn shutdown(&self) -> ShutdownReport {
        let started = Instant::now();
        if self.with(|_| ()).is_none() {
            return ShutdownReport { stage: ShutdownStage::AlreadyStopped, elapsed: started.elapsed() };
        }
        let mut stage = ShutdownStage::Exited;
        if let Some(docker) = self.with(|t| t.docker.clone().filter(|d| d.first)).flatten() {
            // Its docker client ends once the container is gone.
            docker.remove().await;
        }
        // A leader that exits may leave helpers behind: once it is gone the rest of the group is signalled at once.
        self.poll_async(EOF_GRACE, Tracked::leader_exited).await;
        if !self.with(Tracked::group_gone).unwrap_or(true) {
            stage = ShutdownStage::Terminated;
            self.with(|t| t.signal_group(true));
            if !self.poll_async(TERM_GRACE, Tracked::group_gone).await {
                stage = ShutdownStage::Killed;
                self.with(|t| t.signal_group(false));
                if !self.poll_async(KILL_WAIT, Tracked::group_gone).await {
                    stage = ShutdownStage::Survived;
                }
            }
        }
        let tracked = self.tracked.lock().unwrap_or_else(PoisonError::into_inner).take();
        if let Some(docker) = tracked.and_then(|t| t.docker) {
            docker.remove().await;
        }
        self.finish(stage, started)
    }

    /// The synchronous path for `Drop`: stdin is not ours to close here, so it starts at SIGTERM, with a shorter
    /// grace ([`DROP_TERM_GRACE`]) because it blocks the dropping thread.
    fn shutdown_blocking(&self) -> Option<ShutdownReport> {
        let started = Instant::now();
        let mut guard = self.tracked.lock().unwrap_or_else(PoisonError::into_inner);
        let mut tracked = guard.take()?;
        drop(guard);
        let mut stage = ShutdownStage::Exited;
        if !tracked.group_gone() {
            stage = ShutdownStage::Terminated;
            tracked.signal_group(true);
            if !poll_blocking(DROP_TERM_GRACE, || tracked.group_gone()) {
                stage = ShutdownStage::Killed;
                tracked.signal_group(false);
                if !poll_blocking(KILL_WAIT, || tracked.group_gone()) {
                    stage = ShutdownStage::Survived;
                }
            }
        }
        if let Some(docker) = tracked.docker.take() {
            docker.remove_detached();
        }
        Some(self.finish(stage, started))
    }

    fn finish(&self, stage: ShutdownStage, started: Instant) -> ShutdownReport {
        let elapsed = started.elapsed();
        match stage {
            ShutdownStage::Survived => {
                tracing::error!(server = %self.server, ?elapsed, "part of the server's process group survived SIGKILL");
            }
            _ => tracing::info!(server = %self.server, ?stage, ?elapsed, "stdio server stopped"),
        }
        ShutdownReport { stage, elapsed }
    }

    /// Polls `done` until it holds or `limit` passes; the lock is never held across the sleep. A child's exit (the
    /// leader is ours) wakes the next look at once rather than at the end of its wait.
    async fn poll_async(&self, limit: Duration, mut done: impl FnMut(&mut Tracked) -> bool) -> bool {
        let deadline = Instant::now() + limit;
        let mut waits = poll_waits();
        // Made before the first look, so an exit between that look and the wait still wakes it.
        let mut exits = ChildExits::new();
        loop {
            if self.with(&mut done).unwrap_or(true) {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            exits.or_after(waits.next().unwrap_or(POLL)).await;
        }
    }
}

impl Drop for ProcessGuard {
    fn drop(&mut self) {
        if let Some(report) = self.shutdown_blocking() {
            tracing::debug!(server = %self.server, ?report, "stopped the server from Drop");
        }
    }
}

fn poll_blocking(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + limit;
    let mut waits = poll_waits();
    loop {
        if done() {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(waits.next().unwrap_or(POLL));
    }
}

/// Our children's exits (SIGCHLD), to end a wait early; where there is no such signal, waits run their time.
struct ChildExits {
    #[cfg(unix)]
    signal: Option<tokio::signal::unix::Signal>,
}

impl ChildExits {
    fn new() -> Self {
        Self {
            #[cfg(unix)]
            signal: tokio::signal::unix::signal(tokio::signal::unix::SignalKind::child()).ok(),
        }
    }

    /// Waits `wait`, or less when a child exits first. Any child's exit ends it (another server's too): that costs
    /// one look more, never one less.
    async fn or_after(&mut self, wait: Duration) {
        #[cfg(unix)]
        if let Some(signal) = self.signal.as_mut() {
            tokio::select! {
                _ = signal.recv() => {}
                () = tokio::time::sleep(wait) => {}
            }
            return;
        }
        tokio::time::sleep(wait).await;
    }
}

/// Whether any live (non-zombie) process is in group `pgid`. Zombies are dead: their parent reaps them.
#[cfg(target_os = "linux")]
fn group_alive(pgid: i32) -> bool {
    use nix::sys::signal::killpg;
    // Cheap first: no member at all (not even a zombie) is the common end state.
    if killpg(nix::unistd::Pid::from_raw(pgid), None) == Err(nix::errno::Errno::ESRCH) {
        return false;
    }
    let Ok(dir) = std::fs::read_dir("/proc") else { return true };
    dir.filter_map(Result::ok)
        .filter(|e| e.file_name().to_str().is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit())))
        .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
        .filter_map(|stat| parse_stat(&stat))
        .any(|(state, group)| group == pgid && state != 'Z' && state != 'X')
}

/// `(state, pgrp)` from a /proc/<pid>/stat line; the command name may contain spaces and parentheses.
#[cfg(target_os = "linux")]
pub(crate) fn parse_stat(stat: &str) -> Option<(char, i32)> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let _ppid = fields.next()?;
    let pgrp = fields.next()?.parse().ok()?;
    Some((state, pgrp))
}

#[cfg(all(unix, not(target_os = "linux")))]
fn group_alive(pgid: i32) -> bool {
    // Without /proc a zombie member counts as alive; init reaps orphans quickly, so polling converges.
    nix::sys::signal::killpg(nix::unistd::Pid::from_raw(pgid), None).is_ok()
}

#[cfg(not(unix))]
fn group_alive(_pgid: i32) -> bool {
    false
}

#[cfg(test)]
mod poll_tests {
    use super::*;

    /// The first looks come soon (a server that exits at once is seen within ~1 ms), then settle at `POLL`.
    #[test]
    fn waits_start_short_and_settle_at_the_poll() {
        let waits: Vec<u128> = poll_waits().take(7).map(|wait| wait.as_millis()).collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 20, 20]);
    }
}
