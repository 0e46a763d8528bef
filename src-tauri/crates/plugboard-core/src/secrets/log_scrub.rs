//! The secret values this process expanded into a server's command, env, URL or headers, for the log writer to take
//! out of every line it writes: other libraries quote what they were handed (an HTTP client's error quotes its URL,
//! query and all, and rmcp logs that error), and only the writer sees every line. Filled by the connector, read by
//! the front end's log writer. It must never log, print or return a value: what it gives back is scrubbed text.

use std::borrow::Cow;
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use super::{KnownSecret, ResolvedSecrets, SecretIndex};

/// Shared by the log writer and the connector; cheap to clone.
#[derive(Clone, Default)]
pub struct LogScrub {
    inner: Arc<Inner>,
}

#[derive(Default)]
struct Inner {
    /// Every value learnt so far (a changed secret adds its new value; the old one may still be in flight).
    known: Mutex<Vec<KnownSecret>>,
    index: RwLock<Arc<SecretIndex>>,
}

impl std::fmt::Debug for LogScrub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LogScrub").field("index", &*self.index()).finish()
    }
}

impl LogScrub {
    /// Remembers the values `server`'s connection was made with; the search is rebuilt only when one is new.
    pub fn learn(&self, server: &str, secrets: &ResolvedSecrets) {
        let mut known = self.inner.known.lock().unwrap_or_else(PoisonError::into_inner);
        let mut learnt = false;
        for (name, value) in secrets.pairs() {
            let seen = known.iter().any(|k| k.server == server && k.name == name && k.value == value);
            if !seen {
                known.push(KnownSecret { server: server.to_owned(), name, value });
                learnt = true;
            }
        }
        if learnt {
            let index = Arc::new(SecretIndex::new(known.iter().cloned()));
            *self.inner.index.write().unwrap_or_else(PoisonError::into_inner) = index;
        }
    }

    /// `line` with every value learnt replaced by its `${secret:NAME}`, in any form it appears.
    pub fn scrub<'t>(&self, line: &'t str) -> Cow<'t, str> {
        let index = self.index();
        match index.redact_all(line) {
            Cow::Borrowed(_) => Cow::Borrowed(line),
            Cow::Owned(scrubbed) => Cow::Owned(scrubbed),
        }
    }

    fn index(&self) -> Arc<SecretIndex> {
        Arc::clone(&self.inner.index.read().unwrap_or_else(PoisonError::into_inner))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::references::expand;
    use crate::secrets::{MemoryStore, RecordingReferences, Sensitive, ServerReferences, Vault};

    /// A line quoting an expanded URL loses the secret in it, plain or percent-encoded, once the connector learnt it.
    #[test]
    fn lines_lose_what_was_learnt() {
        let vault = Vault::with_store(Arc::new(MemoryStore::default()));
        vault.set("remote", "key", &Sensitive::new("query/secret 42".into())).expect("set");
        let source = RecordingReferences::new(ServerReferences { server: "remote", vault: &vault });
        expand("${secret:key}", &source).expect("expand");
        let scrub = LogScrub::default();
        let line = r#"error sending request for url "https://x.test/mcp?k=query%2Fsecret%2042""#;
        assert!(matches!(scrub.scrub(line), Cow::Borrowed(_)), "nothing learnt yet");
        scrub.learn("remote", &source.into_resolved());
        assert_eq!(scrub.scrub(line), r#"error sending request for url "https://x.test/mcp?k=${secret:key}""#);
        assert!(!format!("{scrub:?}").contains("query/secret"));
    }
}
