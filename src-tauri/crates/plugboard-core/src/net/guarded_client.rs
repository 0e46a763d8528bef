//! The HTTP client for URLs Plugboard discovers by itself (OAuth metadata, token, registration and revocation
//! endpoints): every connection it opens has passed [`super::guard`] for the address actually connected to. Names
//! are checked in the resolver hook, after DNS (so a name answering 169.254.169.254, or a rebinding answer, is
//! caught); IP literals, which reqwest connects to without resolving, before the request; every redirect hop in the
//! redirect policy, which also caps them. It must never fall back to an unguarded client, and never use a proxy:
//! through one, the only address it connects to is the proxy's, and the guard could not see where a request goes.

use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::{Method, RequestBuilder};
use url::Url;

use super::guard::{AddressKind, ApprovedHosts, allows};

/// Redirects followed before the client stops: OAuth endpoints redirect rarely and briefly.
pub const MAX_REDIRECTS: usize = 5;
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// A bound for any one request; callers may set a shorter one per request.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Why the guard refused a request. URLs are shown without their query or fragment: a redirect can echo what
/// was sent, and a query may carry a key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GuardError {
    /// A URL, or a redirect, names a host known without DNS (an IP literal, `localhost`, a metadata name) that
    /// discovered URLs may not reach.
    #[error(
        "{url} points to {kind} ({host}), which Plugboard does not reach for a URL it discovered by itself; only \
         the server's own host ({approved}) may point there"
    )]
    ForbiddenAddress { url: String, host: String, kind: AddressKind, approved: String },
    /// Every address a discovered host name resolved to is one discovered URLs may not reach.
    #[error(
        "{host} resolves to {kind} ({address}), which Plugboard does not reach for a URL it discovered by itself; \
         only the server's own host ({approved}) may point there"
    )]
    ForbiddenName { host: String, address: IpAddr, kind: AddressKind, approved: String },
    /// Not http or https.
    #[error("{url} is not an http(s) URL; Plugboard only follows those")]
    Scheme { url: String },
    /// The redirect chain went on past [`MAX_REDIRECTS`].
    #[error("{url} redirected more than {max} times; Plugboard stopped following")]
    TooManyRedirects { url: String, max: usize },
    /// The client itself could not be built (TLS set-up failed); nothing was sent.
    #[error("no guarded HTTP client could be built: {reason}")]
    ClientUnavailable { reason: String },
}

impl GuardError {
    /// Whether the guard refused the destination (rather than failing to start): retrying will not help.
    pub fn is_refusal(&self) -> bool {
        !matches!(self, Self::ClientUnavailable { .. })
    }

    /// The guard's refusal inside `error`'s chain of sources, if that is why a request failed (reqwest wraps what
    /// the resolver and the redirect policy return).
    pub fn found_in<'a>(error: &'a (dyn std::error::Error + 'static)) -> Option<&'a Self> {
        let mut next = Some(error);
        while let Some(current) = next {
            if let Some(refusal) = current.downcast_ref::<Self>() {
                return Some(refusal);
            }
            next = current.source();
        }
        None
    }
}

/// Whether the request may follow redirects (each hop checked) or must stop at the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Redirects {
    /// Follow up to [`MAX_REDIRECTS`], each hop guarded.
    Checked,
    /// Return the redirect response itself: for requests that carry a token or secret in their body, which a 307
    /// would send on to wherever it points.
    Refused,
}

/// A client for discovered URLs of one server. Cheap to clone.
#[derive(Clone)]
pub struct GuardedClient {
    following: reqwest::Client,
    stopping: reqwest::Client,
    approved: Arc<ApprovedHosts>,
}

impl std::fmt::Debug for GuardedClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GuardedClient").field("approved", &self.approved).finish_non_exhaustive()
    }
}

impl GuardedClient {
    /// A client for which `approved` are the hosts that may be on this machine or an internal network.
    pub fn new(approved: ApprovedHosts) -> Result<Self, GuardError> {
        Self::with_lookup(approved, Arc::new(SystemLookup))
    }

