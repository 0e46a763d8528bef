//! The one registry of logins waiting for their redirect, keyed by `state`. Both receivers — the loopback listener
//! and the `plugboard://oauth/callback` deep link — hand it whatever arrived; it accepts only a well-formed callback
//! for a pending, unexpired flow, once. Anything can arrive here (any local process can open a deep link or hit the
//! loopback port), so nothing is trusted because it came.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tokio::sync::oneshot;
use url::Url;

use super::store::PENDING_STATE_TTL;

/// The longest callback URL accepted; real ones are a few hundred bytes.
pub const MAX_CALLBACK_LEN: usize = 8 * 1024;

/// Why a callback was turned away. The texts are fixed: nothing from the URL is echoed back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CallbackRejected {
    #[error("the callback URL is longer than {MAX_CALLBACK_LEN} bytes")]
    TooLong,
    #[error("the callback URL is malformed")]
    Malformed,
    #[error("the callback URL has a broken percent-encoding")]
    BadEncoding,
    #[error("the callback names the parameter `{0}` more than once")]
    Duplicate(&'static str),
    #[error("the callback has no `state`")]
    NoState,
    #[error("the callback has neither a `code` nor an `error`")]
    NoCode,
    #[error("no login is waiting for this callback (unknown, already used or cancelled)")]
    UnknownState,
    #[error("the login this callback belongs to has expired; start it again")]
    Expired,
    #[error("the callback comes from another authorization server than the one the login started with")]
    IssuerMismatch,
}

struct Pending {
    server: String,
    expires: Instant,
    expected_issuer: Option<String>,
    require_issuer: bool,
    deliver: oneshot::Sender<Url>,
}

/// What a flow waits on; dropping it withdraws the flow.
pub struct PendingFlow<'a> {
    flows: &'a PendingFlows,
    state: String,
    callback: oneshot::Receiver<Url>,
}

/// Why a flow got no callback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoCallback {
    TimedOut,
    /// The person cancelled the login ([`PendingFlows::cancel`]).
    Cancelled,
}

impl PendingFlow<'_> {
    /// The accepted callback URL; after `timeout`, or once cancelled, the flow is withdrawn.
    pub async fn callback(mut self, timeout: Duration) -> Result<Url, NoCallback> {
        match tokio::time::timeout(timeout, &mut self.callback).await {
            Ok(Ok(url)) => Ok(url),
            Ok(Err(_)) => Err(NoCallback::Cancelled),
            Err(_) => Err(NoCallback::TimedOut),
        }
    }
}

impl Drop for PendingFlow<'_> {
    fn drop(&mut self) {
        if let Ok(mut pending) = self.flows.pending.lock() {
            pending.remove(&self.state);
        }
    }
}

/// Logins waiting for their redirect.
#[derive(Default)]
pub struct PendingFlows {
    pending: Mutex<HashMap<String, Pending>>,
}

/// What a pending flow expects of its callback, taken from the authorization request.
#[derive(Debug, Clone, Default)]
pub struct Expectation {
    /// The authorization server's issuer, checked against `iss` (RFC 9207) when the callback carries one.
    pub issuer: Option<String>,
    /// The server advertised `authorization_response_iss_parameter_supported`: a callback without `iss` is refused.
    pub require_issuer: bool,
}

impl PendingFlows {
    pub fn new() -> Self {
        Self::default()
    }

