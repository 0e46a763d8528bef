//! `.mcpb` bundles handed to the window: dropped onto it, or opened with Plugboard from a file manager (the path the
//! app was started with, or one a second launch forwards). Each is told to the page (`BundleDropped`), which asks the
//! core what it is and shows the install dialog. Nothing is opened or installed here; other files are ignored.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use tauri::Manager;
use tauri_specta::Event;

use crate::events::BundleDropped;

/// Tells the page about every `.mcpb` file of a drop.
pub fn dropped(app: &tauri::AppHandle, paths: &[PathBuf]) {
    for path in paths.iter().filter(|p| plugboard_cli::window::is_bundle(p)) {
        let _ = BundleDropped { path: path.display().to_string() }.emit(app);
    }
}

/// Tells the page about the bundle a second launch was given (`argv` with its program name, `cwd` its folder).
pub fn forwarded(app: &tauri::AppHandle, argv: &[String], cwd: &str) {
    for arg in argv.iter().skip(1) {
        if let Some(path) = plugboard_cli::window::bundle_argument(arg.as_ref(), Path::new(cwd)) {
            let _ = BundleDropped { path: path.display().to_string() }.emit(app);
        }
    }
}

/// The bundle the app was started with: known before the page can listen, so the page asks for it once
/// (`missed_bundles`).
#[derive(Default)]
pub struct MissedBundles(Mutex<Vec<PathBuf>>);

impl MissedBundles {
    pub fn new(opened: Vec<PathBuf>) -> Self {
        Self(Mutex::new(opened))
    }

    /// The bundles not yet shown, emptied: each is handed to the page once.
    pub fn take(&self) -> Vec<BundleDropped> {
        let taken = self.0.lock().map(|mut paths| std::mem::take(&mut *paths)).unwrap_or_default();
        taken.into_iter().map(|path| BundleDropped { path: path.display().to_string() }).collect()
    }
}

/// Keeps the bundles the app was started with for the page.
pub fn keep_for_the_page(app: &tauri::AppHandle, opened: Vec<PathBuf>) {
    app.manage(MissedBundles::new(opened));
}

#[cfg(test)]
mod tests {
    use super::MissedBundles;

    /// The start's bundle is handed to the page once: a reload does not offer it again.
    #[test]
    fn the_start_bundle_is_taken_once() {
        let missed = MissedBundles::new(vec!["/tmp/weather.mcpb".into()]);
        let paths: Vec<_> = missed.take().into_iter().map(|b| b.path).collect();
        assert_eq!(paths, ["/tmp/weather.mcpb"]);
        assert!(missed.take().is_empty());
    }
}
