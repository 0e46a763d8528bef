//! The backup of a client's file as it was before Plugboard first changed it, kept in Plugboard's data dir (0600:
//! client files can hold secrets) until a restore puts it back. Later writes never replace it, so a restore always
//! returns the person's own file, byte for byte. It must never be written into the client's own folder.

use std::io;
use std::path::{Path, PathBuf};

use crate::private_file::write_private_atomically;

const ORIGINAL: &str = "original";
/// Marks that the client had no file: restoring removes the one Plugboard created.
const ABSENT: &str = "absent";
const PATH: &str = "path";

/// A kept backup: which file, and its bytes (`None`: there was no file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Backup {
    pub(crate) path: PathBuf,
    pub(crate) original: Option<Vec<u8>>,
}

fn dir(backups: &Path, client: &str) -> PathBuf {
    backups.join(client)
}

/// Keeps `before` as the backup of `path` unless one of that same file is already kept.
pub(crate) fn keep(backups: &Path, client: &str, path: &Path, before: Option<&[u8]>) -> io::Result<()> {
    if load(backups, client)?.is_some_and(|b| b.path == path) {
        return Ok(());
    }
    let dir = dir(backups, client);
    forget(backups, client)?;
    match before {
        Some(bytes) => write_private_atomically(&dir.join(ORIGINAL), bytes)?,
        None => write_private_atomically(&dir.join(ABSENT), b"")?,
    }
    // Written last: a backup without its path is not a backup, so a crash before this keeps none.
    write_private_atomically(&dir.join(PATH), path.to_string_lossy().as_bytes())
}

/// The kept backup of `client`'s file, if any.
pub(crate) fn load(backups: &Path, client: &str) -> io::Result<Option<Backup>> {
    let dir = dir(backups, client);
    let path = match std::fs::read_to_string(dir.join(PATH)) {
        Ok(path) => PathBuf::from(path),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let original = match std::fs::read(dir.join(ORIGINAL)) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == io::ErrorKind::NotFound && dir.join(ABSENT).exists() => None,
        Err(e) => return Err(e),
    };
    Ok(Some(Backup { path, original }))
}

/// Drops the backup (after a restore).
pub(crate) fn forget(backups: &Path, client: &str) -> io::Result<()> {
    match std::fs::remove_dir_all(dir(backups, client)) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first backup of a file stays through later writes; a file that did not exist is remembered as such.
    #[test]
    fn the_first_backup_is_kept() {
        let dir = tempfile::tempdir().expect("dir");
        let file = dir.path().join("mcp.json");
        keep(dir.path(), "cursor", &file, Some(b"one")).expect("keeps");
        keep(dir.path(), "cursor", &file, Some(b"two")).expect("keeps");
        let kept = load(dir.path(), "cursor").expect("loads");
        assert_eq!(kept, Some(Backup { path: file.clone(), original: Some(b"one".to_vec()) }));
        forget(dir.path(), "cursor").expect("forgets");
        assert_eq!(load(dir.path(), "cursor").expect("loads"), None);
        keep(dir.path(), "zed", &file, None).expect("keeps");
        assert_eq!(load(dir.path(), "zed").expect("loads"), Some(Backup { path: file, original: None }));
    }
}
