//! Opening an authorization page in the person's default browser: only http(s) URLs, and through the platform's
//! opener program with the URL as one argument — never through a shell (the mcp-remote CVE-2025-6514 class).

use plugboard_core::auth::BrowserUnavailable;
use url::Url;

/// Opens `url` in the default browser, or says why not.
pub fn open(url: &Url) -> Result<(), BrowserUnavailable> {
    if !matches!(url.scheme(), "https" | "http") {
        return Err(BrowserUnavailable(format!("refusing to open a `{}:` URL", url.scheme())));
    }
    if !has_browser() {
        return Err(BrowserUnavailable("no graphical session to open a browser in".into()));
    }
    opener::open_browser(url.as_str()).map_err(|e| BrowserUnavailable(e.to_string()))
}

/// Whether a browser can be shown: always on macOS and Windows; on Linux and BSD only inside a graphical session.
fn has_browser() -> bool {
    if cfg!(any(target_os = "macos", target_os = "windows")) {
        return true;
    }
    std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some()
}
