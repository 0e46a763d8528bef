//! Why a login failed, in words a person can act on, with the step that failed.

/// A failed OAuth login. Never carries a token, code, verifier or state.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoginError {
    /// Discovering the protected resource or authorization server metadata failed.
    #[error("discovering how to log in to {url} failed: {reason}")]
    Discovery { url: String, reason: String },
    /// Registering Plugboard as a client failed.
    #[error("the authorization server refused to register Plugboard as a client: {0}")]
    Registration(String),
    /// The authorization server's metadata or URLs break a MUST of the spec; nothing was opened.
    #[error("refusing to log in: {0}")]
    Refused(String),
    /// The browser never came back, or came back with an error from the authorization server.
    #[error("authorization did not complete: {0}")]
    Authorization(String),
    /// Exchanging the code for tokens failed.
    #[error("exchanging the authorization code for a token failed: {0}")]
    TokenExchange(String),
    /// Reading or writing the keychain failed.
    #[error("the keychain could not store the login: {0}")]
    Store(String),
    /// The server is not configured for OAuth.
    #[error("{0} is not an OAuth server: give it an `oauth` section (or use headers / bearerTokenEnvVar)")]
    NotOAuth(String),
    /// Waited too long for the person to finish in the browser.
    #[error("no answer from the browser within {0} s; run the login again")]
    TimedOut(u64),
}
