//! The MUSTs of the MCP authorization spec that rmcp only warns about, checked on the discovered metadata before
//! anything is registered or opened: S256 PKCE advertised, https endpoints (loopback excepted), a well-formed issuer;
//! and rmcp's discovery errors turned into words (resource mismatch, issuer mismatch, a filtered private address,
//! the network guard's refusal).
//! A check here must never be skipped because the server asked for it.

use rmcp::transport::auth::{
    AuthError, AuthorizationMetadata, AuthorizationMetadataSource, ProtectedResourceMetadataInvalidReason,
};
use url::Url;

use super::LoginError;
use super::browser_url::browser_url;
use crate::net::{AddressKind, ApprovedHosts, GuardError, check_discovered_url};

/// Whether `url` points at this machine (`localhost`, `*.localhost`, 127.0.0.0/8, ::1): the one place plain http
/// is allowed, since nothing leaves the machine.
pub fn is_loopback(url: &Url) -> bool {
    url.host().as_ref().and_then(AddressKind::of_host) == Some(AddressKind::Loopback)
}

/// `raw` parsed, if it is https, or http on loopback; `endpoint` names it in the error.
pub fn secure_endpoint(endpoint: &'static str, raw: &str) -> Result<Url, LoginError> {
    let insecure = || LoginError::InsecureEndpoint { endpoint, url: raw.to_owned() };
    let url = Url::parse(raw).map_err(|_| insecure())?;
    match url.scheme() {
        "https" if url.host().is_some() => Ok(url),
        "http" if is_loopback(&url) => Ok(url),
        _ => Err(insecure()),
    }
}

/// Checks the authorization server's metadata before it is used. `source` says whether it was published (discovered)
/// or synthesised by rmcp's 2025-03-26 default-endpoint fallback, which has no metadata to hold to the PKCE rule.
pub fn check_metadata(
    metadata: &AuthorizationMetadata,
    source: AuthorizationMetadataSource,
    allow_missing_pkce_metadata: bool,
) -> Result<(), LoginError> {
    // The page the person is sent to: the opener rules first (their message is the more precise one), then https.
    browser_url(&metadata.authorization_endpoint)?;
    secure_endpoint("authorization endpoint", &metadata.authorization_endpoint)?;
    secure_endpoint("token endpoint", &metadata.token_endpoint)?;
    if let Some(registration) = &metadata.registration_endpoint {
        secure_endpoint("registration endpoint", registration)?;
    }
    check_client_credentials_metadata(metadata, source)?;
    if !source.is_discovered() {
        return Ok(());
    }
    let issuer = metadata.issuer.as_deref().unwrap_or_default();
    let methods = metadata.code_challenge_methods_supported.as_deref();
    match methods {
        Some(methods) if methods.iter().any(|m| m == "S256") => Ok(()),
        // Advertising only other methods (e.g. `plain`) is refused even with the override: it is not missing.
        Some(_) => Err(LoginError::Refused(format!(
            "the authorization server {issuer} supports PKCE only without S256, which the spec requires"
        ))),
        None if allow_missing_pkce_metadata => Ok(()),
        None => Err(LoginError::PkceNotAdvertised { issuer: issuer.to_owned() }),
    }
}

/// The checks that also hold for grants without a browser (client credentials, cross-app access): a published
/// issuer that is an https (or loopback) URL without query or fragment (RFC 8414 §2).
pub fn check_client_credentials_metadata(
    metadata: &AuthorizationMetadata,
    source: AuthorizationMetadataSource,
) -> Result<(), LoginError> {
    secure_endpoint("token endpoint", &metadata.token_endpoint)?;
    if !source.is_discovered() {
        return Ok(());
    }
    let Some(issuer) = metadata.issuer.as_deref() else {
        return Err(LoginError::Refused("the authorization server's metadata names no issuer".into()));
    };
    let url = secure_endpoint("issuer", issuer)?;
    if url.query().is_some() || url.fragment().is_some() {
        return Err(LoginError::Refused(format!("the issuer `{issuer}` has a query or fragment (RFC 8414 §2)")));
    }
    Ok(())
}

