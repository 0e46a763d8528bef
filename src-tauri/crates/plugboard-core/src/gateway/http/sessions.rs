//! Which token opened which MCP session of the HTTP endpoint, so a session goes on only under the token it began
//! with (a rotated token does not inherit the old one's sessions). It never holds a token, only digests.

use std::collections::HashMap;
use std::sync::Mutex;

use super::token::TokenDigest;

/// Session ids (rmcp's `Mcp-Session-Id`) and the digest of the token that opened each.
#[derive(Default)]
pub struct SessionBindings {
    opened_with: Mutex<HashMap<String, TokenDigest>>,
}

impl SessionBindings {
    /// Whether `session` may be used with `token`: a session this endpoint never bound is left to rmcp (which
    /// answers 404 to one it does not know).
    pub fn allows(&self, session: &str, token: &TokenDigest) -> bool {
        self.lock().get(session).is_none_or(|opened| opened.matches(token))
    }

    /// `session` was opened by a request carrying `token`.
    pub fn bind(&self, session: String, token: TokenDigest) {
        self.lock().insert(session, token);
    }

    /// The client ended `session`.
    pub fn forget(&self, session: &str) {
        self.lock().remove(session);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, TokenDigest>> {
        self.opened_with.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A session answers only to the token that opened it; an unknown one is not this check's to refuse.
    #[test]
    fn a_session_is_bound_to_its_token() {
        let bindings = SessionBindings::default();
        let (old, new) = (TokenDigest::of("pbg_old"), TokenDigest::of("pbg_new"));
        bindings.bind("s1".into(), old);
        assert!(bindings.allows("s1", &old));
        assert!(!bindings.allows("s1", &new));
        assert!(bindings.allows("s2", &new));
        bindings.forget("s1");
        assert!(bindings.allows("s1", &new));
    }
}
