//! An append-only file the tests read back to see what reached the server (calls, cancellations). Best effort:
//! a failed write must never change how the server answers.

use std::io::Write;
use std::path::PathBuf;

/// Where to record events; `None` records nothing.
#[derive(Debug, Default)]
pub struct Journal(Option<PathBuf>);

impl Journal {
    pub fn new(path: Option<PathBuf>) -> Self {
        Self(path)
    }

    /// Appends `event` as one line (one write, so concurrent calls never interleave within a line).
    pub fn record(&self, event: &str) {
        let Some(path) = &self.0 else { return };
        let line = format!("{event}\n");
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut file| file.write_all(line.as_bytes()));
        if let Err(e) = written {
            eprintln!("plugboard-testserver: cannot write the journal {}: {e}", path.display());
        }
    }
}
