//! Commands of the desktop app itself (Settings): starting at login, and showing Plugboard's folders and a client's
//! file in the file manager by place, never by a path the page gives.

use tauri::AppHandle;
use tauri_plugin_autostart::ManagerExt;

use crate::error::CommandError;
use crate::reveal::Place;

/// Whether Plugboard starts (in the tray) when the person logs in.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip_all, err)]
pub async fn launch_at_login(app: AppHandle) -> Result<bool, CommandError> {
    app.autolaunch().is_enabled().map_err(|e| CommandError::Internal { message: e.to_string() })
}

/// Starts Plugboard at login (hidden, in the tray) or stops doing so; answers what is now in effect.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(app), err)]
pub async fn set_launch_at_login(app: AppHandle, enabled: bool) -> Result<bool, CommandError> {
    let launcher = app.autolaunch();
    let changed = if enabled { launcher.enable() } else { launcher.disable() };
    changed
        .and_then(|()| launcher.is_enabled())
        .map_err(|e| CommandError::Internal { message: format!("cannot change starting at login: {e}") })
}

/// Opens the folder of `place` in the file manager.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(err)]
pub async fn show_in_folder(place: Place) -> Result<(), CommandError> {
    place.show()
}
