//! What every request to the gateway's HTTP endpoint must pass before any MCP is read: a Host naming this endpoint
//! (421, against DNS rebinding), no Origin but an allowed one (403, against web pages), a body within the limit (413)
//! and the bearer token (401). Pure: headers in, a refusal with its status and a sentence out. It must never let a
//! request through on a header it could not read, and never echo a token back.

use http::{HeaderMap, StatusCode, header};

use super::token::TokenDigest;

/// The largest request body the endpoint reads (tool arguments included): 4 MiB.
pub const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// Why a request was turned away, as the client is told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub status: StatusCode,
    pub message: String,
}

impl Refusal {
    fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self { status, message: message.into() }
    }
}

/// What the endpoint accepts, besides the token.
#[derive(Debug, Clone)]
pub struct Admission {
    /// The `Host` values a request may carry: this endpoint's loopback names with its port.
    hosts: Vec<String>,
    /// The endpoint's own origins (it serves no page, so only it could send them) and the browser origins the person
    /// explicitly allowed (`scheme://host:port`): none by default.
    origins: Vec<String>,
}

impl Admission {
    /// What an endpoint listening on `port` of the loopback interface accepts.
    pub fn new(port: u16, allowed_origins: &[String]) -> Self {
        let hosts: Vec<String> =
            ["127.0.0.1", "localhost", "[::1]"].iter().map(|host| format!("{host}:{port}")).collect();
        let own = hosts.iter().map(|host| format!("http://{host}"));
        let allowed = allowed_origins.iter().map(|origin| origin.trim_end_matches('/').to_ascii_lowercase());
        Self { origins: own.chain(allowed).collect(), hosts }
    }

    /// The `Host` values accepted, for rmcp's own check behind this one.
    pub fn hosts(&self) -> &[String] {
        &self.hosts
    }

    pub fn origins(&self) -> &[String] {
        &self.origins
    }

    /// Host, Origin and size, in that order; then the token, whose digest is returned for the session binding.
    pub fn check(&self, headers: &HeaderMap, token: Option<&TokenDigest>) -> Result<TokenDigest, Refusal> {
        self.check_host(headers)?;
        self.check_origin(headers)?;
        check_size(headers)?;
        check_token(headers, token)
    }

    fn check_host(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        let host = headers.get(header::HOST).and_then(|value| value.to_str().ok()).map(str::to_ascii_lowercase);
        match host {
            Some(host) if self.hosts.contains(&host) => Ok(()),
            // A page that rebound its own name to 127.0.0.1 sends that name here.
            _ => Err(Refusal::new(
                StatusCode::MISDIRECTED_REQUEST,
                format!("this endpoint answers only to Host {}", self.hosts.join(", ")),
            )),
        }
    }

    fn check_origin(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        let Some(origin) = headers.get(header::ORIGIN) else {
            // Not a browser: MCP clients send no Origin.
            return Ok(());
        };
        let origin = origin.to_str().map(|o| o.trim_end_matches('/').to_ascii_lowercase());
        match origin {
            Ok(origin) if self.origins.contains(&origin) => Ok(()),
            _ => Err(Refusal::new(
                StatusCode::FORBIDDEN,
                "requests from web pages are refused unless their origin is allowed in Plugboard's settings",
            )),
        }
    }
}

/// A declared length over the limit is refused before the body is read; a body without one is cut off at the
/// limit while it streams (rmcp's service does that, with the same limit).
fn check_size(headers: &HeaderMap) -> Result<(), Refusal> {
    let Some(length) = headers.get(header::CONTENT_LENGTH) else {
        return Ok(());
    };
    match length.to_str().ok().and_then(|l| l.trim().parse::<u64>().ok()) {
        Some(length) if length <= MAX_BODY_BYTES as u64 => Ok(()),
        Some(_) => Err(Refusal::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("a request body may be at most {} MiB", MAX_BODY_BYTES / (1024 * 1024)),
        )),
        None => Err(Refusal::new(StatusCode::BAD_REQUEST, "the Content-Length header is not a number")),
    }
}

