//! Why the server config could not be read, precise enough for a person to fix the file.

use std::path::PathBuf;

/// A failure to read or understand `servers.json`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// The file exists but could not be read (permissions, a directory in its place, …).
    #[error("cannot read {path}: {source}")]
    Unreadable { path: PathBuf, source: std::io::Error },
    /// The file is not valid JSON; line and column are 1-based, as editors show them.
    #[error("{path} is not valid JSON at line {line}, column {column}: {message}")]
    Syntax { path: PathBuf, line: usize, column: usize, message: String },
    /// The JSON is well-formed but a field has the wrong shape.
    #[error("{path}: {field}: {message}")]
    Invalid { path: PathBuf, field: String, message: String },
}

impl ConfigError {
    /// The dotted field the error is about, when it is about one (`mcpServers.files.args`).
    pub fn field(&self) -> Option<&str> {
        match self {
            Self::Invalid { field, .. } => Some(field),
            Self::Unreadable { .. } | Self::Syntax { .. } => None,
        }
    }
}
