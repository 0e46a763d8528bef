//! The network guard's rule as pure functions: what kind of address an IP is, and whether Plugboard may connect to
//! it for a URL it discovered by itself (metadata, token, registration and revocation endpoints, redirects). It must
//! never do I/O or consult DNS: callers hand it the host they were asked for and the address they are about to use.
//!
//! The rule: a discovered URL may reach any public address. It may reach this machine, a private network or the
//! other internal ranges below only on a host the person typed or approved (the server's own configured host,
//! compared as written: `localhost` and `127.0.0.1` are different hosts, because the guard cannot tell that a name
//! means this machine without resolving it, and the approval was given for what the person saw). Cloud metadata,
//! unspecified, broadcast and multicast addresses are reached for no host at all, approved or not, the same set
//! [`super::check_server_url`] refuses in a configured URL.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use url::{Host, Url};

/// What an address is, as far as the guard cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum AddressKind {
    /// Anything on the public internet.
    Public,
    /// 127.0.0.0/8, ::1: this machine.
    Loopback,
    /// RFC 1918 (10/8, 172.16/12, 192.168/16) and the deprecated IPv6 site-local fec0::/10.
    Private,
    /// 169.254/16, fe80::/10.
    LinkLocal,
    /// 100.64/10, the carrier-grade NAT range (RFC 6598), which reaches a provider's internal hosts.
    SharedCgnat,
    /// fc00::/7, IPv6 unique-local addresses.
    UniqueLocal,
    /// The cloud instance metadata endpoints, which hand out the machine's credentials.
    CloudMetadata,
    /// 0.0.0.0/8, ::: no host is reached there, and some systems route it to this machine.
    Unspecified,
    /// 255.255.255.255.
    Broadcast,
    /// 224/4, ff00::/8.
    Multicast,
    /// Ranges set aside by the IETF (240/4, benchmarking, documentation, protocol assignments, Teredo, discard):
    /// nothing legitimate is discovered there, and some are routed inside the local network.
    Reserved,
}

/// The cloud metadata endpoints by address: AWS/GCP/Azure/Oracle share 169.254.169.254, AWS ECS task metadata is
/// 169.254.170.2, Alibaba's is 100.100.100.200, AWS's IPv6 one fd00:ec2::254.
const METADATA_V4: [Ipv4Addr; 3] =
    [Ipv4Addr::new(169, 254, 169, 254), Ipv4Addr::new(169, 254, 170, 2), Ipv4Addr::new(100, 100, 100, 200)];
const METADATA_V6: [Ipv6Addr; 1] = [Ipv6Addr::new(0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x0254)];
/// Names that mean the metadata endpoint on GCP and Azure; they resolve to 169.254.169.254, which the resolver
/// catches too, but a literal name is refused before any lookup.
const METADATA_NAMES: [&str; 3] = ["metadata.google.internal", "metadata.azure.internal", "metadata"];

impl AddressKind {
    /// The kind of `ip`. An IPv6 address that carries an IPv4 one (mapped `::ffff:a.b.c.d`, compatible
    /// `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`, 6to4 `2002:aabb:ccdd::`) is judged by the IPv4 address it reaches.
    pub fn of(ip: IpAddr) -> Self {
        match ip {
            IpAddr::V4(v4) => Self::of_v4(v4),
            IpAddr::V6(v6) => embedded_v4(v6).map_or_else(|| Self::of_v6(v6), Self::of_v4),
        }
    }

    /// The kind of a URL host known without resolving it: an IP literal, `localhost` and `*.localhost` (which
    /// resolvers answer with loopback by convention), or a metadata name. `None` for any other name.
    pub fn of_host(host: &Host<&str>) -> Option<Self> {
        match host {
            Host::Ipv4(v4) => Some(Self::of(IpAddr::V4(*v4))),
            Host::Ipv6(v6) => Some(Self::of(IpAddr::V6(*v6))),
            Host::Domain(domain) => {
                let domain = normalise_name(domain);
                if domain == "localhost" || domain.ends_with(".localhost") {
                    Some(Self::Loopback)
                } else if METADATA_NAMES.contains(&domain.as_str()) {
                    Some(Self::CloudMetadata)
                } else {
                    None
                }
            }
        }
    }

    /// Whether a discovered URL may reach this kind on any host.
    pub fn is_public(self) -> bool {
        self == Self::Public
    }

