//! The Tauri shell: picks window or CLI, wires plugins, commands and logging. It decides no MCP behaviour;
//! everything it does is a call into `plugboard_core`.

mod cli;
pub mod commands;
pub mod error;
pub mod events;
pub mod ipc;
mod logging;
mod state;

use std::ffi::OsString;
use std::process::ExitCode;
use std::sync::Arc;

use plugboard_core::config::{self, ConfigStore};
use plugboard_core::registry::Registry;
use plugboard_core::secrets::{Fallback, Vault};
use tauri::Manager;
use tauri_specta::Event;

use crate::state::AppState;

/// The scheme of Plugboard's deep links (`plugboard://oauth/callback`, `plugboard://install`).
pub const DEEP_LINK_SCHEME: &str = "plugboard";

/// Entry point of the binary: no argument or a `plugboard://` URL opens the window, anything else is the CLI.
pub fn start(args: Vec<OsString>) -> ExitCode {
    if opens_window(&args) {
        let _log = logging::init(logging::Mode::Window);
        match run_window() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                tracing::error!("the window could not start: {e:#}");
                ExitCode::FAILURE
            }
        }
    } else {
        cli::run(args)
    }
}

fn opens_window(args: &[OsString]) -> bool {
    match args {
        [_] => true,
        [_, url] => url.to_str().is_some_and(|u| u.starts_with(&format!("{DEEP_LINK_SCHEME}:"))),
        _ => false,
    }
}

/// Runs the desktop app until its last window closes.
fn run_window() -> tauri::Result<()> {
    let ipc = ipc::specta_builder();
    tauri::Builder::default()
        // First plugin: a second launch (e.g. a deep link opened by the browser) is forwarded here instead.
        .plugin(tauri_plugin_single_instance::init(|app, _argv, _cwd| focus_main_window(app)))
        .plugin(tauri_plugin_deep_link::init())
        .invoke_handler(ipc.invoke_handler())
        .setup(move |app| {
            ipc.mount_events(app);
            let registry = Arc::new(Registry::new(
                ConfigStore::open(config::config_path())?,
                Arc::new(Vault::open(Fallback::MemoryOnly)),
            ));
            forward_config_events(app.handle(), &registry)?;
            app.manage(AppState { registry });
            Ok(())
        })
        .run(tauri::generate_context!("tauri.conf.json"))
}

/// Reloads servers.json when another program edits it, and tells the UI about every change of the file.
fn forward_config_events(app: &tauri::AppHandle, registry: &Arc<Registry>) -> Result<(), Box<dyn std::error::Error>> {
    let mut changes = registry.store().subscribe();
    let handle = app.clone();
    tauri::async_runtime::spawn(async move {
        while let Ok(change) = changes.recv().await {
            let _ = events::ConfigChanged::from(change).emit(&handle);
        }
    });
    let watched = Arc::clone(registry);
    let watcher = config::watch_file(registry.store().path(), move || {
        if let Err(e) = watched.store().reload() {
            tracing::warn!("cannot reload the server config: {e}");
        }
    })?;
    // The watcher lives as long as the app: it is managed state, dropped at exit.
    app.manage(ConfigWatcher(watcher));
    Ok(())
}

struct ConfigWatcher(#[allow(dead_code)] notify::RecommendedWatcher);

fn focus_main_window(app: &tauri::AppHandle) {
    if let Some(window) = app.get_webview_window("main") {
        // Best effort: a window manager may refuse focus; the app keeps running either way.
        let _ = window.unminimize();
        let _ = window.set_focus();
    }
}

#[cfg(test)]
mod tests {
    use super::opens_window;

    fn args(list: &[&str]) -> Vec<std::ffi::OsString> {
        list.iter().map(Into::into).collect()
    }

    /// No argument or a single plugboard:// URL opens the window; subcommands and flags go to the CLI.
    #[test]
    fn window_or_cli_is_chosen_from_the_arguments() {
        assert!(opens_window(&args(&["plugboard"])));
        assert!(opens_window(&args(&["plugboard", "plugboard://oauth/callback?code=x"])));
        assert!(!opens_window(&args(&["plugboard", "list"])));
        assert!(!opens_window(&args(&["plugboard", "--help"])));
        assert!(!opens_window(&args(&["plugboard", "https://evil.example"])));
        assert!(!opens_window(&args(&["plugboard", "plugboard://x", "extra"])));
    }
}
