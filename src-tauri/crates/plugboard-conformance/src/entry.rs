//! The name of the servers.json entry an auth scenario runs under. One per process: the suite runs scenarios at once,
//! and their secrets and tokens share one keychain.

use std::sync::OnceLock;

/// `conformance-<pid>`.
pub fn server_name() -> &'static str {
    static NAME: OnceLock<String> = OnceLock::new();
    NAME.get_or_init(|| format!("conformance-{}", std::process::id()))
}
