//! The person's choices for an import, and the rule for entries they did not decide: a new entry is added, a
//! conflicting one keeps what Plugboard has. The window and the CLI both apply an import through this one rule.

use std::collections::HashMap;

use serde::Deserialize;

use super::apply::ConflictChoice;
use super::plan::{EntryPlan, FilePlan};

/// The person's choice for one entry.
#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ImportChoice {
    pub name: String,
    /// The source file the entry is in, so entries of one name in two files are decided apart; without it the
    /// choice holds for every entry of that name.
    #[serde(default)]
    pub path: Option<String>,
    pub choice: ConflictChoice,
}

/// Every choice of one import.
#[derive(Debug, Clone, Default)]
pub enum ImportChoices {
    /// By entry: by file and name first, else by name; an entry not named follows the default rule.
    #[default]
    Defaults,
    PerEntry(HashMap<(Option<String>, String), ConflictChoice>),
    /// One choice for every conflicting entry (the CLI's `--on-conflict`); new entries are always added.
    EveryConflict(ConflictChoice),
}

impl ImportChoices {
    pub fn per_entry(choices: Vec<ImportChoice>) -> Self {
        Self::PerEntry(choices.into_iter().map(|c| ((c.path, c.name), c.choice)).collect())
    }

    /// The choice for `entry` of `file`; `None` is the default rule.
    pub fn for_entry(&self, file: &FilePlan, entry: &EntryPlan) -> Option<ConflictChoice> {
        match self {
            Self::Defaults => None,
            Self::PerEntry(choices) => {
                let of = |path: Option<String>| choices.get(&(path, entry.name.clone())).copied();
                of(Some(file.path.clone())).or_else(|| of(None))
            }
            Self::EveryConflict(choice) => entry.outcome.is_conflict().then_some(*choice),
        }
    }
}
