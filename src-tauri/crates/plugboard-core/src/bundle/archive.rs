//! Opening a `.mcpb` file (a zip with `manifest.json`, maybe followed by an `mcpb sign` block, which
//! `signature.rs` checks) and unpacking it. A
//! bundle is a stranger's file: every entry must stay inside its folder (no `..`, no absolute path, no link), and
//! sizes are bounded (the file, each entry, the total, the count); a bundle breaking any rule is refused whole and
//! nothing of it is left behind.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use super::BundleError;
use super::manifest::Manifest;
use super::signature::{self, Signature};

/// How big a bundle may be.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub file_bytes: u64,
    pub entry_bytes: u64,
    pub total_bytes: u64,
    pub entries: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self { file_bytes: 256 << 20, entry_bytes: 128 << 20, total_bytes: 512 << 20, entries: 20_000 }
    }
}

const MANIFEST_BYTES: u64 = 1 << 20;
/// A bundle read and checked, ready to unpack.
pub struct Opened {
    pub manifest: Manifest,
    pub signature: Signature,
    zip: Vec<u8>,
    limits: Limits,
}

/// Reads `path`, checks every entry and parses the manifest.
pub fn open(path: &Path, limits: Limits) -> Result<Opened, BundleError> {
    let size = std::fs::metadata(path).map_err(|e| BundleError::Unreadable(e.to_string()))?.len();
    if size > limits.file_bytes {
        return Err(BundleError::Oversized(format!("the file is larger than {} MiB", limits.file_bytes >> 20)));
    }
    let bytes = std::fs::read(path).map_err(|e| BundleError::Unreadable(e.to_string()))?;
    let authorities = signature::Authorities::of_this_computer();
    let (bytes, signature) = signature::check(bytes, &authorities)?;
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(&bytes[..]))
        .map_err(|e| BundleError::Malformed(format!("it is not a zip file ({e})")))?;
    if archive.len() > limits.entries {
        return Err(BundleError::Oversized(format!("it has more than {} files", limits.entries)));
    }
    let mut total = 0u64;
    for index in 0..archive.len() {
        let entry = archive.by_index_raw(index).map_err(|e| BundleError::Malformed(e.to_string()))?;
        let name = entry.name().map(|n| n.into_owned()).unwrap_or_default();
        if entry.enclosed_name().is_none() {
            return Err(BundleError::PathEscape(shown(&name)));
        }
        if entry.is_symlink() {
            return Err(BundleError::PathEscape(format!("{} is a link", shown(&name))));
        }
        if entry.size() > limits.entry_bytes {
            return Err(BundleError::Oversized(format!(
                "{} is larger than {} MiB",
                shown(&name),
                limits.entry_bytes >> 20
            )));
        }
        total += entry.size();
        if total > limits.total_bytes {
            return Err(BundleError::Oversized(format!("it unpacks to more than {} MiB", limits.total_bytes >> 20)));
        }
    }
    let manifest = {
        let file =
            archive.by_name("manifest.json").map_err(|_| BundleError::Malformed("it has no manifest.json".into()))?;
        let mut text = String::new();
        file.take(MANIFEST_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(|_| BundleError::Malformed("its manifest.json is not UTF-8 text".into()))?;
        if text.len() as u64 > MANIFEST_BYTES {
            return Err(BundleError::Oversized("its manifest.json is larger than 1 MiB".into()));
        }
        serde_json::from_str::<Manifest>(&text)
            .map_err(|e| BundleError::Malformed(format!("its manifest.json: {e}")))?
    };
    Ok(Opened { manifest, signature, zip: bytes, limits })
}

/// An entry's name as shown in a refusal: short, control characters dropped.
fn shown(name: &str) -> String {
    let clean: String = name.chars().filter(|c| !c.is_control()).take(80).collect();
    format!("{clean:?}")
}

impl Opened {
    /// Unpacks into `dest` (which must not exist): first into a sibling folder, renamed into place once complete.
    pub fn unpack(&self, dest: &Path) -> Result<(), BundleError> {
        if dest.exists() {
            return Err(BundleError::AlreadyInstalled(dest.display().to_string()));
        }
        let parent = dest.parent().ok_or_else(|| BundleError::Unreadable("no folder to unpack into".into()))?;
        std::fs::create_dir_all(parent).map_err(|e| BundleError::Unreadable(e.to_string()))?;
        let partial = parent.join(format!(".partial-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&partial);
        let result = self.unpack_into(&partial).and_then(|()| {
            std::fs::rename(&partial, dest)
                .map_err(|e| BundleError::Unreadable(format!("cannot move it into place: {e}")))
        });
        if result.is_err() {
            let _ = std::fs::remove_dir_all(&partial);
        }
        result
    }

    fn unpack_into(&self, root: &Path) -> Result<(), BundleError> {
        let io = |e: std::io::Error| BundleError::Unreadable(e.to_string());
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(&self.zip[..]))
            .map_err(|e| BundleError::Malformed(e.to_string()))?;
        std::fs::create_dir_all(root).map_err(io)?;
        for index in 0..archive.len() {
            let mut entry = archive.by_index(index).map_err(|e| BundleError::Malformed(e.to_string()))?;
            let relative: PathBuf = entry.enclosed_name().ok_or_else(|| {
                BundleError::PathEscape(shown(&entry.name().map(|n| n.into_owned()).unwrap_or_default()))
            })?;
            let target = root.join(&relative);
            if entry.is_dir() {
                std::fs::create_dir_all(&target).map_err(io)?;
                continue;
            }
            if let Some(folder) = target.parent() {
                std::fs::create_dir_all(folder).map_err(io)?;
            }
            let mut file = std::fs::File::create(&target).map_err(io)?;
            // The declared size was checked; the data itself is bounded too, in case it lies.
            let copied = std::io::copy(&mut (&mut entry).take(self.limits.entry_bytes + 1), &mut file).map_err(io)?;
            if copied > self.limits.entry_bytes {
                return Err(BundleError::Oversized(format!(
                    "{} unpacks larger than it says",
                    shown(&entry.name().map(|n| n.into_owned()).unwrap_or_default())
                )));
            }
            file.flush().map_err(io)?;
            #[cfg(unix)]
            if let Some(mode) = entry.unix_mode() {
                use std::os::unix::fs::PermissionsExt;
                // Execute bits are kept (a binary server needs them); nothing beyond the owner's rwx and others' rx.
                std::fs::set_permissions(&target, std::fs::Permissions::from_mode(mode & 0o755)).map_err(io)?;
            }
        }
        Ok(())
    }
}
