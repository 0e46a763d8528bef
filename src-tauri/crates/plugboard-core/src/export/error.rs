//! What can go wrong writing into another client's file, each case naming the file so a person can look at it.

use std::path::PathBuf;

/// Why a write-back did not happen. Nothing was written in any of these cases.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    #[error("unknown client {id:?}; known: {}", known.join(", "))]
    UnknownClient { id: String, known: Vec<String> },
    #[error("there is no profile {profile:?} in Plugboard's servers.json; known: {}",
        if known.is_empty() { "none".to_owned() } else { known.join(", ") })]
    UnknownProfile { profile: String, known: Vec<String> },
    #[error("the profile {profile:?} cannot be used: {problem}")]
    InvalidProfile { profile: String, problem: String },
    /// The file does not parse (or has a shape its client could not read either); it was left as it was.
    #[error("{} does not parse, so it was not changed: {message}{}", path.display(),
        position.map(|(l, c)| format!(" (line {l}, column {c})")).unwrap_or_default())]
    Parse { path: PathBuf, message: String, position: Option<(usize, usize)> },
    /// The file parses but is laid out in a way this editor does not change safely.
    #[error("{} was not changed: {reason}", path.display())]
    Unsupported { path: PathBuf, reason: String },
    /// The edited text did not check out (another entry or setting would have changed); a bug, refused.
    #[error("{} was not changed: the edit would have changed more than Plugboard's entry ({reason})", path.display())]
    Unverified { path: PathBuf, reason: String },
    /// Someone else wrote the file between reading it and writing it.
    #[error("{} changed since Plugboard read it, so it was not overwritten; run the command again", path.display())]
    ChangedSinceRead { path: PathBuf },
    #[error("{} cannot be read: {reason}", path.display())]
    Read { path: PathBuf, reason: String },
    #[error("{} cannot be written: {source}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The file is not what it was when the change was shown: the person confirmed another change than this one.
    #[error("{} changed since the change was shown, so nothing was written; look at the new change", path.display())]
    NotAsShown { path: PathBuf },
    #[error("a tool limit is a number from 1 to {}, not {limit}", super::chosen::MAX_CHOSEN_LIMIT)]
    InvalidLimit { limit: u32 },
    #[error("there is no backup of {client}'s file to restore (Plugboard has not changed it since the last restore)")]
    NoBackup { client: String },
}

impl ExportError {
    /// The file was changed by someone else meanwhile: reading again and retrying is the answer.
    pub fn is_conflict(&self) -> bool {
        matches!(self, Self::ChangedSinceRead { .. } | Self::NotAsShown { .. })
    }
}

/// Why an editor refused a text, before the path is known to it (it works on text only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    Parse { message: String, position: Option<(usize, usize)> },
    Unsupported(String),
}

impl Refusal {
    pub(crate) fn unsupported(reason: impl Into<String>) -> Self {
        Self::Unsupported(reason.into())
    }

    pub(crate) fn at(self, path: &std::path::Path) -> ExportError {
        let path = path.to_path_buf();
        match self {
            Self::Parse { message, position } => ExportError::Parse { path, message, position },
            Self::Unsupported(reason) => ExportError::Unsupported { path, reason },
        }
    }
}

impl From<crate::import::ParseError> for Refusal {
    fn from(e: crate::import::ParseError) -> Self {
        Self::Parse { message: e.message, position: e.position }
    }
}