/// The endpoints Plugboard itself sends requests to (token, registration, revocation), held to the network guard
/// as soon as the metadata naming them is read, so one on a refused address stops the login before registration
/// or the browser. Only hosts known without DNS can be judged here; any other name is checked when resolved.
pub fn guard_endpoints(metadata: &AuthorizationMetadata, resource: &Url) -> Result<(), LoginError> {
    let approved = ApprovedHosts::of(resource);
    let revocation = metadata.additional_fields.get("revocation_endpoint").and_then(serde_json::Value::as_str);
    let endpoints = [Some(metadata.token_endpoint.as_str()), metadata.registration_endpoint.as_deref(), revocation];
    for endpoint in endpoints.into_iter().flatten().filter_map(|raw| Url::parse(raw).ok()) {
        check_discovered_url(&approved, &endpoint)?;
    }
    Ok(())
}

/// rmcp's discovery error for `url` in words, keeping the distinctions a person acts on.
pub fn discovery_error(url: &str, error: AuthError) -> LoginError {
    match error {
        AuthError::ProtectedResourceMetadataInvalid { reason, .. } => match *reason {
            ProtectedResourceMetadataInvalidReason::ResourceMismatch { permitted, .. } => {
                LoginError::ResourceMismatch { url: url.to_owned(), advertised: permitted.to_string() }
            }
            other => LoginError::Discovery { url: url.to_owned(), reason: other.to_string() },
        },
        AuthError::AuthorizationServerMismatch { expected_issuer, received_issuer } => {
            LoginError::IssuerMismatch { expected: expected_issuer, received: received_issuer }
        }
        AuthError::AuthorizationServersUnavailable { authorization_servers, .. } => {
            // A server the guard refused (rmcp reports only that none answered): its refusal is the reason.
            let approved = Url::parse(url).map(|base| ApprovedHosts::of(&base)).unwrap_or_default();
            let refused = authorization_servers
                .iter()
                .filter_map(|server| Url::parse(server).ok())
                .find_map(|server| check_discovered_url(&approved, &server).err());
            if let Some(refusal) = refused {
                return LoginError::NetworkGuard(refusal);
            }
            // The guard allowed them, so these are on the server's own host; rmcp still drops them.
            let private: Vec<&str> = authorization_servers
                .iter()
                .map(String::as_str)
                .filter(|s| Url::parse(s).is_ok_and(|u| rmcp_drops_host(&u)))
                .collect();
            if !private.is_empty() {
                LoginError::PrivateAuthorizationServer { url: url.to_owned(), servers: private.join(", ") }
            } else {
                LoginError::Discovery {
                    url: url.to_owned(),
                    reason: format!(
                        "none of the authorization servers it names ({}) published usable metadata",
                        authorization_servers.join(", ")
                    ),
                }
            }
        }
        AuthError::DiscoveryRequestFailed { url: failed, source } => {
            if let Some(refusal) = GuardError::found_in(source.as_ref()) {
                return LoginError::NetworkGuard(refusal.clone());
            }
            let mut reason = source.to_string();
            let mut next = source.source();
            while let Some(cause) = next {
                reason = format!("{reason}: {cause}");
                next = cause.source();
            }
            LoginError::Discovery { url: url.to_owned(), reason: format!("{failed}: {reason}") }
        }
        AuthError::PkceUnsupported => {
            LoginError::Refused("the authorization server does not support PKCE with S256".into())
        }
        other => LoginError::Discovery { url: url.to_owned(), reason: other.to_string() },
    }
}

