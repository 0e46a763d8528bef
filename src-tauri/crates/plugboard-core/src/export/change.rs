//! Connect, disconnect and restore as two steps: a `Change` computed from the file as read (its new text already
//! checked, its diff ready to show), then `apply`, which writes it only if the file still holds what was read.
//! It must never write a change that was not planned from the current bytes.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::backup;
use super::budget::{ChosenBudgets, KnownTools};
use super::entry::PlugboardEntry;
use super::error::ExportError;
use super::targets::{ClientTarget, Format, all_targets, target};
use super::{json_file, toml_file, verify, yaml_file};
use crate::config::raw::RawConfigFile;
use crate::config::validate_profiles;
use crate::import::{MAX_IMPORT_FILE_BYTES, PathContext};

/// What one edit does to the server map: put Plugboard's entry (or, with `None`, take it out), and remove `remove`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Edit<'a> {
    pub(crate) set: Option<&'a Value>,
    pub(crate) remove: &'a [String],
}

/// Everything write-back needs to know about this machine and this Plugboard.
#[derive(Debug, Clone)]
pub struct ExportContext {
    pub paths: PathContext,
    /// Where backups of clients' files are kept (in Plugboard's data dir).
    pub backups_dir: PathBuf,
    /// The absolute path of the `plugboard` binary the entry launches.
    pub binary: PathBuf,
    /// Plugboard's servers.json (its servers decide the duplicates, its profiles the valid `--profile`).
    pub servers: RawConfigFile,
    /// Each enabled server's curated tools as last approved: what a client's tool budget counts.
    pub tools: KnownTools,
    /// The tool limits the person chose per client, and the file they are kept in (in the data dir).
    pub chosen: ChosenBudgets,
    pub chosen_file: PathBuf,
}

/// What a change does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum ChangeKind {
    Connect,
    Disconnect,
    Restore,
}

/// A planned change of one client's file.
#[derive(Debug, Clone)]
pub struct Change {
    pub client: &'static ClientTarget,
    pub kind: ChangeKind,
    /// The file written (a symlink's target, so the link stays a link).
    pub path: PathBuf,
    /// The file as read (`None`: there is none).
    pub before: Option<String>,
    /// The file as it will be (`None`: it is removed, when a restore returns to no file).
    pub after: Option<String>,
    /// The client's own entries that move out because Plugboard has them.
    pub moved: Vec<String>,
}

impl Change {
    /// Nothing would change (connected already, or nothing to disconnect).
    pub fn is_noop(&self) -> bool {
        self.before == self.after
    }

    /// The change as a unified diff.
    pub fn diff(&self) -> String {
        let (old, new) = (self.before.as_deref().unwrap_or(""), self.after.as_deref().unwrap_or(""));
        let path = self.path.display().to_string();
        similar::TextDiff::from_lines(old, new).unified_diff().context_radius(3).header(&path, &path).to_string()
    }
}

