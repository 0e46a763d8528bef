//! The process each command runs in: a one-shot command's small runtime and shared heap, the gateway's runtime with
//! a worker per CPU. A one-shot setting must never reach `plugboard serve`, whose clients' calls run at once.

use anyhow::Context;
use tokio::runtime::{Builder, Runtime};

/// A one-shot command's runtime (`call`, `tools`, `login`…): one worker beside the thread that blocks on it. A
/// command does one thing at a time; a second worker was only one more thread to start, wake and join.
pub fn one_shot() -> anyhow::Result<Runtime> {
    Builder::new_multi_thread().worker_threads(1).enable_all().build().context("cannot start the async runtime")
}

/// A call's runtime with its keeper ordered; none if the runtime cannot start (the call then says why, starting
/// one itself).
pub fn for_a_call() -> Option<Runtime> {
    one_shot().ok().inspect(warm_a_keeper)
}

/// Starts a keeper for `runtime` ahead of its server (`plugboard_core::transport::warm_keepers`), the spawner
/// thread that starts it, and a thread of the runtime's blocking pool: the approval check and the server's launch
/// plan run there, and the first of them otherwise waits for the pool's first thread to start.
fn warm_a_keeper(runtime: &Runtime) {
    let _entered = runtime.enter();
    plugboard_core::transport::start_spawner_thread();
    plugboard_core::transport::warm_keepers(1);
    drop(runtime.spawn_blocking(|| ()));
}

/// The gateway's runtime: a worker per CPU, for the calls its clients make at once.
pub fn gateway() -> anyhow::Result<Runtime> {
    Builder::new_multi_thread().enable_all().build().context("cannot start the async runtime")
}

/// Makes every thread of a one-shot command allocate from glibc's main heap. By default each thread's first
/// allocation makes it an arena of its own, whose pages are all fresh faults; a command's few threads allocate
/// little, and mostly one after another. Call it before the process starts a second thread.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code, reason = "mallopt is a C function of glibc")]
pub fn share_one_heap() {
    // SAFETY: mallopt only sets one of glibc's allocator parameters, from two integers; no Rust memory is involved,
    // and no other thread is allocating yet. A refusal (it returns 0) leaves the default, which only costs time.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn share_one_heap() {}

#[cfg(test)]
mod tests {
    use super::*;

    /// A command runs on one worker; the gateway keeps one per CPU.
    #[test]
    fn a_command_has_one_worker_and_the_gateway_one_per_cpu() {
        assert_eq!(one_shot().unwrap().metrics().num_workers(), 1);
        // tokio's own default: TOKIO_WORKER_THREADS when set, else the CPUs this process may use.
        let from_env = std::env::var("TOKIO_WORKER_THREADS").ok().and_then(|n| n.parse().ok());
        let cpus = from_env.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
        assert_eq!(gateway().unwrap().metrics().num_workers(), cpus);
    }
}