/// Whether rmcp's own check of discovered host names drops an authorization server at `url` whatever Plugboard's
/// guard says: it reaches loopback for a loopback resource, but no private, link-local or other internal address
/// written in the metadata (its `new_allowing_private_addresses` would lift that, but only with rmcp's own client).
fn rmcp_drops_host(url: &Url) -> bool {
    url.host()
        .as_ref()
        .and_then(AddressKind::of_host)
        .is_some_and(|kind| !kind.is_public() && kind != AddressKind::Loopback)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metadata(authorization: &str, token: &str, pkce: Option<&[&str]>) -> AuthorizationMetadata {
        let mut json = serde_json::json!({
            "issuer": "https://as.example",
            "authorization_endpoint": authorization,
            "token_endpoint": token,
            "registration_endpoint": "https://as.example/register",
        });
        if let Some(methods) = pkce {
            json["code_challenge_methods_supported"] = serde_json::json!(methods);
        }
        serde_json::from_value(json).unwrap_or_default()
    }

    const DISCOVERED: AuthorizationMetadataSource = AuthorizationMetadataSource::AuthorizationServerMetadata;

    /// Metadata without S256 is refused unless the per-server override is set; `plain` only is refused even then.
    #[test]
    fn missing_s256_is_refused_unless_overridden() {
        let without = metadata("https://as.example/authorize", "https://as.example/token", None);
        assert!(matches!(check_metadata(&without, DISCOVERED, false), Err(LoginError::PkceNotAdvertised { .. })));
        assert!(check_metadata(&without, DISCOVERED, true).is_ok());
        let plain = metadata("https://as.example/authorize", "https://as.example/token", Some(&["plain"]));
        assert!(matches!(check_metadata(&plain, DISCOVERED, true), Err(LoginError::Refused(_))));
        let s256 = metadata("https://as.example/authorize", "https://as.example/token", Some(&["plain", "S256"]));
        assert!(check_metadata(&s256, DISCOVERED, false).is_ok());
    }

    /// A non-loopback http endpoint is refused; http on localhost, 127.0.0.1 and [::1] is allowed.
    #[test]
    fn http_only_on_loopback() {
        let s256 = Some(&["S256"][..]);
        let evil = metadata("http://evil.example/authorize", "https://as.example/token", s256);
        assert!(matches!(
            check_metadata(&evil, DISCOVERED, false),
            Err(LoginError::InsecureEndpoint { endpoint: "authorization endpoint", .. })
        ));
        let evil_token = metadata("https://as.example/authorize", "http://evil.example/token", s256);
        assert!(matches!(
            check_metadata(&evil_token, DISCOVERED, false),
            Err(LoginError::InsecureEndpoint { endpoint: "token endpoint", .. })
        ));
        for host in ["localhost:3000", "127.0.0.1:8080", "[::1]:9000"] {
            assert!(secure_endpoint("token endpoint", &format!("http://{host}/token")).is_ok(), "{host}");
        }
        assert!(secure_endpoint("token endpoint", "http://10.0.0.1/token").is_err());
    }

    /// Dangerous authorization endpoints are refused at the metadata stage, before registration or any opener.
    #[test]
    fn dangerous_authorization_endpoints_are_refused() {
        for endpoint in ["javascript:alert(1)", "file:///etc/passwd", "$(calc)", "data:text/html,x"] {
            let md = metadata(endpoint, "https://as.example/token", Some(&["S256"]));
            let error = check_metadata(&md, DISCOVERED, true);
            assert!(matches!(error, Err(LoginError::UnsafeAuthorizationUrl(_))), "{endpoint}: {error:?}");
        }
    }

    /// A discovered issuer must be present, https (or loopback) and free of query and fragment (RFC 8414 §2).
    #[test]
    fn issuer_must_be_well_formed() {
        let mut md = metadata("https://as.example/authorize", "https://as.example/token", Some(&["S256"]));
        for (issuer, ok) in [
            (Some("https://as.example/tenant"), true),
            (Some("http://127.0.0.1:9000"), true),
            (Some("http://as.example"), false),
            (Some("https://as.example?x=1"), false),
            (Some("https://as.example#frag"), false),
            (None, false),
        ] {
            md.issuer = issuer.map(Into::into);
            assert_eq!(check_metadata(&md, DISCOVERED, false).is_ok(), ok, "{issuer:?}");
        }
    }

    /// rmcp's resource and issuer mismatches become our words; an AS on a private address named by a public
    /// server is explained instead of rmcp's vague "unavailable".
    #[test]
    fn discovery_errors_are_explained() {
        let reference = Url::parse("https://mcp.example/mcp").unwrap_or_else(|e| panic!("{e}"));
        let permitted = Url::parse("https://evil.example/mcp").unwrap_or_else(|e| panic!("{e}"));
        let mismatch = AuthError::ProtectedResourceMetadataInvalid {
            url: reference.clone(),
            reason: Box::new(ProtectedResourceMetadataInvalidReason::ResourceMismatch { reference, permitted }),
        };
        assert!(matches!(discovery_error("https://mcp.example/mcp", mismatch), LoginError::ResourceMismatch { .. }));

        let issuer = AuthError::AuthorizationServerMismatch {
            expected_issuer: "https://as.example".into(),
            received_issuer: "https://evil.example".into(),
        };
        assert!(matches!(discovery_error("https://mcp.example/mcp", issuer), LoginError::IssuerMismatch { .. }));

        let unavailable = |servers: &[&str]| AuthError::AuthorizationServersUnavailable {
            resource_metadata_url: Url::parse("https://mcp.example/.well-known/oauth-protected-resource")
                .unwrap_or_else(|e| panic!("{e}")),
            authorization_servers: servers.iter().map(|s| (*s).to_owned()).collect(),
        };
        // An internal authorization server named by a public resource is the guard's refusal, in its words.
        for private in
            ["http://169.254.169.254", "http://127.0.0.1:6379", "http://[::ffff:127.0.0.1]", "http://10.1.2.3"]
        {
            let error = discovery_error("https://mcp.example/mcp", unavailable(&[private]));
            assert!(matches!(error, LoginError::NetworkGuard(_)), "{private}: {error}");
            assert!(error.to_string().contains("which Plugboard does not reach for a URL it discovered"), "{error}");
        }
        // On the resource's own private host the guard allows it, but rmcp does not reach it: said so.
        let own = discovery_error("http://10.1.2.3:8080/mcp", unavailable(&["http://10.1.2.3:9000"]));
        assert!(matches!(own, LoginError::PrivateAuthorizationServer { .. }), "{own}");
        let loopback = discovery_error("http://127.0.0.1:8080/mcp", unavailable(&["http://127.0.0.1:9000"]));
        assert!(matches!(loopback, LoginError::Discovery { .. }), "{loopback}");
        // The network guard's refusal (a public name resolving to a private address) is passed on in its words.
        let refusal = crate::net::GuardError::ForbiddenName {
            host: "sso.example".into(),
            address: std::net::Ipv4Addr::new(10, 0, 0, 5).into(),
            kind: AddressKind::Private,
            approved: "mcp.example".into(),
        };
        let resolved = AuthError::DiscoveryRequestFailed {
            url: Url::parse("https://sso.example/.well-known/oauth-authorization-server").unwrap(),
            source: Box::new(refusal.clone()),
        };
        let error = discovery_error("https://mcp.example/mcp", resolved);
        assert!(matches!(&error, LoginError::NetworkGuard(r) if *r == refusal), "{error}");
        assert!(error.to_string().contains("sso.example resolves to a private address (10.0.0.5)"), "{error}");
        let public = discovery_error("https://mcp.example/mcp", unavailable(&["https://as.example"]));
        assert!(matches!(public, LoginError::Discovery { .. }), "{public}");
    }

    /// Synthesised 2025-03-26 default endpoints have no metadata to hold to the PKCE or issuer rules, but their
    /// endpoints must still be https or loopback.
    #[test]
    fn legacy_default_endpoints_skip_only_the_metadata_rules() {
        let legacy = AuthorizationMetadataSource::LegacyEndpointFallback;
        let mut md = metadata("http://localhost:3000/authorize", "http://localhost:3000/token", None);
        md.issuer = None;
        md.registration_endpoint = None;
        assert!(check_metadata(&md, legacy, false).is_ok());
        md.token_endpoint = "http://evil.example/token".into();
        assert!(check_metadata(&md, legacy, false).is_err());
    }
}
