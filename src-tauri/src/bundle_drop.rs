//! Files dropped onto the window: each `.mcpb` bundle among them is told to the page (`BundleDropped`), which asks
//! the core what it is and shows the install dialog. Nothing is opened or installed here; other files are ignored.

use tauri_specta::Event;

use crate::events::BundleDropped;

/// Tells the page about every `.mcpb` file of a drop.
pub fn dropped(app: &tauri::AppHandle, paths: &[std::path::PathBuf]) {
    for path in paths.iter().filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("mcpb"))) {
        let _ = BundleDropped { path: path.display().to_string() }.emit(app);
    }
}