    /// Waits for the callback of the login whose authorization request carried `state`.
    pub fn register(&self, state: &str, server: &str, expect: Expectation) -> PendingFlow<'_> {
        let (deliver, callback) = oneshot::channel();
        let pending = Pending {
            server: server.to_owned(),
            expires: Instant::now() + PENDING_STATE_TTL,
            expected_issuer: expect.issuer,
            require_issuer: expect.require_issuer,
            deliver,
        };
        if let Ok(mut all) = self.pending.lock() {
            all.insert(state.to_owned(), pending);
        }
        PendingFlow { flows: self, state: state.to_owned(), callback }
    }

    /// Cancels the logins waiting for `server`; returns whether there was one.
    pub fn cancel(&self, server: &str) -> bool {
        let Ok(mut all) = self.pending.lock() else { return false };
        let before = all.len();
        all.retain(|_, pending| pending.server != server);
        all.len() != before
    }

    /// Whether any login is waiting (a deep link with no login pending can be answered plainly).
    pub fn is_empty(&self) -> bool {
        self.pending.lock().map(|p| p.is_empty()).unwrap_or(true)
    }

    /// Hands `raw` (a full callback URL) to the login it belongs to and returns that login's server name. A
    /// rejected callback leaves every pending login as it was, except an expired one, which is dropped.
    pub fn deliver(&self, raw: &str) -> Result<String, CallbackRejected> {
        let callback = parse_callback(raw)?;
        let mut all = self.pending.lock().map_err(|_| CallbackRejected::UnknownState)?;
        let pending = all.get(&callback.state).ok_or(CallbackRejected::UnknownState)?;
        if pending.expires <= Instant::now() {
            all.remove(&callback.state);
            return Err(CallbackRejected::Expired);
        }
        match (&callback.iss, &pending.expected_issuer) {
            (Some(iss), Some(expected)) if iss != expected => return Err(CallbackRejected::IssuerMismatch),
            (None, Some(_)) if pending.require_issuer && callback.has_code => {
                return Err(CallbackRejected::IssuerMismatch);
            }
            _ => {}
        }
        let pending = all.remove(&callback.state).ok_or(CallbackRejected::UnknownState)?;
        let server = pending.server.clone();
        // The flow may have given up in the meantime; the callback was still the right one.
        let _ = pending.deliver.send(callback.url);
        Ok(server)
    }
}

struct Callback {
    url: Url,
    state: String,
    iss: Option<String>,
    has_code: bool,
}

/// Checks the shape of a callback URL: bounded size, clean percent-encoding, each parameter at most once, a state
/// and a code or an error.
fn parse_callback(raw: &str) -> Result<Callback, CallbackRejected> {
    if raw.len() > MAX_CALLBACK_LEN {
        return Err(CallbackRejected::TooLong);
    }
    let url = Url::parse(raw).map_err(|_| CallbackRejected::Malformed)?;
    let query = url.query().unwrap_or_default();
    if !percent_encoding_is_clean(query) {
        return Err(CallbackRejected::BadEncoding);
    }
    let mut seen: HashMap<&'static str, String> = HashMap::new();
    for (key, value) in url.query_pairs() {
        if value.contains(char::REPLACEMENT_CHARACTER) {
            return Err(CallbackRejected::BadEncoding);
        }
        let key: &'static str = match key.as_ref() {
            "state" => "state",
            "code" => "code",
            "iss" => "iss",
            "error" => "error",
            "error_description" => "error_description",
            _ => continue,
        };
        if seen.insert(key, value.into_owned()).is_some() {
            return Err(CallbackRejected::Duplicate(key));
        }
    }
    let state = seen.remove("state").filter(|s| !s.is_empty()).ok_or(CallbackRejected::NoState)?;
    let has_code = seen.contains_key("code");
    if !has_code && !seen.contains_key("error") {
        return Err(CallbackRejected::NoCode);
    }
    Ok(Callback { state, iss: seen.remove("iss"), has_code, url })
}

/// Every `%` starts a two-digit hex escape.
fn percent_encoding_is_clean(query: &str) -> bool {
    let bytes = query.as_bytes();
    bytes.iter().enumerate().all(|(i, b)| {
        *b != b'%'
            || (bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
    })
}

/// What the authorization server said went wrong, when the callback carries an `error`: the code and description
/// cut to a readable length, control and bidi characters dropped (shown as plain text).
pub fn callback_error(url: &Url) -> Option<String> {
    let mut error = None;
    let mut description = None;
    for (key, value) in url.query_pairs() {
        match key.as_ref() {
            "error" => error = Some(value.into_owned()),
            "error_description" => description = Some(value.into_owned()),
            _ => {}
        }
    }
    let error = printable(&error?);
    Some(match description.map(|d| printable(&d)).filter(|d| !d.is_empty()) {
        Some(description) => format!("the authorization server answered `{error}`: {description}"),
        None => format!("the authorization server answered `{error}`"),
    })
}

/// Server-supplied text made safe to show inside a message: control and bidi characters dropped, at most 200
/// characters. Both the redirect receivers and the flow's callback check use it.
pub(super) fn printable(text: &str) -> String {
    text.chars().filter(|c| !c.is_control() && !is_bidi_control(*c)).take(200).collect()
}

fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

#[cfg(test)]
#[path = "pending_tests.rs"]
mod tests;