impl ExportContext {
    pub(crate) fn target(&self, id: &str) -> Result<&'static ClientTarget, ExportError> {
        target(id).ok_or_else(|| ExportError::UnknownClient {
            id: id.to_owned(),
            known: all_targets().iter().map(|t| t.id.to_owned()).collect(),
        })
    }

    /// Plans adding (or updating) the entry in `client`'s file.
    pub fn plan_connect(
        &self,
        client: &str,
        profile: Option<&str>,
        move_duplicates: bool,
    ) -> Result<Change, ExportError> {
        let target = self.target(client)?;
        if let Some(profile) = profile {
            self.check_profile(profile)?;
        }
        let entry = PlugboardEntry { binary: self.binary.clone(), profile: profile.map(str::to_owned) };
        let (path, before) = self.read(target)?;
        let moved = if move_duplicates { self.duplicates(target, &path, before.as_deref())? } else { Vec::new() };
        let value = entry.value(target.format);
        self.plan(target, ChangeKind::Connect, path, before, Edit { set: Some(&value), remove: &moved }, moved.clone())
    }

    /// Plans taking the entry out of `client`'s file (and nothing else).
    pub fn plan_disconnect(&self, client: &str) -> Result<Change, ExportError> {
        let target = self.target(client)?;
        let (path, before) = self.read(target)?;
        if before.is_none() {
            return Ok(Change {
                client: target,
                kind: ChangeKind::Disconnect,
                path,
                before: None,
                after: None,
                moved: vec![],
            });
        }
        self.plan(target, ChangeKind::Disconnect, path, before, Edit { set: None, remove: &[] }, Vec::new())
    }

    /// Plans putting back the file as it was before Plugboard first changed it.
    pub fn plan_restore(&self, client: &str) -> Result<Change, ExportError> {
        let target = self.target(client)?;
        let kept = backup::load(&self.backups_dir, target.id)
            .map_err(|e| ExportError::Read { path: self.backups_dir.join(target.id), reason: e.to_string() })?
            .ok_or_else(|| ExportError::NoBackup { client: target.label.to_owned() })?;
        let before = read_text(&kept.path)?;
        let after = kept
            .original
            .map(String::from_utf8)
            .transpose()
            .map_err(|_| ExportError::Read { path: kept.path.clone(), reason: "the backup is not UTF-8".into() })?;
        Ok(Change { client: target, kind: ChangeKind::Restore, path: kept.path, before, after, moved: Vec::new() })
    }

    /// Writes `change` if the file still holds what it was planned from, keeping the backup (see backup.rs).
    pub fn apply(&self, change: &Change) -> Result<(), ExportError> {
        let path = &change.path;
        let forget_backup = || {
            backup::forget(&self.backups_dir, change.client.id)
                .map_err(|source| ExportError::Write { path: self.backups_dir.join(change.client.id), source })
        };
        if change.is_noop() {
            // A restore to what the file already holds still uses the backup up.
            return if change.kind == ChangeKind::Restore { forget_backup() } else { Ok(()) };
        }
        let write_error = |source| ExportError::Write { path: path.clone(), source };
        let unchanged = || read_text(path).is_ok_and(|now| now == change.before);
        // Kept once the file is known to be unchanged, right before the rename: the backup is what was read.
        let keep_backup = || {
            if change.kind == ChangeKind::Restore {
                return Ok(());
            }
            let before = change.before.as_deref().map(str::as_bytes);
            backup::keep(&self.backups_dir, change.client.id, path, before).map_err(|e| {
                let dir = self.backups_dir.join(change.client.id);
                std::io::Error::new(e.kind(), format!("the backup cannot be kept in {}: {e}", dir.display()))
            })
        };
        match &change.after {
            Some(after) => {
                let mode = file_mode(path);
                let mut changed = false;
                let written = crate::private_file::replace_keeping_mode(path, after.as_bytes(), mode, || {
                    if unchanged() {
                        return keep_backup();
                    }
                    changed = true;
                    Err(std::io::Error::other("the file changed since it was read"))
                });
                if changed {
                    return Err(ExportError::ChangedSinceRead { path: path.clone() });
                }
                written.map_err(write_error)?;
            }
            None => {
                if !unchanged() {
                    return Err(ExportError::ChangedSinceRead { path: path.clone() });
                }
                std::fs::remove_file(path).map_err(write_error)?;
            }
        }
        if change.kind == ChangeKind::Restore {
            forget_backup()?;
        }
        Ok(())
    }

    fn check_profile(&self, profile: &str) -> Result<(), ExportError> {
        let profiles = validate_profiles(&self.servers);
        if profiles.valid.contains_key(profile) {
            return Ok(());
        }
        if let Some(problem) = profiles.problem(profile) {
            return Err(ExportError::InvalidProfile { profile: profile.to_owned(), problem: problem.to_string() });
        }
        Err(ExportError::UnknownProfile { profile: profile.to_owned(), known: profiles.names() })
    }

    /// The client's file (a symlink resolved) and its text, `None` when there is no file.
    pub(crate) fn read(&self, target: &ClientTarget) -> Result<(PathBuf, Option<String>), ExportError> {
        let path = target.file(&self.paths);
        // A symlinked file (a dotfiles checkout) is written where it points, so the link stays a link. Other paths
        // stay as they are (canonicalising would turn a Windows path into its `\\?\` form).
        let linked = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
        let path = if linked { std::fs::canonicalize(&path).unwrap_or(path) } else { path };
        let text = read_text(&path)?;
        Ok((path, text))
    }

    /// The names of the client's own entries that duplicate a server Plugboard has.
    pub(crate) fn duplicates(
        &self,
        target: &ClientTarget,
        path: &Path,
        text: Option<&str>,
    ) -> Result<Vec<String>, ExportError> {
        let Some(text) = text.filter(|t| !t.trim_start_matches('\u{feff}').trim().is_empty()) else {
            return Ok(Vec::new());
        };
        let entries = target.parse(text).map_err(|e| parse_error(path, e))?;
        Ok(super::status::duplicate_names(&entries, &self.servers))
    }

    fn plan(
        &self,
        target: &'static ClientTarget,
        kind: ChangeKind,
        path: PathBuf,
        before: Option<String>,
        edit: Edit<'_>,
        moved: Vec<String>,
    ) -> Result<Change, ExportError> {
        let old = before.as_deref().unwrap_or("");
        let blank = old.trim_start_matches('\u{feff}').trim().is_empty();
        if !blank {
            // The client's own reader first: a file it could not read either is refused with its position.
            target.parse(old).map_err(|e| parse_error(&path, e))?;
        }
        let current = verify::document(target.format, old).map_err(|e| parse_error(&path, e))?;
        let (_, servers) = verify::split(target.format, current);
        let already = verify::our_entry(&servers) == edit.set && edit.remove.is_empty();
        let after = if already {
            old.to_owned()
        } else {
            let edited = match target.format {
                Format::Json { servers_key, .. } => json_file::apply(old, servers_key, &edit),
                Format::Toml => toml_file::apply(old, &edit),
                Format::Yaml => yaml_file::apply(old, &edit),
            };
            let edited = edited.map_err(|refusal| refusal.at(&path))?;
            verify::check(target.format, old, &edited, &edit)
                .map_err(|m| ExportError::Unverified { path: path.clone(), reason: m.0 })?;
            // And the client's own reader takes it.
            target.parse(&edited).map_err(|e| ExportError::Unverified {
                path: path.clone(),
                reason: format!("the client's reader refuses the new text: {e}"),
            })?;
            edited
        };
        // A missing file stays missing when there is nothing to write.
        let after = if before.is_none() && after.is_empty() { None } else { Some(after) };
        Ok(Change { client: target, kind, path, before, after, moved })
    }
}

fn parse_error(path: &Path, e: crate::import::ParseError) -> ExportError {
    ExportError::Parse { path: path.to_path_buf(), message: e.message, position: e.position }
}

/// A client's file as text, `None` when it does not exist.
pub(crate) fn read_text(path: &Path) -> Result<Option<String>, ExportError> {
    let read_error = |reason: String| ExportError::Read { path: path.to_path_buf(), reason };
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(read_error(e.to_string())),
    };
    if !meta.is_file() {
        return Err(read_error("it is not a regular file".into()));
    }
    if meta.len() > MAX_IMPORT_FILE_BYTES {
        return Err(read_error(format!("it is {} bytes, more than Plugboard edits", meta.len())));
    }
    let bytes = std::fs::read(path).map_err(|e| read_error(e.to_string()))?;
    String::from_utf8(bytes).map(Some).map_err(|_| read_error("it is not UTF-8 text".into()))
}

/// The file's permission bits, to give the new file the same.
fn file_mode(path: &Path) -> Option<u32> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).ok().map(|m| m.permissions().mode() & 0o7777)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}
