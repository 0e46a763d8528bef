//! The desktop app: plugins, managed state, and the wiring from core events to typed UI events. The engine starts
//! with the app and stops with it; the window may close before (it only hides while the HTTP endpoint or a server
//! runs, see tray.rs). Edits of servers.json (by the app or anyone) are reconciled as they happen. When the engine
//! cannot start, the window still opens and says why (`Startup`): the app never quits without one.

use std::sync::Arc;

use plugboard_core::engine::{Engine, EngineError, EngineOptions, PersonAnswers, StartupProblem};
use plugboard_core::gateway::http::{EndpointControl, EndpointStatus};
use plugboard_core::person::{PersonEvent, PersonRequests};
use plugboard_core::registry::Registry;
use plugboard_core::secrets::{Fallback, LogScrub};
use plugboard_core::supervisor::{Supervisor, SupervisorEvent};
use tauri::Manager;
use tauri_specta::Event;

use crate::command_path::CommandPath;
use crate::events::{
    ConfigChanged, PendingRequestArrived, PendingRequestWithdrawn, PromptsChanged, ResourcesChanged, ServerMessaged,
    ServerStatusChanged, ToolsChanged,
};
use crate::notify::{Notifier, WindowFocus};
use crate::tray::{self, GatewayUrl};
use crate::{deep_link, ipc};

/// Runs the desktop app until it is quit (from the tray, or by closing the window while nothing runs); every
/// server process is stopped before it returns. `hidden`: started at login, the window waits in the tray. `scrub`
/// is the one the log writer reads: the engine teaches it the secret values it expands. `bundles`: the `.mcpb` files
/// it was opened with, offered once the page asks.
pub fn run(hidden: bool, bundles: Vec<std::path::PathBuf>, scrub: LogScrub) -> tauri::Result<()> {
    let ipc = ipc::specta_builder();
    let app = tauri::Builder::default()
        // First plugin: a second launch (e.g. a deep link opened by the browser) is forwarded here instead.
        .plugin(tauri_plugin_single_instance::init(|app, argv, cwd| {
            tray::show_main_window(app);
            crate::bundle_drop::forwarded(app, &argv, &cwd);
        }))
        .plugin(tauri_plugin_deep_link::init())
        .plugin(tauri_plugin_notification::init())
        .plugin(tauri_plugin_dialog::init())
        // Off until the person turns it on in Settings; at login the window starts hidden, in the tray.
        .plugin(tauri_plugin_autostart::init(
            tauri_plugin_autostart::MacosLauncher::LaunchAgent,
            Some(vec![plugboard_cli::window::HIDDEN_FLAG]),
        ))
        .invoke_handler(ipc.invoke_handler())
        .on_window_event(|window, event| match event {
            // Closing the window must not cut off the clients using the gateway or the servers: it hides instead.
            tauri::WindowEvent::CloseRequested { api, .. } if tray::keeps_running(window.app_handle()) => {
                api.prevent_close();
                let _ = window.hide();
                if let Some(focus) = window.try_state::<WindowFocus>() {
                    focus.set(false);
                }
                tray::refresh(window.app_handle());
            }
            // Focus can change before setup managed the state (the window opens first); nothing to note then.
            tauri::WindowEvent::Focused(focused) => {
                if let Some(focus) = window.try_state::<WindowFocus>() {
                    focus.set(*focused);
                }
            }
            _ => {}
        })
        .setup(move |app| {
            ipc.mount_events(app);
            app.manage(CommandPath::beside_this_window());
            app.manage(GatewayUrl::default());
            app.manage(WindowFocus::default());
            crate::bundle_drop::keep_for_the_page(app.handle(), bundles);
            let problem = match start_engine(app.handle(), scrub) {
                Ok(endpoint) => {
                    deep_link::listen(app.handle());
                    tray::gateway_changed(app.handle(), &endpoint);
                    None
                }
                Err(error) => {
                    tracing::error!("Plugboard could not start: {error}");
                    Some(StartupProblem::of(&error))
                }
            };
            if let Err(e) = tray::install(app.handle()) {
                // Without a tray the app still works; only hiding the window has no icon to come back from.
                tracing::warn!("no tray icon: {e}");
            }
            // Started at login, the window waits in the tray, unless it has a problem to show.
            if hidden
                && problem.is_none()
                && let Some(window) = app.get_webview_window("main")
            {
                let _ = window.hide();
            }
            app.manage(Startup(problem));
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

/// Why the engine did not start, when it did not: the page shows it in place of the app.
pub struct Startup(pub Option<StartupProblem>);

/// Opens the engine, wires its events to the UI, follows the config and resumes the gateway's endpoint; returns
/// where the endpoint runs (or why it does not). `scrub` is the one the log writer reads: the engine teaches it the
/// secret values it expands.
fn start_engine(app: &tauri::AppHandle, scrub: LogScrub) -> Result<EndpointStatus, EngineError> {
    // The window has a person behind it: servers' forms, sampling and roots requests go to the dialogs.
    let options = EngineOptions::for_this_user(Fallback::from_env(), PersonAnswers::Queued).with_log_scrub(scrub);
    let engine = Engine::open(options)?;
    let following = engine.follow_config()?;
    forward_supervisor_events(app, engine.supervisor());
    forward_person_events(app, engine.person());
    forward_config_events(app, engine.registry());
    tauri::async_runtime::spawn(following);
    let engine = Arc::new(engine);
    // The gateway's HTTP endpoint runs with the window when the person switched it on in Settings.
    let (control, endpoint) = tauri::async_runtime::block_on(async {
        let control = EndpointControl::new(Arc::clone(&engine), &plugboard_core::paths::data_dir());
        let endpoint = control.resume().await;
        (control, endpoint)
    });
    app.manage(control);
    app.manage(engine);
    Ok(endpoint)
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

/// Turns the supervisor's events into UI events, and keeps the tray and the OS notifications up to date.
fn forward_supervisor_events(app: &tauri::AppHandle, supervisor: &Supervisor) {
    let mut events = supervisor.subscribe();
    let handle = app.clone();
    tauri::async_runtime::spawn(async move {
        let mut notifier = Notifier::default();
        loop {
            match events.recv().await {
                Ok(SupervisorEvent::StatusChanged { server, status }) => {
                    notifier.status_changed(&handle, &server, &status);
                    let _ = ServerStatusChanged { server, status }.emit(&handle);
                    tray::refresh(&handle);
                }
                Ok(SupervisorEvent::ToolsChanged { server }) => {
                    let _ = ToolsChanged { server }.emit(&handle);
                }
                Ok(SupervisorEvent::ResourcesChanged { server }) => {
                    let _ = ResourcesChanged { server }.emit(&handle);
                }
                Ok(SupervisorEvent::PromptsChanged { server }) => {
                    let _ = PromptsChanged { server }.emit(&handle);
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
