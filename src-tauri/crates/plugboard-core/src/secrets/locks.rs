//! One lock per server name, process-wide, so a server's entries (value, chunks, index) change one call at a time.
//! It must never be held across an `.await`: vault calls are blocking and run on a blocking thread.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

/// Keyed by server rather than by entry because one vault call touches several entries of a server: a secret's
/// chunks and the server's index. Shared by every `Vault` in the process, since they may sit over one keychain.
static SERVER_LOCKS: LazyLock<Mutex<HashMap<String, Arc<Mutex<()>>>>> = LazyLock::new(Mutex::default);

/// Runs `f` while holding `server`'s lock.
pub(crate) fn with_server_lock<T>(server: &str, f: impl FnOnce() -> T) -> T {
    let lock = {
        let mut locks = SERVER_LOCKS.lock().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(locks.entry(server.to_owned()).or_default())
    };
    // A panic in another call cannot leave `()` inconsistent; the entries it touched are checked on read anyway.
    let _guard = lock.lock().unwrap_or_else(PoisonError::into_inner);
    f()
}