    /// Whether no request is ever sent there, even to an approved host: nothing serves MCP or OAuth at these, and
    /// the metadata endpoints hand out credentials.
    pub fn is_never_reachable(self) -> bool {
        matches!(self, Self::CloudMetadata | Self::Unspecified | Self::Broadcast | Self::Multicast)
    }

    /// The words for the error message: "points to {a private address}".
    pub fn describe(self) -> &'static str {
        match self {
            Self::Public => "a public address",
            Self::Loopback => "a loopback address",
            Self::Private => "a private address",
            Self::LinkLocal => "a link-local address",
            Self::SharedCgnat => "a carrier-grade NAT address (100.64.0.0/10)",
            Self::UniqueLocal => "a unique-local IPv6 address",
            Self::CloudMetadata => "a cloud metadata endpoint",
            Self::Unspecified => "an unspecified address",
            Self::Broadcast => "the broadcast address",
            Self::Multicast => "a multicast address",
            Self::Reserved => "a reserved address",
        }
    }

    fn of_v4(ip: Ipv4Addr) -> Self {
        let [a, b, c, _] = ip.octets();
        if METADATA_V4.contains(&ip) {
            Self::CloudMetadata
        } else if a == 0 {
            Self::Unspecified
        } else if ip.is_loopback() {
            Self::Loopback
        } else if ip.is_private() {
            Self::Private
        } else if ip.is_link_local() {
            Self::LinkLocal
        } else if a == 100 && (64..=127).contains(&b) {
            Self::SharedCgnat
        } else if ip.is_broadcast() {
            Self::Broadcast
        } else if ip.is_multicast() {
            Self::Multicast
        } else if a >= 240
            || (a, b, c) == (192, 0, 0)
            || (a, b, c) == (192, 0, 2)
            || (a, b, c) == (192, 88, 99)
            || (a, b, c) == (198, 51, 100)
            || (a, b, c) == (203, 0, 113)
            || (a == 198 && (b == 18 || b == 19))
        {
            Self::Reserved
        } else {
            Self::Public
        }
    }

    fn of_v6(ip: Ipv6Addr) -> Self {
        let first = ip.segments()[0];
        if METADATA_V6.contains(&ip) {
            Self::CloudMetadata
        } else if ip.is_unspecified() {
            Self::Unspecified
        } else if ip.is_loopback() {
            Self::Loopback
        } else if ip.is_multicast() {
            Self::Multicast
        } else if first & 0xffc0 == 0xfe80 {
            Self::LinkLocal
        } else if first & 0xffc0 == 0xfec0 {
            Self::Private
        } else if first & 0xfe00 == 0xfc00 {
            Self::UniqueLocal
        } else if (first, ip.segments()[1]) == (0x2001, 0x0db8)
            || (first, ip.segments()[1]) == (0x2001, 0)
            || ip.segments()[..4] == [0x0100, 0, 0, 0]
        {
            // Documentation, Teredo (whose embedded IPv4 address is obfuscated) and the discard prefix.
            Self::Reserved
        } else {
            Self::Public
        }
    }
}

impl fmt::Display for AddressKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// The IPv4 address an IPv6 address reaches, where it embeds one. `::` and `::1` are IPv6's own unspecified and
/// loopback addresses, not compatible forms of 0.0.0.0 and 0.0.0.1.
fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let (s, o) = (ip.segments(), ip.octets());
    let at = |i: usize| Ipv4Addr::new(o[i], o[i + 1], o[i + 2], o[i + 3]);
    if let Some(mapped) = ip.to_ipv4_mapped() {
        Some(mapped)
    } else if (s[..6] == [0; 6] && !ip.is_unspecified() && !ip.is_loopback()) || s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        Some(at(12))
    } else if s[0] == 0x2002 {
        Some(at(2))
    } else {
        None
    }
}

fn normalise_name(name: &str) -> String {
    name.trim_end_matches('.').to_ascii_lowercase()
}

/// The hosts the person typed or approved for one server: the only hosts a discovered URL may reach on this
/// machine or an internal network. Compared by host alone (any port, either scheme), as written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ApprovedHosts(Vec<Host<String>>);

impl ApprovedHosts {
    /// No host approved: discovered URLs reach public addresses only.
    pub fn none() -> Self {
        Self::default()
    }

