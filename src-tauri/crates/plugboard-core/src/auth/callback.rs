//! Whether the redirect that came back belongs to the login in progress: sent to our redirect URI, carrying exactly
//! one code and the `state` we sent, no authorization-server error, and (RFC 9207) the issuer we expect. Checked
//! before rmcp exchanges the code, and never quoting the code or the state in an error.

use url::Url;

use super::LoginError;
use super::pending::printable;

/// What the callback's `iss` parameter must be (RFC 9207).
#[derive(Debug, Clone, Default)]
pub struct IssuerExpectation {
    /// The issuer from the authorization server's metadata; `None` when it published none (then rmcp, which
    /// recorded the expectation with the state, is the one to judge an `iss` that arrives).
    pub issuer: Option<String>,
    /// The metadata says `authorization_response_iss_parameter_supported`: a callback without `iss` is refused.
    pub required: bool,
}

/// The value of the `state` parameter of the authorization URL we sent, which the callback must echo.
pub fn sent_state(authorization_url: &Url) -> Option<String> {
    authorization_url.query_pairs().find(|(k, _)| k == "state").map(|(_, v)| v.into_owned())
}

/// Checks `callback` against the login in progress.
pub fn check_callback(
    callback: &Url,
    redirect_uri: &str,
    expected_state: &str,
    issuer: &IssuerExpectation,
) -> Result<(), LoginError> {
    let reject = |why: &str| Err(LoginError::CallbackRejected(why.to_owned()));
    if let Ok(redirect) = Url::parse(redirect_uri)
        && (callback.scheme() != redirect.scheme()
            || callback.host_str() != redirect.host_str()
            || callback.port_or_known_default() != redirect.port_or_known_default()
            || callback.path() != redirect.path())
    {
        return reject("it was not sent to this login's redirect address");
    }
    let values = |name: &str| callback.query_pairs().filter(|(k, _)| k == name).map(|(_, v)| v).collect::<Vec<_>>();

    let states = values("state");
    match states.as_slice() {
        [state] if state == expected_state => {}
        [] => return reject("it carries no state"),
        [_] => return reject("its state does not match the login in progress"),
        _ => return reject("it carries more than one state"),
    }
    if let Some(said) = super::pending::callback_error(callback) {
        return Err(LoginError::Authorization(said));
    }
    match values("code").len() {
        1 => {}
        0 => return reject("it carries no authorization code"),
        _ => return reject("it carries more than one authorization code"),
    }

    let received = values("iss");
    match (received.as_slice(), issuer.issuer.as_deref()) {
        ([], _) if issuer.required => reject("the authorization server promised an `iss` parameter and sent none"),
        ([], _) | ([_], None) => Ok(()),
        ([iss], Some(expected)) if iss == expected => Ok(()),
        ([iss], Some(expected)) => Err(LoginError::CallbackRejected(format!(
            "it names the issuer `{}` instead of `{expected}` (RFC 9207)",
            printable(iss)
        ))),
        _ => reject("it carries more than one `iss`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REDIRECT: &str = "http://127.0.0.1:8123/callback";

    fn check(query: &str, issuer: &IssuerExpectation) -> Result<(), LoginError> {
        let callback = Url::parse(&format!("{REDIRECT}?{query}")).unwrap();
        check_callback(&callback, REDIRECT, "s1", issuer)
    }

    fn expecting(issuer: &str, required: bool) -> IssuerExpectation {
        IssuerExpectation { issuer: Some(issuer.into()), required }
    }

    /// The right state and code pass; a wrong, missing or duplicated state is refused without quoting it.
    #[test]
    fn state_must_match_exactly_once() {
        let none = IssuerExpectation::default();
        assert!(check("code=c1&state=s1", &none).is_ok());
        for query in ["code=c1&state=forged-state", "code=c1", "code=c1&state=s1&state=s1"] {
            let error = check(query, &none).unwrap_err();
            assert!(matches!(error, LoginError::CallbackRejected(_)), "{query}: {error}");
            assert!(!error.to_string().contains("forged-state") && !error.to_string().contains("c1"), "{error}");
        }
    }

    /// RFC 9207: a different `iss` is refused; a missing one only when the metadata promised it.
    #[test]
    fn issuer_is_checked() {
        let issuer = expecting("https://as.example", false);
        assert!(check("code=c1&state=s1&iss=https%3A%2F%2Fas.example", &issuer).is_ok());
        assert!(check("code=c1&state=s1", &issuer).is_ok());
        let error = check("code=c1&state=s1&iss=https%3A%2F%2Fevil.example", &issuer).unwrap_err();
        assert!(error.to_string().contains("evil.example"), "{error}");
        assert!(check("code=c1&state=s1", &expecting("https://as.example", true)).is_err());
    }

    /// An error from the authorization server is reported as text (markup stays inert text, control characters go).
    #[test]
    fn server_errors_are_reported_as_text() {
        let error = check(
            "error=access_denied&error_description=%3Cscript%3Ex%3C%2Fscript%3E%0A&state=s1",
            &expecting("x", false),
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            "authorization did not complete: the authorization server answered `access_denied`: <script>x</script>"
        );
    }

    /// A callback to another address (a forged redirect) is refused.
    #[test]
    fn callback_must_come_to_our_redirect() {
        let callback = Url::parse("http://127.0.0.1:9999/callback?code=c&state=s1").unwrap();
        assert!(check_callback(&callback, REDIRECT, "s1", &IssuerExpectation::default()).is_err());
        let callback = Url::parse("http://127.0.0.1:8123/other?code=c&state=s1").unwrap();
        assert!(check_callback(&callback, REDIRECT, "s1", &IssuerExpectation::default()).is_err());
    }
}
