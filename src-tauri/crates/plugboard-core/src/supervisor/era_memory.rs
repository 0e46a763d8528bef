//! Which servers turned out to be of the earlier protocol era, so a reconnect, and the next process (each client's
//! `serve --stdio`, each `plugboard call`), opens with `initialize` at once instead of probing again: a legacy server
//! that ignores `server/discover` costs the probe's whole wait each time. Kept in `eras.json` beside the trust
//! decisions for a day, so a server that moves to the newer era is probed again within a day.
//!
//! It must never pin a server to the earlier era for good (an `initialize` that fails forgets it, so the next
//! attempt probes again), never keep a server's command line or URL on disk (they can hold secrets: the file keeps
//! digests), and never trust a file it did not write (one not private to this user, too large or malformed is
//! ignored). It is only a shortcut: a file that cannot be read or written costs a probe, nothing else.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::transport::{Era, McpSession, Opening, RemoteConnection, StdioLaunch, TransportError};

/// How long a server found legacy is believed to stay so.
const MAX_AGE: Duration = Duration::from_secs(24 * 60 * 60);
/// Larger files are not this memory; past this many servers the oldest are forgotten.
const MAX_FILE_BYTES: u64 = 256 * 1024;
const MAX_SERVERS: usize = 2_000;
/// The file's format; another value is a foreign file.
const FORMAT: u32 = 1;

/// Servers known to be of the earlier era: digests of [`EraMemory::stdio_key`] or the URL, with when that was
/// learned (seconds since the Unix epoch).
pub(super) struct EraMemory {
    legacy: Mutex<HashMap<String, u64>>,
    file: PathBuf,
}

#[derive(Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Kept {
    format: u32,
    legacy: HashMap<String, u64>,
}

/// What was connected, asked for its era.
pub(super) trait Opened {
    fn era(&self) -> Option<Era>;
}

impl Opened for McpSession {
    fn era(&self) -> Option<Era> {
        McpSession::era(self)
    }
}

impl Opened for RemoteConnection {
    fn era(&self) -> Option<Era> {
        self.session.era()
    }
}

impl EraMemory {
    /// A memory kept in `file`, shared with the other processes of the same data dir.
    pub(super) fn kept_in(file: PathBuf) -> Self {
        Self { legacy: Mutex::default(), file }
    }

    /// A stdio server is the same server while its name and what it runs stay the same.
    pub(super) fn stdio_key(server: &str, launch: &StdioLaunch) -> String {
        format!("{server}\u{0}{}\u{0}{}", launch.program.display(), launch.args.join("\u{0}"))
    }

    pub(super) fn opening(&self, key: &str) -> Opening {
        let (digest, now) = (digest(key), now());
        let holds = |learned: &u64| fresh(*learned, now);
        if self.legacy.lock().unwrap_or_else(PoisonError::into_inner).get(&digest).is_some_and(holds) {
            return Opening::Initialize;
        }
        // Another process may have learned it since this one started.
        let kept = read(&self.file);
        match kept.legacy.get(&digest) {
            Some(&learned) if fresh(learned, now) => {
                self.legacy.lock().unwrap_or_else(PoisonError::into_inner).insert(digest, learned);
                Opening::Initialize
            }
            _ => Opening::Probe,
        }
    }

    /// Remembers what the attempt opened with `opening` found out, and hands its result on.
    pub(super) fn learn<T: Opened>(
        &self,
        key: &str,
        opening: Opening,
        connected: Result<T, TransportError>,
    ) -> Result<T, TransportError> {
        let digest = digest(key);
        let change = match (&connected, opening) {
            // Opened with `initialize` because it was known: nothing new.
            (Ok(opened), Opening::Initialize) if opened.era() == Some(Era::Legacy) => None,
            (Ok(opened), Opening::Probe) if opened.era() == Some(Era::Legacy) => Some(Some(now())),
            (Ok(_), _) | (Err(_), Opening::Initialize) => Some(None),
            (Err(_), Opening::Probe) => None,
        };
        if let Some(learned) = change {
            let mut legacy = self.legacy.lock().unwrap_or_else(PoisonError::into_inner);
            let changed = match learned {
                Some(at) => legacy.insert(digest.clone(), at) != Some(at),
                None => legacy.remove(&digest).is_some(),
            };
            drop(legacy);
            // A server forgotten here may still be in the file, learned by another process.
            if changed || learned.is_none() {
                keep(&self.file, &digest, learned);
            }
        }
        connected
    }
}

