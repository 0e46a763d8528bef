//! The desktop app: plugins, managed state, and the wiring from core events to typed UI events. The engine starts
//! with the window and stops with it; edits of servers.json (by the app or anyone) are reconciled as they happen.

use std::sync::Arc;

use plugboard_core::engine::{Engine, EngineOptions, PersonAnswers};
use plugboard_core::gateway::http::EndpointControl;
use plugboard_core::person::{PersonEvent, PersonRequests};
use plugboard_core::registry::Registry;
use plugboard_core::secrets::Fallback;
use plugboard_core::supervisor::{Supervisor, SupervisorEvent};
use tauri::Manager;
use tauri_specta::Event;

use crate::events::{
    ConfigChanged, PendingRequestArrived, PendingRequestWithdrawn, ServerMessaged, ServerStatusChanged, ToolsChanged,
};
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
            // The window has a person behind it: servers' forms, sampling and roots requests go to the dialogs.
            let options = EngineOptions::for_this_user(Fallback::from_env(), PersonAnswers::Queued);
            let engine = Engine::open(options)?;
            forward_supervisor_events(app.handle(), engine.supervisor());
            forward_person_events(app.handle(), engine.person());
            forward_config_events(app.handle(), engine.registry());
            tauri::async_runtime::spawn(engine.follow_config()?);
            let engine = Arc::new(engine);
            // The gateway's HTTP endpoint runs with the window when the person switched it on in Settings.
            let control = tauri::async_runtime::block_on(async {
                let control = EndpointControl::new(Arc::clone(&engine), &plugboard_core::paths::data_dir());
                control.resume().await;
                control
            });
            app.manage(control);
            app.manage(engine);
            deep_link::listen(app.handle());
            Ok(())
        })
        .build(tauri::generate_context!("tauri.conf.json"))?;
    app.run(|handle, event| {
        if let tauri::RunEvent::WindowEvent {
            event: tauri::WindowEvent::DragDrop(tauri::DragDropEvent::Drop { paths, .. }),
            ..
        } = &event
        {
            crate::bundle_drop::dropped(handle, paths);
        }
        if let tauri::RunEvent::Exit = event
            && let Some(engine) = handle.try_state::<Arc<Engine>>()
        {
            // No server process may outlive the app: stop them all before the runtime goes away.
            tauri::async_runtime::block_on(async {
                if let Some(control) = handle.try_state::<EndpointControl>() {
                    control.stop().await;
                }
                engine.shutdown().await;
            });
        }
    });
    Ok(())
}

/// Tells the UI when servers.json was saved, reloaded after another program's edit, or found broken (the engine
/// reconciles the servers with it).
fn forward_config_events(app: &tauri::AppHandle, registry: &Registry) {
    let mut changes = registry.store().subscribe();
    let handle = app.clone();
    tauri::async_runtime::spawn(async move {
        loop {
            match changes.recv().await {
                Ok(change) => {
                    let _ = ConfigChanged::from(change).emit(&handle);
                }
                // The UI reads the whole list again on any change, so a lag loses nothing.
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
            }
        }
    });
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
                // The window lists a server's resources and prompts when it shows them; nothing to refresh.
                Ok(SupervisorEvent::ResourcesChanged { .. } | SupervisorEvent::PromptsChanged { .. }) => {}
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

fn focus_main_window(app: &tauri::AppHandle) {
    if let Some(window) = app.get_webview_window("main") {
        // Best effort: a window manager may refuse focus; the app keeps running either way.
        let _ = window.unminimize();
        let _ = window.set_focus();
    }
}
