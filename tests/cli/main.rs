//! The `plugboard` command as a person runs it (crates/plugboard-cli's integration tests): servers, import, presets,
//! secrets, the engine's commands and OAuth logins, each against real parts (the Secret Service, reference MCP
//! servers, OAuth servers). Tests that need the harness (D-Bus + gnome-keyring, npm tools) are `#[ignore]`d with the
//! reason; `make test` runs them all inside tests/harness/isolated-env.sh with `--include-ignored`.

mod cli;
mod clients_cli;
mod docker_cli;
mod engine_cli;
mod import_cli;
#[cfg(all(unix, not(target_os = "macos")))]
mod keychain_lock_cli;
mod login_path_cli;
mod mcp_registry_cli;
mod oauth_cli;
mod oauth_refresh_cli;
mod presets_cli;
mod presets_start_cli;
mod registry_cli;
mod secrets_sweep_cli;
mod support;
