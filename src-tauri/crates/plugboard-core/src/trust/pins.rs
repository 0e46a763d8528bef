//! Pinning against rug pulls: what a server offered when the person approved it — its tools, prompts, resource
//! templates and instructions (subject.rs) — is pinned, each by a SHA-256 over the RFC 8785 canonical JSON of its
//! definition, in the data dir's `tool-pins.json`, keyed by the launch definition's digest (not the server's name, so
//! a renamed or re-pointed entry starts unpinned). Anything new or changed since is withheld until the person
//! approves it; what it changed to is kept as pending, with whether it is new or changed, so a front end can show
//! and approve it without connecting. It must never pin a change nobody approved: only the first listing after a
//! launch approval, or [`ToolPins::approve_pending`], pins; nor check against a copy of the file older than the
//! file on disk.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::lazy_entry::LazyEntry;
use super::store::{Seen, Versioned, lock_beside, read_versioned, sha256_hex, write_versioned};
use super::subject::{Listing, Pin, PinKind, Subject};
use super::{DefinitionDigest, TrustError};

/// Why something is withheld.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum PinChange {
    /// Not offered when the server was approved.
    New,
    /// Its definition (a description, a schema, …) differs from what was approved.
    Changed,
}

/// The outcome of comparing a listing with the pins.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PinReview {
    /// What is withheld.
    pub withheld: BTreeMap<Subject, PinChange>,
    /// Pinned things of the listing's kinds the server no longer offers.
    pub removed: Vec<Subject>,
    /// This listing was the first after approval, and is now pinned.
    pub first_pinned: bool,
    /// Everything approved under the definition, after this review: each subject's pinned digest.
    pub approved: BTreeMap<Subject, String>,
}

impl PinReview {
    /// Everything of a listing withheld (the pins could not be read: nothing is trusted).
    pub fn withholding_all(listing: &Listing) -> Self {
        let withheld = listing.subjects().map(|s| (s.clone(), PinChange::Changed)).collect();
        Self { withheld, ..Self::default() }
    }

    /// The withheld tools, by raw name.
    pub fn withheld_tools(&self) -> BTreeMap<String, PinChange> {
        self.withheld_of(PinKind::Tool).map(|(subject, change)| (subject.name.clone(), change)).collect()
    }

    /// What of `kind` is withheld.
    pub fn withheld_of(&self, kind: PinKind) -> impl Iterator<Item = (&Subject, PinChange)> {
        self.withheld.iter().filter(move |(s, _)| s.kind == kind).map(|(s, c)| (s, *c))
    }

    /// A sentence for the server's log, or none when nothing is withheld.
    pub fn notice(&self, server: &str) -> Option<String> {
        if self.withheld.is_empty() {
            return None;
        }
        let named = |wanted: PinChange| -> String {
            let names: Vec<String> =
                self.withheld.iter().filter(|(_, change)| **change == wanted).map(|(s, _)| s.to_string()).collect();
            names.join(", ")
        };
        let (changed, new) = (named(PinChange::Changed), named(PinChange::New));
        let mut parts = Vec::new();
        if !changed.is_empty() {
            parts.push(format!("changed since approved: {changed}"));
        }
        if !new.is_empty() {
            parts.push(format!("new: {new}"));
        }
        if !self.removed.is_empty() && self.withheld.values().any(|c| *c == PinChange::New) {
            let gone: Vec<String> = self.removed.iter().map(ToString::to_string).collect();
            parts.push(format!("gone: {} (a rename?)", gone.join(", ")));
        }
        Some(format!(
            "withheld from every client until approved ({}); review them with `plugboard approve {server}`",
            parts.join("; ")
        ))
    }
}

/// Something offered and withheld: what it is now, and whether it is new or changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingPin {
    #[serde(flatten)]
    pub pin: Pin,
    pub change: PinChange,
}

/// One approved server's pins and what awaits approval.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerPins {
    /// The server's name when pinned, for a person reading the file.
    pub server: String,
    pub pinned: BTreeMap<Subject, Pin>,
    /// Offered but withheld: new things, and what changed things changed to.
    #[serde(default)]
    pub pending: BTreeMap<Subject, PendingPin>,
    pub pinned_at_unix: u64,
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PinFile {
    version: u32,
    /// Each server's pins are parsed when a review or an approval of that server needs them: a call reads this
    /// file for one server of however many a person has.
    servers: BTreeMap<DefinitionDigest, LazyEntry<ServerPins>>,
}

impl PinFile {
    /// The pins of `digest`, if it was ever pinned; a damaged entry fails only the server it belongs to.
    fn server_mut(&mut self, digest: &DefinitionDigest) -> Result<Option<&mut ServerPins>, serde_json::Error> {
        self.servers.get_mut(digest).map(LazyEntry::get_mut).transpose()
    }
}

