//! Why the server config could not be read or written, precise enough for a person to fix it.

use std::path::PathBuf;

/// A failure to read or understand `servers.json`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// The file exists but could not be read (permissions, a directory in its place, …).
    #[error("cannot read {path}: {source}")]
    Unreadable { path: PathBuf, source: std::io::Error },
    /// The file is not valid JSON or has the wrong shape; line and column are 1-based, as editors show them.
    #[error("{path} is not valid at line {line}, column {column}: {message}")]
    Syntax { path: PathBuf, line: usize, column: usize, message: String },
    /// The file could not be written; the previous version is untouched.
    #[error("cannot write {path}: {source}")]
    Unwritable { path: PathBuf, source: std::io::Error },
    /// Another program changed the file since Plugboard last read it; Plugboard reloaded it instead of overwriting.
    #[error("{path} was changed by another program; Plugboard reloaded it: review the change and try again")]
    ChangedOnDisk { path: PathBuf },
    /// The file on disk is broken; Plugboard keeps working on the last good version and will not overwrite it.
    #[error("{path} cannot be parsed, so Plugboard will not overwrite it: fix it first ({reason})")]
    BrokenOnDisk { path: PathBuf, reason: String },
    /// The change would replace an entry of the file Plugboard cannot read; it stays as the person wrote it.
    #[error("the server {name:?} is already in the file (as an entry Plugboard cannot read): fix or remove it first")]
    UnreadableEntryInTheWay { name: String },
}

impl ConfigError {
    /// Whether the same change may succeed when tried again (after looking at what changed).
    pub fn is_transient(&self) -> bool {
        matches!(self, Self::ChangedOnDisk { .. })
    }
}
