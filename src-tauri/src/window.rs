//! The desktop app: plugins, managed state, and the wiring from core events to typed UI events. The engine starts
//! with the window and stops with it; edits of servers.json (by the app or anyone) are reconciled as they happen.

use std::sync::Arc;

use plugboard_core::auth::PendingFlows;
use plugboard_core::config::{self, ConfigEvent, ConfigStore};
use plugboard_core::console::{Console, History};
use plugboard_core::person::{PersonEvent, PersonRequests};
use plugboard_core::registry::Registry;
use plugboard_core::secrets::{Fallback, Vault};
use plugboard_core::supervisor::{LiveConnector, Supervisor, SupervisorEvent};
use tauri::Manager;
use tauri_specta::Event;

use crate::events::{
    ConfigChanged, PendingRequestArrived, PendingRequestWithdrawn, ServerMessaged, ServerStatusChanged, ToolsChanged,
};
use crate::state::AppState;
use crate::{deep_link, ipc};

/// Runs the desktop app until its last window closes; every server process is stopped before it returns.
pub fn run() -> tauri::Result<()> {
    let ipc = ipc::specta_builder();
    let app = tauri::Builder::default()
        // First plugin: a second launch (e.g. a deep link opened by the browser) is forwarded here instead.
        .plugin(tauri_plugin_single_instance::init(|app, _argv, _cwd| focus_main_window(app)))
        .plugin(tauri_plugin_deep_link::init())
        .invoke_handler(ipc.invoke_handler())
        .setup(move |app| {
            ipc.mount_events(app);
            let vault = Arc::new(Vault::open(Fallback::from_env()));
            let registry = Arc::new(Registry::new(ConfigStore::open(config::config_path())?, Arc::clone(&vault)));
            // The window has a person behind it: servers' forms, sampling and roots requests go to the dialogs.
            let person = Arc::new(PersonRequests::default());
            let connector = LiveConnector::with_person(Arc::clone(&vault), Arc::clone(&person));
            let supervisor = Arc::new(Supervisor::new(Arc::new(connector)));
            forward_supervisor_events(app.handle(), &supervisor);
            forward_person_events(app.handle(), &person);
            forward_config_events(app.handle(), &registry, &supervisor)?;
            let (reg, sup) = (Arc::clone(&registry), Arc::clone(&supervisor));
            tauri::async_runtime::spawn(async move { sup.reconcile(reg.configs()).await });
            let console = History::open_default()
                .inspect_err(|e| tracing::error!("the tool-call console is unavailable: {e}"))
                .map(|history| Arc::new(Console::new(Arc::clone(&supervisor), Arc::new(history), Arc::clone(&vault))));
            app.manage(AppState { registry, supervisor, vault, flows: Arc::new(PendingFlows::new()), console, person });
            deep_link::listen(app.handle());
            Ok(())
        })
        .build(tauri::generate_context!("tauri.conf.json"))?;
    app.run(|handle, event| {
        if let tauri::RunEvent::Exit = event
            && let Some(state) = handle.try_state::<AppState>()
        {
            // No server process may outlive the app: stop them all before the runtime goes away.
            tauri::async_runtime::block_on(state.supervisor.shutdown());
        }
    });
    Ok(())
}

/// Reloads servers.json when another program edits it, reconciles the running servers with it, and tells the UI.
fn forward_config_events(
    app: &tauri::AppHandle,
    registry: &Arc<Registry>,
    supervisor: &Arc<Supervisor>,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut changes = registry.store().subscribe();
    let (handle, reg, sup) = (app.clone(), Arc::clone(registry), Arc::clone(supervisor));
    tauri::async_runtime::spawn(async move {
        while let Ok(change) = changes.recv().await {
            if matches!(change, ConfigEvent::Saved | ConfigEvent::Reloaded) {
                sup.reconcile(reg.configs()).await;
            }
            let _ = ConfigChanged::from(change).emit(&handle);
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

fn forward_supervisor_events(app: &tauri::AppHandle, supervisor: &Supervisor) {
    let mut events = supervisor.subscribe();
    let handle = app.clone();
    tauri::async_runtime::spawn(async move {
        loop {
            match events.recv().await {
                Ok(SupervisorEvent::StatusChanged { server, status }) => {
                    let _ = ServerStatusChanged { server, status }.emit(&handle);
                }
                Ok(SupervisorEvent::ToolsChanged { server }) => {
                    let _ = ToolsChanged { server }.emit(&handle);
                }
                // Every warning is also a log entry (`Logged`), which carries it to the UI with its time and place.
                Ok(SupervisorEvent::Warned { .. }) => {}
                Ok(SupervisorEvent::Logged { server, entry }) => {
                    let _ = ServerMessaged::new(server, entry).emit(&handle);
                }
                // A slow UI missed some events; the next status change carries the current state anyway.
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
            }
        }
    });
}

/// Tells the UI when a server's request for the person arrives or leaves the queue.
fn forward_person_events(app: &tauri::AppHandle, person: &PersonRequests) {
    let mut events = person.subscribe();
    let handle = app.clone();
    tauri::async_runtime::spawn(async move {
        loop {
            match events.recv().await {
                Ok(PersonEvent::Arrived(request)) => {
                    let _ = PendingRequestArrived { request }.emit(&handle);
                }
                Ok(PersonEvent::Withdrawn { id, reason }) => {
                    let _ = PendingRequestWithdrawn { id, reason }.emit(&handle);
                }
                Ok(_) => {}
                // The UI asks for the whole queue (`pendingRequests`) when it mounts; a lag loses nothing it needs
                // beyond a stale dialog, which answering reports as gone.
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
            }
        }
    });
}

struct ConfigWatcher(#[allow(dead_code)] config::FileWatcher);

fn focus_main_window(app: &tauri::AppHandle) {
    if let Some(window) = app.get_webview_window("main") {
        // Best effort: a window manager may refuse focus; the app keeps running either way.
        let _ = window.unminimize();
        let _ = window.set_focus();
    }
}
