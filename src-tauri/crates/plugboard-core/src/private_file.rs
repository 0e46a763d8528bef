//! Replacing a file only its owner can read: a new 0600 file in the same folder (0700 when it is created), flushed
//! to disk and renamed over the old one, so a reader or a crash sees the old file or the new one, never half of
//! one. It must never leave the temporary file behind, nor widen the permissions of a file or folder.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Two writers in one process never share a temporary name.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` to `path` atomically, readable by its owner only.
pub(crate) fn write_private_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    replace_private(path, bytes, None)
}

/// The same, copying the previous file to `backup` first (servers.json keeps its `.bak`).
pub(crate) fn write_private_atomically_with_backup(path: &Path, bytes: &[u8], backup: &Path) -> io::Result<()> {
    replace_private(path, bytes, Some(backup))
}

fn replace_private(path: &Path, bytes: &[u8], backup: Option<&Path>) -> io::Result<()> {
    replace_via_temp(path, bytes, |_| match backup {
        Some(backup) if path.exists() => fs::copy(path, backup).map(drop),
        _ => Ok(()),
    })
}

/// Replaces a file another program owns (a client's config): the new file gets `mode` (the old file's, so its
/// permissions neither widen nor narrow; `None` keeps 0600 for a new file), and `before_rename` runs last, so a
/// caller can refuse (with an error) when the old file changed meanwhile.
pub(crate) fn replace_keeping_mode(
    path: &Path,
    bytes: &[u8],
    mode: Option<u32>,
    before_rename: impl FnOnce() -> io::Result<()>,
) -> io::Result<()> {
    replace_via_temp(path, bytes, |temp| {
        #[cfg(unix)]
        if let Some(mode) = mode {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(temp, fs::Permissions::from_mode(mode))?;
        }
        #[cfg(not(unix))]
        let _ = (temp, mode);
        before_rename()
    })
}

/// Writes `bytes` to a private temporary file beside `path`, runs `before_rename` on it, and renames it over `path`.
fn replace_via_temp(path: &Path, bytes: &[u8], before_rename: impl FnOnce(&Path) -> io::Result<()>) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    create_private_dir(&dir)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let counter = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    let temp = dir.join(format!(".{name}.tmp-{}-{counter}", std::process::id()));
    let written =
        write_new_private(&temp, bytes).and_then(|()| before_rename(&temp)).and_then(|()| fs::rename(&temp, path));
    if let Err(e) = written {
        // Best effort: the temp file may hold what the caller keeps private.
        let _ = fs::remove_file(&temp);
        return Err(e);
    }
    sync_dir(&dir);
    Ok(())
}

/// Whether a file's metadata says this user owns it and nobody else may read or write it: a file written by
/// [`write_private_atomically`], not one another user planted.
#[cfg(unix)]
pub(crate) fn is_private_to_us(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    meta.uid() == nix::unistd::geteuid().as_raw() && meta.mode() & 0o077 == 0
}

#[cfg(not(unix))]
pub(crate) fn is_private_to_us(_meta: &fs::Metadata) -> bool {
    true
}

/// Writes `bytes` to a new file that only its owner can read, and flushes it to disk.
fn write_new_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

fn create_private_dir(dir: &Path) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Makes the rename itself durable. Directories cannot be opened for syncing on every platform, hence best effort.
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}
