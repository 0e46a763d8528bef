//! Tauri commands, one file per area. Each command is one expression that calls the core.

pub mod auth;
pub mod engine;
pub mod import;
pub mod person;
pub mod secrets;
pub mod servers;
pub mod settings;
