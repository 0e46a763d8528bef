//! Applying an import plan: secrets into the vault first, then every chosen entry in ONE atomic write of
//! `servers.json`. If anything fails nothing is written and the secrets stored so far are removed again.

use serde::{Deserialize, Serialize};

use super::plan::{EntryOutcome, EntryPlan, FilePlan, ImportPlan};
use crate::registry::{Registry, RegistryError};
use crate::secrets::Sensitive;

/// What to do with an entry whose name is taken by a different server; `Skip` also leaves out a new entry the person
/// unticked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum ConflictChoice {
    /// Keep what Plugboard has.
    Skip,
    /// Replace it with the imported entry.
    Overwrite,
    /// Keep both: the imported one gets a free name (`name-2`, …).
    Rename,
}

/// What an applied import did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ImportSummary {
    pub added: Vec<String>,
    pub overwritten: Vec<String>,
    /// `(name in the source, name given)`.
    pub renamed: Vec<(String, String)>,
    pub skipped: Vec<String>,
    pub identical: u32,
    pub invalid: u32,
    pub file_errors: u32,
    pub secrets_moved: u32,
}

/// Applies `plan`, asking `choose` about each entry (with the file it is in: two files may hold one name). `None`
/// is the default: a new entry is added, a conflict keeps what Plugboard has. `Some(Skip)` leaves any entry out.
pub fn apply_plan(
    registry: &Registry,
    plan: &ImportPlan,
    choose: impl Fn(&FilePlan, &EntryPlan) -> Option<ConflictChoice>,
) -> Result<ImportSummary, RegistryError> {
    let mut summary = ImportSummary {
        file_errors: count_u32(plan.files.iter().filter(|f| f.error.is_some()).count()),
        identical: count_u32(plan.count(|o| *o == EntryOutcome::Identical)),
        invalid: count_u32(plan.count(|o| matches!(o, EntryOutcome::Invalid { .. }))),
        ..ImportSummary::default()
    };
    let current = registry.store().snapshot();
    let mut taken: Vec<String> = current.servers.into_keys().chain(current.unreadable.into_keys()).collect();
    let mut writes = Vec::new();
    for (file, entry) in plan.files.iter().flat_map(|f| f.entries.iter().map(move |e| (f, e))) {
        let Some(server) = &entry.server else { continue };
        let name = match (&entry.outcome, choose(file, entry)) {
            (EntryOutcome::New | EntryOutcome::Conflict { .. }, Some(ConflictChoice::Skip))
            | (EntryOutcome::Conflict { .. }, None) => {
                summary.skipped.push(entry.name.clone());
                continue;
            }
            (EntryOutcome::New, _) => {
                summary.added.push(entry.name.clone());
                entry.name.clone()
            }
            (EntryOutcome::Conflict { .. }, Some(ConflictChoice::Overwrite)) => {
                summary.overwritten.push(entry.name.clone());
                entry.name.clone()
            }
            (EntryOutcome::Conflict { .. }, Some(ConflictChoice::Rename)) => {
                let free = free_name(&entry.name, &taken);
                summary.renamed.push((entry.name.clone(), free.clone()));
                free
            }
            (EntryOutcome::Identical | EntryOutcome::Invalid { .. }, _) => continue,
        };
        taken.push(name.clone());
        writes.push((name, server.clone(), &entry.secret_values));
    }

    let secrets: Vec<(&str, &str, &Sensitive<String>)> = writes
        .iter()
        .flat_map(|(name, _, secrets)| {
            secrets.iter().map(move |(secret, value)| (name.as_str(), secret.as_str(), value))
        })
        .collect();
    registry.write_with_secrets(&secrets, |file| {
        for (name, server, _) in &writes {
            file.servers.insert(name.clone(), server.clone());
        }
        Ok(())
    })?;
    summary.secrets_moved = count_u32(secrets.len());
    Ok(summary)
}

// Counts cross to TypeScript as numbers; a config file never holds 4 billion entries.
fn count_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// `base-2`, `base-3`, … : the first that is not taken.
pub(crate) fn free_name(base: &str, taken: &[String]) -> String {
    (2..).map(|n| format!("{base}-{n}")).find(|candidate| !taken.contains(candidate)).unwrap_or_else(|| base.into())
}
