//! rmcp's OAuth requests (metadata discovery, registration, token exchange and refresh) sent through the network
//! guard: an `AuthorizationManager` built here reaches the server's own host anywhere and every other host only on
//! a public address, checked after DNS and at every redirect hop. It must never hand rmcp an unguarded client.

use std::sync::Arc;

use futures::StreamExt;
use rmcp::transport::auth::{
    AuthError, AuthorizationManager, OAuthHttpClient, OAuthHttpClientError, OAuthHttpClientFuture,
    OAuthHttpRedirectPolicy, OAuthHttpRequest,
};
use url::Url;

use crate::net::{ApprovedHosts, GuardError, GuardedClient, Redirects};

/// The largest OAuth response read (metadata, registration, tokens are a few KiB); rmcp's own client has the same.
const MAX_RESPONSE_BYTES: usize = 1 << 20;

/// An authorization manager for the server at `url` whose every request passes the guard, `url`'s host being
/// the approved one. Takes what `AuthorizationManager::new` takes, so it replaces it one for one.
pub async fn authorization_manager(url: impl reqwest::IntoUrl) -> Result<AuthorizationManager, AuthError> {
    let url = url.into_url()?;
    let client = GuardedClient::new(ApprovedHosts::of(&url)).map_err(|e| AuthError::InternalError(e.to_string()))?;
    AuthorizationManager::new_with_oauth_http_client(url, Arc::new(GuardedOAuthClient(client))).await
}

/// The guarded client in the shape rmcp sends its OAuth requests through.
#[derive(Debug, Clone)]
pub(crate) struct GuardedOAuthClient(pub(crate) GuardedClient);

/// Why an OAuth request failed, for rmcp to put in its error: the guard's refusal itself where it was one (rmcp
/// shows only the top error's words, and reqwest's top words do not say why), else the HTTP failure.
#[derive(Debug, thiserror::Error)]
enum SendFailed {
    #[error(transparent)]
    Guard(#[from] GuardError),
    #[error(transparent)]
    Http(#[from] reqwest::Error),
    #[error("the OAuth response is larger than {MAX_RESPONSE_BYTES} bytes")]
    TooLarge,
    #[error("the OAuth request could not be built: {0}")]
    Build(String),
}

impl SendFailed {
    /// The refusal itself, not wrapped, so that callers find it by downcasting (`GuardError::found_in`).
    fn into_client_error(self) -> OAuthHttpClientError {
        match self {
            Self::Guard(refusal) => Box::new(refusal),
            Self::Http(error) => match GuardError::found_in(&error) {
                Some(refusal) => Box::new(refusal.clone()),
                None => Box::new(Self::Http(error)),
            },
            other => Box::new(other),
        }
    }
}

impl OAuthHttpClient for GuardedOAuthClient {
    fn execute(&self, request: OAuthHttpRequest) -> OAuthHttpClientFuture<'_> {
        Box::pin(async move { self.send(request).await.map_err(SendFailed::into_client_error) })
    }
}

impl GuardedOAuthClient {
    async fn send(&self, request: OAuthHttpRequest) -> Result<oauth2::HttpResponse, SendFailed> {
        let OAuthHttpRequest { request, redirect_policy, timeout, .. } = request;
        let (parts, body) = request.into_parts();
        let url = Url::parse(&parts.uri.to_string()).map_err(|e| SendFailed::Build(e.to_string()))?;
        let redirects = match redirect_policy {
            OAuthHttpRedirectPolicy::Follow => Redirects::Checked,
            // `Stop`, and whatever rmcp adds later: not following is the safe reading.
            _ => Redirects::Refused,
        };
        let mut builder = self.0.request(parts.method, url, redirects)?.headers(parts.headers).body(body);
        if let Some(timeout) = timeout {
            builder = builder.timeout(timeout);
        }
        let response = builder.send().await?;
        let mut answer = http::Response::builder().status(response.status()).version(response.version());
        for (name, value) in response.headers() {
            answer = answer.header(name, value);
        }
        let mut body = Vec::new();
        let mut chunks = response.bytes_stream();
        while let Some(chunk) = chunks.next().await {
            let chunk = chunk?;
            if body.len() + chunk.len() > MAX_RESPONSE_BYTES {
                return Err(SendFailed::TooLarge);
            }
            body.extend_from_slice(&chunk);
        }
        answer.body(body).map_err(|e| SendFailed::Build(e.to_string()))
    }
}
