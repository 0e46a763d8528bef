//! `plugboard://` links and OAuth redirects by deep link, as the window receives them from a cold start or a second
//! launch: what a link asks for, handing a login callback (`dev.plugboard.desktop:/oauth/callback?…`, the private-use
//! scheme RFC 8252 asks for) to the logins waiting for it, and turning an install link (`plugboard://install?…`) into
//! an offer the person decides on. Any local process can send one, so nothing is trusted because it arrived, nothing
//! is added here, and nothing from the link is echoed back in a refusal.

use crate::auth::{CallbackRejected, PendingFlows};
use crate::install::{InstallError, InstallOffer};
use crate::registry::Registry;

/// What a `plugboard://` link asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkKind {
    /// `dev.plugboard.desktop:/oauth/callback?…`: an authorization server's redirect, completing a login.
    OAuthCallback,
    /// `plugboard://install?…`: a server offered for adding (Cursor's, LM Studio's or VS Code's shape).
    Install,
    Unknown,
}

impl LinkKind {
    /// What `raw` asks for; anything that does not parse as one of Plugboard's links is unknown.
    pub fn of(raw: &str) -> Self {
        let Ok(url) = url::Url::parse(raw) else { return Self::Unknown };
        match (url.scheme(), url.host_str(), url.path()) {
            (crate::OAUTH_REDIRECT_SCHEME, None, "/oauth/callback") => Self::OAuthCallback,
            ("plugboard", Some("install"), _) => Self::Install,
            _ => Self::Unknown,
        }
    }
}

/// What a followed link came to.
#[derive(Debug)]
pub enum Opened {
    /// A login completed, for this server.
    Login { server: String },
    /// A server offered for adding: the person sees it and decides (nothing was added).
    InstallOffer(Box<InstallOffer>),
}

/// Why a link was turned away, in words that quote nothing of the link.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LinkRefused {
    #[error("A login link was refused: {0}.")]
    Login(#[from] CallbackRejected),
    #[error(transparent)]
    Install(#[from] InstallError),
    #[error("A plugboard:// link was ignored: Plugboard does not know what it asks for.")]
    Unknown,
}

/// Follows `raw`: a login callback goes to the login waiting for it; an install link becomes an offer with a name
/// free among `registry`'s servers.
pub fn open_link(flows: &PendingFlows, registry: &Registry, raw: &str) -> Result<Opened, LinkRefused> {
    match LinkKind::of(raw) {
        LinkKind::OAuthCallback => Ok(Opened::Login { server: flows.deliver(raw)? }),
        LinkKind::Install => Ok(Opened::InstallOffer(Box::new(crate::install::offer(registry, raw)?))),
        LinkKind::Unknown => Err(LinkRefused::Unknown),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::Expectation;

    /// Only the reverse-domain scheme's `/oauth/callback` is a login callback (the redirect a login sends); other
    /// paths, a host, and the `plugboard://` scheme people see are not.
    #[test]
    fn classifies_links() {
        let callback = format!("{}?code=a&state=b", crate::auth::DEEP_LINK_REDIRECT);
        assert_eq!(LinkKind::of(&callback), LinkKind::OAuthCallback);
        assert_eq!(LinkKind::of("plugboard://install?name=x&config=e30"), LinkKind::Install);
        for other in [
            "plugboard://oauth/callback?code=a&state=b",
            "dev.plugboard.desktop:/oauth/other?code=a",
            "dev.plugboard.desktop://evil/oauth/callback?code=a",
            "plugboard://evil",
            "https://oauth/callback",
            "%%%",
            "",
        ] {
            assert_eq!(LinkKind::of(other), LinkKind::Unknown, "{other}");
        }
    }

    fn registry(dir: &std::path::Path) -> Registry {
        let store = crate::config::ConfigStore::open(dir.join("servers.json")).expect("store");
        let vault = crate::secrets::Vault::with_store(std::sync::Arc::new(crate::secrets::MemoryStore::default()));
        Registry::new(store, std::sync::Arc::new(vault))
    }

    /// A callback for the login in progress completes it; a forged one is refused without echoing it, and the real
    /// login still completes after it. An install link is only offered: nothing is added to servers.json.
    #[test]
    fn a_callback_reaches_its_login_and_an_install_link_is_only_offered() {
        let dir = tempfile::tempdir().expect("dir");
        let registry = registry(dir.path());
        let flows = PendingFlows::new();
        let _waiting = flows.register("s-real", "notes", Expectation::default());
        let forged = open_link(&flows, &registry, "dev.plugboard.desktop:/oauth/callback?code=<script>&state=forged")
            .unwrap_err();
        assert!(matches!(forged, LinkRefused::Login(CallbackRejected::UnknownState)), "{forged:?}");
        assert!(!forged.to_string().contains("script") && !forged.to_string().contains("forged"), "{forged}");
        assert!(matches!(open_link(&flows, &registry, "plugboard://install?x=1"), Err(LinkRefused::Install(_))));
        // {"command":"npx","args":["-y","@modelcontextprotocol/server-memory@2025.9.25"]}
        let config = "eyJjb21tYW5kIjoibnB4IiwiYXJncyI6WyIteSIsIkBtb2RlbGNvbnRleHRwcm90b2NvbC9zZXJ2ZXItbWVtb3J5QDIwMjUuOS4yNSJdfQ==";
        let link = format!("plugboard://install?name=memory&config={config}");
        let offered = open_link(&flows, &registry, &link).expect("offered");
        assert!(matches!(&offered, Opened::InstallOffer(offer) if offer.suggested_name == "memory"), "{offered:?}");
        assert!(registry.store().snapshot().servers.is_empty(), "an offer adds nothing");
        let completed =
            open_link(&flows, &registry, "dev.plugboard.desktop:/oauth/callback?code=c&state=s-real").expect("login");
        assert!(matches!(completed, Opened::Login { server } if server == "notes"));
    }
}
