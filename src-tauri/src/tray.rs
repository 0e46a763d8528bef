//! The tray icon and what keeps the app up without its window: the menu shows how the servers and the HTTP gateway
//! are doing, Open and Quit; closing the window hides it while the gateway's endpoint or any server is running, so
//! clients relying on them are not cut off. It decides nothing about MCP; it only reads the supervisor's statuses
//! and whether the endpoint runs.

use std::sync::{Arc, Mutex, PoisonError};

use plugboard_core::engine::Engine;
use plugboard_core::supervisor::ServerStatus;
use tauri::menu::{Menu, MenuItem, PredefinedMenuItem};
use tauri::tray::TrayIconBuilder;
use tauri::{AppHandle, Manager};

const TRAY_ID: &str = "main";
const OPEN: &str = "open";
const QUIT: &str = "quit";

/// Where the window's HTTP endpoint listens while it runs: kept by the shell from the endpoint's own answers (at
/// start and after each change in Settings), so the tray and a close request read it without waiting.
#[derive(Default)]
pub struct GatewayUrl(Mutex<Option<String>>);

impl GatewayUrl {
    pub fn set(&self, url: Option<String>) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = url;
    }

    fn get(&self) -> Option<String> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }
}

/// The menu's first line, kept to be rewritten as things change.
struct StatusLine(MenuItem<tauri::Wry>);

/// Puts the icon in the tray. Where the desktop shows no tray, the app still runs; the window comes back when
/// Plugboard is started again (single instance).
pub fn install(app: &AppHandle) -> tauri::Result<()> {
    let status = MenuItem::with_id(app, "status", "Plugboard is starting…", false, None::<&str>)?;
    let open = MenuItem::with_id(app, OPEN, "Open Plugboard", true, None::<&str>)?;
    let quit = MenuItem::with_id(app, QUIT, "Quit Plugboard (stops the gateway and servers)", true, None::<&str>)?;
    let separator = PredefinedMenuItem::separator(app)?;
    let menu = Menu::with_items(app, &[&status, &separator, &open, &quit])?;
    let mut tray = TrayIconBuilder::with_id(TRAY_ID).tooltip("Plugboard").menu(&menu).on_menu_event(|app, event| {
        match event.id().as_ref() {
            OPEN => show_main_window(app),
            // The run loop's exit handler stops the endpoint and every server before the process ends.
            QUIT => app.exit(0),
            _ => {}
        }
    });
    if let Some(icon) = app.default_window_icon() {
        tray = tray.icon(icon.clone());
    }
    tray.build(app)?;
    app.manage(StatusLine(status));
    refresh(app);
    Ok(())
}

/// Rewrites the tray's status line from the servers' statuses and the endpoint.
pub fn refresh(app: &AppHandle) {
    let (Some(engine), Some(line)) = (app.try_state::<Arc<Engine>>(), app.try_state::<StatusLine>()) else {
        return;
    };
    let gateway = app.try_state::<GatewayUrl>().and_then(|g| g.get());
    let text = summary(&engine.supervisor().statuses(), gateway.as_deref());
    let _ = line.0.set_text(&text);
    if let Some(tray) = app.tray_by_id(TRAY_ID) {
        let _ = tray.set_tooltip(Some(format!("Plugboard: {text}")));
    }
}

/// Notes where the endpoint runs now (or that it does not) and rewrites the status line.
pub fn gateway_changed(app: &AppHandle, status: &plugboard_core::gateway::http::EndpointStatus) {
    if let Some(gateway) = app.try_state::<GatewayUrl>() {
        gateway.set(status.url.clone());
    }
    refresh(app);
}

/// Whether closing the window should only hide it: the endpoint or a server is running for someone.
pub fn keeps_running(app: &AppHandle) -> bool {
    let gateway = app.try_state::<GatewayUrl>().is_some_and(|g| g.get().is_some());
    let statuses = app.try_state::<Arc<Engine>>().map(|e| e.supervisor().statuses()).unwrap_or_default();
    stays_up(gateway, &statuses)
}

