//! Gemini CLI's `settings.json` (user `~/.gemini`, project `.gemini`): `mcpServers` where `httpUrl` is Streamable
//! HTTP and `url` is SSE, `timeout` in milliseconds, `includeTools`/`excludeTools`, `trust` and `oauth`.
//! Gemini expands `$VAR` and `${VAR}` in every setting; Plugboard reads only `${VAR}`, so `$VAR` is rewritten.

use std::path::PathBuf;

use serde_json::Value;

use super::common::entry::{Draft, EntryProblem, EntryReader};
use super::common::notes::{each_text_mut, keep_disabled_tools, whole_ms};
use super::common::parse_mcp_servers_json;
use super::common::paths::in_projects;
use super::common::transport::{BareUrl, read_launch, read_type};
use crate::config::raw::RawOAuth;
use crate::import::{ClientSource, ParseError, ParsedEntry, PathContext};

pub const SOURCE: ClientSource = ClientSource { id: "gemini", label: "Gemini CLI", default_paths, parse };

fn default_paths(ctx: &PathContext) -> Vec<PathBuf> {
    let mut paths = in_projects(ctx, &[".gemini", "settings.json"]);
    paths.push(ctx.home.join(".gemini").join("settings.json"));
    paths
}

fn parse(text: &str) -> Result<Vec<ParsedEntry>, ParseError> {
    parse_mcp_servers_json(text, entry)
}

fn entry(_name: &str, mut r: EntryReader) -> Result<Draft, EntryProblem> {
    let declared = read_type(&mut r)?;
    let http_url = r.string("httpUrl")?;
    let sse_url = r.string("url")?;
    if http_url.is_none() && sse_url.is_none() && !r.has("command") && r.has("tcp") {
        return Err(EntryProblem::new("it connects over a WebSocket (`tcp`), which Plugboard does not speak"));
    }
    let both = http_url.is_some() && sse_url.is_some();
    let (url, bare) = match http_url {
        Some(http) => (Some(http), BareUrl::Http),
        None => (sse_url, BareUrl::Sse),
    };
    let mut draft = read_launch(&mut r, declared.as_deref(), url, bare)?;
    if both {
        draft.note("it had both `httpUrl` and `url`; `httpUrl` (Streamable HTTP) was used, as Gemini CLI does");
    }
    draft.server.timeout_ms = r.number("timeout")?.map(whole_ms);
    if r.bool("trust")? == Some(true) {
        draft.keep("trust", Value::Bool(true));
        draft.note(
            "Gemini CLI trusted this server (its tool calls ran without confirmation); Plugboard does not carry that \
             over: approve the server and choose auto-approved tools yourself",
        );
    }
    let include = r.strings("includeTools")?;
    let exclude = r.strings("excludeTools")?.unwrap_or_default();
    match include {
        // Gemini applies the exclusions on top of the inclusions, so the allowlist is the difference.
        Some(include) => draft.server.tools = Some(include.into_iter().filter(|t| !exclude.contains(t)).collect()),
        None => keep_disabled_tools(&mut draft, "Gemini CLI", exclude),
    }
    if let Some(mut oauth) = r.object("oauth")? {
        let client_id = oauth.string("clientId")?;
        let scopes = oauth.words("scopes")?;
        // `clientSecret` stays under its own name in `other`, where the secrets scan moves it to the keychain.
        draft.server.oauth = Some(RawOAuth { client_id, scopes, other: oauth.rest(), ..RawOAuth::default() });
    }
    rewrite_bare_variables(&mut draft);
    Ok(draft.with_rest(r))
}

/// `$NAME` → `${NAME}` everywhere in the entry, with one note when anything changed.
fn rewrite_bare_variables(draft: &mut Draft) {
    let mut changed = false;
    each_text_mut(&mut draft.server, |text| {
        if let Some(rewritten) = braced(text) {
            *text = rewritten;
            changed = true;
        }
    });
    if changed {
        draft.note("Gemini's `$VAR` references were rewritten as `${VAR}`, the form Plugboard reads");
    }
}

