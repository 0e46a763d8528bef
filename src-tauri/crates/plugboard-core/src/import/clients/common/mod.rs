//! What the client parsers share: the lenient tree, entry reading, transport rules, path conventions and notes.
//! Nothing here knows a particular client; nothing here does I/O.

pub(crate) mod entry;
pub(crate) mod node;
pub(crate) mod notes;
pub(crate) mod paths;
pub(crate) mod transport;

use self::entry::{Draft, EntryProblem, EntryReader};
use crate::import::{ParseError, ParsedEntry};

/// The common case: a JSONC file whose top-level `mcpServers` object maps names to entries.
pub(crate) fn parse_mcp_servers_json(
    text: &str,
    translate: impl Fn(&str, EntryReader) -> Result<Draft, EntryProblem>,
) -> Result<Vec<ParsedEntry>, ParseError> {
    let doc = node::document(node::parse_jsonc(text)?)?;
    Ok(entry::translate_all(entry::server_map(&doc, "mcpServers")?, None, translate))
}

#[cfg(test)]
pub(crate) mod testing {
    //! Helpers for the clients' tests: pick entries by name and make Windows-flavoured variants of a fixture.
    use crate::import::{ImportedServer, ParsedEntry};

    /// The server called `name`; panics (in a test) when it is missing or invalid.
    pub(crate) fn server<'a>(entries: &'a [ParsedEntry], name: &str) -> &'a ImportedServer {
        entries
            .iter()
            .find_map(|e| match e {
                ParsedEntry::Server(s) if s.name == name => Some(s),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no server {name:?} in {entries:#?}"))
    }

    /// The reason the entry called `name` is invalid; panics when it is not invalid.
    pub(crate) fn invalid<'a>(entries: &'a [ParsedEntry], name: &str) -> &'a str {
        entries
            .iter()
            .find_map(|e| match e {
                ParsedEntry::Invalid { name: n, reason } if n == name => Some(reason.as_str()),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no invalid entry {name:?} in {entries:#?}"))
    }

    /// Names in the order they were parsed.
    pub(crate) fn names(entries: &[ParsedEntry]) -> Vec<&str> {
        entries
            .iter()
            .map(|e| match e {
                ParsedEntry::Server(s) => s.name.as_str(),
                ParsedEntry::Invalid { name, .. } => name.as_str(),
            })
            .collect()
    }

    /// The same text as a Windows editor would save it: a byte-order mark and CRLF line ends.
    pub(crate) fn bom_crlf(text: &str) -> String {
        format!("\u{feff}{}", text.replace("\r\n", "\n").replace('\n', "\r\n"))
    }

    /// Whether any note mentions `needle`.
    pub(crate) fn noted(server: &ImportedServer, needle: &str) -> bool {
        server.notes.iter().any(|n| n.contains(needle))
    }
}
