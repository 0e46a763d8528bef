//! Scopes a server demanded (a 403 `insufficient_scope` on a call, or while the session opened), remembered in memory
//! so the next login of that server asks for them together with what it already had (the union): step-up in the app
//! goes "the call says it needs more access" → Log in → the call works.

use std::collections::{BTreeSet, HashMap};
use std::sync::{LazyLock, Mutex};

static DEMANDED: LazyLock<Mutex<HashMap<String, BTreeSet<String>>>> = LazyLock::new(Mutex::default);

/// Records the space-separated `scope` a server's 403 challenge asked for.
pub fn remember(server: &str, scope: &str) {
    if let Ok(mut demanded) = DEMANDED.lock() {
        demanded.entry(server.to_owned()).or_default().extend(scope.split_whitespace().map(str::to_owned));
    }
}

/// What the person is told about `server`'s refusal with `challenge` (its `WWW-Authenticate`): a 403 that names the
/// scope it needs is remembered for the next login and said; anything else asks for a login.
pub fn hint_after(server: &str, challenge: &str) -> String {
    // Only the challenge's scope is read, so any base URL does for resolving its (unused) relative parts.
    let Ok(base) = url::Url::parse("http://localhost/") else { return super::login_hint(server) };
    let params = rmcp::transport::auth::WWWAuthenticateParams::parse(challenge, &base);
    match params.scope.as_deref().filter(|_| params.is_insufficient_scope()) {
        Some(scope) => {
            remember(server, scope);
            format!("this needs more access (scope \"{scope}\"): {}", super::login_hint(server))
        }
        None => super::login_hint(server),
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

    /// A 403 naming the scope it needs (on a call, or while the session opened) is said and remembered for the next
    /// login; a 401's challenge asks for a login and remembers nothing.
    #[test]
    fn a_403_for_more_scope_is_remembered_and_said() {
        let unauthorized =
            r#"Bearer resource_metadata="https://a.example/.well-known/oauth-protected-resource", scope="read""#;
        assert_eq!(hint_after("step-up-b", unauthorized), super::super::login_hint("step-up-b"));
        assert_eq!(for_login("step-up-b", None, &[]), None);

        let more = r#"Bearer error="insufficient_scope", scope="files:write""#;
        let hint = hint_after("step-up-b", more);
        assert!(hint.starts_with(r#"this needs more access (scope "files:write")"#), "{hint}");
        assert_eq!(for_login("step-up-b", None, &["read".into()]).as_deref(), Some("files:write read"));
        forget("step-up-b");
    }
}
