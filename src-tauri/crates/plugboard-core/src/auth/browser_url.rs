//! Which URLs may be handed to a browser (or any opener) as an authorization page: absolute http(s) with a host, no
//! credentials, no control characters and no shell metacharacters. The mcp-remote CVE-2025-6514 class was an
//! `authorization_endpoint` like `file:`, `javascript:` or `$(calc)` reaching the system opener; this check must run
//! before a [`super::UserAgent`] ever sees the URL, and must never be relaxed for convenience.

use url::Url;

use super::LoginError;

/// Characters a shell (sh, cmd, PowerShell) gives meaning to. A well-formed authorization URL never needs them: the
/// query rmcp builds is percent-encoded, so `&`, `=`, `%`, `+` and
/// `*` are the only punctuation it adds.
const SHELL_METACHARACTERS: &[char] = &['`', '$', '(', ')', ';', '|', '<', '>', '\\', '"', '\'', '{', '}', '^', '!'];

/// `raw` as a URL a browser may open, or why not.
pub fn browser_url(raw: &str) -> Result<Url, LoginError> {
    let refuse = |why: String| Err(LoginError::UnsafeAuthorizationUrl(why));
    if let Some(c) = raw.chars().find(|c| c.is_control() || c.is_whitespace()) {
        return refuse(format!("it contains the control or space character U+{:04X}", u32::from(c)));
    }
    if let Some(c) = raw.chars().find(|c| SHELL_METACHARACTERS.contains(c)) {
        return refuse(format!("it contains the shell metacharacter `{c}`"));
    }
    let url = match Url::parse(raw) {
        Ok(url) => url,
        Err(e) => return refuse(format!("it is not an absolute URL ({e})")),
    };
    match url.scheme() {
        "https" | "http" => {}
        other => return refuse(format!("it uses the `{other}:` scheme; only https (or http) pages are opened")),
    }
    if url.host_str().is_none_or(str::is_empty) {
        return refuse("it has no host".into());
    }
    if !url.username().is_empty() || url.password().is_some() {
        // `https://login.example@evil.example/` shows one host and goes to another.
        return refuse("it carries a user name or password before the host".into());
    }
    Ok(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(raw: &str) -> String {
        match browser_url(raw) {
            Err(LoginError::UnsafeAuthorizationUrl(why)) => why,
            other => panic!("{raw} was not refused: {other:?}"),
        }
    }

    /// The schemes of the CVE-2025-6514 class never reach a browser, whatever follows them.
    #[test]
    fn refuses_dangerous_schemes() {
        for raw in [
            "javascript:alert(1)",
            "javascript://example.com/%0aalert(1)",
            "data:text/html,hi",
            "file:///etc/passwd",
            "smb://attacker.example/share",
            "ms-msdt:/id%20PCWDiagnostic",
            "vbscript:msgbox",
            "ftp://example.com/authorize",
        ] {
            let why = refused(raw);
            assert!(why.contains("scheme") || why.contains("metacharacter"), "{raw}: {why}");
        }
    }

    /// Shell metacharacters and control characters are refused even inside an otherwise valid https URL.
    #[test]
    fn refuses_shell_and_control_characters() {
        assert!(refused("$(calc)").contains('$'));
        assert!(refused("https://as.example/authorize?x=$(calc)").contains('$'));
        assert!(refused("https://as.example/authorize?x=`id`").contains('`'));
        assert!(refused("https://as.example/a;calc.exe").contains(';'));
        assert!(refused("https://as.example/a|calc").contains('|'));
        assert!(refused("https://as.example/a\ncalc").contains("U+000A"));
        assert!(refused("https://as.example/a b").contains("U+0020"));
        assert!(refused("https://as.example/a\u{0}").contains("U+0000"));
    }

    /// Relative URLs, host-less URLs and userinfo tricks are refused.
    #[test]
    fn refuses_relative_hostless_and_userinfo() {
        assert!(refused("/authorize").contains("absolute"));
        assert!(refused("https://login.example@evil.example/authorize").contains("user name"));
    }

    /// A real authorization URL (query built by rmcp, percent-encoded) passes unchanged.
    #[test]
    fn accepts_ordinary_authorization_urls() {
        let raw = "https://as.example/authorize?response_type=code&client_id=abc&redirect_uri=http%3A%2F%2F127.0.0.1%3A\
                   8080%2Fcallback&scope=mcp%3Aread+mcp%3Awrite&state=Zm9v&code_challenge=YmFy&code_challenge_method=S256";
        assert_eq!(browser_url(raw).map(|u| u.to_string()).ok().as_deref(), Some(raw));
        assert!(browser_url("http://localhost:3000/authorize?x=1").is_ok());
    }
}
