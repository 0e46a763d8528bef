//! rmcp's OAuth requests (metadata discovery, registration, token exchange and refresh) sent through the network
//! guard: an `AuthorizationManager` built here reaches the server's own host anywhere and every other host only on
//! a public address, checked after DNS and at every redirect hop. A login bound to a DPoP key signs each token
//! request with it and answers an authorization server's nonce (`dpop.rs`). It must never hand rmcp an unguarded
//! client.

use std::sync::Arc;

use futures::StreamExt;
use rmcp::transport::auth::{
    AuthError, AuthorizationManager, OAuthHttpClient, OAuthHttpClientError, OAuthHttpClientFuture,
    OAuthHttpRedirectPolicy, OAuthHttpRequest,
};
use url::Url;

use super::dpop::{Dpop, DpopKeyError, asks_for_nonce};
use crate::net::{ApprovedHosts, GuardError, GuardedClient, Redirects};

/// The largest OAuth response read (metadata, registration, tokens are a few KiB); rmcp's own client has the same.
const MAX_RESPONSE_BYTES: usize = 1 << 20;

/// An authorization manager for the server at `url` whose every request passes the guard, `url`'s host being
/// the approved one. Takes what `AuthorizationManager::new` takes, so it replaces it one for one.
pub async fn authorization_manager(url: impl reqwest::IntoUrl) -> Result<AuthorizationManager, AuthError> {
    authorization_manager_with(url, None).await
}

/// The same, its token requests proving possession of `dpop`'s key while that is active.
pub async fn authorization_manager_with(
    url: impl reqwest::IntoUrl,
    dpop: Option<Arc<Dpop>>,
) -> Result<AuthorizationManager, AuthError> {
    let url = url.into_url()?;
    let client = GuardedClient::new(ApprovedHosts::of(&url)).map_err(|e| AuthError::InternalError(e.to_string()))?;
    let client = GuardedOAuthClient { guarded: client, dpop };
    AuthorizationManager::new_with_oauth_http_client(url, Arc::new(client)).await
}

/// The guarded client in the shape rmcp sends its OAuth requests through.
#[derive(Debug, Clone)]
pub(crate) struct GuardedOAuthClient {
    guarded: GuardedClient,
    dpop: Option<Arc<Dpop>>,
}

impl From<GuardedClient> for GuardedOAuthClient {
    fn from(guarded: GuardedClient) -> Self {
        Self { guarded, dpop: None }
    }
}

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
    #[error(transparent)]
    Proof(#[from] DpopKeyError),
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
        let dpop = self.dpop.as_deref().filter(|dpop| dpop.is_active() && is_token_request(&parts.method, &body));
        let Some(dpop) = dpop else {
            return self.send_once(&parts, body, &url, redirects, timeout, None).await;
        };
        let proof = dpop.proof_for(parts.method.as_str(), url.as_str(), None)?;
        let answer = self.send_once(&parts, body.clone(), &url, redirects, timeout, Some(proof)).await?;
        // RFC 9449 §8: a nonce supplied with a `use_dpop_nonce` error is worth one more try with it.
        let supplied = answer.headers().get("dpop-nonce").and_then(|v| v.to_str().ok()).map(str::to_owned);
        let retry = supplied.is_some_and(|nonce| dpop.learn_nonce(url.as_str(), &nonce))
            && answer.status() == http::StatusCode::BAD_REQUEST
            && asks_for_nonce(&String::from_utf8_lossy(answer.body()));
        if !retry {
            return Ok(answer);
        }
        let proof = dpop.proof_for(parts.method.as_str(), url.as_str(), None)?;
        self.send_once(&parts, body, &url, redirects, timeout, Some(proof)).await
    }

    async fn send_once(
        &self,
        parts: &http::request::Parts,
        body: Vec<u8>,
        url: &Url,
        redirects: Redirects,
        timeout: Option<std::time::Duration>,
        proof: Option<String>,
    ) -> Result<oauth2::HttpResponse, SendFailed> {
        let mut builder = self
            .guarded
            .request(parts.method.clone(), url.clone(), redirects)?
            .headers(parts.headers.clone())
            .body(body);
        if let Some(proof) = proof {
            builder = builder.header("DPoP", proof);
        }
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

/// Whether rmcp is asking for a token (a form with a `grant_type`): only those carry a proof, not discovery or
/// registration.
fn is_token_request(method: &http::Method, body: &[u8]) -> bool {
    method == http::Method::POST && url::form_urlencoded::parse(body).any(|(name, _)| name == "grant_type")
}