/// Shows, unminimises and focuses the main window (after the tray's Open, or a second launch).
pub fn show_main_window(app: &AppHandle) {
    if let Some(window) = app.get_webview_window("main") {
        // Best effort: a window manager may refuse focus; the app keeps running either way.
        let _ = window.show();
        let _ = window.unminimize();
        let _ = window.set_focus();
    }
}

/// A server is running while it is ready or (re)connecting: its process or session is alive.
fn running(status: &ServerStatus) -> bool {
    matches!(status, ServerStatus::Ready { .. } | ServerStatus::Connecting | ServerStatus::Reconnecting { .. })
}

/// Whether the app stays up without its window.
fn stays_up(gateway_running: bool, statuses: &[(String, ServerStatus)]) -> bool {
    gateway_running || statuses.iter().any(|(_, status)| running(status))
}

/// One line: how many servers are ready, how many need the person, and where the HTTP gateway is.
fn summary(statuses: &[(String, ServerStatus)], gateway: Option<&str>) -> String {
    let enabled = statuses.iter().filter(|(_, s)| !matches!(s, ServerStatus::Disabled)).count();
    let ready = statuses.iter().filter(|(_, s)| matches!(s, ServerStatus::Ready { .. })).count();
    let waiting = statuses
        .iter()
        .filter(|(_, s)| {
            matches!(
                s,
                ServerStatus::Failed { .. } | ServerStatus::NeedsLogin { .. } | ServerStatus::NeedsApproval { .. }
            )
        })
        .count();
    let mut parts = vec![match enabled {
        0 => "No servers".to_owned(),
        1 => format!("{ready} of 1 server ready"),
        n => format!("{ready} of {n} servers ready"),
    }];
    if waiting > 0 {
        parts.push(format!("{waiting} need{} you", if waiting == 1 { "s" } else { "" }));
    }
    parts.push(match gateway {
        Some(url) => format!("HTTP gateway at {url}"),
        None => "HTTP gateway off".to_owned(),
    });
    parts.join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ready() -> ServerStatus {
        ServerStatus::Ready { tools: 3, protocol_version: "2025-11-25".into(), server_name: None }
    }

    /// The app stays up for a running endpoint, or a server that is ready or coming up; not for servers that are
    /// off, stopped, failed or waiting for the person, with the endpoint off.
    #[test]
    fn stays_up_while_something_runs() {
        let idle = [
            ("a".to_owned(), ServerStatus::Disabled),
            ("b".to_owned(), ServerStatus::Stopped),
            ("c".to_owned(), ServerStatus::Failed { error: "x".into(), stderr_tail: None }),
            ("d".to_owned(), ServerStatus::NeedsLogin { hint: "log in".into() }),
        ];
        assert!(!stays_up(false, &idle));
        assert!(stays_up(true, &idle));
        assert!(stays_up(false, &[("e".to_owned(), ready())]));
        assert!(stays_up(false, &[("f".to_owned(), ServerStatus::Connecting)]));
        let healing = ServerStatus::Reconnecting { attempt: 1, next_try_ms: 500, reason: "reset".into() };
        assert!(stays_up(false, &[("g".to_owned(), healing)]));
    }

    /// The status line counts ready servers among the enabled ones, those waiting for the person, and says where
    /// the HTTP gateway is.
    #[test]
    fn summarises_servers_and_the_gateway() {
        let statuses = [
            ("a".to_owned(), ready()),
            ("b".to_owned(), ServerStatus::NeedsLogin { hint: "log in".into() }),
            ("c".to_owned(), ServerStatus::Disabled),
        ];
        assert_eq!(
            summary(&statuses, Some("http://127.0.0.1:44187/mcp")),
            "1 of 2 servers ready · 1 needs you · HTTP gateway at http://127.0.0.1:44187/mcp"
        );
        assert_eq!(summary(&[], None), "No servers · HTTP gateway off");
        assert_eq!(summary(&[("a".to_owned(), ready())], None), "1 of 1 server ready · HTTP gateway off");
    }
}
