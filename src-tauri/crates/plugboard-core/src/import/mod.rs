//! Importing other MCP clients' configs: one pure parser per client and where each keeps its file, the scan that
//! moves literal secrets out of imported entries, and the plan → apply flow. Source files are only ever read.

mod apply;
mod choices;
pub mod clients;
mod detect;
mod plan;
mod read;
pub mod secrets_scan;
mod source;

#[cfg(test)]
mod tests;

pub(crate) use apply::free_name;
pub use apply::{ConflictChoice, ImportSummary, apply_plan};
pub use choices::{ImportChoice, ImportChoices};
pub use detect::{ClientNotFound, DetectedFile, ImportSource, ImportSources, detect, guess_client};
pub use plan::{EntryOutcome, EntryPlan, FilePlan, ImportPlan};
pub use read::{MAX_IMPORT_FILE_BYTES, ReadError, read_source_file};
pub use secrets_scan::{FoundSecret, move_literal_secrets};
pub use source::{ClientSource, ImportedServer, Os, ParseError, ParsedEntry, PathContext};
