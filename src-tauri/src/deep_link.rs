//! Routes `plugboard://` URLs and OAuth redirects, from a cold start or forwarded by a second launch, to the core
//! (`links::open_link`): `dev.plugboard.desktop:/oauth/callback?…` completes a pending login; `plugboard://install?…`
//! is offered to the person in the consent dialog (nothing is added before they confirm); anything else is turned
//! away and the UI says so. Any local process can send a deep link, so nothing here is trusted because it arrived,
//! and a refusal echoes nothing from the link.

use std::sync::Arc;

use std::sync::Mutex;

use tauri::{AppHandle, Manager};
use tauri_specta::Event;

use crate::events::{DeepLinkRejected, InstallOffered};
use plugboard_core::engine::Engine;
use plugboard_core::links::{Opened, open_link};

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

/// The install links the app was started with, offered before the page could listen (`missed_install_offers`).
#[derive(Default)]
pub struct MissedOffers(Mutex<Vec<InstallOffered>>);

impl MissedOffers {
    /// The offers not yet shown, emptied: each is handed to the page once.
    pub fn take(&self) -> Vec<InstallOffered> {
        self.0.lock().map(|mut offers| std::mem::take(&mut *offers)).unwrap_or_default()
    }
}

/// What a deep link came to.
enum Handled {
    Taken,
    Offered(Box<InstallOffered>),
    Refused(String),
}

/// Handles one deep link; `None` when it was taken, else why it was refused (a fixed text).
fn handle(app: &AppHandle, raw: &str) -> Handled {
    let Some(engine) = app.try_state::<Arc<Engine>>() else { return Handled::Taken };
    match open_link(engine.flows(), engine.registry(), raw) {
        Ok(Opened::Login { server }) => {
            tracing::info!(server, "a deep link completed a login");
            Handled::Taken
        }
        Ok(Opened::InstallOffer(offer)) => {
            tracing::info!(server = %offer.suggested_name, "an install link is offered to the person");
            Handled::Offered(Box::new(InstallOffered { offer: *offer }))
        }
        Err(refused) => {
            tracing::info!(reason = %refused, "deep link rejected");
            Handled::Refused(refused.to_string())
        }
    }
}

/// Handles a link forwarded while the window runs; an offer or a refusal is told to the page at once.
pub fn route(app: &AppHandle, raw: &str) {
    match handle(app, raw) {
        Handled::Taken => {}
        Handled::Offered(offer) => {
            let _ = offer.emit(app);
        }
        Handled::Refused(reason) => {
            let _ = DeepLinkRejected { reason }.emit(app);
        }
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
    let offers = MissedOffers::default();
    if let Ok(Some(urls)) = app.deep_link().get_current()
        && let (Ok(mut reasons), Ok(mut offered)) = (missed.0.lock(), offers.0.lock())
    {
        for url in urls {
            match self::handle(app, url.as_str()) {
                Handled::Taken => {}
                Handled::Offered(offer) => offered.push(*offer),
                Handled::Refused(reason) => reasons.push(reason),
            }
        }
    }
    app.manage(missed);
    app.manage(offers);
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
