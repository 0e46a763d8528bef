//! Where Plugboard keeps its files: the OS config and data dirs, overridable for tests and portable setups.
//! Secrets never live under either of these: they belong to the keychain.

use std::path::PathBuf;

/// Overrides the config dir (holds `servers.json`); used by tests to isolate a run.
pub const CONFIG_DIR_ENV: &str = "PLUGBOARD_CONFIG_DIR";
/// Overrides the data dir (logs, trust decisions, call history).
pub const DATA_DIR_ENV: &str = "PLUGBOARD_DATA_DIR";

const APP_DIR: &str = "plugboard";

/// The folder that holds `servers.json`: `$PLUGBOARD_CONFIG_DIR`, else the OS config dir + `plugboard`.
pub fn config_dir() -> PathBuf {
    dir_from(CONFIG_DIR_ENV, dirs::config_dir)
}

/// The folder for logs and state: `$PLUGBOARD_DATA_DIR`, else the OS data dir + `plugboard`.
pub fn data_dir() -> PathBuf {
    dir_from(DATA_DIR_ENV, dirs::data_dir)
}

/// The rotating log files live here.
pub fn log_dir() -> PathBuf {
    data_dir().join("logs")
}

/// The login shell's PATH, learned once and kept for the next processes (`transport/stdio/login_path_cache.rs`).
pub fn login_path_cache() -> PathBuf {
    data_dir().join("login-path.json")
}

/// The person's decisions on launch definitions and origins (`trust/decisions.rs`).
pub fn trust_file() -> PathBuf {
    data_dir().join("trust.json")
}

fn dir_from(var: &str, os_dir: fn() -> Option<PathBuf>) -> PathBuf {
    match std::env::var_os(var) {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        // A machine with no HOME still gets a usable, visible location rather than a panic.
        _ => os_dir().unwrap_or_else(|| PathBuf::from(".")).join(APP_DIR),
    }
}
