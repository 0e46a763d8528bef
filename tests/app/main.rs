//! The app's integration tests, one binary: the CLI as a person runs it, the committed IPC bindings,
//! and the core against real parts (the Secret Service, a reference MCP server).
//! Tests that need the harness (D-Bus + gnome-keyring, npm tools) are `#[ignore]`d with the reason;
//! `make test` runs them all inside tests/harness/isolated-env.sh with `--include-ignored`.

mod bindings;
mod cli;
mod engine_cli;
mod import_cli;
mod keychain;
mod mcp_smoke;
mod oauth_cli;
mod presets_cli;
mod registry_cli;
mod support;
