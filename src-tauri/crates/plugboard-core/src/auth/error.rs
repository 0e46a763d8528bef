//! Why a login failed, in words a person can act on, with the step that failed. A message here must never carry a
//! token, authorization code, PKCE verifier, client secret or `state`: [`scrub`] removes known secrets from text
//! that came from elsewhere (rmcp, the authorization server) before it is put into one.

/// A failed OAuth login. Never carries a token, code, verifier or state.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoginError {
    /// Discovering the protected resource or authorization server metadata failed.
    #[error("discovering how to log in to {url} failed: {reason}")]
    Discovery { url: String, reason: String },
    /// The server's protected-resource metadata describes another resource (RFC 9728 §3.3): its tokens would be
    /// for someone else, or ours would be sent to someone else.
    #[error(
        "refusing to log in: the server at {url} publishes metadata for a different resource ({advertised}); a token \
         for it must not be used here"
    )]
    ResourceMismatch { url: String, advertised: String },
    /// The authorization server's metadata names another issuer than the one it was found under (RFC 8414 §3.3).
    #[error("refusing to log in: the authorization server says it is `{received}` but was found as `{expected}`")]
    IssuerMismatch { expected: String, received: String },
    /// The authorization server does not advertise PKCE with S256; the spec says to refuse.
    #[error(
        "refusing to log in: the authorization server {issuer} does not list S256 in code_challenge_methods_supported, \
         so it may ignore PKCE; if you trust it, allow missing PKCE metadata for this server (allowMissingPkceMetadata)"
    )]
    PkceNotAdvertised { issuer: String },
    /// An authorization-server endpoint is plain http on a non-loopback host.
    #[error("refusing to log in: the {endpoint} `{url}` is not https (only loopback addresses may use http)")]
    InsecureEndpoint { endpoint: &'static str, url: String },
    /// The authorization URL is not something a browser may be given (CVE-2025-6514 class).
    #[error("refusing to open the authorization page: {0}")]
    UnsafeAuthorizationUrl(String),
    /// rmcp's own check of discovered host names dropped the authorization servers the resource named, although
    /// they are on the server's own host: rmcp reaches no private or link-local authorization server.
    #[error(
        "cannot contact the authorization server {servers} named by {url}: it is on a private or link-local \
         address, which the OAuth library Plugboard uses does not reach, even on the MCP server's own host"
    )]
    PrivateAuthorizationServer { url: String, servers: String },
    /// The network guard refused a URL the server or its authorization server named (after DNS, or at a
    /// redirect); nothing was sent there.
    #[error("refusing to log in: {0}")]
    NetworkGuard(#[from] crate::net::GuardError),
    /// Registering Plugboard as a client failed.
    #[error("the authorization server refused to register Plugboard as a client: {0}")]
    Registration(String),
    /// The authorization server's metadata or URLs break a MUST of the spec; nothing was opened.
    #[error("refusing to log in: {0}")]
    Refused(String),
    /// The browser never came back, or came back with an error from the authorization server.
    #[error("authorization did not complete: {0}")]
    Authorization(String),
    /// The redirect that came back does not belong to this login (state, issuer or address differ).
    #[error("ignoring the authorization callback: {0}")]
    CallbackRejected(String),
    /// Exchanging the code for tokens failed.
    #[error("exchanging the authorization code for a token failed: {0}")]
    TokenExchange(String),
    /// The client-credentials or cross-app token request failed.
    #[error("getting a token without a browser failed: {0}")]
    Grant(String),
    /// The server kept asking for more authorization: Plugboard stops after a fixed number of attempts.
    #[error("the server still refuses after {attempts} authorization attempts; stopping instead of asking again")]
    TooManyAttempts { attempts: u32 },
    /// The server still answers 403 `insufficient_scope` after Plugboard re-authorized for the scopes it asked for.
    #[error("the server still refuses with insufficient_scope after re-authorizing for `{scope}`")]
    ScopeStillInsufficient { scope: String },
    /// Reading or writing the keychain failed.
    #[error("the keychain could not store the login: {0}")]
    Store(String),
    /// The person cancelled the login.
    #[error("the login was cancelled")]
    Cancelled,
    /// The server is not configured for OAuth.
    #[error("{0} does not log in with OAuth: only a URL server without headers or bearerTokenEnvVar can")]
    NotOAuth(String),
    /// Waited too long for the person to finish in the browser.
    #[error("no answer from the browser within {0} s; run the login again")]
    TimedOut(u64),
}

impl LoginError {
    /// Whether Plugboard refused on its own because the server or its metadata breaks a rule (nothing was opened,
    /// retrying will not help until the server changes or the person changes the server's settings).
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            Self::ResourceMismatch { .. }
                | Self::IssuerMismatch { .. }
                | Self::PkceNotAdvertised { .. }
                | Self::InsecureEndpoint { .. }
                | Self::UnsafeAuthorizationUrl(_)
                | Self::PrivateAuthorizationServer { .. }
                | Self::Refused(_)
        ) || matches!(self, Self::NetworkGuard(refusal) if refusal.is_refusal())
    }
}

/// `text` with every occurrence of each non-empty secret replaced by `[redacted]`: for messages built from rmcp's
/// or a server's words, which may quote what they were sent.
pub(crate) fn scrub(text: &str, secrets: &[&str]) -> String {
    secrets
        .iter()
        .filter(|secret| secret.len() >= 4)
        .fold(text.to_owned(), |text, secret| text.replace(secret, "[redacted]"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A secret quoted inside a message is replaced, and short fragments are left alone rather than mangling words.
    #[test]
    fn scrub_removes_known_secrets() {
        let text = "invalid_grant: code abc123secret for state xyz789state is unknown";
        let scrubbed = scrub(text, &["abc123secret", "xyz789state", "ab", ""]);
        assert_eq!(scrubbed, "invalid_grant: code [redacted] for state [redacted] is unknown");
    }

    /// The PKCE refusal names the override, so a person who trusts the server knows what to change.
    #[test]
    fn pkce_refusal_names_the_override() {
        let error = LoginError::PkceNotAdvertised { issuer: "https://as.example".into() };
        assert!(error.to_string().contains("allowMissingPkceMetadata"), "{error}");
        assert!(error.is_refusal());
    }
}
