//! Windsurf's `~/.codeium/windsurf/mcp_config.json`: `mcpServers` with commands or remote urls (`serverUrl`, or
//! `url`), `disabled` and per-server `disabledTools`.

use std::path::PathBuf;

use super::common::entry::{Draft, EntryProblem, EntryReader};
use super::common::notes::{apply_disabled, keep_disabled_tools};
use super::common::parse_mcp_servers_json;
use super::common::transport::{BareUrl, read_launch, read_type};
use crate::import::{ClientSource, ParseError, ParsedEntry, PathContext};

pub const SOURCE: ClientSource = ClientSource { id: "windsurf", label: "Windsurf", default_paths, parse };

fn default_paths(ctx: &PathContext) -> Vec<PathBuf> {
    let codeium = ctx.home.join(".codeium");
    // Windsurf Next (the preview build) keeps its own copy beside the stable one.
    vec![codeium.join("windsurf").join("mcp_config.json"), codeium.join("windsurf-next").join("mcp_config.json")]
}

fn parse(text: &str) -> Result<Vec<ParsedEntry>, ParseError> {
    parse_mcp_servers_json(text, entry)
}

fn entry(_name: &str, mut r: EntryReader) -> Result<Draft, EntryProblem> {
    let declared = read_type(&mut r)?;
    let server_url = r.string("serverUrl")?;
    let url = r.string("url")?;
    let both = server_url.is_some() && url.is_some();
    // Windsurf speaks both remote transports over either key, so the url is probed.
    let mut draft = read_launch(&mut r, declared.as_deref(), server_url.or(url), BareUrl::Probe)?;
    if both {
        draft.note("it had both `serverUrl` and `url`; `serverUrl` was used, as Windsurf does");
    }
    apply_disabled(&mut draft, r.bool("disabled")?);
    if let Some(tools) = r.strings("disabledTools")? {
        keep_disabled_tools(&mut draft, "Windsurf", tools);
    }
    Ok(draft.with_rest(r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::clients::common::paths::testing::*;
    use crate::import::clients::common::testing::*;

    const CONFIG: &str = fixture!("windsurf/mcp_config.json");

    /// `serverUrl` and `url` are remote and probed; commands are stdio; an empty entry is Invalid.
    #[test]
    fn parses_remote_and_local_servers() {
        let entries = parse(CONFIG).expect("parses");
        let figma = &server(&entries, "figma").server;
        assert_eq!((figma.kind.as_deref(), figma.url.as_deref()), (None, Some("https://mcp.figma.com/mcp")));
        assert_eq!(figma.headers.as_ref().map(|h| h.len()), Some(1));
        assert_eq!(server(&entries, "deepwiki").server.url.as_deref(), Some("https://mcp.deepwiki.com/sse"));
        let supabase = &server(&entries, "supabase").server;
        assert_eq!(
            supabase.env.as_ref().and_then(|e| e.get("SUPABASE_ACCESS_TOKEN")).map(String::as_str),
            Some("${env:SUPABASE_ACCESS_TOKEN}")
        );
        assert!(invalid(&entries, "empty").contains("neither"));
        assert_eq!(parse(&bom_crlf(CONFIG)), Ok(entries));
    }

    /// `disabled` becomes `enabled: false`; `disabledTools` is kept with a note naming the tools.
    #[test]
    fn disabled_flags_are_translated() {
        let entries = parse(CONFIG).expect("parses");
        assert_eq!(server(&entries, "old-server").server.enabled, Some(false));
        assert_eq!(server(&entries, "figma").server.enabled, None);
        let supabase = server(&entries, "supabase");
        assert_eq!(
            supabase.server.other.get("disabledTools"),
            Some(&serde_json::json!(["apply_migration", "execute_sql"]))
        );
        assert!(noted(supabase, "`apply_migration`, `execute_sql`"));
        let both = parse(r#"{"mcpServers":{"x":{"serverUrl":"https://a.example","url":"https://b.example"}}}"#);
        let both = both.expect("parses");
        assert_eq!(server(&both, "x").server.url.as_deref(), Some("https://a.example"));
    }

    /// The file lives under the home dir on every OS.
    #[test]
    fn default_paths_per_os() {
        assert_eq!(default_paths(&linux())[0], p("/home/ada", &[".codeium", "windsurf", "mcp_config.json"]));
        assert_eq!(default_paths(&macos())[0], p("/Users/ada", &[".codeium", "windsurf", "mcp_config.json"]));
        assert_eq!(
            default_paths(&windows()),
            [
                p(r"C:\Users\ada", &[".codeium", "windsurf", "mcp_config.json"]),
                p(r"C:\Users\ada", &[".codeium", "windsurf-next", "mcp_config.json"])
            ]
        );
    }
}