    /// [`Self::new`] over another name lookup than the system's: tests answer names with the addresses a hostile
    /// DNS server would.
    pub(crate) fn with_lookup(approved: ApprovedHosts, lookup: Arc<dyn Resolve>) -> Result<Self, GuardError> {
        let approved = Arc::new(approved);
        let resolver = Arc::new(GuardedResolver { approved: Arc::clone(&approved), lookup });
        let build = |redirects: reqwest::redirect::Policy| {
            reqwest::Client::builder()
                .no_proxy()
                .dns_resolver(Arc::clone(&resolver))
                .redirect(redirects)
                .connect_timeout(CONNECT_TIMEOUT)
                .timeout(REQUEST_TIMEOUT)
                .build()
                .map_err(|e| GuardError::ClientUnavailable { reason: e.to_string() })
        };
        let policy = Arc::clone(&approved);
        let checked = reqwest::redirect::Policy::custom(move |attempt| {
            // `previous` holds every URL visited so far, the first request's included.
            if attempt.previous().len() > MAX_REDIRECTS {
                let url = shown(attempt.url());
                return attempt.error(GuardError::TooManyRedirects { url, max: MAX_REDIRECTS });
            }
            match check_discovered_url(&policy, attempt.url()) {
                Ok(()) => attempt.follow(),
                Err(refusal) => attempt.error(refusal),
            }
        });
        Ok(Self {
            following: build(checked)?,
            stopping: build(reqwest::redirect::Policy::none())?,
            approved: Arc::clone(&approved),
        })
    }

    /// A request to `url`, refused here when its host is known without DNS and the guard does not allow it (any
    /// other name is checked when it is resolved).
    pub fn request(&self, method: Method, url: Url, redirects: Redirects) -> Result<RequestBuilder, GuardError> {
        check_discovered_url(&self.approved, &url)?;
        let client = match redirects {
            Redirects::Checked => &self.following,
            Redirects::Refused => &self.stopping,
        };
        Ok(client.request(method, url))
    }
}

/// The guard applied to a discovered URL before any connection: http(s) only, and a host known without DNS (an IP
/// literal, which reqwest connects to without resolving; `localhost`; a metadata name) must be allowed. Any other
/// name passes here and is checked by the resolver hook on the addresses it resolves to.
pub fn check_discovered_url(approved: &ApprovedHosts, url: &Url) -> Result<(), GuardError> {
    if !matches!(url.scheme(), "http" | "https") {
        return Err(GuardError::Scheme { url: shown(url) });
    }
    let Some(host) = url.host() else { return Err(GuardError::Scheme { url: shown(url) }) };
    match AddressKind::of_host(&host) {
        Some(kind) if !allows(kind, approved.contains(&host)) => Err(GuardError::ForbiddenAddress {
            url: shown(url),
            host: host.to_string(),
            kind,
            approved: approved.to_string(),
        }),
        _ => Ok(()),
    }
}

/// `url` without user info, query and fragment, for messages.
fn shown(url: &Url) -> String {
    let mut shown = url.clone();
    shown.set_query(None);
    shown.set_fragment(None);
    let _ = shown.set_username("");
    let _ = shown.set_password(None);
    shown.to_string()
}

/// The operating system's resolver (getaddrinfo, so /etc/hosts and the system's DNS settings apply).
struct SystemLookup;

impl Resolve for SystemLookup {
    fn resolve(&self, name: Name) -> Resolving {
        Box::pin(async move {
            let host = name.as_str().to_owned();
            // getaddrinfo blocks; port 0 because only the addresses are wanted (reqwest sets the port).
            let resolved = tokio::task::spawn_blocking(move || (host.as_str(), 0).to_socket_addrs()).await??;
            Ok(Box::new(resolved) as Addrs)
        })
    }
}

/// Resolves with `lookup`, then keeps only the answers the guard allows for that name: a name answering both a
/// public and a private address is connected to on the public one only.
struct GuardedResolver {
    approved: Arc<ApprovedHosts>,
    lookup: Arc<dyn Resolve>,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let (approved, lookup) = (Arc::clone(&self.approved), Arc::clone(&self.lookup));
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let resolved: Vec<SocketAddr> = lookup.resolve(name).await?.collect();
            let allowed = allowed_answers(&approved, &host, resolved)
                .map_err(|refusal| Box::new(refusal) as Box<dyn std::error::Error + Send + Sync>)?;
            Ok(Box::new(allowed.into_iter()) as Addrs)
        })
    }
}

/// The answers for `host` the guard allows; when it allows none of them, the refusal names the first.
fn allowed_answers(
    approved: &ApprovedHosts,
    host: &str,
    resolved: Vec<SocketAddr>,
) -> Result<Vec<SocketAddr>, GuardError> {
    let on_approved_host = approved.contains_name(host);
    let (allowed, refused): (Vec<SocketAddr>, Vec<SocketAddr>) =
        resolved.into_iter().partition(|addr| allows(AddressKind::of(addr.ip()), on_approved_host));
    match (allowed.is_empty(), refused.first()) {
        (true, Some(first)) => Err(GuardError::ForbiddenName {
            host: host.to_owned(),
            address: first.ip(),
            kind: AddressKind::of(first.ip()),
            approved: approved.to_string(),
        }),
        _ => Ok(allowed),
    }
}

#[cfg(test)]
#[path = "guarded_client_tests.rs"]
mod tests;
