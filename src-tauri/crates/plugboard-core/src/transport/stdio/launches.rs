//! How many stdio servers this process has launched, for a one-shot command that has other work to do once its
//! server is on its way (`plugboard call` opens the history then: before, on two CPUs, it took the CPU the approval
//! check and the spawn were waiting for). It counts and wakes; it must never hold a launch up.

use std::sync::OnceLock;

use tokio::sync::watch;

fn counter() -> &'static watch::Sender<u64> {
    static LAUNCHED: OnceLock<watch::Sender<u64>> = OnceLock::new();
    LAUNCHED.get_or_init(|| watch::Sender::new(0))
}

/// Changes each time a stdio server is launched after this call: its process started, or its keeper was given the
/// launch.
pub fn launches() -> watch::Receiver<u64> {
    counter().subscribe()
}

pub(super) fn count_launch() {
    counter().send_modify(|launched| *launched += 1);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A receiver wakes for a launch made after it subscribed. (Whether it ignores those before cannot be pinned
    /// here: other tests of this process launch servers at the same time.)
    #[tokio::test]
    async fn a_receiver_wakes_for_a_launch_after_it_subscribed() {
        let mut launches = launches();
        count_launch();
        tokio::time::timeout(std::time::Duration::from_secs(5), launches.changed()).await.unwrap().unwrap();
    }
}
