//! Plugboard's engine: the server config, the secret vault and MCP sessions, testable headless.
//! It must never depend on Tauri: the desktop shell and the CLI are both thin layers over this crate.

pub mod auth;
pub mod bundle;
pub mod config;
pub mod console;
pub mod doctor;
pub mod engine;
pub mod export;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod gateway;
pub mod import;
pub mod install;
pub mod links;
pub mod mcp_registry;
pub mod net;
pub mod paths;
pub mod person;
pub mod presets;
mod private_file;
pub mod registry;
pub mod secrets;
pub mod supervisor;
#[cfg(any(test, feature = "test-support"))]
pub mod test_support;
#[cfg(test)]
mod testing;
pub mod transport;
pub mod trust;

/// The scheme of the deep links people see (`plugboard://install`).
pub const DEEP_LINK_SCHEME: &str = "plugboard";

/// The private-use scheme of OAuth redirects by deep link: the app's identifier, a reverse domain name Plugboard
/// controls, as RFC 8252 §7.1 asks (`dev.plugboard.desktop:/oauth/callback`). Registered beside
/// [`DEEP_LINK_SCHEME`] in tauri.conf.json.
pub const OAUTH_REDIRECT_SCHEME: &str = "dev.plugboard.desktop";