impl Versioned for PinFile {
    const VERSION: u32 = 2;
    fn version(&mut self) -> &mut u32 {
        &mut self.version
    }
}

/// One approved definition's pins, as a session made under it checks its listings.
#[derive(Debug, Clone)]
pub struct Pinning {
    pub pins: ToolPins,
    pub digest: DefinitionDigest,
}

impl Pinning {
    /// What of `listing` is withheld; when the pins cannot be read, everything is (with the reason, for the log).
    /// Blocks on the file: run it off the async runtime.
    pub fn review(&self, server: &str, listing: &Listing) -> (PinReview, Option<String>) {
        match self.pins.review(&self.digest, server, listing) {
            Ok(review) => (review, None),
            Err(error) => (PinReview::withholding_all(listing), Some(format!("everything is withheld: {error}"))),
        }
    }
}

/// The pins of one data dir. Clones share what was last read of the file.
#[derive(Debug, Clone)]
pub struct ToolPins {
    path: PathBuf,
    /// The file as this process last read it, and how it was on disk then: every server's review reads the whole
    /// file, so with 50 servers starting at once each parsed every server's pins (0.45 MB) again.
    last_read: Arc<Mutex<Option<(Seen, PinFile)>>>,
}

impl ToolPins {
    pub fn at(path: impl Into<PathBuf>) -> Self {
        Self { path: path.into(), last_read: Arc::default() }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Compares a listing with the pins of `digest`: the first listing after approval is pinned whole; later, new
    /// and changed things of the listing's kinds are withheld and kept as pending (replacing what of those kinds was
    /// pending before; other kinds' pending is left alone).
    pub fn review(&self, digest: &DefinitionDigest, server: &str, listing: &Listing) -> Result<PinReview, TrustError> {
        self.update(|file| {
            let Some(pins) = file.server_mut(digest)? else {
                let pins = ServerPins {
                    server: server.to_owned(),
                    pinned: listing.items.clone(),
                    pending: BTreeMap::new(),
                    pinned_at_unix: now(),
                };
                let approved = digests(&pins.pinned);
                file.servers.insert(digest.clone(), LazyEntry::Parsed(pins));
                return Ok((true, PinReview { first_pinned: true, approved, ..PinReview::default() }));
            };
            let mut review = PinReview::default();
            let mut pending: BTreeMap<Subject, PendingPin> = pins
                .pending
                .iter()
                .filter(|(s, _)| !listing.covers(s.kind))
                .map(|(s, p)| (s.clone(), p.clone()))
                .collect();
            for (subject, pin) in &listing.items {
                let change = match pins.pinned.get(subject) {
                    Some(pinned) if pinned.digest == pin.digest => continue,
                    Some(_) => PinChange::Changed,
                    None => PinChange::New,
                };
                review.withheld.insert(subject.clone(), change);
                pending.insert(subject.clone(), PendingPin { pin: pin.clone(), change });
            }
            review.removed = pins
                .pinned
                .keys()
                .filter(|s| listing.covers(s.kind) && !listing.items.contains_key(*s))
                .cloned()
                .collect();
            review.approved = digests(&pins.pinned);
            let changed = pins.pending != pending;
            pins.pending = pending;
            Ok((changed, review))
        })
    }

    /// Reads the file ahead of a review, for a server that is starting: its first listing's review then finds the
    /// file parsed (a person with 50 servers has half a megabyte of pins, which took 2 ms of a cold call after the
    /// server had answered its listing). Takes no lock on the file: what it keeps is marked with how the file was
    /// before the read, so a change it raced is read again by the review. Does nothing while a review holds the copy
    /// or when the copy is current. Blocks on the file: run it off the async runtime.
    pub fn read_ahead(&self) {
        let Ok(mut last_read) = self.last_read.try_lock() else { return };
        let Some(seen) = Seen::of(&self.path) else { return };
        if last_read.as_ref().is_some_and(|(then, _)| *then == seen) {
            return;
        }
        // A file that cannot be read is the review's to report.
        if let Ok(file) = self.read() {
            *last_read = Some((seen, file));
        }
    }

    /// The pins of `digest`, if it was ever pinned.
    pub fn pins(&self, digest: &DefinitionDigest) -> Result<Option<ServerPins>, TrustError> {
        let file = self.read()?;
        let pins = file.servers.get(digest).map(LazyEntry::to_parsed).transpose();
        pins.map_err(|e| self.corrupt(&e))
    }

    /// Pins what is pending for `digest` and was `shown` to the person (subject and digest: something that changed
    /// again since is left withheld); returns what was approved.
    pub fn approve_pending(
        &self,
        digest: &DefinitionDigest,
        shown: &BTreeMap<Subject, String>,
    ) -> Result<Vec<Subject>, TrustError> {
        self.update(|file| {
            let Some(pins) = file.server_mut(digest)? else { return Ok((false, Vec::new())) };
            let approved: Vec<Subject> = pins
                .pending
                .iter()
                .filter(|(subject, pending)| shown.get(*subject) == Some(&pending.pin.digest))
                .map(|(subject, _)| subject.clone())
                .collect();
            for subject in &approved {
                if let Some(pending) = pins.pending.remove(subject) {
                    pins.pinned.insert(subject.clone(), pending.pin);
                }
            }
            pins.pinned_at_unix = now();
            Ok((!approved.is_empty(), approved))
        })
    }

    /// A digest of everything approved (pinned) in the file, whatever is pending: a write that changed only what
    /// is pending (a session recording a change it withheld) leaves it as it was, so followers of the file know
    /// there is nothing new to release.
    pub fn approved_fingerprint(&self) -> Result<String, TrustError> {
        let file = self.read()?;
        let mut approved: BTreeMap<&DefinitionDigest, BTreeMap<String, String>> = BTreeMap::new();
        for (digest, entry) in &file.servers {
            let pins = entry.to_parsed().map_err(|e| self.corrupt(&e))?;
            let pinned = pins.pinned.into_iter().map(|(s, p)| (String::from(s), p.digest)).collect();
            approved.insert(digest, pinned);
        }
        Ok(sha256_hex(&serde_jcs::to_vec(&approved).unwrap_or_default()))
    }

    /// Runs `change` on the file under its lock and writes the file when `change` says it changed something.
    fn update<T>(
        &self,
        change: impl FnOnce(&mut PinFile) -> Result<(bool, T), serde_json::Error>,
    ) -> Result<T, TrustError> {
        let _lock = lock_beside(&self.path)?;
        let mut last_read = self.last_read.lock().unwrap_or_else(PoisonError::into_inner);
        // Looked at before reading: a writer that ignores the lock and changes the file in between makes the copy
        // kept below older than its mark, so the next look reads the file again (never the other way round).
        let seen = Seen::of(&self.path);
        let mut file = match (last_read.take(), &seen) {
            (Some((then, file)), Some(now)) if then == *now => file,
            _ => self.read()?,
        };
        // A damaged entry leaves the copy behind: nothing was changed in it, and the next update reads the file.
        let (changed, answer) = change(&mut file).map_err(|e| self.corrupt(&e))?;
        if changed {
            // The next update reads what was written, rather than trusting a mark taken after the write.
            write_versioned(&self.path, &mut file)?;
        } else if let Some(seen) = seen {
            *last_read = Some((seen, file));
        }
        Ok(answer)
    }

    /// The file is damaged where `error` says (one server's entry, read when it was needed).
    fn corrupt(&self, error: &serde_json::Error) -> TrustError {
        TrustError::Corrupt { path: self.path.clone(), message: error.to_string() }
    }

    fn read(&self) -> Result<PinFile, TrustError> {
        read_versioned(&self.path).or_else(|error| first_version::read(&self.path).ok_or(error))
    }
}

/// The first format (tools only, keyed by name) read as the current one: its tools stay pinned; what was pending
/// is not carried over (the next listing finds it again), and the other kinds, never pinned, are new.
mod first_version {
    use std::collections::BTreeMap;
    use std::path::Path;