/// The text with each `$NAME` (not already `${…}`) braced, or `None` when there is none.
fn braced(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len() + 8);
    let mut changed = false;
    let mut rest = text;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        if after.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            let len = after.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(after.len());
            out.push_str("${");
            out.push_str(&after[..len]);
            out.push('}');
            changed = true;
            rest = &after[len..];
        } else {
            out.push('$');
            rest = after;
        }
    }
    out.push_str(rest);
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::clients::common::paths::testing::*;
    use crate::import::clients::common::testing::*;

    const CONFIG: &str = fixture!("gemini/settings.json");

    /// httpUrl is Streamable HTTP, url is SSE, httpUrl wins over url, `tcp` alone is Invalid.
    #[test]
    fn urls_pick_the_transport() {
        let entries = parse(CONFIG).expect("parses");
        assert_eq!(server(&entries, "github").server.kind.as_deref(), Some("http"));
        assert_eq!(server(&entries, "events").server.kind.as_deref(), Some("sse"));
        let both = server(&entries, "both-urls");
        assert_eq!(both.server.url.as_deref(), Some("https://both.example.com/mcp"));
        assert!(noted(both, "httpUrl"));
        assert!(invalid(&entries, "websocket").contains("WebSocket"));
        assert_eq!(parse(&bom_crlf(CONFIG)), Ok(entries));
    }

    /// timeout stays in ms; includeTools minus excludeTools is the allowlist; excludeTools alone is kept and noted.
    #[test]
    fn timeouts_and_tool_filters() {
        let entries = parse(CONFIG).expect("parses");
        let py = server(&entries, "python-tools");
        assert_eq!(py.server.timeout_ms, Some(15_000));
        assert_eq!(py.server.tools, Some(vec!["safe_tool".to_owned(), "file_reader".to_owned()]));
        assert!(!py.server.other.contains_key("disabledTools"));
        let docker = server(&entries, "docker");
        assert_eq!(docker.server.tools, None);
        assert_eq!(
            docker.server.other.get("disabledTools"),
            Some(&serde_json::json!(["dangerous_tool", "file_deleter"]))
        );
        assert!(noted(docker, "`dangerous_tool`, `file_deleter`"));
    }

    /// trust is noted (not turned into auto-approval); oauth maps client id and scopes, keeps the rest.
    #[test]
    fn trust_and_oauth() {
        let entries = parse(CONFIG).expect("parses");
        let events = server(&entries, "events");
        assert!(noted(events, "trusted"));
        assert_eq!(events.server.auto_approve, None);
        let gw = &server(&entries, "google-workspace").server;
        let oauth = gw.oauth.as_ref().expect("oauth");
        assert_eq!(oauth.client_id.as_deref(), Some("1234.apps.googleusercontent.com"));
        assert_eq!(oauth.scopes.as_deref(), Some("https://www.googleapis.com/auth/drive.readonly openid"));
        assert!(oauth.other.contains_key("clientSecret") && oauth.other.contains_key("tokenUrl"));
        assert_eq!(gw.other.get("authProviderType"), Some(&Value::from("dynamic_discovery")));
    }

    /// `$VAR` becomes `${VAR}`; `${VAR}` and a lone `$` are untouched.
    #[test]
    fn bare_variables_are_braced() {
        let entries = parse(CONFIG).expect("parses");
        let github = server(&entries, "github");
        let auth = github.server.headers.as_ref().and_then(|h| h.get("Authorization")).map(String::as_str);
        assert_eq!(auth, Some("Bearer ${GITHUB_MCP_PAT}"));
        assert!(noted(github, "`$VAR`"));
        let env = server(&entries, "python-tools").server.env.clone().expect("env");
        assert_eq!(env.get("DATABASE_URL").map(String::as_str), Some("${DB_CONNECTION_STRING}"));
        assert_eq!(env.get("API_KEY").map(String::as_str), Some("${EXTERNAL_API_KEY}"));
        assert_eq!(braced("$A and $B_2/x $ $1 ${C}").as_deref(), Some("${A} and ${B_2}/x $ $1 ${C}"));
        assert_eq!(braced("costs 5$"), None);
    }

    /// The project's `.gemini/settings.json`, then the user's, on every OS.
    #[test]
    fn default_paths_per_os() {
        assert_eq!(
            default_paths(&linux()),
            [p("/home/ada/src/app", &[".gemini", "settings.json"]), p("/home/ada", &[".gemini", "settings.json"])]
        );
        assert_eq!(default_paths(&macos())[1], p("/Users/ada", &[".gemini", "settings.json"]));
        assert_eq!(default_paths(&windows())[1], p(r"C:\Users\ada", &[".gemini", "settings.json"]));
    }
}
