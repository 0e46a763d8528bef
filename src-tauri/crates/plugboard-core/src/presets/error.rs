//! Why a preset could not be added; each variant names what the person can change.

use crate::registry::RegistryError;

/// A failed add; nothing was written and no secret was left behind.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PresetError {
    #[error("there is no preset named {name:?}")]
    UnknownPreset { name: String },
    #[error("preset {preset:?} takes no input named {input:?}")]
    UnknownInput { preset: String, input: String },
    #[error("{value:?} is not a choice of {input:?}: use one of {choices}")]
    NotAChoice { input: String, value: String, choices: String },
    #[error("{input:?} is required{}", suffix(.description))]
    MissingInput { input: String, description: String },
    #[error("a server named {name:?} already exists; {suggestion:?} is free")]
    NameTaken { name: String, suggestion: String },
    #[error(transparent)]
    Registry(#[from] RegistryError),
}

/// ": what it is for", or nothing when the preset does not say.
fn suffix(description: &str) -> String {
    if description.is_empty() { String::new() } else { format!(": {description}") }
}