    use serde::Deserialize;

    use super::{LazyEntry, PinFile, ServerPins, Subject};
    use crate::trust::DefinitionDigest;
    use crate::trust::subject::Pin;

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct File {
        version: u32,
        servers: BTreeMap<DefinitionDigest, Server>,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Server {
        server: String,
        tools: BTreeMap<String, Pin>,
        pinned_at_unix: u64,
    }

    pub(super) fn read(path: &Path) -> Option<PinFile> {
        let file: File = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
        if file.version != 1 {
            return None;
        }
        let servers = file.servers.into_iter().map(|(digest, old)| {
            let pinned = old.tools.into_iter().map(|(name, pin)| (Subject::tool(name), pin)).collect();
            let pins =
                ServerPins { server: old.server, pinned, pending: BTreeMap::new(), pinned_at_unix: old.pinned_at_unix };
            (digest, LazyEntry::Parsed(pins))
        });
        Some(PinFile { version: 1, servers: servers.collect() })
    }
}

fn digests(pinned: &BTreeMap<Subject, Pin>) -> BTreeMap<Subject, String> {
    pinned.iter().map(|(subject, pin)| (subject.clone(), pin.digest.clone())).collect()
}

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

#[cfg(test)]
#[path = "pins_tests.rs"]
mod tests;
