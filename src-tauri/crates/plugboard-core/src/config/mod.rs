//! The server registry's file: `servers.json`, its lenient raw shape, the validated model, `${…}` references,
//! the gateway's profiles, and the store that owns the file (atomic writes, backups, external edits detected and never clobbered).

mod entry_text;
mod error;
mod file;
mod lenient;
pub mod model;
mod other_keys;
mod profiles;
pub mod raw;
pub mod references;
mod store;
mod summary;
mod validate;
mod watch;
#[cfg(target_os = "linux")]
mod watch_linux;

#[cfg(test)]
mod store_tests;

pub use entry_text::{EntryProblem, check_entry_text};
pub use error::ConfigError;
pub use file::{CONFIG_FILE_NAME, config_path, parse_config_text, render_config_text};
pub use profiles::{Profile, ProfileMode, ProfileProblem, Profiles, validate_profiles};
pub use store::{ConfigEvent, ConfigStore, backup_path};
pub use summary::{InvalidServer, ServerList, ServerSummary, TransportKind};
pub use validate::{EntryError, validate_server};
pub use watch::{FileWatcher, OnChange, WatchError, watch_files};
