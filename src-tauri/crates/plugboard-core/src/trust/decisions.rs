//! The person's decisions on launch definitions, kept by digest in `trust.json` in the data dir: never in
//! servers.json, which imports, install links and other programs write. Read afresh at every check (another
//! process may have decided since), written atomically under a lock file so two processes deciding at once both
//! keep their decision. It must never record a decision nobody made, and an unreadable file approves nothing.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::store::{Versioned, lock_beside, read_versioned, write_versioned};
use super::{DefinitionDigest, LaunchDefinition};

/// What the person said about a definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum Decision {
    Approved,
    /// "No" sticks until the definition changes.
    Refused,
}

/// Why the decisions could not be read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TrustError {
    #[error("cannot read the approvals in {path}: {source}")]
    Read { path: PathBuf, source: io::Error },
    /// The file is not what Plugboard writes; nothing in it is trusted.
    #[error("the approvals in {path} are unreadable ({message}); approving a server again rewrites the file")]
    Corrupt { path: PathBuf, message: String },
    #[error("cannot save the approval in {path}: {source}")]
    Write { path: PathBuf, source: io::Error },
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct TrustFile {
    version: u32,
    launches: BTreeMap<DefinitionDigest, Record>,
}

impl Versioned for TrustFile {
    const VERSION: u32 = 1;
    fn version(&mut self) -> &mut u32 {
        &mut self.version
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Record {
    decision: Decision,
    /// The server's name when decided, for a person reading the file.
    server: String,
    decided_at_unix: u64,
}

/// The decisions file of one data dir.
#[derive(Debug, Clone)]
pub struct Approvals {
    path: PathBuf,
    /// One for every session of this process, so that they share what was read of the file.
    pins: super::ToolPins,
}

impl Approvals {
    /// The decisions in `path` (created at the first decision).
    pub fn at(path: impl Into<PathBuf>) -> Self {
        let path = path.into();
        let pins = super::ToolPins::at(path.with_file_name("tool-pins.json"));
        Self { path, pins }
    }

    /// The decisions of this user's data dir.
    pub fn for_this_user() -> Self {
        Self::at(crate::paths::trust_file())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The tool pins kept beside the decisions (the approved servers' tools).
    pub fn tool_pins(&self) -> super::ToolPins {
        self.pins.clone()
    }

    /// What was decided about `digest`, if anything.
    pub fn decision(&self, digest: &DefinitionDigest) -> Result<Option<Decision>, TrustError> {
        Ok(self.read()?.launches.get(digest).map(|r| r.decision))
    }

    /// Records `decision` on `definition`, replacing an earlier one.
    pub fn record(&self, definition: &LaunchDefinition, decision: Decision) -> Result<(), TrustError> {
        let _lock = lock_beside(&self.path)?;
        let mut file = match self.read() {
            Ok(file) => file,
            // A damaged file is kept beside the new one for the person to look at, never silently lost.
            Err(TrustError::Corrupt { .. }) => {
                let aside = self.path.with_extension("json.damaged");
                fs::rename(&self.path, &aside)
                    .map_err(|source| TrustError::Write { path: self.path.clone(), source })?;
                tracing::warn!("the approvals file was unreadable; it was kept as {}", aside.display());
                TrustFile::default()
            }
            Err(other) => return Err(other),
        };
        let decided_at_unix = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let record = Record { decision, server: definition.server().to_owned(), decided_at_unix };
        file.launches.insert(definition.digest(), record);
        write_versioned(&self.path, &mut file)
    }

    fn read(&self) -> Result<TrustFile, TrustError> {
        read_versioned(&self.path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn definition(args: &[&str]) -> LaunchDefinition {
        LaunchDefinition::Stdio {
            server: "files".into(),
            command: "npx".into(),
            program: Some("/usr/bin/npx".into()),
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            env: BTreeMap::new(),
            cwd: None,
            container_args: None,
        }
    }

    /// Nothing is decided until recorded; a decision is read back by another handle (another process); a later
    /// decision replaces it; another definition stays undecided.
    #[test]
    fn decisions_are_kept_by_digest() {
        let dir = tempfile::tempdir().expect("dir");
        let approvals = Approvals::at(dir.path().join("trust.json"));
        let pinned = definition(&["pkg@1"]);
        assert_eq!(approvals.decision(&pinned.digest()).expect("read"), None);
        approvals.record(&pinned, Decision::Approved).expect("record");
        let other_process = Approvals::at(dir.path().join("trust.json"));
        assert_eq!(other_process.decision(&pinned.digest()).expect("read"), Some(Decision::Approved));
        assert_eq!(other_process.decision(&definition(&["pkg@2"]).digest()).expect("read"), None);
        other_process.record(&pinned, Decision::Refused).expect("record");
        assert_eq!(approvals.decision(&pinned.digest()).expect("read"), Some(Decision::Refused));
    }

    /// A damaged file approves nothing (an error, not "no decision"), and the next decision keeps it aside.
    #[test]
    fn a_damaged_file_approves_nothing_and_is_kept() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("trust.json");
        fs::write(&path, b"{ not json").expect("write");
        let approvals = Approvals::at(&path);
        assert!(matches!(approvals.decision(&definition(&[]).digest()), Err(TrustError::Corrupt { .. })));
        approvals.record(&definition(&[]), Decision::Approved).expect("record");
        assert_eq!(fs::read(dir.path().join("trust.json.damaged")).expect("kept"), b"{ not json");
        assert_eq!(approvals.decision(&definition(&[]).digest()).expect("read"), Some(Decision::Approved));
    }

    /// Two writers at once both keep their decision (the lock serialises read-change-write).
    #[test]
    fn concurrent_decisions_are_all_kept() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("trust.json");
        let threads: Vec<_> = (0..8)
            .map(|i| {
                let approvals = Approvals::at(&path);
                std::thread::spawn(move || approvals.record(&definition(&[&format!("pkg@{i}")]), Decision::Approved))
            })
            .collect();
        for thread in threads {
            thread.join().expect("thread").expect("record");
        }
        let approvals = Approvals::at(&path);
        for i in 0..8 {
            assert_eq!(
                approvals.decision(&definition(&[&format!("pkg@{i}")]).digest()).expect("read"),
                Some(Decision::Approved)
            );
        }
    }

    /// The file is private to its owner.
    #[cfg(unix)]
    #[test]
    fn the_file_is_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("dir");
        let approvals = Approvals::at(dir.path().join("trust.json"));
        approvals.record(&definition(&[]), Decision::Approved).expect("record");
        let mode = fs::metadata(approvals.path()).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
}
