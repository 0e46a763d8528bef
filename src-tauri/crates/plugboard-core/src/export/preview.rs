//! A change as a front end shows it and the person confirms it: the diff, and a digest of exactly what was planned
//! (the file as read and as it would be written). The confirmation carries the digest back; applying plans again
//! from the file as it is then and writes only when that plan has the same digest, so a person never confirms one
//! change and gets another. It must never apply a plan whose digest differs from the one confirmed.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::change::{Change, ChangeKind, ExportContext};
use super::error::ExportError;

/// What a person asks of one client's file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ChangeRequest {
    #[serde(rename_all = "camelCase")]
    Connect {
        client: String,
        profile: Option<String>,
        move_duplicates: bool,
    },
    Disconnect {
        client: String,
    },
    Restore {
        client: String,
    },
}

/// A planned change, to show before anything is written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ChangePreview {
    pub client: String,
    pub label: String,
    pub kind: ChangeKind,
    /// The file written.
    pub path: String,
    /// The unified diff of the file, from as it is to as it would be.
    pub diff: String,
    /// The client's own entries that move out (Plugboard serves them).
    pub moved: Vec<String>,
    /// Nothing would change.
    pub noop: bool,
    /// There is no file yet: connecting creates it.
    pub creates: bool,
    /// Restoring removes the file (the client had none before Plugboard).
    pub removes: bool,
    /// What was planned, to hand back with the confirmation.
    pub digest: String,
    /// What the person does for the client to see the change.
    pub next_step: String,
}

impl Change {
    /// A digest of exactly this plan: the kind, the file, its text as read and as it would be written.
    pub fn digest(&self) -> String {
        let mut hash = Sha256::new();
        let mut part = |bytes: Option<&[u8]>| {
            // Length-prefixed, so no two different plans hash the same bytes.
            match bytes {
                Some(bytes) => {
                    hash.update([1]);
                    hash.update((bytes.len() as u64).to_be_bytes());
                    hash.update(bytes);
                }
                None => hash.update([0]),
            }
        };
        part(Some(format!("{:?}", self.kind).as_bytes()));
        part(Some(self.path.to_string_lossy().as_bytes()));
        part(self.before.as_deref().map(str::as_bytes));
        part(self.after.as_deref().map(str::as_bytes));
        hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The change as a front end shows it.
    pub fn preview(&self) -> ChangePreview {
        ChangePreview {
            client: self.client.id.to_owned(),
            label: self.client.label.to_owned(),
            kind: self.kind,
            path: self.path.display().to_string(),
            diff: if self.is_noop() { String::new() } else { self.diff() },
            moved: self.moved.clone(),
            noop: self.is_noop(),
            creates: self.before.is_none() && self.after.is_some(),
            removes: self.before.is_some() && self.after.is_none(),
            digest: self.digest(),
            next_step: self.client.next_step.to_owned(),
        }
    }
}

impl ExportContext {
    /// Plans what `request` asks, from the file as it is now.
    pub fn plan_request(&self, request: &ChangeRequest) -> Result<Change, ExportError> {
        match request {
            ChangeRequest::Connect { client, profile, move_duplicates } => {
                self.plan_connect(client, profile.as_deref(), *move_duplicates)
            }
            ChangeRequest::Disconnect { client } => self.plan_disconnect(client),
            ChangeRequest::Restore { client } => self.plan_restore(client),
        }
    }

    /// Writes what `request` asks only if planning it now gives exactly the plan that was shown (`shown`, its
    /// digest); otherwise nothing is written and the person is asked to look again.
    pub fn apply_as_shown(&self, request: &ChangeRequest, shown: &str) -> Result<ChangePreview, ExportError> {
        let change = self.plan_request(request)?;
        if change.digest() != shown {
            return Err(ExportError::NotAsShown { path: change.path });
        }
        self.apply(&change)?;
        Ok(change.preview())
    }
}
