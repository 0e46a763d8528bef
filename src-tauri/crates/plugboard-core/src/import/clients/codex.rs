//! OpenAI Codex's `~/.codex/config.toml` (and a trusted project's `.codex/config.toml`): `[mcp_servers.<name>]`
//! tables with a command or a Streamable HTTP `url`, bearer tokens from the environment, tool filters and timeouts.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use serde_json::Value;

use super::common::entry::{Draft, EntryProblem, EntryReader, server_map, translate_all};
use super::common::node::{document, parse_toml};
use super::common::notes::{keep_disabled_tools, seconds_to_ms, whole_ms};
use super::common::paths::in_projects;
use super::common::transport::{BareUrl, read_launch};
use crate::import::{ClientSource, ParseError, ParsedEntry, PathContext};

pub const SOURCE: ClientSource = ClientSource { id: "codex", label: "Codex", default_paths, parse };

fn default_paths(ctx: &PathContext) -> Vec<PathBuf> {
    let mut paths = in_projects(ctx, &[".codex", "config.toml"]);
    paths.push(ctx.home.join(".codex").join("config.toml"));
    paths
}

fn parse(text: &str) -> Result<Vec<ParsedEntry>, ParseError> {
    let doc = document(parse_toml(text)?)?;
    let mut servers = server_map(&doc, "mcp_servers")?;
    // The TOML reader hands tables over sorted by name; people expect the order they wrote them in.
    let order = first_mentions(text);
    servers.sort_by_key(|(name, _)| order.get(name.as_str()).copied().unwrap_or(usize::MAX));
    Ok(translate_all(servers, None, entry))
}

/// Where each `mcp_servers.<name>` (bare, "quoted" or 'quoted') first appears, in one pass over the text.
fn first_mentions(text: &str) -> HashMap<String, usize> {
    let mut order = HashMap::new();
    for (at, _) in text.match_indices("mcp_servers.") {
        let rest = &text[at + "mcp_servers.".len()..];
        let name = match rest.chars().next() {
            Some(quote @ ('"' | '\'')) => rest[1..].split(quote).next(),
            _ => rest.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-')).next(),
        };
        if let Some(name) = name.filter(|n| !n.is_empty()) {
            order.entry(name.to_owned()).or_insert(at);
        }
    }
    order
}

fn entry(_name: &str, mut r: EntryReader) -> Result<Draft, EntryProblem> {
    // Codex has no `type`: a url is always Streamable HTTP, the only remote transport it speaks.
    let declared = r.string("type")?;
    let url = r.string("url")?;
    let headers = r.string_map("http_headers")?;
    let env_headers = r.string_map("env_http_headers")?;
    let mut draft = read_launch(&mut r, declared.as_deref(), url, BareUrl::Http)?;
    if headers.is_some() || env_headers.is_some() {
        let merged = draft.server.headers.get_or_insert_with(BTreeMap::new);
        merged.extend(headers.unwrap_or_default());
        // A header whose value Codex read from an environment variable is exactly Plugboard's `${env:…}`.
        merged.extend(env_headers.unwrap_or_default().into_iter().map(|(name, var)| (name, format!("${{env:{var}}}"))));
    }
    draft.server.bearer_token_env_var = r.string("bearer_token_env_var")?;
    if r.bool("enabled")? == Some(false) {
        draft.server.enabled = Some(false);
    }
    timeouts(&mut r, &mut draft)?;
    let disabled = r.strings("disabled_tools")?.unwrap_or_default();
    match r.strings("enabled_tools")? {
        // Codex applies disabled_tools after enabled_tools, so the allowlist is the difference.
        Some(enabled) => draft.server.tools = Some(enabled.into_iter().filter(|t| !disabled.contains(t)).collect()),
        None => keep_disabled_tools(&mut draft, "Codex", disabled),
    }
    if let Some(vars) = r.strings("env_vars")? {
        draft.note(
            "Codex passed these variables from its own environment to the server: Plugboard keeps the list as \
             `env_vars`; add them to `env` as `${env:NAME}` if the server needs them",
        );
        draft.keep("env_vars", Value::from(vars));
    }
    Ok(draft.with_rest(r))
}

