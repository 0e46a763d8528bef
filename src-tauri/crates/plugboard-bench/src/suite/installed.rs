//! The binaries the suite times, copied into a folder of its own as a package manager installs them: each file
//! written in one sequential pass. A binary fresh from the linker sits in the page cache in small pieces, and every
//! start of it faults more: the same `plugboard` bytes made a cold call 12% slower from `target/release` than from a
//! copy (50 paired rounds, 2026-12-04; equal again once the page cache was dropped), so a copied baseline beat the
//! build it was compared with. It must never change the build's own files.

use std::path::{Path, PathBuf};

use anyhow::Context;
use tempfile::TempDir;

/// A folder of copies; removed when dropped.
pub struct Installed {
    dir: TempDir,
}

impl Installed {
    pub fn new() -> anyhow::Result<Installed> {
        Ok(Installed { dir: tempfile::Builder::new().prefix("plugboard-bench-installed").tempdir()? })
    }

    /// Copies `files` (all from one folder, so a program still finds what sits beside it, as `plugboard` finds its
    /// keeper) into the subfolder `name`; returns the copies' paths in the same order.
    pub fn install(&self, name: &str, files: &[&Path]) -> anyhow::Result<Vec<PathBuf>> {
        let folder = self.dir.path().join(name);
        std::fs::create_dir_all(&folder)?;
        files.iter().map(|file| copy_as_installed(file, &folder)).collect()
    }
}

fn copy_as_installed(file: &Path, folder: &Path) -> anyhow::Result<PathBuf> {
    let name = file.file_name().with_context(|| format!("{} names no file", file.display()))?;
    let copy = folder.join(name);
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    // One write of the whole file, not `std::fs::copy`: how the kernel copies within one file system is its choice.
    std::fs::write(&copy, bytes).with_context(|| format!("cannot write {}", copy.display()))?;
    std::fs::set_permissions(&copy, std::fs::metadata(file)?.permissions())?;
    Ok(copy)
}
