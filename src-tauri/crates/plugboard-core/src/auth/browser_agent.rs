//! The person's browser as the login's user agent: register the pending flow under the request's `state`, open the
//! authorization page, wait (bounded) for a redirect receiver to deliver the callback.

use std::time::Duration;

use futures::future::BoxFuture;
use url::Url;

use super::pending::{NoCallback, PendingFlows, callback_error};
use super::store::VolatileStateStore;
use super::{LoginError, UserAgent};

/// Opens a URL in the person's browser (the shell's opener; the CLI also prints it). An `Err` is shown, and the
/// login still waits: the person can open the printed URL by hand.
pub type OpenUrl<'a> = dyn Fn(&Url) -> Result<(), BrowserUnavailable> + Send + Sync + 'a;

/// Why the browser could not be opened (no graphical session, no opener program, a refused URL).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BrowserUnavailable(pub String);

/// A user agent that is a real browser.
pub struct BrowserAgent<'a> {
    pub server: &'a str,
    pub flows: &'a PendingFlows,
    /// The login's state store, to learn which issuer the callback must name.
    pub states: &'a VolatileStateStore,
    pub open: &'a OpenUrl<'a>,
    pub timeout: Duration,
}

impl UserAgent for BrowserAgent<'_> {
    fn authorize<'a>(&'a self, authorization_url: &'a Url) -> BoxFuture<'a, Result<Url, LoginError>> {
        Box::pin(async move {
            let state = authorization_url
                .query_pairs()
                .find(|(key, _)| key == "state")
                .map(|(_, value)| value.into_owned())
                .ok_or_else(|| LoginError::Refused("the authorization URL carries no `state`".into()))?;
            let flow = self.flows.register(&state, self.server, self.states.expectation(&state));
            if let Err(reason) = (self.open)(authorization_url) {
                tracing::warn!(server = self.server, %reason, "could not open the browser; waiting for the login anyway");
            }
            let callback = flow.callback(self.timeout).await.map_err(|why| match why {
                NoCallback::TimedOut => LoginError::TimedOut(self.timeout.as_secs()),
                NoCallback::Cancelled => LoginError::Cancelled,
            })?;
            match callback_error(&callback) {
                Some(said) => Err(LoginError::Authorization(said)),
                None => Ok(callback),
            }
        })
    }
}
