//! What the trust files share: a lock file beside each, held while it is read, changed and written, so two
//! processes deciding at once both keep their decision; the one reader and writer of a versioned JSON file (missing
//! is empty; unparsable or of another version is corrupt, and nothing in it is trusted); how a file looks on disk,
//! to tell it unchanged without reading it; and the digest format. It must never hold a lock across an await
//! (callers are synchronous and quick), nor read a damaged file as empty.

use std::fs;
use std::io;
use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;
use sha2::{Digest, Sha256};

use super::TrustError;
use crate::private_file::write_private_atomically;

/// A trust file's shape: its format version is checked on every read and stamped on every write.
pub(super) trait Versioned: Serialize + DeserializeOwned + Default {
    const VERSION: u32;
    fn version(&mut self) -> &mut u32;
}

/// Reads the file at `path`: a missing file is an empty one; a file that does not parse, or has another version,
/// is [`TrustError::Corrupt`] (never "empty", which would trust nothing was decided when something was).
pub(super) fn read_versioned<T: Versioned>(path: &Path) -> Result<T, TrustError> {
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(T::default()),
        Err(source) => return Err(TrustError::Read { path: path.to_owned(), source }),
    };
    let corrupt = |message: String| TrustError::Corrupt { path: path.to_owned(), message };
    let mut file: T = serde_json::from_slice(&bytes).map_err(|e| corrupt(e.to_string()))?;
    let found = *file.version();
    if found != T::VERSION {
        return Err(corrupt(format!("version {found} is not {}", T::VERSION)));
    }
    Ok(file)
}

/// Writes `file` to `path` (0600, replaced atomically) with the current version.
pub(super) fn write_versioned<T: Versioned>(path: &Path, file: &mut T) -> Result<(), TrustError> {
    let write_error = |source| TrustError::Write { path: path.to_owned(), source };
    *file.version() = T::VERSION;
    let bytes = serde_json::to_vec_pretty(file).map_err(|e| write_error(io::Error::other(e)))?;
    write_private_atomically(path, &bytes).map_err(write_error)
}

/// What tells one version of a file on disk from another without reading it: which file it is, its size and when it
/// last changed. Plugboard's writers replace the file (a new inode); any other writer moves its change time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Seen {
    identity: (u64, u64),
    len: u64,
    changed: (i64, i64),
    modified: Option<std::time::SystemTime>,
}

impl Seen {
    /// How `path` is now; `None` when it cannot be looked at (missing, say).
    pub(super) fn of(path: &Path) -> Option<Seen> {
        let meta = fs::metadata(path).ok()?;
        #[cfg(unix)]
        let (identity, changed) = {
            use std::os::unix::fs::MetadataExt;
            ((meta.dev(), meta.ino()), (meta.ctime(), meta.ctime_nsec()))
        };
        #[cfg(not(unix))]
        let (identity, changed) = ((0, 0), (0, 0));
        Some(Seen { identity, len: meta.len(), changed, modified: meta.modified().ok() })
    }
}

/// An exclusive lock on `<path>.lock`, released when the returned file is dropped.
pub(super) fn lock_beside(path: &Path) -> Result<fs::File, TrustError> {
    let locked = || -> io::Result<fs::File> {
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        let lock = fs::OpenOptions::new().create(true).truncate(false).write(true).open(path.with_extension("lock"))?;
        lock.lock()?;
        Ok(lock)
    };
    locked().map_err(|source| TrustError::Write { path: path.to_owned(), source })
}

/// SHA-256 of `bytes`, as lowercase hex.
pub(super) fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    #[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Sample {
        version: u32,
        words: Vec<String>,
    }

    impl Versioned for Sample {
        const VERSION: u32 = 3;
        fn version(&mut self) -> &mut u32 {
            &mut self.version
        }
    }

    /// Missing reads as empty; what was written reads back; garbage and another version are both corrupt (and the
    /// file is left as it was).
    #[test]
    fn missing_is_empty_and_damage_or_another_version_is_corrupt() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("sample.json");
        assert_eq!(read_versioned::<Sample>(&path).expect("missing"), Sample::default());
        let mut sample = Sample { version: 0, words: vec!["kept".into()] };
        write_versioned(&path, &mut sample).expect("write");
        assert_eq!(read_versioned::<Sample>(&path).expect("read").words, ["kept"]);
        for damaged in [&b"{ not json"[..], br#"{"version": 2, "words": []}"#, br#"{"version": 3, "other": 1}"#] {
            fs::write(&path, damaged).expect("write");
            assert!(matches!(read_versioned::<Sample>(&path), Err(TrustError::Corrupt { .. })), "{damaged:?}");
            assert_eq!(fs::read(&path).expect("kept"), damaged);
        }
    }
}
