//! Keepers started ahead of their servers. `Engine::start` (a one-shot command, a headless gateway's start) knows
//! which stdio servers it is about to start, so [`warm_keepers`] starts a keeper for each beside the approval check
//! and the PATH lookup; the server's spawn then takes one and writes it the launch, and the keeper's own start (an
//! exec, the dynamic loader, half a millisecond here) is off the server's way. A warm keeper runs nothing until it is
//! given a launch; one never given any exits when its stdin closes: when it is let go after [`WARM_FOR`], or when the
//! app exits. It must never hand a keeper to a runtime other than the one whose reactor holds its pipes, nor keep
//! one longer than [`WARM_FOR`].

use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use process_wrap::tokio::ChildWrapper;
use tokio::runtime::Id;

use super::containment;

/// A keeper not taken by then is let go: the server it was meant for was not approved, or is not starting now.
const WARM_FOR: Duration = Duration::from_secs(5);

struct Warm {
    runtime: Id,
    since: Instant,
    child: Box<dyn ChildWrapper>,
}

static WARM: Mutex<Vec<Warm>> = Mutex::new(Vec::new());

/// Starts `count` keepers for the current runtime on the spawner thread, without waiting for them. Nothing happens
/// off Linux, without the keeper binary, outside a runtime, or without the spawner thread.
pub(crate) fn warm_keepers(count: usize) {
    let (Some(keeper), Ok(runtime)) = (containment::linux_keeper(), tokio::runtime::Handle::try_current()) else {
        return;
    };
    if count == 0 {
        return;
    }
    let job: Box<dyn FnOnce() + Send> = Box::new(move || {
        let _entered = runtime.enter();
        for _ in 0..count {
            let mut command = tokio::process::Command::new(keeper);
            command.args(containment::keeper_args()).env_clear();
            match super::group_leader(command).spawn() {
                Ok(child) => lock().push(Warm { runtime: runtime.id(), since: Instant::now(), child }),
                Err(e) => {
                    tracing::debug!(error = %e, "a keeper could not be started ahead; the server's spawn starts its own");
                    return;
                }
            }
        }
    });
    // Without the spawner thread a spawn starts its own keeper, as before.
    if containment::on_spawner_thread(job).is_ok() {
        // A long-lived process (a headless gateway) may never spawn again: what was not taken is let go on time.
        tokio::spawn(async {
            tokio::time::sleep(WARM_FOR).await;
            let expired = let_go_expired(Instant::now());
            drop(expired);
        });
    }
}

/// Takes the keepers older than [`WARM_FOR`] out of the pool; dropping them closes their stdin, and they exit.
fn let_go_expired(now: Instant) -> Vec<Warm> {
    let mut warm = lock();
    let (expired, kept) = std::mem::take(&mut *warm).into_iter().partition(|w| !fresh(w, now));
    *warm = kept;
    expired
}

fn fresh(warm: &Warm, now: Instant) -> bool {
    now.saturating_duration_since(warm.since) < WARM_FOR
}

/// A warm keeper of `runtime`, if one is left; the expired ones (of any runtime) are let go on the way.
pub(super) fn take(runtime: Id) -> Option<Box<dyn ChildWrapper>> {
    take_at(runtime, Instant::now())
}

fn take_at(runtime: Id, now: Instant) -> Option<Box<dyn ChildWrapper>> {
    // Dropped outside the lock: closing their pipes is not the pool's business.
    let expired = let_go_expired(now);
    drop(expired);
    let mut warm = lock();
    let at = warm.iter().position(|w| w.runtime == runtime)?;
    Some(warm.swap_remove(at).child)
}

fn lock() -> std::sync::MutexGuard<'static, Vec<Warm>> {
    WARM.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How many warm keepers of `runtime` are waiting.
#[cfg(test)]
pub(super) fn waiting(runtime: Id) -> usize {
    lock().iter().filter(|w| w.runtime == runtime).count()
}

#[cfg(test)]
#[cfg(target_os = "linux")]
mod tests {
    use super::*;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
    }

    /// A keeper warmed on one runtime is taken only by that runtime, and only once; one past [`WARM_FOR`] is let
    /// go, and when dropped it exits (its stdin closes before any launch came).
    #[test]
    fn a_warm_keeper_belongs_to_its_runtime_and_expires() {
        containment::start_spawner_thread();
        let (ours, other) = (runtime(), runtime());
        ours.block_on(async { warm_keepers(2) });
        containment::spawner_caught_up();
        assert_eq!(waiting(ours.handle().id()), 2);
        assert!(take(other.handle().id()).is_none(), "another runtime's reactor does not hold its pipes");
        let mut taken = ours.block_on(async { take(ours.handle().id()) }).expect("ours");
        assert_eq!(waiting(ours.handle().id()), 1);
        assert!(take_at(ours.handle().id(), Instant::now() + WARM_FOR).is_none(), "expired");
        assert_eq!(waiting(ours.handle().id()), 0);
        drop(taken.stdin().take());
        let status = ours.block_on(async { tokio::time::timeout(Duration::from_secs(5), taken.wait()).await });
        assert!(status.expect("the keeper exits at the end of its stdin").expect("status").success());
    }

    /// In a process that never spawns again (a headless gateway whose servers were not approved), the keepers not
    /// taken are let go once [`WARM_FOR`] has passed.
    #[test]
    fn warm_keepers_not_taken_are_let_go_on_time() {
        containment::start_spawner_thread();
        let ours = runtime();
        ours.block_on(async { warm_keepers(1) });
        containment::spawner_caught_up();
        assert_eq!(waiting(ours.handle().id()), 1);
        ours.block_on(async { tokio::time::sleep(WARM_FOR + Duration::from_millis(300)).await });
        assert_eq!(waiting(ours.handle().id()), 0, "still held after {WARM_FOR:?}");
    }
}