/// `tool_timeout_sec` is the closest to Plugboard's per-request `timeoutMs`; a start-up timeout is used only when
/// it is the only one, and whatever is not used is kept.
fn timeouts(r: &mut EntryReader, draft: &mut Draft) -> Result<(), EntryProblem> {
    let tool = r.number("tool_timeout_sec")?.map(seconds_to_ms);
    let startup_sec = r.number("startup_timeout_sec")?;
    let startup_ms = r.number("startup_timeout_ms")?;
    let (startup_key, startup) = match (startup_sec, startup_ms) {
        (Some(s), _) => ("startup_timeout_sec", Some((s, seconds_to_ms(s)))),
        (None, Some(ms)) => ("startup_timeout_ms", Some((ms, whole_ms(ms)))),
        (None, None) => ("", None),
    };
    match (tool, startup) {
        (Some(tool), startup) => {
            draft.server.timeout_ms = Some(tool);
            draft.note("`timeoutMs` comes from Codex's `tool_timeout_sec`");
            if let Some((written, _)) = startup {
                draft.keep(startup_key, Value::from(written));
            }
        }
        (None, Some((_, ms))) => {
            draft.server.timeout_ms = Some(ms);
            draft.note(format!("`timeoutMs` comes from Codex's `{startup_key}` (its start-up timeout)"));
        }
        (None, None) => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::clients::common::paths::testing::*;
    use crate::import::clients::common::testing::*;

    const CONFIG: &str = fixture!("codex/config.toml");

    /// Tables become servers in file order; a url is Streamable HTTP; a table with neither is Invalid.
    #[test]
    fn parses_tables() {
        let entries = parse(CONFIG).expect("parses");
        assert_eq!(names(&entries), ["context7", "figma", "chrome_devtools", "sentry", "broken"]);
        let ctx7 = &server(&entries, "context7").server;
        assert_eq!(ctx7.env.as_ref().and_then(|e| e.get("LOG_LEVEL")).map(String::as_str), Some("info"));
        let figma = &server(&entries, "figma").server;
        assert_eq!((figma.kind.as_deref(), figma.url.as_deref()), (Some("http"), Some("https://mcp.figma.com/mcp")));
        assert!(invalid(&entries, "broken").contains("neither"));
        assert_eq!(parse(&CONFIG.replace('\n', "\r\n")), Ok(entries));
        let quoted =
            parse("[mcp_servers.\"z.b\"]\ncommand = \"b\"\n[mcp_servers.a]\ncommand = \"a\"\n").expect("parses");
        assert_eq!(names(&quoted), ["z.b", "a"]);
    }

    /// bearer_token_env_var maps across; http_headers are headers; env_http_headers become `${env:…}` headers.
    #[test]
    fn remote_auth_fields() {
        let entries = parse(CONFIG).expect("parses");
        let figma = &server(&entries, "figma").server;
        assert_eq!(figma.bearer_token_env_var.as_deref(), Some("FIGMA_OAUTH_TOKEN"));
        let headers = figma.headers.as_ref().expect("headers");
        assert_eq!(headers.get("X-Figma-Region").map(String::as_str), Some("us-east-1"));
        assert_eq!(headers.get("X-Api-Key").map(String::as_str), Some("${env:FIGMA_API_KEY}"));
    }

    /// tool_timeout_sec wins and the start-up timeout is kept; a lone start-up timeout is used; each is noted.
    #[test]
    fn timeouts_say_where_they_come_from() {
        let entries = parse(CONFIG).expect("parses");
        let figma = server(&entries, "figma");
        assert_eq!(figma.server.timeout_ms, Some(45_500));
        assert_eq!(figma.server.other.get("startup_timeout_sec"), Some(&Value::from(20.0)));
        assert!(noted(figma, "tool_timeout_sec"));
        let sentry = server(&entries, "sentry");
        assert_eq!(sentry.server.timeout_ms, Some(30_000));
        assert!(noted(sentry, "startup_timeout_sec"));
        let chrome = server(&entries, "chrome_devtools");
        assert_eq!(chrome.server.timeout_ms, Some(20_000));
        assert!(noted(chrome, "startup_timeout_ms"));
    }

    /// enabled_tools minus disabled_tools is the allowlist; disabled_tools alone is kept; enabled=false disables.
    #[test]
    fn tool_filters_and_enabled() {
        let entries = parse(CONFIG).expect("parses");
        assert_eq!(server(&entries, "figma").server.tools, Some(vec!["get_file".to_owned()]));
        let sentry = server(&entries, "sentry");
        assert_eq!(sentry.server.other.get("disabledTools"), Some(&serde_json::json!(["delete_issue"])));
        let chrome = server(&entries, "chrome_devtools");
        assert_eq!(chrome.server.enabled, Some(false));
        assert_eq!(chrome.server.other.get("env_vars"), Some(&serde_json::json!(["DISPLAY"])));
        assert!(noted(chrome, "env_vars"));
    }

    /// A project's `.codex/config.toml` first, then the user's.
    #[test]
    fn default_paths_per_os() {
        assert_eq!(
            default_paths(&linux()),
            [p("/home/ada/src/app", &[".codex", "config.toml"]), p("/home/ada", &[".codex", "config.toml"])]
        );
        assert_eq!(default_paths(&macos())[1], p("/Users/ada", &[".codex", "config.toml"]));
        assert_eq!(default_paths(&windows())[1], p(r"C:\Users\ada", &[".codex", "config.toml"]));
    }
}
