//! The tool limits a person chose for clients, kept in Plugboard's data dir (`client-budgets.json`), never in
//! servers.json (other programs write that file) nor in a client's own file. A file that cannot be read is reported
//! and left alone: it must never be replaced by one that forgets the person's other choices.

use std::path::Path;

use super::budget::ChosenBudgets;
use super::change::ExportContext;
use super::error::ExportError;
use crate::private_file::write_private_atomically;

/// The largest limit a person can choose; no client documents anything near it.
pub const MAX_CHOSEN_LIMIT: u32 = 10_000;

/// The limits chosen so far (none when the file does not exist).
pub fn load(path: &Path) -> Result<ChosenBudgets, ExportError> {
    let read_error = |reason: String| ExportError::Read { path: path.to_path_buf(), reason };
    match std::fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| read_error(e.to_string())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(ChosenBudgets::default()),
        Err(e) => Err(read_error(e.to_string())),
    }
}

impl ExportContext {
    /// Chooses `client`'s limit (`None`: back to what the client documents), keeping every other choice.
    pub fn choose_limit(&self, client: &str, limit: Option<u32>) -> Result<(), ExportError> {
        let target = self.target(client)?;
        if let Some(limit) = limit
            && !(1..=MAX_CHOSEN_LIMIT).contains(&limit)
        {
            return Err(ExportError::InvalidLimit { limit });
        }
        let path = &self.chosen_file;
        let mut chosen = load(path)?;
        match limit {
            Some(limit) => chosen.0.insert(target.id.to_owned(), limit),
            None => chosen.0.remove(target.id),
        };
        let text = serde_json::to_vec_pretty(&chosen)
            .map_err(|e| ExportError::Write { path: path.clone(), source: std::io::Error::other(e) })?;
        write_private_atomically(path, &text).map_err(|source| ExportError::Write { path: path.clone(), source })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A choice is kept beside the others and can be taken back; an unreadable file is an error and stays as it
    /// was; a limit of 0 or past the maximum is refused.
    #[test]
    fn choices_are_kept_and_a_broken_file_is_left_alone() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("client-budgets.json");
        assert_eq!(load(&path).expect("none yet"), ChosenBudgets::default());
        std::fs::write(&path, br#"{"cursor": 30, "zed": 12}"#).expect("write");
        let loaded = load(&path).expect("loads");
        assert_eq!(loaded.0.get("zed"), Some(&12));
        std::fs::write(&path, b"{ not json").expect("write");
        assert!(matches!(load(&path), Err(ExportError::Read { .. })));
        assert_eq!(std::fs::read(&path).expect("read"), b"{ not json");
    }
}
