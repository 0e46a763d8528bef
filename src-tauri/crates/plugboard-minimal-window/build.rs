//! Tauri's build step for the minimal window: its config and embedded page, no commands and no capabilities.

fn main() {
    tauri_build::build();
}
