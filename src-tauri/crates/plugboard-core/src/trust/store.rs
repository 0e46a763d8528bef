//! What the trust files share: a lock file beside each, held while it is read, changed and written, so two
//! processes deciding at once both keep their decision, and the digest format. It must never hold a lock across an
//! await (callers are synchronous and quick).

use std::fs;
use std::io;
use std::path::Path;

use sha2::{Digest, Sha256};

/// An exclusive lock on `<path>.lock`, released when the returned file is dropped.
pub(super) fn lock_beside(path: &Path) -> io::Result<fs::File> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    let lock = fs::OpenOptions::new().create(true).truncate(false).write(true).open(path.with_extension("lock"))?;
    lock.lock()?;
    Ok(lock)
}

/// SHA-256 of `bytes`, as lowercase hex.
pub(super) fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}
