//! OAuth 2.1 login to remote servers over rmcp's `AuthorizationManager`: discovery, registration, PKCE and refresh
//! are rmcp's; Plugboard supplies the keychain stores, the redirect receivers and the strictness the spec demands.
//! Nothing here may log or write a token, authorization code, PKCE verifier or `state` in plaintext.

mod browser_agent;
mod browser_url;
pub mod callback;
pub mod client_credentials;
pub mod cross_app;
pub mod demanded_scopes;
mod detect;
pub mod dpop;
mod error;
pub mod flow;
#[cfg(test)]
mod guard_tests;
mod kept_token;
mod legacy;
mod login_server;
mod login_state;
mod login_tokens;
pub mod loopback;
mod machine;
pub mod metadata_checks;
mod oauth_http;
pub mod pending;
mod refresh;
#[cfg(test)]
mod registration_tests;
mod revoke;
pub mod step_up;
pub mod store;
#[cfg(test)]
mod tests;
pub mod workload_identity;

pub use browser_agent::{BrowserAgent, BrowserUnavailable, OpenUrl};
pub use browser_url::browser_url;
pub use client_credentials::{
    ClientCredential, ClientCredentialsRequest, JwtSigningAlgorithm, login_client_credentials,
};
pub use cross_app::{CrossAppRequest, IdentityProvider, login_cross_app};
pub use detect::publishes_resource_metadata;
pub use error::LoginError;
pub use flow::{LoginRequest, login};
pub use login_server::{
    DEEP_LINK_REDIRECT, LOGIN_TIMEOUT, LoginContext, login_hint, login_server, logout, oauth_target,
};
pub use login_state::{LoginState, login_state};
pub use login_tokens::{ACCESS_TOKEN, REFRESH_TOKEN, login_tokens};
pub use loopback::LoopbackReceiver;
pub use machine::{has_live_token, is_machine_grant, login_machine, signing_algorithm_named};
pub use oauth_http::{authorization_manager, authorization_manager_with};
pub use pending::{CallbackRejected, Expectation, NoCallback, PendingFlows, callback_error};
pub use revoke::{LoggedOut, Revocation, logout_server, revoke};
pub use step_up::{AuthorizedCallError, MAX_AUTHORIZATION_ATTEMPTS, StepUp};
pub use store::{CLIENT_SECRET_SECRET, VaultCredentialStore, VolatileStateStore};
pub use workload_identity::{WorkloadIdentityRequest, login_workload_identity};

use futures::future::BoxFuture;
use url::Url;

/// Takes the person (or a test) to the authorization page and brings back the redirect the authorization server
/// sent: the real app opens the browser and waits on a redirect receiver; the conformance client follows the
/// redirect itself.
pub trait UserAgent: Send + Sync {
    /// Visits `authorization_url` and returns the full callback URL (`…?code=…&state=…`) that came back.
    fn authorize<'a>(&'a self, authorization_url: &'a Url) -> BoxFuture<'a, Result<Url, LoginError>>;
}