/// `Authorization: Bearer <token>` with the gateway's current token.
fn check_token(headers: &HeaderMap, current: Option<&TokenDigest>) -> Result<TokenDigest, Refusal> {
    let presented = headers
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| TokenDigest::of(token.trim()));
    match (presented, current) {
        (Some(presented), Some(current)) if presented.matches(current) => Ok(presented),
        _ => Err(Refusal::new(
            StatusCode::UNAUTHORIZED,
            "this endpoint needs Authorization: Bearer <token>; `plugboard gateway token` prints the token",
        )),
    }
}

#[cfg(test)]
mod tests {
    use http::HeaderValue;

    use super::*;

    const TOKEN: &str = "pbg_0123456789abcdef";

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(name.clone(), HeaderValue::from_str(value).expect("header value"));
        }
        map
    }

    fn good() -> Vec<(header::HeaderName, &'static str)> {
        vec![(header::HOST, "127.0.0.1:7450"), (header::AUTHORIZATION, "Bearer pbg_0123456789abcdef")]
    }

    fn status(admission: &Admission, pairs: &[(header::HeaderName, &str)]) -> Result<(), StatusCode> {
        admission.check(&headers(pairs), Some(&TokenDigest::of(TOKEN))).map(drop).map_err(|r| r.status)
    }

    /// The token over a loopback Host gets in; each of the four guards refuses with its own status.
    #[test]
    fn each_guard_refuses_with_its_status() {
        let admission = Admission::new(7450, &[]);
        assert_eq!(status(&admission, &good()), Ok(()));
        for host in ["localhost:7450", "[::1]:7450", "LOCALHOST:7450"] {
            assert_eq!(status(&admission, &[(header::HOST, host), good()[1].clone()]), Ok(()), "{host}");
        }
        for host in ["evil.example.com", "evil.example.com:7450", "127.0.0.1:7451", "127.0.0.1", "0.0.0.0:7450"] {
            let refused = status(&admission, &[(header::HOST, host), good()[1].clone()]);
            assert_eq!(refused, Err(StatusCode::MISDIRECTED_REQUEST), "{host}");
        }
        let mut with_origin = good();
        with_origin.push((header::ORIGIN, "http://evil.example.com"));
        assert_eq!(status(&admission, &with_origin), Err(StatusCode::FORBIDDEN));
        let mut too_big = good();
        too_big.push((header::CONTENT_LENGTH, "4194305"));
        assert_eq!(status(&admission, &too_big), Err(StatusCode::PAYLOAD_TOO_LARGE));
        for authorization in ["Bearer pbg_wrong", "Basic cGJnXzA6", "pbg_0123456789abcdef", "Bearer"] {
            let refused = status(&admission, &[good()[0].clone(), (header::AUTHORIZATION, authorization)]);
            assert_eq!(refused, Err(StatusCode::UNAUTHORIZED), "{authorization}");
        }
        assert_eq!(status(&admission, &good()[..1]), Err(StatusCode::UNAUTHORIZED));
    }

    /// An origin the person allowed gets through (trailing slash and case aside); a near miss does not.
    #[test]
    fn only_explicitly_allowed_origins_pass() {
        let admission = Admission::new(7450, &["http://localhost:5173".into()]);
        let with = |origin: &'static str| {
            let mut pairs = good();
            pairs.push((header::ORIGIN, origin));
            status(&admission, &pairs)
        };
        assert_eq!(with("http://localhost:5173"), Ok(()));
        assert_eq!(with("HTTP://LOCALHOST:5173/"), Ok(()));
        assert_eq!(with("http://localhost:5174"), Err(StatusCode::FORBIDDEN));
        assert_eq!(with("http://localhost:7450"), Ok(()), "the endpoint's own origin");
        assert_eq!(with("http://evil.example.com:7450"), Err(StatusCode::FORBIDDEN));
        assert_eq!(with("null"), Err(StatusCode::FORBIDDEN));
    }

    /// With no readable token (after a failed reload) nobody gets in, the right token included.
    #[test]
    fn no_current_token_refuses_everyone() {
        let admission = Admission::new(7450, &[]);
        let refused = admission.check(&headers(&good()), None).map_err(|r| r.status);
        assert_eq!(refused.map(drop), Err(StatusCode::UNAUTHORIZED));
    }
}
