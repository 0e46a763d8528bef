//! `plugboard://` links and OAuth redirects by deep link, as the window receives them from a cold start or a second
//! launch: what a link asks for, and handing a login callback (`dev.plugboard.desktop:/oauth/callback?…`, the
//! private-use scheme RFC 8252 asks for) to the logins waiting for it. Any local process can send one, so nothing is
//! trusted because it arrived, and nothing from the link is echoed back in a refusal.

use crate::auth::{CallbackRejected, PendingFlows};

/// What a `plugboard://` link asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkKind {
    /// `dev.plugboard.desktop:/oauth/callback?…`: an authorization server's redirect, completing a login.
    OAuthCallback,
    /// `plugboard://install?…`: adding a server (not supported yet).
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

/// Why a link was turned away, in fixed words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LinkRefused {
    #[error("A login link was refused: {0}.")]
    Login(#[from] CallbackRejected),
    #[error("Install links are not supported yet: add the server from the Servers page.")]
    InstallNotSupported,
    #[error("A plugboard:// link was ignored: Plugboard does not know what it asks for.")]
    Unknown,
}

/// Follows `raw`: a login callback goes to the login waiting for it, whose server's name is returned.
pub fn open_link(flows: &PendingFlows, raw: &str) -> Result<String, LinkRefused> {
    match LinkKind::of(raw) {
        LinkKind::OAuthCallback => Ok(flows.deliver(raw)?),
        LinkKind::Install => Err(LinkRefused::InstallNotSupported),
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

    /// A callback for the login in progress completes it; a forged one is refused without echoing it, and the real
    /// login still completes after it.
    #[test]
    fn a_callback_reaches_its_login_and_nothing_else_does() {
        let flows = PendingFlows::new();
        let _waiting = flows.register("s-real", "notes", Expectation::default());
        let forged = open_link(&flows, "dev.plugboard.desktop:/oauth/callback?code=<script>&state=forged").unwrap_err();
        assert_eq!(forged, LinkRefused::Login(CallbackRejected::UnknownState));
        assert!(!forged.to_string().contains("script") && !forged.to_string().contains("forged"), "{forged}");
        assert_eq!(open_link(&flows, "plugboard://install?x=1"), Err(LinkRefused::InstallNotSupported));
        assert_eq!(
            open_link(&flows, "dev.plugboard.desktop:/oauth/callback?code=c&state=s-real").as_deref(),
            Ok("notes")
        );
    }
}
