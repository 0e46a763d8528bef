//! Reconnect timing: exponential backoff from 0.5 s to 30 s with jitter, and the crash-loop rule (5 failures in
//! 60 s end in `Failed`), so a flapping server neither hammers its host nor reconnects forever.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// The first retry waits this long (before jitter).
pub const FIRST_DELAY: Duration = Duration::from_millis(500);
/// No retry waits longer than this.
pub const MAX_DELAY: Duration = Duration::from_secs(30);
/// This many failures…
pub const CRASH_LOOP_FAILURES: usize = 5;
/// …within this window is a crash loop.
pub const CRASH_LOOP_WINDOW: Duration = Duration::from_secs(60);

/// The delay before retry number `attempt` (1-based): doubling, capped, with ±20 % jitter from `jitter_seed`.
pub fn delay(attempt: u32, jitter_seed: u64) -> Duration {
    let exponent = attempt.saturating_sub(1).min(16);
    let base = FIRST_DELAY.saturating_mul(1u32 << exponent).min(MAX_DELAY);
    // A cheap, deterministic-per-seed spread in [0.8, 1.2): enough to keep many servers from retrying in step.
    let spread = 0.8 + (splitmix(jitter_seed ^ u64::from(attempt)) % 400) as f64 / 1000.0;
    base.mul_f64(spread).min(MAX_DELAY)
}

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Remembers recent failures to tell a hiccup from a crash loop.
#[derive(Debug, Default)]
pub struct FailureWindow {
    recent: VecDeque<Instant>,
}

impl FailureWindow {
    /// Records a failure at `now`; returns true when it makes a crash loop.
    pub fn record(&mut self, now: Instant) -> bool {
        self.recent.push_back(now);
        while self.recent.front().is_some_and(|t| now.duration_since(*t) > CRASH_LOOP_WINDOW) {
            self.recent.pop_front();
        }
        self.recent.len() >= CRASH_LOOP_FAILURES
    }

    /// Forgets the failures (after an explicit reconnect by the person).
    pub fn clear(&mut self) {
        self.recent.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Delays double from 0.5 s, stay within ±20 %, and never exceed 30 s.
    #[test]
    fn delays_grow_with_jitter_and_a_cap() {
        for seed in 0..50 {
            let first = delay(1, seed);
            assert!(first >= Duration::from_millis(400) && first < Duration::from_millis(600), "{first:?}");
            let fourth = delay(4, seed);
            assert!(fourth >= Duration::from_millis(3200) && fourth < Duration::from_millis(4800), "{fourth:?}");
            assert!(delay(40, seed) <= MAX_DELAY);
        }
        let spread: std::collections::HashSet<_> = (0..20).map(|s| delay(3, s)).collect();
        assert!(spread.len() > 10, "jitter spreads retries");
    }

    /// Five failures inside a minute are a crash loop; the same five spread over more than a minute are not.
    #[test]
    fn crash_loop_is_five_in_sixty_seconds() {
        let start = Instant::now();
        let mut window = FailureWindow::default();
        let verdicts: Vec<_> = (0..5).map(|i| window.record(start + Duration::from_secs(i * 10))).collect();
        assert_eq!(verdicts, [false, false, false, false, true]);

        let mut slow = FailureWindow::default();
        let verdicts: Vec<_> = (0..6).map(|i| slow.record(start + Duration::from_secs(i * 20))).collect();
        assert!(verdicts.iter().all(|v| !v), "one failure every 20 s never reaches five in 60 s");
    }
}
