//! The HTTP client under rmcp's `AuthClient` for a login whose token is DPoP-bound (RFC 9449 §7): each request
//! presents the token as `Authorization: DPoP …` with a fresh proof of its method and URL, and a server's
//! `use_dpop_nonce` refusal is answered once with the nonce it supplied. Without an active binding it is the pooled
//! client as it is. It must never send the token as a bearer token once bound, nor reuse a proof.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use futures::stream::BoxStream;
use reqwest::header::{ACCEPT, AUTHORIZATION, HeaderName, HeaderValue};
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::auth::AuthError;
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse, StreamableHttpResponseLimits,
};
use sse_stream::Sse;

use crate::auth::dpop::{Dpop, asks_for_nonce};

type Failure = StreamableHttpError<reqwest::Error>;
type Events = BoxStream<'static, Result<Sse, SseError>>;

/// The pooled client, presenting a bound token with proofs while `dpop` is active.
#[derive(Clone)]
pub(crate) struct DpopHttp {
    http: reqwest::Client,
    dpop: Option<Arc<Dpop>>,
}

impl DpopHttp {
    pub(crate) fn new(http: reqwest::Client, dpop: Option<Arc<Dpop>>) -> Self {
        Self { http, dpop }
    }

    /// The binding and the token, when this request's token is to be presented with a proof.
    fn bound<'a>(&'a self, token: &'a Option<String>) -> Option<(&'a Dpop, &'a str)> {
        let dpop = self.dpop.as_deref().filter(|dpop| dpop.is_active())?;
        Some((dpop, token.as_deref()?))
    }

    /// `headers` with the token and a fresh proof for `method` on `uri`.
    fn signed(
        dpop: &Dpop,
        method: &str,
        uri: &str,
        token: &str,
        mut headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<HashMap<HeaderName, HeaderValue>, Failure> {
        let proof = dpop
            .proof_for(method, uri, Some(token))
            .map_err(|e| Failure::from(AuthError::InternalError(e.to_string())))?;
        let invalid = |_| Failure::from(AuthError::InternalError("the token cannot be sent in a header".into()));
        let mut authorization = HeaderValue::from_str(&format!("DPoP {token}")).map_err(invalid)?;
        authorization.set_sensitive(true);
        headers.insert(AUTHORIZATION, authorization);
        headers.insert(HeaderName::from_static("dpop"), HeaderValue::from_str(&proof).map_err(invalid)?);
        Ok(headers)
    }

    /// After a `use_dpop_nonce` refusal: learns the nonce the server supplies and says whether it is new. rmcp keeps
    /// only the `WWW-Authenticate` header of a refusal, not its `DPoP-Nonce`, so a ping is sent with the same
    /// credentials to read it: refused the same way before the server reads it, and harmless if the server answers.
    async fn learn_nonce(
        &self,
        dpop: &Dpop,
        uri: &str,
        token: &str,
        session_id: Option<&str>,
        headers: &HashMap<HeaderName, HeaderValue>,
    ) -> bool {
        let Ok(headers) = Self::signed(dpop, "POST", uri, token, headers.clone()) else { return false };
        let ping = serde_json::json!({"jsonrpc": "2.0", "id": "plugboard-dpop-nonce", "method": "ping"});
        let mut request =
            self.http.post(uri).header(ACCEPT, "application/json, text/event-stream").timeout(Duration::from_secs(15));
        for (name, value) in headers {
            request = request.header(name, value);
        }
        if let Some(session_id) = session_id {
            request = request.header("Mcp-Session-Id", session_id);
        }
        let Ok(response) = request.json(&ping).send().await else { return false };
        let nonce = response.headers().get("dpop-nonce").and_then(|v| v.to_str().ok());
        nonce.is_some_and(|nonce| dpop.learn_nonce(uri, nonce))
    }
}

/// Whether `result` is a refusal asking for a DPoP nonce.
fn wants_nonce<T>(result: &Result<T, Failure>) -> bool {
    matches!(result, Err(StreamableHttpError::AuthRequired(refusal)) if asks_for_nonce(&refusal.www_authenticate_header))
}

impl StreamableHttpClient for DpopHttp {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, Failure> {
        let limits = StreamableHttpResponseLimits::default();
        self.post_message_with_response_limits(uri, message, session_id, auth_token, custom_headers, limits).await
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<StreamableHttpPostResponse, Failure> {
        let mut limits = StreamableHttpResponseLimits::default();
        limits.max_sse_event_size = max_sse_event_size;
        self.post_message_with_response_limits(uri, message, session_id, auth_token, custom_headers, limits).await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, Failure> {
        let Some((dpop, token)) = self.bound(&auth_token) else {
            return self
                .http
                .post_message_with_response_limits(uri, message, session_id, auth_token, custom_headers, limits)
                .await;
        };
        let headers = Self::signed(dpop, "POST", &uri, token, custom_headers.clone())?;
        let sent = self
            .http
            .post_message_with_response_limits(uri.clone(), message.clone(), session_id.clone(), None, headers, limits)
            .await;
        if !wants_nonce(&sent) || !self.learn_nonce(dpop, &uri, token, session_id.as_deref(), &custom_headers).await {
            return sent;
        }
        let headers = Self::signed(dpop, "POST", &uri, token, custom_headers)?;
        self.http.post_message_with_response_limits(uri, message, session_id, None, headers, limits).await
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), Failure> {
        match self.bound(&auth_token) {
            Some((dpop, token)) => {
                let headers = Self::signed(dpop, "DELETE", &uri, token, custom_headers)?;
                self.http.delete_session(uri, session_id, None, headers).await
            }
            None => self.http.delete_session(uri, session_id, auth_token, custom_headers).await,
        }
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<Events, Failure> {
        let limit = StreamableHttpResponseLimits::default().max_sse_event_size;
        self.get_stream_with_max_sse_event_size(uri, session_id, last_event_id, auth_token, custom_headers, limit).await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<Events, Failure> {
        let Some((dpop, token)) = self.bound(&auth_token) else {
            return self
                .http
                .get_stream_with_max_sse_event_size(
                    uri,
                    session_id,
                    last_event_id,
                    auth_token,
                    custom_headers,
                    max_sse_event_size,
                )
                .await;
        };
        let open = |headers| {
            self.http.get_stream_with_max_sse_event_size(
                uri.clone(),
                session_id.clone(),
                last_event_id.clone(),
                None,
                headers,
                max_sse_event_size,
            )
        };
        let opened = open(Self::signed(dpop, "GET", &uri, token, custom_headers.clone())?).await;
        if !wants_nonce(&opened) || !self.learn_nonce(dpop, &uri, token, session_id.as_deref(), &custom_headers).await {
            return opened;
        }
        open(Self::signed(dpop, "GET", &uri, token, custom_headers)?).await
    }
}
