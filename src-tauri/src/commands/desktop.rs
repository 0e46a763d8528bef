//! Commands of the desktop app itself: starting at login, showing Plugboard's folders and a client's file in the file
//! manager by place (never by a path the page gives), and the system's picker for a folder or file the person
//! chooses. The page never browses the file system itself: it gets only the path the person picked.

use plugboard_core::presets::PathKind;
use tauri::{AppHandle, Manager, WebviewWindow};
use tauri_plugin_autostart::ManagerExt;
use tauri_plugin_dialog::{DialogExt, FilePath};

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

/// Shows the system's folder picker (or its file picker, for `File`) over the window, titled `title`; the chosen
/// path, or `None` when the person cancels.
#[tauri::command]
#[specta::specta]
#[tracing::instrument(skip(window), err)]
pub async fn choose_path(window: WebviewWindow, kind: PathKind, title: String) -> Result<Option<String>, CommandError> {
    let (chosen, picked) = tokio::sync::oneshot::channel();
    let reply = move |path: Option<FilePath>| {
        let _ = chosen.send(path);
    };
    let mut picker = window.dialog().file().set_title(title).set_parent(&window);
    // Not GTK's default "Recent" view, which lists no folders to choose from.
    if let Ok(home) = window.path().home_dir() {
        picker = picker.set_directory(home);
    }
    match kind {
        PathKind::File => picker.pick_file(reply),
        PathKind::Folder | PathKind::Any => picker.pick_folder(reply),
    }
    let picked = picked.await.map_err(|_| CommandError::Internal { message: "the picker closed unanswered".into() })?;
    picked
        .map(|path| path.into_path().map(|p| p.display().to_string()))
        .transpose()
        .map_err(|e| CommandError::Internal { message: format!("the chosen path cannot be used: {e}") })
}
