//! The window's way of showing an authorization page: the browser opens it, and the UI hears the URL (to show and
//! copy, also when no browser opened). The login itself is the engine's.

use plugboard_core::auth::BrowserUnavailable;
use tauri::AppHandle;
use tauri_specta::Event;
use url::Url;

use crate::events::LoginStarted;
use plugboard_cli::browser;

/// Opens `url` for the login to `server` and tells the UI it started.
pub fn open_for(app: &AppHandle, server: &str, url: &Url) -> Result<(), BrowserUnavailable> {
    let opened = browser::open(url);
    let started = LoginStarted {
        server: server.to_owned(),
        authorization_url: url.to_string(),
        browser_problem: opened.as_ref().err().map(ToString::to_string),
    };
    let _ = started.emit(app);
    opened
}
