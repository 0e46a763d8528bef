//! How long a server's tool list may be kept, as 2026-07-28 lets a server say (`ttlMs`, SEP-2549): fresh for its
//! ttl, then listed again the next time it is asked for (the gateway's `tools/list`, the server's page in the
//! window). A list with no hint from a server of an earlier protocol is kept until the server says it changed, as
//! those protocols intend. It must never have a server listed more often than once per [`REFRESH_FLOOR`], whatever
//! ttl it sends (its default, 0, would otherwise mean once per ask). `cacheScope` asks nothing of Plugboard: its lists
//! are one person's, kept for that person's own clients, and the gateway labels what it serves `private` (rmcp fills
//! in ttl 0 and `private` for its 2026-07-28 clients), so a `private` list is never offered as `public`.

use std::time::{Duration, Instant};

use crate::transport::Era;

/// The shortest time a list is kept: a ttl of 0 ("immediately stale") asks for a list per use, and a busy gateway
/// asks often.
pub(super) const REFRESH_FLOOR: Duration = Duration::from_secs(1);

/// How long someone about to use the tool lists (the gateway's `tools/list`, a server's page) waits for those whose
/// ttl ran out to be listed again, before using what was listed last.
pub const STALE_LIST_WAIT: Duration = Duration::from_secs(5);

/// Until when a listing stays fresh.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Freshness {
    /// Until the server says its list changed (no hint: every protocol before 2026-07-28).
    UntilChanged,
    /// Until this instant, then listed again when next asked for.
    Until(Instant),
}

impl Freshness {
    /// The freshness of a list received at `received` from a session of `era` that gave `ttl` (`None`: no hint). A
    /// 2026-07-28 server that gives none means 0, as its specification says.
    pub fn of(era: Era, ttl: Option<Duration>, received: Instant) -> Self {
        match (era, ttl) {
            (Era::Legacy, None) => Self::UntilChanged,
            (_, ttl) => Self::Until(received + ttl.unwrap_or_default().max(REFRESH_FLOOR)),
        }
    }

    pub fn is_stale(self, now: Instant) -> bool {
        match self {
            Self::UntilChanged => false,
            Self::Until(until) => now >= until,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_is_fresh_for_its_ttl_and_never_less_than_the_floor() {
        let t0 = Instant::now();
        let minute = Freshness::of(Era::Modern, Some(Duration::from_secs(60)), t0);
        assert!(!minute.is_stale(t0 + Duration::from_secs(59)));
        assert!(minute.is_stale(t0 + Duration::from_secs(60)));

        for ttl in [Some(Duration::ZERO), None, Some(Duration::from_millis(10))] {
            let brief = Freshness::of(Era::Modern, ttl, t0);
            assert!(!brief.is_stale(t0 + REFRESH_FLOOR - Duration::from_millis(1)), "{ttl:?}");
            assert!(brief.is_stale(t0 + REFRESH_FLOOR), "{ttl:?}");
        }
    }

    #[test]
    fn an_earlier_protocols_list_is_kept_until_it_changes_unless_it_gave_a_ttl() {
        let t0 = Instant::now();
        assert!(!Freshness::of(Era::Legacy, None, t0).is_stale(t0 + Duration::from_secs(86_400)));
        assert!(Freshness::of(Era::Legacy, Some(Duration::from_secs(5)), t0).is_stale(t0 + Duration::from_secs(5)));
    }
}
