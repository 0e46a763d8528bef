//! The shape every importer shares: where a client keeps its files, and what parsing one of them yields.

use std::path::PathBuf;

use crate::config::raw::RawServer;

/// The operating system whose conventions a path lookup follows (tests ask for all three on any host).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    Linux,
    MacOs,
    Windows,
}

/// What a path lookup needs to know about the machine; built from the real environment or by a test.
#[derive(Debug, Clone)]
pub struct PathContext {
    pub os: Os,
    pub home: PathBuf,
    /// `%APPDATA%` (Windows roaming app data).
    pub app_data: Option<PathBuf>,
    /// `%LOCALAPPDATA%` (Windows local app data; MSIX packages live under it).
    pub local_app_data: Option<PathBuf>,
    /// `$XDG_CONFIG_HOME` when set (Linux).
    pub xdg_config_home: Option<PathBuf>,
    /// Project folders whose project-level files (`.cursor/mcp.json`, `.vscode/mcp.json`, `.mcp.json`…) count too.
    pub projects: Vec<PathBuf>,
}

/// One client Plugboard can import from.
#[derive(Debug, Clone, Copy)]
pub struct ClientSource {
    /// Stable id used on the CLI (`--from cursor`) and in `origin.client`.
    pub id: &'static str,
    /// The name people know it by.
    pub label: &'static str,
    /// Every file this client may keep servers in on `ctx.os`, most specific first; existence is not checked.
    pub default_paths: fn(&PathContext) -> Vec<PathBuf>,
    /// Parses one file's text. Pure: no I/O, no environment, no keychain.
    pub parse: fn(&str) -> Result<Vec<ParsedEntry>, ParseError>,
}

/// One server entry found in a file.
#[derive(Debug, Clone, PartialEq)]
#[allow(
    clippy::large_enum_variant,
    reason = "a handful per file, short-lived; boxing would only add noise at every match"
)]
pub enum ParsedEntry {
    /// Understood and translated into Plugboard's shape.
    Server(ImportedServer),
    /// Present but unusable; `name` as written (or a placeholder), `reason` in words a person understands.
    Invalid { name: String, reason: String },
}

/// A server translated into Plugboard's `servers.json` shape, before secrets are moved out and before validation.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedServer {
    /// The name as the client had it (sanitising and de-duplicating happen in the plan).
    pub name: String,
    pub server: RawServer,
    /// Where inside the file it came from when that matters (`projects["/home/me/app"]`), for the person.
    pub scope: Option<String>,
    /// What the person should know about the translation (a dropped field, an input to fill in, …).
    pub notes: Vec<String>,
}

/// Why a whole file could not be parsed; line and column are 1-based when known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}{}", position.map(|(l, c)| format!(" (line {l}, column {c})")).unwrap_or_default())]
pub struct ParseError {
    pub message: String,
    pub position: Option<(usize, usize)>,
}
