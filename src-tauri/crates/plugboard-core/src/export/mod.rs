//! Write-back: one stdio entry named `plugboard`, launching `plugboard serve --stdio`, put into (or taken out of)
//! another MCP client's own config file, in that client's shape. Every edit is surgical (the rest of the file stays
//! byte-for-byte), re-checked by parsing the new text before anything is written, backed up, atomic, and refused
//! when the file changed since it was read. It must never rewrite a whole file from a parsed model, never write a
//! file that does not parse, and never put a secret into a client's file: the entry holds a path and arguments.

mod backup;
mod budget;
mod change;
mod chosen;
mod entry;
mod error;
mod json_file;
mod limits;
mod preview;
mod status;
mod targets;
mod toml_file;
mod verify;
mod yaml_file;

#[cfg(test)]
mod tests;

pub use budget::{ChosenBudgets, KnownTools, LimitFrom, ToolBudget, ToolCount, Trim};
pub use change::{Change, ChangeKind, ExportContext};
pub use chosen::{MAX_CHOSEN_LIMIT, load as load_chosen};
pub use entry::{ENTRY_NAME, PlugboardEntry};
pub use error::ExportError;
pub use limits::{DocumentedLimit, documented_limit};
pub use preview::{ChangePreview, ChangeRequest};
pub use status::{ClientStatus, Connection, LookedAt};
pub use targets::{ClientTarget, Format, all_targets, target};
