//! OS notifications for what a server needs from the person while the window is not in front of them: it failed,
//! it needs a login, or what it runs awaits approval; each says the action it needs. Server text (an error) is put
//! in as plain text: notification servers read markup in a body, so it must never pass through unescaped.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use plugboard_core::supervisor::ServerStatus;
use tauri::{AppHandle, Manager};
use tauri_plugin_notification::NotificationExt;

/// Whether the main window has the focus, as its focus events said (asking the window would wait for the main
/// thread, which may be busy stopping the servers).
#[derive(Default)]
pub struct WindowFocus(AtomicBool);

impl WindowFocus {
    pub fn set(&self, focused: bool) {
        self.0.store(focused, Ordering::Relaxed);
    }
}

/// One notification's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Notice {
    pub title: String,
    pub body: String,
}

/// The servers' last statuses, to notify once per change into a state that needs the person.
#[derive(Default)]
pub(crate) struct Notifier {
    last: HashMap<String, ServerStatus>,
}

impl Notifier {
    /// Notes `server`'s new status and shows a notification when it now needs the person and the window is not
    /// where they are looking.
    pub(crate) fn status_changed(&mut self, app: &AppHandle, server: &str, status: &ServerStatus) {
        let before = self.last.insert(server.to_owned(), status.clone());
        let Some(notice) = notice(server, before.as_ref(), status) else { return };
        if window_in_front(app) {
            return;
        }
        if let Err(e) = app.notification().builder().title(&notice.title).body(&notice.body).show() {
            // A desktop without a notification service: the window and the tray still say it.
            tracing::info!("no OS notification for {server}: {e}");
        }
    }
}

fn window_in_front(app: &AppHandle) -> bool {
    app.get_webview_window("main").is_some_and(|w| w.is_visible().unwrap_or(false) && w.is_focused().unwrap_or(false))
}

/// What to tell the person when `server` goes from `before` to `now`, if it newly needs them.
pub(crate) fn notice(server: &str, before: Option<&ServerStatus>, now: &ServerStatus) -> Option<Notice> {
    let same_kind = before.is_some_and(|b| std::mem::discriminant(b) == std::mem::discriminant(now));
    if same_kind {
        return None;
    }
    // A title is plain text to notification servers, a body may be read as markup: only the body is escaped.
    let name = plain(server);
    match now {
        ServerStatus::Failed { error, .. } => Some(Notice {
            title: format!("{server} failed"),
            body: format!("{}. Open Plugboard to see why and retry it.", plain(error.trim_end_matches('.'))),
        }),
        ServerStatus::NeedsLogin { .. } => Some(Notice {
            title: format!("{server} needs you to log in"),
            body: format!("Open Plugboard and choose Log in on {name}."),
        }),
        ServerStatus::NeedsApproval { refused: false, .. } => Some(Notice {
            title: format!("{server} waits for your approval"),
            body: "Open Plugboard to see exactly what it runs, and approve or refuse it.".to_owned(),
        }),
        _ => None,
    }
}

/// `text` with the characters notification markup reads escaped, so it shows as written.
pub(crate) fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failed(error: &str) -> ServerStatus {
        ServerStatus::Failed { error: error.into(), stderr_tail: None }
    }

    /// A failure, a needed login and a pending approval each notify once, with the action; a repeat of the same
    /// state, a refusal the person made, and a ready server do not.
    #[test]
    fn notifies_once_per_state_that_needs_the_person() {
        let failure =
            notice("github", Some(&ServerStatus::Connecting), &failed("exited with status 1")).expect("notifies");
        assert_eq!(failure.title, "github failed");
        assert_eq!(failure.body, "exited with status 1. Open Plugboard to see why and retry it.");
        assert!(notice("github", Some(&failed("one")), &failed("two")).is_none());
        let login = notice("linear", None, &ServerStatus::NeedsLogin { hint: "x".into() }).expect("notifies");
        assert_eq!(login.body, "Open Plugboard and choose Log in on linear.");
        let approval = ServerStatus::NeedsApproval { hint: "x".into(), refused: false };
        assert!(notice("files", None, &approval).is_some());
        assert!(notice("files", None, &ServerStatus::NeedsApproval { hint: "x".into(), refused: true }).is_none());
        let ready = ServerStatus::Ready { tools: 1, protocol_version: "v".into(), server_name: None };
        assert!(notice("files", Some(&failed("x")), &ready).is_none());
    }

    /// A server's error that holds markup (a link, an image) reaches the notification as the text it is.
    #[test]
    fn server_text_is_escaped() {
        let hostile = failed(r#"<a href="https://evil.example">click</a> & <img src=x>"#);
        let shown = notice("docs", None, &hostile).expect("notifies");
        assert_eq!(shown.title, "docs failed");
        assert!(
            shown.body.starts_with("&lt;a href=\"https://evil.example\"&gt;click&lt;/a&gt; &amp; &lt;img src=x&gt;")
        );
        assert!(!shown.body.contains('<'));
    }
}
