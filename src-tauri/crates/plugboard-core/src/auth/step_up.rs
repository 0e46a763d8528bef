//! Step-up authorization after a login: a request answered 403 `insufficient_scope` re-authorizes once with the
//! union of the granted and the demanded scopes, then is retried once. Plugboard keeps its own cap on authorization
//! attempts per session (the login counts as one), because rmcp resets its counter after every successful exchange
//! and a server that keeps demanding would otherwise send the person to the browser forever. The manager's lock is
//! never held while the person is in the browser.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use rmcp::ServiceError;
use rmcp::transport::auth::{AuthError, AuthorizationManager, WWWAuthenticateParams};
use tokio::sync::Mutex;
use url::Url;

use super::callback::IssuerExpectation;
use super::flow::{exchange, round_trip};
use super::{LoginError, UserAgent};

/// Authorization attempts allowed per session, the first login included.
pub const MAX_AUTHORIZATION_ATTEMPTS: u32 = 3;

/// The authorization of one connected session, shared with its transport (rmcp's `AuthClient` reads the token
/// from the same manager), and the attempts spent on it.
pub struct StepUp {
    manager: Arc<Mutex<AuthorizationManager>>,
    url: Url,
    redirect_uri: String,
    attempts: AtomicU32,
}

/// A request on an authorized session that failed: the server's answer, or the re-authorization it asked for.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AuthorizedCallError {
    /// Re-authorizing for more scope failed or was refused.
    #[error(transparent)]
    Login(#[from] LoginError),
    /// The request failed for another reason, or still failed after re-authorizing.
    #[error("request failed: {0}")]
    Service(#[from] ServiceError),
}

impl StepUp {
    /// Step-up for a session whose login (one attempt) just completed with `manager`.
    pub fn after_login(manager: Arc<Mutex<AuthorizationManager>>, url: Url, redirect_uri: impl Into<String>) -> Self {
        Self { manager, url, redirect_uri: redirect_uri.into(), attempts: AtomicU32::new(1) }
    }

    /// Authorization attempts made so far, the login included.
    pub fn attempts(&self) -> u32 {
        self.attempts.load(Ordering::Acquire)
    }

    /// Runs `request`; if the server answers 403 `insufficient_scope`, re-authorizes once for the demanded scopes
    /// and runs it once more.
    pub async fn call<T, F, Fut>(&self, agent: &dyn UserAgent, mut request: F) -> Result<T, AuthorizedCallError>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, ServiceError>>,
    {
        match request().await {
            Ok(value) => Ok(value),
            Err(error) => {
                let Some(challenge) = insufficient_scope(&error, &self.url) else { return Err(error.into()) };
                self.reauthorize(&challenge, agent).await?;
                match request().await {
                    Ok(value) => Ok(value),
                    Err(error) => match insufficient_scope(&error, &self.url) {
                        // Re-authorizing once more for the same demand would only loop.
                        Some(again) => {
                            let scope = WWWAuthenticateParams::parse(&again, &self.url).scope.unwrap_or_default();
                            Err(LoginError::ScopeStillInsufficient { scope }.into())
                        }
                        None => Err(error.into()),
                    },
                }
            }
        }
    }

    /// Re-authorizes for the scopes `challenge` (a 403's `WWW-Authenticate`) demands, within the attempt cap.
    pub async fn reauthorize(&self, challenge: &str, agent: &dyn UserAgent) -> Result<(), LoginError> {
        let params = WWWAuthenticateParams::parse(challenge, &self.url);
        let spent = self.attempts.fetch_add(1, Ordering::AcqRel);
        if spent >= MAX_AUTHORIZATION_ATTEMPTS {
            self.attempts.store(spent, Ordering::Release);
            return Err(LoginError::TooManyAttempts { attempts: spent });
        }
        let scope = params.scope.unwrap_or_default();
        // Released before the browser: the transport needs the manager for every request meanwhile.
        let authorization_url = self.manager.lock().await.request_scope_upgrade(&scope).await.map_err(|e| match e {
            AuthError::InvalidScope(why) => LoginError::Refused(why),
            other => LoginError::Authorization(other.to_string()),
        })?;
        // rmcp recorded the issuer it expects with the state and checks `iss` at the exchange.
        let callback = round_trip(agent, &authorization_url, &self.redirect_uri, &IssuerExpectation::default()).await?;
        exchange(&*self.manager.lock().await, &callback).await
    }
}

/// The `WWW-Authenticate` of a 403 `insufficient_scope` answer, if that is what `error` is.
pub fn insufficient_scope(error: &ServiceError, url: &Url) -> Option<String> {
    let challenge = error.auth_challenge()?;
    WWWAuthenticateParams::parse(challenge, url).is_insufficient_scope().then(|| challenge.to_owned())
}
