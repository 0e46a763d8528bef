//! When and by whom a login's access token is refreshed. Plugboard refreshes a minute before the token expires (at
//! half its life for one that lives a minute or less), earlier than rmcp would on its own, and one process at a
//! time per server: the window, a CLI command and `serve` share the keychain, and a refresh token that rotates can
//! be spent once. A lock file per server in the data dir serialises them; a process that waited for it reads the
//! keychain again and finds the token another process just refreshed, so one refresh serves them all. It must never
//! hold the lock longer than one refresh, nor log a token.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use oauth2::TokenResponse;
use rmcp::transport::auth::StoredCredentials;

/// How long before expiry an access token is refreshed.
pub const REFRESH_AHEAD: Duration = Duration::from_secs(60);

/// How long a process waits for another's refresh before going on without the lock (a refresh is one request).
const LOCK_WAIT: Duration = Duration::from_secs(60);

/// The lock file of `server`'s refreshes in `data_dir`.
pub fn lock_path(data_dir: &Path, server: &str) -> PathBuf {
    data_dir.join("oauth-refresh").join(format!("{server}.lock"))
}

/// Whether the access token of `credentials` is due for a refresh at `now` (unix seconds): less than a minute left,
/// or less than half its life when it lives a minute or less. A token without a lifetime never is.
pub fn due(credentials: &StoredCredentials, now: u64) -> bool {
    let (Some(tokens), Some(received)) = (&credentials.token_response, credentials.token_received_at) else {
        return false;
    };
    let Some(lifetime) = tokens.expires_in() else { return false };
    let ahead = if lifetime > REFRESH_AHEAD { REFRESH_AHEAD } else { lifetime / 2 };
    let remaining = received.saturating_add(lifetime.as_secs()).saturating_sub(now);
    remaining < ahead.as_secs().max(1)
}

/// The same credentials, dated so that rmcp sees the token as expired and refreshes it now (its own margin is
/// shorter than Plugboard's).
pub fn as_expired(mut credentials: StoredCredentials, now: u64) -> StoredCredentials {
    let lifetime = credentials.token_response.as_ref().and_then(TokenResponse::expires_in).unwrap_or_default();
    credentials.token_received_at = Some(now.saturating_sub(lifetime.as_secs()).saturating_sub(1));
    credentials
}

/// Now, in unix seconds.
pub fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

/// One server's refresh lock, held while the file is open (closing the file releases it, also when a process dies).
#[derive(Debug)]
pub struct RefreshLock(File);

impl RefreshLock {
    /// Waits (blocking, at most [`LOCK_WAIT`]) until no other process or session refreshes this server's login.
    /// `Ok(None)` when the wait ran out: the refresh goes on unserialised rather than never.
    pub fn acquire(path: &Path) -> std::io::Result<Option<Self>> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let file = OpenOptions::new().create(true).truncate(false).write(true).open(path)?;
        let started = Instant::now();
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(Some(Self(file))),
                Err(TryLockError::WouldBlock) if started.elapsed() < LOCK_WAIT => {
                    std::thread::sleep(Duration::from_millis(25));
                }
                Err(TryLockError::WouldBlock) => return Ok(None),
                Err(TryLockError::Error(e)) => return Err(e),
            }
        }
    }
}

impl Drop for RefreshLock {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn credentials(lifetime: u64, received: u64) -> StoredCredentials {
        serde_json::from_value(serde_json::json!({
            "client_id": "c",
            "token_response": {"access_token": "a", "token_type": "Bearer", "expires_in": lifetime, "refresh_token": "r"},
            "granted_scopes": [],
            "token_received_at": received,
        }))
        .expect("credentials")
    }

    /// A token is due a minute before it expires, and one that lives a minute or less at half its life; `as_expired`
    /// makes it look expired to rmcp.
    #[test]
    fn due_a_minute_before_expiry() {
        let hour = credentials(3600, 1_000);
        assert!(!due(&hour, 1_000 + 3600 - 61));
        assert!(due(&hour, 1_000 + 3600 - 59));
        let short = credentials(62, 1_000);
        assert!(!due(&short, 1_001) && due(&short, 1_003), "62 s: due with less than 60 s left");
        let tiny = credentials(10, 1_000);
        assert!(!due(&tiny, 1_004) && due(&tiny, 1_006), "10 s: due at half its life");
        let expired = as_expired(hour, 50_000);
        assert_eq!(expired.token_received_at, Some(50_000 - 3600 - 1));
    }

    /// The lock is one holder at a time, across handles of the same file (as across processes).
    #[test]
    fn one_holder_at_a_time() {
        let dir = tempfile::tempdir().expect("dir");
        let path = lock_path(dir.path(), "notes");
        let first = RefreshLock::acquire(&path).expect("lock").expect("held");
        let second = std::fs::OpenOptions::new().write(true).open(&path).expect("open");
        assert!(matches!(second.try_lock(), Err(TryLockError::WouldBlock)), "a second holder got the lock");
        drop(first);
        assert!(second.try_lock().is_ok(), "the lock was not released");
    }
}
