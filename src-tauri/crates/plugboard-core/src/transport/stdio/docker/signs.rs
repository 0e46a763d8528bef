//! Signs, in a container's first output, that it serves HTTP rather than stdio: a URL with a port
//! (`http://localhost:3001/mcp`) or words naming a port (`listening on port 3001`, `Listening on :8080`). Pure text
//! scanning; a line that only mentions a number is never a sign.

use std::sync::LazyLock;

use regex::Regex;

/// Where the output says the server listens: the port, and the path when a URL named one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HttpSign {
    pub port: u16,
    pub path: Option<String>,
}

/// A URL with a port, and the path after it.
const URL_PATTERN: &str =
    r"https?://(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1?\]|[A-Za-z0-9.-]+):(\d{1,5})(/[^\s'\x22<>]*)?";
/// A word of listening, then within 40 characters `port 3001`, `port: 3001` or `:3001` (after an address or not).
const PORT_WORDS_PATTERN: &str = r"(?i)(?:listen(?:ing|s)?|serv(?:ing|es)|running|started|bound|available)\b[^\n]{0,40}?(?:\bport\b[\s:=#]*|(?:0\.0\.0\.0|127\.0\.0\.1|localhost|\[::\])?:)(\d{1,5})\b";

// Constant patterns: the tests below compile both, so `None` (no sign ever) cannot ship unnoticed.
static URL: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(URL_PATTERN).ok());
static PORT_WORDS: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(PORT_WORDS_PATTERN).ok());

/// The first sign in `text` (any number of lines), URL first: it also says the path.
pub(crate) fn http_sign(text: &str) -> Option<HttpSign> {
    for line in text.lines() {
        if let Some(found) = URL.as_ref().and_then(|url| url.captures(line)) {
            let port = found[1].parse().ok().filter(|p| *p > 0);
            let path = found.get(2).map(|m| m.as_str().trim_end_matches(['.', ',', ')']).to_owned());
            if let Some(port) = port {
                return Some(HttpSign { port, path: path.filter(|p| p.len() > 1) });
            }
        }
        if let Some(found) = PORT_WORDS.as_ref().and_then(|words| words.captures(line))
            && let Some(port) = found[1].parse().ok().filter(|p| *p > 0)
        {
            return Some(HttpSign { port, path: None });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sign(text: &str) -> Option<(u16, Option<String>)> {
        http_sign(text).map(|found| (found.port, found.path))
    }

    /// Both patterns compile (a broken one would silently find no sign at all).
    #[test]
    fn the_patterns_compile() {
        assert!(URL.is_some() && PORT_WORDS.is_some());
    }

    /// What HTTP servers commonly print on start is read as their port (and path when a URL says it).
    #[test]
    fn what_http_servers_print_is_a_sign() {
        assert_eq!(sign("MCP Streamable HTTP Server listening on port 3001"), Some((3001, None)));
        assert_eq!(sign("Server running at http://localhost:8080/mcp"), Some((8080, Some("/mcp".into()))));
        assert_eq!(sign("INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)"), Some((8000, None)));
        assert_eq!(sign("listening on :9090"), Some((9090, None)));
        assert_eq!(sign("Listening on 0.0.0.0:7000"), Some((7000, None)));
        assert_eq!(
            sign("starting\nMCP server available at http://127.0.0.1:3000/sse."),
            Some((3000, Some("/sse".into())))
        );
        assert_eq!(sign("Listening on port: 4000"), Some((4000, None)));
    }

    /// Ordinary stdio servers' banners and numbers are not signs.
    #[test]
    fn other_output_is_not_a_sign() {
        assert_eq!(sign("GitHub MCP Server running on stdio"), None);
        assert_eq!(sign("Starting default (STDIO) server..."), None);
        assert_eq!(sign("loaded 3001 records"), None);
        assert_eq!(sign("see https://github.com/org/repo for docs"), None);
        assert_eq!(sign("listening on port 0"), None);
    }
}
