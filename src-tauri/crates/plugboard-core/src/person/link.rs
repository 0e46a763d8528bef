//! Vets a web address a server asks the person to open (URL-mode elicitation) and splits it so the window can show
//! the whole address with its site picked out. It only reads the text: it must never fetch the address, resolve its
//! name or follow it, and never let through a link whose site is disguised (a user name before the host, a scheme
//! other than https).

use std::net::IpAddr;

use serde::Serialize;
use url::{Host, Url};

/// The longest address shown: past this a link is not something a person can check by reading it.
pub const MAX_LINK_CHARS: usize = 4096;

/// A link the person may choose to open, as the window shows it: `start`, `site` and `rest` joined are `url`, exactly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct LinkToOpen {
    /// The whole address, normalised (an international site name in its `xn--` form, so look-alike letters show).
    #[cfg_attr(feature = "specta", specta(type = String))]
    pub url: Url,
    /// The scheme and `//` before the site (`https://`).
    pub start: String,
    /// The site: its name (or number) and a port if it has one; the part the window highlights.
    pub site: String,
    /// The path, query and fragment after the site.
    pub rest: String,
    /// What the person should know before opening it, in plain words; empty for an ordinary https address.
    pub cautions: Vec<String>,
}

/// Why a link is not offered to the person at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RefusedLink {
    #[error("it is not a web address")]
    NotAnAddress,
    #[error("it is longer than {MAX_LINK_CHARS} characters")]
    TooLong,
    #[error("only https:// addresses are opened (this one is {scheme}:)")]
    Scheme { scheme: String },
    #[error("it is an unencrypted http:// address of another computer; only https:// is opened")]
    PlainHttp,
    #[error("it has a user name or password before the site's name, a common way to disguise where a link goes")]
    Credentials,
}

/// Checks `raw` and splits it for display: https anywhere, plain http only to this computer (a local sign-in page).
pub fn vet(raw: &str) -> Result<LinkToOpen, RefusedLink> {
    if raw.chars().count() > MAX_LINK_CHARS {
        return Err(RefusedLink::TooLong);
    }
    let url = Url::parse(raw.trim()).map_err(|_| RefusedLink::NotAnAddress)?;
    if !matches!(url.scheme(), "https" | "http") {
        return Err(RefusedLink::Scheme { scheme: url.scheme().to_owned() });
    }
    let host = url.host().ok_or(RefusedLink::NotAnAddress)?;
    let local = is_this_computer(&host);
    if url.scheme() == "http" && !local {
        return Err(RefusedLink::PlainHttp);
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(RefusedLink::Credentials);
    }
    let start = format!("{}://", url.scheme());
    let site = match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_string(),
    };
    // Userinfo is refused above, so the serialisation is exactly scheme://site followed by the rest.
    let rest = url
        .as_str()
        .strip_prefix(&start)
        .and_then(|after| after.strip_prefix(&site))
        .ok_or(RefusedLink::NotAnAddress)?
        .to_owned();
    let cautions = cautions(&host, local);
    Ok(LinkToOpen { url, cautions, start, rest, site })
}

fn is_this_computer(host: &Host<&str>) -> bool {
    match host {
        Host::Domain(name) => name.eq_ignore_ascii_case("localhost"),
        Host::Ipv4(ip) => IpAddr::V4(*ip).is_loopback(),
        Host::Ipv6(ip) => IpAddr::V6(*ip).is_loopback(),
    }
}

fn cautions(host: &Host<&str>, local: bool) -> Vec<String> {
    let mut cautions = Vec::new();
    if local {
        cautions.push("The page is on this computer, not on the internet.".to_owned());
    } else if matches!(host, Host::Ipv4(_) | Host::Ipv6(_)) {
        cautions.push("The site is given as a number (an IP address), not a name you can recognise.".to_owned());
    }
    if let Host::Domain(name) = host
        && name.split('.').any(|label| label.starts_with("xn--"))
    {
        cautions.push(
            "The site's name has international letters (shown in its xn-- form): they can imitate the letters of \
             another site's name."
                .to_owned(),
        );
    }
    cautions
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// The three parts join into the normalised address; an ordinary https link has no cautions.
    #[test]
    fn an_https_link_is_split_around_its_site() {
        let link = vet("https://Accounts.Example.com/connect?state=a%20b#top").unwrap();
        assert_eq!(link.url.as_str(), "https://accounts.example.com/connect?state=a%20b#top");
        assert_eq!((link.start.as_str(), link.site.as_str()), ("https://", "accounts.example.com"));
        assert_eq!(link.rest, "/connect?state=a%20b#top");
        assert_eq!(format!("{}{}{}", link.start, link.site, link.rest), link.url.as_str());
        assert!(link.cautions.is_empty());
        assert_eq!(vet("https://example.com:8443").unwrap().site, "example.com:8443");
    }

    /// A look-alike international name is shown in its xn-- form, with a caution; an IP address is cautioned too.
    #[test]
    fn disguisable_sites_are_shown_plainly_and_cautioned() {
        let link = vet("https://pаypal.com/login").unwrap(); // a Cyrillic "а"
        assert!(link.site.starts_with("xn--"), "{}", link.site);
        assert!(link.cautions[0].contains("international letters"));
        let ip = vet("https://[2001:db8::1]:9000/x").unwrap();
        assert_eq!(ip.site, "[2001:db8::1]:9000");
        assert!(ip.cautions[0].contains("IP address"));
        assert_eq!(format!("{}{}{}", ip.start, ip.site, ip.rest), ip.url.as_str());
    }

    /// What is never offered: other schemes, plain http off this computer, a user name before the host, non-links.
    #[test]
    fn disguised_or_unsafe_links_are_refused() {
        assert_eq!(vet("javascript:alert(1)").unwrap_err(), RefusedLink::Scheme { scheme: "javascript".into() });
        assert_eq!(vet("file:///etc/passwd").unwrap_err(), RefusedLink::Scheme { scheme: "file".into() });
        assert_eq!(vet("ftp://example.com/x").unwrap_err(), RefusedLink::Scheme { scheme: "ftp".into() });
        assert_eq!(vet("http://example.com/login").unwrap_err(), RefusedLink::PlainHttp);
        assert_eq!(vet("https://google.com@evil.example/").unwrap_err(), RefusedLink::Credentials);
        assert_eq!(vet("https://a:b@evil.example/").unwrap_err(), RefusedLink::Credentials);
        assert_eq!(vet("not a link").unwrap_err(), RefusedLink::NotAnAddress);
        let long = format!("https://example.com/{}", "a".repeat(MAX_LINK_CHARS));
        assert_eq!(vet(&long).unwrap_err(), RefusedLink::TooLong);
    }

    /// Plain http is offered for this computer only, with a caution saying so.
    #[test]
    fn plain_http_is_offered_for_this_computer() {
        for local in ["http://localhost:3000/cb", "http://127.0.0.1:8080/", "http://[::1]/"] {
            let link = vet(local).unwrap();
            assert!(link.cautions[0].contains("this computer"), "{local}");
        }
    }
}