/// The file's servers; none when it is missing, not ours or not this memory.
fn read(file: &Path) -> Kept {
    let Ok(meta) = std::fs::symlink_metadata(file) else { return Kept::default() };
    if !meta.is_file() || meta.len() > MAX_FILE_BYTES || !crate::private_file::is_private_to_us(&meta) {
        return Kept::default();
    }
    let kept: Option<Kept> = std::fs::read(file).ok().and_then(|bytes| serde_json::from_slice(&bytes).ok());
    kept.filter(|kept| kept.format == FORMAT).unwrap_or_default()
}

/// Records `learned` (`None`: forgotten) for `digest` in `file`, keeping what other processes wrote there and
/// dropping what is stale. A write that fails is only logged: the next process probes.
fn keep(file: &Path, digest: &str, learned: Option<u64>) {
    let mut kept = read(file);
    let now = now();
    kept.format = FORMAT;
    kept.legacy.retain(|_, at| fresh(*at, now));
    let present = kept.legacy.contains_key(digest);
    match learned {
        Some(at) => drop(kept.legacy.insert(digest.to_owned(), at)),
        None if present => drop(kept.legacy.remove(digest)),
        None => return,
    }
    if kept.legacy.len() > MAX_SERVERS {
        let mut by_age: Vec<(String, u64)> = kept.legacy.drain().collect();
        by_age.sort_by_key(|(_, at)| std::cmp::Reverse(*at));
        kept.legacy = by_age.into_iter().take(MAX_SERVERS).collect();
    }
    let written = serde_json::to_vec(&kept)
        .map_err(std::io::Error::other)
        .and_then(|bytes| crate::private_file::write_private_atomically(file, &bytes));
    if let Err(error) = written {
        tracing::debug!(file = %file.display(), %error, "could not keep which servers speak the earlier era");
    }
}

/// Whether what was learned at `learned` still holds at `now` (seconds since the Unix epoch).
fn fresh(learned: u64, now: u64) -> bool {
    learned <= now && now - learned < MAX_AGE.as_secs()
}

/// What the file keeps of a server: a digest, never its command line or URL.
fn digest(key: &str) -> String {
    Sha256::digest(key.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for a connected session of a given era (the real ones are tested in tests/eras.rs).
    struct Session(Era);

    impl Opened for Session {
        fn era(&self) -> Option<Era> {
            Some(self.0)
        }
    }

    fn failed() -> Result<Session, TransportError> {
        Err(TransportError::Initialize("gone".into()))
    }

    /// A second process (a second memory on the same file) opens a server the first found legacy with
    /// `initialize`; the file names no server's command line.
    #[test]
    fn a_legacy_server_is_known_to_the_next_process() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("eras.json");
        let key = "old\0npx\0--token=hunter2";
        let first = EraMemory::kept_in(file.clone());
        assert_eq!(first.opening(key), Opening::Probe);
        assert!(first.learn(key, Opening::Probe, Ok(Session(Era::Legacy))).is_ok());

        let second = EraMemory::kept_in(file.clone());
        assert_eq!(second.opening(key), Opening::Initialize);
        assert_eq!(second.opening("another\0npx"), Opening::Probe);
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(!text.contains("hunter2") && !text.contains("npx"), "{text}");
    }

    /// An `initialize` that fails forgets the server in the file too, and a modern session never enters it.
    #[test]
    fn a_failed_initialize_forgets_the_server_for_every_process() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("eras.json");
        let first = EraMemory::kept_in(file.clone());
        assert!(first.learn("old", Opening::Probe, Ok(Session(Era::Legacy))).is_ok());
        assert!(first.learn("new", Opening::Probe, Ok(Session(Era::Modern))).is_ok());
        assert!(first.learn("old", Opening::Initialize, failed()).is_err());

        let second = EraMemory::kept_in(file);
        assert_eq!(second.opening("old"), Opening::Probe);
        assert_eq!(second.opening("new"), Opening::Probe);
    }

    /// A file that is stale, malformed, or readable by others is not believed.
    #[test]
    fn a_stale_or_foreign_file_is_not_believed() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("eras.json");
        let write = |text: String| crate::private_file::write_private_atomically(&file, text.as_bytes()).unwrap();

        let day_ago = now() - MAX_AGE.as_secs() - 1;
        write(format!(r#"{{"format":1,"legacy":{{"{}":{day_ago}}}}}"#, digest("old")));
        assert_eq!(EraMemory::kept_in(file.clone()).opening("old"), Opening::Probe, "stale");

        write(format!(r#"{{"format":1,"legacy":{{"{}":{}}}}}"#, digest("old"), now()));
        assert_eq!(EraMemory::kept_in(file.clone()).opening("old"), Opening::Initialize, "fresh and ours");

        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
            assert_eq!(EraMemory::kept_in(file.clone()).opening("old"), Opening::Probe, "readable by others");
        }

        write("{not json".into());
        assert_eq!(EraMemory::kept_in(file).opening("old"), Opening::Probe, "malformed");
    }
}
