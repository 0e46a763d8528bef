//! The login shell's PATH kept between processes, so a second `plugboard` (each client's `serve --stdio`, each CLI
//! command) does not start a shell again. The file lives in the data dir, is written atomically and readable by the
//! user only (0600), and is keyed by everything that could change the answer: the shell, the environment it is given
//! (HOME and the app's PATH among it) and the modification times of the shells' profile files; an entry also expires.
//! It must never trust a file it did not write: one that is corrupt, not the user's own, readable by others, a
//! symlink, stale or keyed otherwise is ignored (and rewritten by the caller).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// How long an entry is believed: a profile can depend on things no file time shows (a tool installed under
/// a directory it globs), so a day bounds how long such a change goes unnoticed.
pub(crate) const MAX_AGE: Duration = Duration::from_secs(24 * 60 * 60);
/// Larger files are not PATH caches.
const MAX_FILE_BYTES: u64 = 64 * 1024;
/// The file's format; another value is a foreign file.
const FORMAT: u32 = 1;

/// The files a login shell of bash, zsh, sh or fish reads (or that they commonly source) before printing PATH;
/// a change to any of them may change the answer. Relative ones are under HOME.
const PROFILE_FILES: &[&str] = &[
    "/etc/profile",
    "/etc/profile.d",
    "/etc/environment",
    "/etc/bash.bashrc",
    "/etc/zshenv",
    "/etc/zprofile",
    "/etc/zsh/zshenv",
    "/etc/zsh/zprofile",
    "/etc/paths",
    "/etc/paths.d",
    ".profile",
    ".bash_profile",
    ".bash_login",
    ".bashrc",
    ".zshenv",
    ".zprofile",
    ".zshrc",
    ".zlogin",
    ".config/fish/config.fish",
];

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    format: u32,
    key: String,
    /// Seconds since the Unix epoch.
    written_at: u64,
    path: String,
}

/// What the answer depends on, as a digest (the file need not repeat the environment).
pub(crate) fn key(shell: &Path, env: &[(OsString, OsString)]) -> String {
    let mut hash = Sha256::new();
    let mut field = |bytes: &[u8]| {
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(bytes);
    };
    field(shell.as_os_str().as_encoded_bytes());
    let mut env: Vec<&(OsString, OsString)> = env.iter().collect();
    env.sort();
    for (name, value) in &env {
        field(name.as_encoded_bytes());
        field(value.as_encoded_bytes());
    }
    let home = env.iter().find(|(name, _)| name == "HOME").map(|(_, value)| PathBuf::from(value));
    for file in PROFILE_FILES {
        let path = match (file.starts_with('/'), &home) {
            (true, _) => PathBuf::from(file),
            (false, Some(home)) => home.join(file),
            (false, None) => continue,
        };
        let modified = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        let nanos = modified.and_then(|t| t.duration_since(UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos());
        field(path.as_os_str().as_encoded_bytes());
        field(&nanos.to_le_bytes());
    }
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The cached PATH for `key`, if `file` is ours, well-formed, keyed alike and younger than `max_age` at `now`.
pub(crate) fn read(file: &Path, key: &str, now: SystemTime, max_age: Duration) -> Option<OsString> {
    let meta = std::fs::symlink_metadata(file).ok()?;
    if !meta.is_file() || meta.len() > MAX_FILE_BYTES || !crate::private_file::is_private_to_us(&meta) {
        return None;
    }
    let entry: Entry = serde_json::from_slice(&std::fs::read(file).ok()?).ok()?;
    let now = now.duration_since(UNIX_EPOCH).ok()?.as_secs();
    let fresh = entry.written_at <= now && now - entry.written_at < max_age.as_secs();
    let plausible = !entry.path.is_empty()
        && !entry.path.contains('\0')
        && std::env::split_paths(&entry.path).all(|dir| dir.is_absolute() || dir.as_os_str().is_empty());
    (entry.format == FORMAT && entry.key == key && fresh && plausible).then(|| OsString::from(entry.path))
}

/// Stores `path` under `key`, atomically and readable by the user only. A PATH that is not UTF-8 is not cached.
pub(crate) fn write(file: &Path, key: &str, path: &OsString, now: SystemTime) -> std::io::Result<()> {
    let Some(path) = path.to_str() else { return Ok(()) };
    let written_at = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let entry = Entry { format: FORMAT, key: key.to_owned(), written_at, path: path.to_owned() };
    let bytes = serde_json::to_vec(&entry).map_err(std::io::Error::other)?;
    crate::private_file::write_private_atomically(file, &bytes)
}
