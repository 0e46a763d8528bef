//! Routes `plugboard://` URLs and OAuth redirects, from a cold start or forwarded by a second launch, to the core
//! (`links::open_link`: `dev.plugboard.desktop:/oauth/callback?…` completes a pending login; anything else is turned
//! away) and tells the UI of a refusal. Any local process can send a deep link, so nothing here is trusted because it arrived, and nothing from
//! the link is echoed back.

use std::sync::Arc;

use std::sync::Mutex;

use tauri::{AppHandle, Manager};
use tauri_specta::Event;

use crate::events::DeepLinkRejected;
use plugboard_core::engine::Engine;
use plugboard_core::links::open_link;

/// Why the links the app was started with were refused. They are routed while the app sets up, before the page can
/// listen for [`DeepLinkRejected`], so the page asks for them once instead (`missed_deep_link_rejections`).
#[derive(Default)]
pub struct MissedRejections(Mutex<Vec<String>>);

impl MissedRejections {
    /// The refusals not yet shown, emptied: each is handed to the page once.
    pub fn take(&self) -> Vec<DeepLinkRejected> {
        let taken = self.0.lock().map(|mut reasons| std::mem::take(&mut *reasons)).unwrap_or_default();
        taken.into_iter().map(|reason| DeepLinkRejected { reason }).collect()
    }
}

/// Handles one deep link; `None` when it was taken, else why it was refused (a fixed text).
fn handle(app: &AppHandle, raw: &str) -> Option<String> {
    let engine = app.try_state::<Arc<Engine>>()?;
    match open_link(engine.flows(), raw) {
        Ok(server) => {
            tracing::info!(server, "a deep link completed a login");
            None
        }
        Err(refused) => {
            tracing::info!(reason = %refused, "deep link rejected");
            Some(refused.to_string())
        }
    }
}

/// Handles a link forwarded while the window runs; a refusal is told to the page at once.
pub fn route(app: &AppHandle, raw: &str) {
    if let Some(reason) = handle(app, raw) {
        let _ = DeepLinkRejected { reason }.emit(app);
    }
}

/// Routes the link the app was started with (its refusal kept for the page), then every link a later launch
/// forwards (single-instance hands the second launch's arguments to the deep-link plugin).
pub fn listen(app: &AppHandle) {
    use tauri_plugin_deep_link::DeepLinkExt;
    // A development build is not installed, so nothing tells the desktop that it opens plugboard:// links and OAuth
    // redirects, and a browser's redirect would go nowhere: register this binary for both schemes (a .desktop file in
    // the user's data dir, through xdg-mime). An installed package registers itself.
    #[cfg(all(debug_assertions, target_os = "linux"))]
    if let Err(e) = app.deep_link().register_all() {
        tracing::warn!("cannot register Plugboard's link schemes with the desktop: {e}");
    }
    let handle = app.clone();
    app.deep_link().on_open_url(move |event| {
        for url in event.urls() {
            route(&handle, url.as_str());
        }
    });
    let missed = MissedRejections::default();
    if let Ok(Some(urls)) = app.deep_link().get_current()
        && let Ok(mut reasons) = missed.0.lock()
    {
        reasons.extend(urls.iter().filter_map(|url| self::handle(app, url.as_str())));
    }
    app.manage(missed);
}

#[cfg(test)]
mod tests {
    use super::MissedRejections;

    /// A refusal of a cold start is handed to the page once: a later ask (a reload) does not show it again.
    #[test]
    fn missed_rejections_are_taken_once() {
        let missed = MissedRejections::default();
        missed.0.lock().unwrap().extend(["first".to_owned(), "second".to_owned()]);
        let reasons: Vec<_> = missed.take().into_iter().map(|r| r.reason).collect();
        assert_eq!(reasons, ["first", "second"]);
        assert!(missed.take().is_empty());
    }
}
