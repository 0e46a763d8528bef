//! Logging in to and out of a server's OAuth, for every front end: the login runs the core flow with the front
//! end's way of showing the authorization page and then connects the server; a logout ends the running session
//! too, so "logged out" means no more authorized requests. It must never print or log a token.

use std::sync::Arc;

use super::{Engine, EngineError, blocking};
use crate::auth::{self, LoggedOut, LoginContext, LoginState, OpenUrl, Revocation};
use crate::net::pooled_http_client;
use crate::supervisor::SupervisorError;

impl Engine {
    /// Logs in to `name` (`open` shows the person the authorization page: a browser, a printed URL) and connects
    /// it once the tokens are in the keychain.
    pub async fn login_and_connect(&self, name: &str, open: &OpenUrl<'_>) -> Result<(), EngineError> {
        let config = self.config(name)?;
        let context = LoginContext {
            vault: Arc::clone(&self.vault),
            flows: Arc::clone(&self.flows),
            http: pooled_http_client(),
            open,
            timeout: auth::LOGIN_TIMEOUT,
        };
        auth::login_server(&config, context).await?;
        // A front end that runs no servers (a CLI command) has nothing to connect: the tokens are what it wanted.
        match self.supervisor.connect(name).await {
            Ok(()) | Err(SupervisorError::NotFound { .. }) => Ok(()),
            Err(other) => Err(other.into()),
        }
    }

    /// Forgets `name`'s login: an OAuth server's tokens are revoked where it offers that and always deleted; a
    /// server that no longer logs in with OAuth just has its stored login deleted. Its session is ended.
    pub async fn logout_and_disconnect(&self, name: &str) -> Result<LoggedOut, EngineError> {
        let oauth = self.config(name).ok().filter(|c| auth::oauth_target(c, &self.vault).is_ok());
        let outcome = match oauth {
            Some(config) => auth::logout_server(&config, Arc::clone(&self.vault)).await?,
            None => {
                let (vault, server) = (Arc::clone(&self.vault), name.to_owned());
                let had_login = blocking(move || auth::logout(&vault, &server)).await??;
                LoggedOut { had_login, revocation: Revocation::NotOffered }
            }
        };
        if let Revocation::Failed(why) = &outcome.revocation {
            tracing::warn!(server = name, %why, "logged out, but revoking the tokens failed");
        }
        // A server that is not running (or not configured any more) has no session to end.
        match self.supervisor.disconnect(name).await {
            Ok(()) | Err(SupervisorError::NotFound { .. }) => Ok(outcome),
            Err(other) => Err(other.into()),
        }
    }

    /// The login facts of `name` (issuer, scopes, expiry); `None` for a server that does not log in with OAuth.
    pub async fn login_state(&self, name: &str) -> Result<Option<LoginState>, EngineError> {
        let config = self.config(name)?;
        let vault = Arc::clone(&self.vault);
        match blocking(move || auth::login_state(&config, vault)).await? {
            Ok(facts) => Ok(Some(facts)),
            Err(auth::LoginError::NotOAuth(_)) => Ok(None),
            Err(other) => Err(other.into()),
        }
    }
}
