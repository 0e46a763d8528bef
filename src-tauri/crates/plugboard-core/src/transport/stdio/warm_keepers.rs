//! Keepers started ahead of their servers. `Engine::start` (a one-shot command, a headless gateway's start) knows
//! which stdio servers it is about to start, so [`warm_keepers`] makes sure a keeper is on its way for each beside
//! the approval check and the PATH lookup (`plugboard call` orders its one sooner, as it starts); the server's spawn
//! then takes one and writes it the launch, and the keeper's own start (an exec, the dynamic loader, half a
//! millisecond here) is off the server's way. A warm keeper runs nothing until it is given a launch; one never given
//! any exits when its stdin closes: when it is let go after [`WARM_FOR`], or when the app exits. It must never hand a
//! keeper to a runtime other than the one whose reactor holds its pipes, nor keep one longer than [`WARM_FOR`].

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

/// The keepers waiting, and those ordered that the spawner thread has not started yet (one runtime's id each).
struct Pool {
    warm: Vec<Warm>,
    on_the_way: Vec<Id>,
}

impl Pool {
    fn ordered_for(&self, runtime: Id) -> usize {
        self.warm.iter().filter(|w| w.runtime == runtime).count()
            + self.on_the_way.iter().filter(|r| **r == runtime).count()
    }

    fn arrived(&mut self, runtime: Id) {
        if let Some(at) = self.on_the_way.iter().position(|r| *r == runtime) {
            self.on_the_way.swap_remove(at);
        }
    }
}

static POOL: Mutex<Pool> = Mutex::new(Pool { warm: Vec::new(), on_the_way: Vec::new() });

/// Makes sure `count` keepers for the current runtime are waiting or on their way, starting the missing ones on the
/// spawner thread without waiting for them: an early order (`plugboard call`'s) and `Engine::start`'s make one
/// keeper, not two. Nothing happens off Linux, without the keeper binary, outside a runtime, or without the spawner
/// thread.
pub fn warm_keepers(count: usize) {
    let (Some(keeper), Ok(runtime)) = (containment::linux_keeper(), tokio::runtime::Handle::try_current()) else {
        return;
    };
    let missing = {
        let mut pool = lock();
        let missing = count.saturating_sub(pool.ordered_for(runtime.id()));
        pool.on_the_way.extend(std::iter::repeat_n(runtime.id(), missing));
        missing
    };
    if missing == 0 {
        return;
    }
    let id = runtime.id();
    let job: Box<dyn FnOnce() + Send> = Box::new(move || {
        let _entered = runtime.enter();
        for _ in 0..missing {
            let mut command = tokio::process::Command::new(keeper);
            command.args(containment::keeper_args()).env_clear();
            let started = super::group_leader(command).spawn();
            let mut pool = lock();
            pool.arrived(runtime.id());
            match started {
                Ok(child) => pool.warm.push(Warm { runtime: runtime.id(), since: Instant::now(), child }),
                Err(e) => {
                    tracing::debug!(error = %e, "a keeper could not be started ahead; the server's spawn starts its own");
                }
            }
        }
    });
    // Without the spawner thread a spawn starts its own keeper, as before.
    if containment::on_spawner_thread(job).is_err() {
        let mut pool = lock();
        (0..missing).for_each(|_| pool.arrived(id));
    } else {
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
    let mut pool = lock();
    let (expired, kept) = std::mem::take(&mut pool.warm).into_iter().partition(|w| !fresh(w, now));
    pool.warm = kept;
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
    let mut pool = lock();
    let at = pool.warm.iter().position(|w| w.runtime == runtime)?;
    Some(pool.warm.swap_remove(at).child)
}

fn lock() -> std::sync::MutexGuard<'static, Pool> {
    POOL.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How many warm keepers of `runtime` are waiting.
#[cfg(test)]
pub(super) fn waiting(runtime: Id) -> usize {
    lock().warm.iter().filter(|w| w.runtime == runtime).count()
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

    /// A second order for the same runtime adds only what the first did not: `plugboard call` orders its keeper as
    /// it starts, and `Engine::start` orders one for each stdio server again.
    #[test]
    fn orders_for_one_runtime_make_one_keeper_each() {
        containment::start_spawner_thread();
        let ours = runtime();
        ours.block_on(async {
            warm_keepers(1);
            warm_keepers(1);
        });
        containment::spawner_caught_up();
        assert_eq!(waiting(ours.handle().id()), 1, "the second order was already met");
        ours.block_on(async { warm_keepers(3) });
        containment::spawner_caught_up();
        assert_eq!(waiting(ours.handle().id()), 3);
        let taken = take(ours.handle().id());
        assert!(taken.is_some());
        ours.block_on(async { warm_keepers(3) });
        containment::spawner_caught_up();
        assert_eq!(waiting(ours.handle().id()), 3, "a taken keeper is ordered again");
        while take(ours.handle().id()).is_some() {}
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
