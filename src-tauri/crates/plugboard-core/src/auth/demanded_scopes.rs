//! Scopes a server demanded mid-session (a 403 `insufficient_scope` on a call), remembered in memory so the next
//! login of that server asks for them together with what it already had (the union): step-up in the app goes
//! "the call says it needs more access" → Log in → the call works.

use std::collections::{BTreeSet, HashMap};
use std::sync::{LazyLock, Mutex};

static DEMANDED: LazyLock<Mutex<HashMap<String, BTreeSet<String>>>> = LazyLock::new(Mutex::default);

/// Records the space-separated `scope` a server's 403 challenge asked for.
pub fn remember(server: &str, scope: &str) {
    if let Ok(mut demanded) = DEMANDED.lock() {
        demanded.entry(server.to_owned()).or_default().extend(scope.split_whitespace().map(str::to_owned));
    }
}

/// The scopes to ask for at `server`'s next login: the configured ones, the ones already granted and the ones it
/// demanded, or `None` (let the challenge decide) when it demanded nothing.
pub fn for_login(server: &str, configured: Option<&str>, granted: &[String]) -> Option<String> {
    let demanded = DEMANDED.lock().ok()?.get(server).cloned().filter(|d| !d.is_empty())?;
    let mut all: BTreeSet<String> = configured.unwrap_or_default().split_whitespace().map(str::to_owned).collect();
    all.extend(granted.iter().cloned());
    all.extend(demanded);
    Some(all.into_iter().collect::<Vec<_>>().join(" "))
}

/// Forgets what `server` demanded (after a login that asked for it).
pub fn forget(server: &str) {
    if let Ok(mut demanded) = DEMANDED.lock() {
        demanded.remove(server);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nothing demanded: the login's scopes are left to the challenge. Demanded: the union of configured, granted
    /// and demanded, once each; forgetting clears it.
    #[test]
    fn union_of_configured_granted_and_demanded() {
        assert_eq!(for_login("step-up-a", Some("read"), &[]), None);
        remember("step-up-a", "write admin");
        remember("step-up-a", "write");
        let scopes = for_login("step-up-a", Some("read"), &["read".into(), "profile".into()]);
        assert_eq!(scopes.as_deref(), Some("admin profile read write"));
        forget("step-up-a");
        assert_eq!(for_login("step-up-a", Some("read"), &[]), None);
    }
}
