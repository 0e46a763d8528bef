//! Routes `plugboard://` URLs, from a cold start or forwarded by a second launch: `plugboard://oauth/callback?…`
//! completes a pending login; anything else is turned away and the UI says so. Any local process can send a deep
//! link, so nothing here is trusted because it arrived, and nothing from the link is echoed back.

use tauri::{AppHandle, Manager};
use tauri_specta::Event;

use crate::events::DeepLinkRejected;
use crate::state::AppState;

/// What a `plugboard://` link asks for.
#[derive(Debug, PartialEq, Eq)]
enum Link {
    OAuthCallback,
    Install,
    Unknown,
}

fn classify(raw: &str) -> Link {
    let Ok(url) = url::Url::parse(raw) else { return Link::Unknown };
    match (url.scheme(), url.host_str(), url.path()) {
        ("plugboard", Some("oauth"), "/callback") => Link::OAuthCallback,
        ("plugboard", Some("install"), _) => Link::Install,
        _ => Link::Unknown,
    }
}

/// Handles one deep link.
pub fn route(app: &AppHandle, raw: &str) {
    let Some(state) = app.try_state::<AppState>() else { return };
    let reason = match classify(raw) {
        Link::OAuthCallback => match state.flows.deliver(raw) {
            Ok(server) => {
                tracing::info!(server, "a deep link completed a login");
                return;
            }
            Err(rejected) => format!("A login link was refused: {rejected}."),
        },
        Link::Install => "Install links are not supported yet: add the server from the Servers page.".to_owned(),
        Link::Unknown => "A plugboard:// link was ignored: Plugboard does not know what it asks for.".to_owned(),
    };
    tracing::info!(%reason, "deep link rejected");
    let _ = DeepLinkRejected { reason }.emit(app);
}

/// Routes the link the app was started with, then every link a later launch forwards.
pub fn listen(app: &AppHandle) {
    use tauri_plugin_deep_link::DeepLinkExt;
    let handle = app.clone();
    app.deep_link().on_open_url(move |event| {
        for url in event.urls() {
            route(&handle, url.as_str());
        }
    });
    if let Ok(Some(urls)) = app.deep_link().get_current() {
        for url in urls {
            route(app, url.as_str());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Link, classify};

    /// Only `plugboard://oauth/callback` is a login callback; other hosts, paths and schemes are not.
    #[test]
    fn classifies_links() {
        assert_eq!(classify("plugboard://oauth/callback?code=a&state=b"), Link::OAuthCallback);
        assert_eq!(classify("plugboard://install?name=x&config=e30"), Link::Install);
        for other in ["plugboard://oauth/other?code=a", "plugboard://evil", "https://oauth/callback", "%%%", ""] {
            assert_eq!(classify(other), Link::Unknown, "{other}");
        }
    }
}
