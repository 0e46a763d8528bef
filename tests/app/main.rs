//! The window app's integration tests, one binary: the committed IPC bindings, the window's lockdown (its generated
//! ACL), and the core against real parts (the Secret Service, a reference MCP server). The `plugboard` command's tests are in tests/cli.
//! Tests that need the harness (D-Bus + gnome-keyring, npm tools) are `#[ignore]`d with the reason;
//! `make test` runs them all inside tests/harness/isolated-env.sh with `--include-ignored`.

mod bindings;
mod capabilities;
mod keychain;
mod mcp_smoke;

/// The repository's root: this package's manifest is there.
fn repo_root() -> &'static std::path::Path {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
}
