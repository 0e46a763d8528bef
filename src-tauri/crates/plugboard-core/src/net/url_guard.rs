//! The guard every configured remote server URL passes before Plugboard connects to it (after `${…}` references
//! are expanded, so a URL built from the environment is checked too). It refuses what can never be an MCP server
//! and the forms used to smuggle a request somewhere else; it must never refuse a server the person runs locally.
//!
//! The choice: loopback (127.0.0.1, localhost, ::1) and private networks (10/8, 172.16/12, 192.168/16, fc00::/7)
//! stay ALLOWED. The person typed or confirmed the URL, and local MCP servers on those addresses are common; the
//! classic SSRF threat (a remote party choosing the URL a server-side fetcher requests) does not apply to a desktop
//! client connecting where its user pointed it. What is refused: any scheme but http(s) (`file:`, `javascript:`,
//! `data:`, `ftp:`, …), credentials inside the URL (`https://trusted.example@evil.example/` reads as one host and
//! goes to another, and the password would end up in logs), an unspecified address (0.0.0.0, ::), which no
//! server is reached at and which some systems route to this machine by surprise, and the cloud metadata endpoints
//! (169.254.169.254, fd00:ec2::254, …), which serve instance credentials and never MCP. Redirects are not followed
//! either: the pooled HTTP client has `redirect::Policy::none()` (see `net::pooled_http_client`), so a
//! server cannot bounce our headers to another host. The URLs a server names in turn (OAuth metadata and
//! endpoints) are held to the stricter rule of `net::guard` instead.

use std::net::IpAddr;

use url::{Host, Url};

use super::guard::AddressKind;

/// Why a server URL was refused; every variant names the config field it came from. The URL itself is not
/// repeated: after expansion it may carry a secret.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UrlRefused {
    Invalid { field: String, reason: String },
    Scheme { field: String, scheme: String },
    Credentials { field: String },
    Address { field: String, host: String },
}

impl UrlRefused {
    /// The config field the URL came from.
    pub fn field(&self) -> &str {
        match self {
            Self::Invalid { field, .. }
            | Self::Scheme { field, .. }
            | Self::Credentials { field }
            | Self::Address { field, .. } => field,
        }
    }

    /// What is wrong, without the field (for callers that name the field themselves).
    pub fn problem(&self) -> String {
        match self {
            Self::Invalid { reason, .. } => format!("is not a valid URL: {reason}"),
            Self::Scheme { scheme, .. } => {
                format!("the {scheme}: scheme is not allowed for an MCP server: use an http:// or https:// URL")
            }
            Self::Credentials { .. } => {
                "the URL carries a user name or password; put credentials in \"headers\" instead".into()
            }
            Self::Address { host, .. } => format!("{host} is not an address an MCP server can be reached at"),
        }
    }
}

impl std::fmt::Display for UrlRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field(), self.problem())
    }
}

impl std::error::Error for UrlRefused {}

/// Checks the URL of config field `field` and returns it parsed.
pub fn check_server_url(field: &str, url: &str) -> Result<Url, UrlRefused> {
    let parsed =
        Url::parse(url.trim()).map_err(|e| UrlRefused::Invalid { field: field.to_owned(), reason: e.to_string() })?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(UrlRefused::Scheme { field: field.to_owned(), scheme: parsed.scheme().to_owned() });
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(UrlRefused::Credentials { field: field.to_owned() });
    }
    let refused = |host: String| UrlRefused::Address { field: field.to_owned(), host };
    match parsed.host() {
        None => {
            return Err(UrlRefused::Invalid { field: field.to_owned(), reason: "it has no host".into() });
        }
        Some(Host::Ipv4(ip)) if hostile(IpAddr::V4(ip)) => return Err(refused(ip.to_string())),
        Some(Host::Ipv6(ip)) if hostile(IpAddr::V6(ip)) => return Err(refused(ip.to_string())),
        Some(_) => {}
    }
    Ok(parsed)
}

/// Addresses no MCP server is reached at (the guard's never-reachable kinds). Loopback and private ranges are
/// deliberately not among them.
fn hostile(ip: IpAddr) -> bool {
    AddressKind::of(ip).is_never_reachable()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(url: &str) -> UrlRefused {
        check_server_url("url", url).expect_err(url)
    }

    /// Local and private servers stay reachable: loopback names and addresses, RFC 1918 and unique-local IPv6,
    /// any port and path, and ordinary public https URLs.
    #[test]
    fn local_private_and_public_servers_are_allowed() {
        for url in [
            "http://127.0.0.1:3001/mcp",
            "http://localhost:8080/mcp",
            "http://[::1]:9000/mcp",
            "http://10.1.2.3/mcp",
            "http://192.168.1.20:8000/sse",
            "http://172.16.0.5/mcp",
            "http://[fd12:3456::1]/mcp",
            "https://mcp.linear.app/mcp",
            "HTTPS://Example.COM/mcp?x=1",
        ] {
            assert!(check_server_url("url", url).is_ok(), "{url}");
        }
    }

    /// Every scheme but http(s) is refused with an error naming the field and the scheme.
    #[test]
    fn other_schemes_are_refused_naming_the_field() {
        for (url, scheme) in [
            ("file:///etc/passwd", "file"),
            ("javascript:alert(1)", "javascript"),
            ("data:text/plain,hi", "data"),
            ("ftp://files.example/mcp", "ftp"),
            ("ws://127.0.0.1/mcp", "ws"),
            ("gopher://127.0.0.1:6379/_FLUSHALL", "gopher"),
        ] {
            assert_eq!(refused(url), UrlRefused::Scheme { field: "url".into(), scheme: scheme.into() });
        }
        let error = check_server_url("mcpServers.x.url", "file:///etc/passwd").expect_err("file");
        assert!(error.to_string().starts_with("mcpServers.x.url: the file: scheme is not allowed"), "{error}");
    }

    /// Credentials in the URL (including the `trusted@evil` disguise) and unparsable URLs are refused.
    #[test]
    fn credentials_and_garbage_are_refused() {
        assert_eq!(refused("https://mcp.example@evil.example/mcp"), UrlRefused::Credentials { field: "url".into() });
        assert_eq!(refused("https://user:secret@mcp.example/mcp"), UrlRefused::Credentials { field: "url".into() });
        assert!(matches!(refused("not a url"), UrlRefused::Invalid { .. }));
        assert!(matches!(refused("http://"), UrlRefused::Invalid { .. }));
    }

    /// Unspecified, broadcast and multicast addresses and the cloud metadata endpoints are refused, also when
    /// written in another notation (hex, integer, IPv4-mapped IPv6).
    #[test]
    fn hostile_addresses_are_refused_in_any_notation() {
        for url in [
            "http://0.0.0.0:8080/mcp",
            "http://[::]/mcp",
            "http://255.255.255.255/mcp",
            "http://224.0.0.1/mcp",
            "http://169.254.169.254/latest/meta-data/",
            "http://0xa9.0xfe.0xa9.0xfe/",
            "http://2852039166/",
            "http://[::ffff:169.254.169.254]/",
            "http://[fd00:ec2::254]/",
        ] {
            assert!(matches!(refused(url), UrlRefused::Address { .. }), "{url}");
        }
    }
}
