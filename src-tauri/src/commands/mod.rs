//! Tauri commands, one file per area. Each command is one expression that calls the core.

pub mod auth;
pub mod bundle;
pub mod clients;
pub mod console;
pub mod desktop;
pub mod engine;
pub mod event_batches;
pub mod gateway;
pub mod import;
pub mod inspect;
pub mod install;
pub mod mcp_registry;
pub mod person;
pub mod presets;
pub mod secrets;
pub mod servers;
pub mod settings;
pub mod trust;
