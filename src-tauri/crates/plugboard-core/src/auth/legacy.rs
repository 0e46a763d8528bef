//! The 2025-03-26 revision's discovery, for servers that still follow it: no protected-resource metadata, and the
//! authorization server's metadata at the root of the MCP server's origin, whose `issuer` need not be that origin
//! (RFC 8414's strict comparison, which rmcp applies, fails there). Used only after rmcp reported an issuer
//! mismatch, only when the server publishes no protected-resource metadata at all (the mark of that revision), and
//! only for an issuer on the server's own origin. It must never stand in for a failed resource check. Its requests
//! go to the server's own origin, through the network guard like every OAuth request, without following redirects.

use std::time::Duration;

use rmcp::transport::auth::{AuthorizationMetadata, WWWAuthenticateParams};
use url::Url;

use super::LoginError;
use crate::net::{ApprovedHosts, GuardError, GuardedClient, Redirects};

/// How long each of the few legacy discovery requests may take.
const TIMEOUT: Duration = Duration::from_secs(10);

/// Whether the server at `url` looks like a 2025-03-26 server: its challenge names no `resource_metadata` and
/// neither well-known protected-resource location answers.
pub async fn is_legacy_server(url: &Url, challenge: Option<&str>) -> bool {
    if challenge.is_some_and(|c| WWWAuthenticateParams::parse(c, url).resource_metadata_url.is_some()) {
        return false;
    }
    let Ok(http) = GuardedClient::new(ApprovedHosts::of(url)) else { return false };
    let path = url.path().trim_end_matches('/');
    let mut candidates = vec![format!("/.well-known/oauth-protected-resource{path}")];
    if !path.is_empty() {
        candidates.push("/.well-known/oauth-protected-resource".to_owned());
    }
    for candidate in candidates {
        let mut probe = url.clone();
        probe.set_path(&candidate);
        probe.set_query(None);
        probe.set_fragment(None);
        let Ok(request) = http.request(reqwest::Method::GET, probe, Redirects::Refused) else { return false };
        match request.timeout(TIMEOUT).send().await {
            Ok(response) if response.status().is_success() => return false,
            Ok(_) => {}
            // Unreachable is no evidence of the old revision.
            Err(_) => return false,
        }
    }
    true
}

/// The authorization server metadata at the root of `url`'s origin, if its issuer is on that origin.
pub async fn legacy_metadata(url: &Url) -> Result<AuthorizationMetadata, LoginError> {
    let discovery = |reason: String| LoginError::Discovery { url: url.to_string(), reason };
    let mut well_known = url.clone();
    well_known.set_path("/.well-known/oauth-authorization-server");
    well_known.set_query(None);
    well_known.set_fragment(None);
    let response = GuardedClient::new(ApprovedHosts::of(url))
        .and_then(|http| http.request(reqwest::Method::GET, well_known.clone(), Redirects::Refused))
        .map_err(|e| discovery(e.to_string()))?
        .timeout(TIMEOUT)
        .send()
        .await
        .map_err(|e| match GuardError::found_in(&e) {
            Some(refused) => discovery(refused.to_string()),
            None => discovery(format!("{well_known}: {e}")),
        })?;
    if !response.status().is_success() {
        return Err(discovery(format!("{well_known} answered {}", response.status())));
    }
    let metadata: AuthorizationMetadata = response
        .json()
        .await
        .map_err(|e| discovery(format!("{well_known} is not authorization server metadata: {e}")))?;
    let issuer = metadata.issuer.as_deref().unwrap_or_default();
    let same_origin = Url::parse(issuer).is_ok_and(|i| i.origin() == url.origin());
    if !same_origin {
        return Err(LoginError::IssuerMismatch {
            expected: url.origin().ascii_serialization(),
            received: issuer.into(),
        });
    }
    Ok(metadata)
}
