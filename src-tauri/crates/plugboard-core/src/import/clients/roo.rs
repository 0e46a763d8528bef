//! Roo Code's `mcp_settings.json` (extension storage) and a project's `.roo/mcp.json`: `mcpServers` with `type`
//! stdio|sse|streamable-http, `alwaysAllow`, `disabledTools`, `disabled`, `timeout` in seconds and `watchPaths`.

use std::path::PathBuf;

use super::common::entry::{Draft, EntryProblem, EntryReader};
use super::common::notes::{apply_disabled, keep_disabled_tools, seconds_to_ms};
use super::common::parse_mcp_servers_json;
use super::common::paths::{EDITORS_WITH_EXTENSIONS, editor_user_dirs, in_projects};
use super::common::transport::{BareUrl, read_launch, read_type};
use crate::import::{ClientSource, ParseError, ParsedEntry, PathContext};

pub const SOURCE: ClientSource = ClientSource { id: "roo", label: "Roo Code", default_paths, parse };

const EXTENSION: &str = "rooveterinaryinc.roo-cline";

fn default_paths(ctx: &PathContext) -> Vec<PathBuf> {
    let mut paths = in_projects(ctx, &[".roo", "mcp.json"]);
    paths.extend(
        editor_user_dirs(ctx, EDITORS_WITH_EXTENSIONS)
            .into_iter()
            .map(|dir| dir.join("globalStorage").join(EXTENSION).join("settings").join("mcp_settings.json")),
    );
    paths
}

fn parse(text: &str) -> Result<Vec<ParsedEntry>, ParseError> {
    parse_mcp_servers_json(text, entry)
}

fn entry(_name: &str, mut r: EntryReader) -> Result<Draft, EntryProblem> {
    let declared = read_type(&mut r)?;
    let url = r.string("url")?;
    let mut draft = read_launch(&mut r, declared.as_deref(), url, BareUrl::Probe)?;
    draft.server.auto_approve = r.strings("alwaysAllow")?;
    if let Some(tools) = r.strings("disabledTools")? {
        keep_disabled_tools(&mut draft, "Roo Code", tools);
    }
    apply_disabled(&mut draft, r.bool("disabled")?);
    draft.server.timeout_ms = r.number("timeout")?.map(seconds_to_ms);
    Ok(draft.with_rest(r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::clients::common::paths::testing::*;
    use crate::import::clients::common::testing::*;

    const CONFIG: &str = fixture!("roo/mcp_settings.json");

    /// streamable-http and sse map to their kinds; an untyped url is probed; stdio with only a url is Invalid.
    #[test]
    fn transports() {
        let entries = parse(CONFIG).expect("parses");
        assert_eq!(server(&entries, "docs").server.kind.as_deref(), Some("http"));
        assert_eq!(server(&entries, "events").server.kind.as_deref(), Some("sse"));
        assert_eq!(server(&entries, "untyped-url").server.kind, None);
        assert!(invalid(&entries, "wrong-type").contains("only a url"));
        assert_eq!(parse(&bom_crlf(CONFIG)), Ok(entries));
    }

    /// alwaysAllow → autoApprove; disabledTools kept with a note; watchPaths kept; timeout seconds → ms.
    #[test]
    fn roo_fields() {
        let entries = parse(CONFIG).expect("parses");
        let puppeteer = server(&entries, "puppeteer");
        assert_eq!(
            puppeteer.server.auto_approve,
            Some(vec!["puppeteer_navigate".to_owned(), "puppeteer_screenshot".to_owned()])
        );
        assert_eq!(puppeteer.server.tools, None);
        assert_eq!(puppeteer.server.other.get("disabledTools"), Some(&serde_json::json!(["puppeteer_evaluate"])));
        assert!(noted(puppeteer, "`puppeteer_evaluate`"));
        assert_eq!(puppeteer.server.timeout_ms, Some(90_000));
        assert_eq!(server(&entries, "events").server.enabled, Some(false));
        let watcher = &server(&entries, "watcher").server;
        assert_eq!(watcher.cwd.as_deref(), Some("/home/ada/mcp/watcher"));
        assert!(watcher.other.contains_key("watchPaths"));
    }

    /// The project's `.roo/mcp.json` first, then each editor's extension storage.
    #[test]
    fn default_paths_per_os() {
        let tail = ["globalStorage", EXTENSION, "settings", "mcp_settings.json"];
        let linux_paths = default_paths(&linux());
        assert_eq!(linux_paths[0], p("/home/ada/src/app", &[".roo", "mcp.json"]));
        assert_eq!(linux_paths[1], p("/home/ada", &[&[".config", "Code", "User"][..], &tail].concat()));
        let mac = default_paths(&macos());
        assert_eq!(mac[1], p("/Users/ada", &[&["Library", "Application Support", "Code", "User"][..], &tail].concat()));
        let win = default_paths(&windows());
        assert_eq!(win[0], p(r"C:\src\app", &[".roo", "mcp.json"]));
        assert_eq!(win[1], p(r"C:\Users\ada\AppData\Roaming", &[&["Code", "User"][..], &tail].concat()));
    }
}