    /// The host of `url` (a configured server URL).
    pub fn of(url: &Url) -> Self {
        Self::none().and(url)
    }

    /// These hosts and that of `url`.
    pub fn and(mut self, url: &Url) -> Self {
        if let Some(host) = url.host() {
            let host = normalise(&host);
            if !self.0.contains(&host) {
                self.0.push(host);
            }
        }
        self
    }

    /// Whether `host` is one of them.
    pub fn contains(&self, host: &Host<&str>) -> bool {
        self.0.contains(&normalise(host))
    }

    /// Whether the DNS name `name` is one of them (what a resolver is asked).
    pub fn contains_name(&self, name: &str) -> bool {
        self.contains(&Host::Domain(name))
    }
}

impl fmt::Display for ApprovedHosts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("none");
        }
        let hosts: Vec<String> = self.0.iter().map(ToString::to_string).collect();
        f.write_str(&hosts.join(", "))
    }
}

fn normalise(host: &Host<&str>) -> Host<String> {
    match host {
        Host::Domain(domain) => Host::Domain(normalise_name(domain)),
        Host::Ipv4(v4) => Host::Ipv4(*v4),
        Host::Ipv6(v6) => Host::Ipv6(*v6),
    }
}

/// Whether a discovered URL may connect to an address of `kind` for a host that is (`on_approved_host`) or is not
/// one the person approved.
pub fn allows(kind: AddressKind, on_approved_host: bool) -> bool {
    kind.is_public() || (on_approved_host && !kind.is_never_reachable())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(ip: &str) -> AddressKind {
        AddressKind::of(ip.parse().unwrap_or_else(|e| panic!("{ip}: {e}")))
    }

    fn assert_kinds(table: &[(&str, AddressKind)]) {
        for (ip, expected) in table {
            assert_eq!(kind(ip), *expected, "{ip}");
        }
    }

    /// Every range the guard knows, with its edges, in IPv4.
    #[test]
    fn ipv4_ranges_are_classified_with_their_edges() {
        use AddressKind::*;
        assert_kinds(&[
            ("8.8.8.8", Public),
            ("1.1.1.1", Public),
            ("127.0.0.1", Loopback),
            ("127.0.0.2", Loopback),
            ("127.255.255.255", Loopback),
            ("10.0.0.5", Private),
            ("10.255.255.255", Private),
            ("172.16.0.1", Private),
            ("172.31.255.255", Private),
            ("172.15.255.255", Public),
            ("172.32.0.0", Public),
            ("192.168.1.1", Private),
            ("192.169.0.1", Public),
            ("169.254.0.1", LinkLocal),
            ("169.254.255.255", LinkLocal),
            ("169.254.169.254", CloudMetadata),
            ("169.254.170.2", CloudMetadata),
            ("100.100.100.200", CloudMetadata),
            ("100.64.0.1", SharedCgnat),
            ("100.127.255.255", SharedCgnat),
            ("100.63.255.255", Public),
            ("100.128.0.0", Public),
            ("0.0.0.0", Unspecified),
            ("0.1.2.3", Unspecified),
            ("255.255.255.255", Broadcast),
            ("224.0.0.1", Multicast),
            ("239.255.255.255", Multicast),
            ("240.0.0.1", Reserved),
            ("192.0.0.8", Reserved),
            ("192.0.2.1", Reserved),
            ("198.18.0.1", Reserved),
            ("198.19.255.255", Reserved),
            ("198.51.100.7", Reserved),
            ("203.0.113.9", Reserved),
        ]);
    }

    /// Every range in IPv6, with its edges.
    #[test]
    fn ipv6_ranges_are_classified_with_their_edges() {
        use AddressKind::*;
        assert_kinds(&[
            ("2606:4700:4700::1111", Public),
            ("::1", Loopback),
            ("::", Unspecified),
            ("fe80::1", LinkLocal),
            ("febf:ffff::1", LinkLocal),
            ("fec0::1", Private),
            ("fc00::1", UniqueLocal),
            ("fdff:ffff::1", UniqueLocal),
            ("fd00:ec2::254", CloudMetadata),
            ("fe00::1", Public),
            ("ff02::1", Multicast),
            ("2001:db8::1", Reserved),
            ("2001:0:4136:e378::1", Reserved),
            ("100::1", Reserved),
        ]);
    }

    /// An IPv6 address that carries an IPv4 one is judged by that IPv4 address: mapped, compatible, NAT64 and
    /// 6to4 forms of loopback, private, link-local, metadata and CGNAT addresses are caught, public ones pass.
    #[test]
    fn ipv6_forms_of_ipv4_addresses_are_judged_by_the_ipv4_address() {
        use AddressKind::*;
        assert_kinds(&[
            ("::ffff:127.0.0.1", Loopback),
            ("::ffff:7f00:2", Loopback),
            ("::ffff:10.0.0.5", Private),
            ("::ffff:169.254.169.254", CloudMetadata),
            ("::ffff:169.254.1.1", LinkLocal),
            ("::ffff:100.64.0.1", SharedCgnat),
            ("::ffff:0.0.0.0", Unspecified),
            ("::ffff:8.8.8.8", Public),
            ("::127.0.0.1", Loopback),
            ("::10.0.0.5", Private),
            ("::169.254.169.254", CloudMetadata),
            ("64:ff9b::169.254.169.254", CloudMetadata),
            ("64:ff9b::192.168.0.1", Private),
            ("64:ff9b::8.8.8.8", Public),
            ("2002:7f00:1::", Loopback),
            ("2002:a9fe:a9fe::1", CloudMetadata),
            ("2002:0808:0808::1", Public),
        ]);
    }

    /// Names known without DNS: localhost and its subdomains are loopback, the metadata names are metadata, and
    /// anything else waits for the resolver.
    #[test]
    fn hosts_known_without_dns() {
        let of = |host: &str| {
            let url = Url::parse(&format!("http://{host}/")).unwrap_or_else(|e| panic!("{host}: {e}"));
            AddressKind::of_host(&url.host().unwrap_or_else(|| panic!("{host}")))
        };
        assert_eq!(of("localhost"), Some(AddressKind::Loopback));
        assert_eq!(of("LOCALHOST."), Some(AddressKind::Loopback));
        assert_eq!(of("a.localhost"), Some(AddressKind::Loopback));
        assert_eq!(of("metadata.google.internal"), Some(AddressKind::CloudMetadata));
        assert_eq!(of("0x7f000001"), Some(AddressKind::Loopback));
        assert_eq!(of("[::ffff:127.0.0.1]"), Some(AddressKind::Loopback));
        assert_eq!(of("auth.example"), None);
        assert_eq!(of("localhost.example"), None);
    }

    /// Public addresses pass for any host; internal ones only on an approved host; metadata, unspecified,
    /// broadcast and multicast never, approved or not.
    #[test]
    fn the_approved_host_is_the_only_exception() {
        assert!(allows(kind("8.8.8.8"), false));
        for internal in ["127.0.0.1", "10.0.0.5", "169.254.1.1", "100.64.0.1", "fd12::1", "fe80::1", "::ffff:10.0.0.5"]
        {
            assert!(!allows(kind(internal), false), "{internal}");
            assert!(allows(kind(internal), true), "{internal}");
        }
        for never in ["169.254.169.254", "fd00:ec2::254", "0.0.0.0", "::", "255.255.255.255", "224.0.0.1", "ff02::1"] {
            assert!(!allows(kind(never), true), "{never}");
        }
    }

    /// Hosts compare as written, case and trailing dot aside, and across ports and schemes; `localhost` is not
    /// `127.0.0.1`, and `127.0.0.2` is not `127.0.0.1`.
    #[test]
    fn approved_hosts_compare_by_host_as_written() {
        let url = |s: &str| Url::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        let approved = ApprovedHosts::of(&url("http://127.0.0.1:3000/mcp")).and(&url("https://MCP.Example./x"));
        assert!(approved.contains(&url("https://127.0.0.1:9999/token").host().unwrap_or(Host::Domain(""))));
        assert!(approved.contains_name("mcp.example"));
        assert!(approved.contains_name("mcp.example."));
        assert!(!approved.contains(&Host::Ipv4(Ipv4Addr::new(127, 0, 0, 2))));
        assert!(!approved.contains_name("localhost"));
        assert!(!ApprovedHosts::none().contains_name("mcp.example"));
        assert_eq!(approved.to_string(), "127.0.0.1, mcp.example");
        assert_eq!(ApprovedHosts::none().to_string(), "none");
    }
}
