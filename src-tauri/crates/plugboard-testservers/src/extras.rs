//! With `--extras-description-file`: the server's instructions, a prompt `brief` and a resource template
//! `note://{id}`, all described with one file's text (read at start), so a test can change what a server says
//! besides its tools between runs without changing its command line (a rug pull that is not a tool).

use std::path::Path;

use rmcp::model::{Prompt, ResourceTemplate};

/// What the file said when the server started.
#[derive(Clone)]
pub struct Extras {
    text: String,
}

impl Extras {
    /// The extras described by `file`; none without one (a missing file describes them as empty).
    pub fn read(file: Option<&Path>) -> Option<Self> {
        file.map(|f| Self { text: std::fs::read_to_string(f).unwrap_or_default() })
    }

    pub fn instructions(&self) -> String {
        self.text.clone()
    }

    pub fn prompt(&self) -> Prompt {
        Prompt::new("brief", Some(self.text.clone()), None)
    }

    pub fn template(&self) -> ResourceTemplate {
        ResourceTemplate::new("note://{id}", "note").with_description(self.text.clone())
    }
}
