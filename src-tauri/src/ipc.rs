//! The typed IPC surface: every command and event the UI may use, and the TypeScript bindings made from them.

use specta_typescript::Typescript;
use tauri_specta::{Builder, collect_commands};

use crate::commands;

/// Where the generated bindings are committed, relative to the repository root.
pub const BINDINGS_PATH: &str = "ui/src/ipc/bindings.ts";

/// The one registry of commands and events, shared by the app and the bindings generator.
pub fn specta_builder() -> Builder<tauri::Wry> {
    Builder::<tauri::Wry>::new()
        // Commands only send their types to the UI, so one shape per type (not serialize/deserialize pairs).
        .disable_serde_phases()
        .commands(collect_commands![commands::servers::list_servers])
}

/// The TypeScript exporter settings used for `ui/src/ipc/bindings.ts`.
pub fn typescript() -> Typescript {
    Typescript::default()
        .header("// Generated from the Rust commands (src-tauri/src/ipc.rs): regenerate with `make bindings`.")
}
