//! The server registry: the `servers.json` file, its lenient raw shape and the summaries shown to people.
//! Reading only in this slice; every write path must be atomic and never clobber a file it cannot parse.

mod error;
mod file;
mod raw;
mod summary;

pub use error::ConfigError;
pub use file::{CONFIG_FILE_NAME, config_path, load_server_list, parse_server_list};
pub use summary::{ServerList, ServerSummary, TransportKind};
