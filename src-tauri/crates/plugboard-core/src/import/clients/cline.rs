//! Cline's `cline_mcp_settings.json` in the editor's extension storage: `mcpServers` with `type` (or the legacy
//! `transportType`), `autoApprove`, `disabled` and `timeout` in seconds. A url with no type is SSE, as in Cline.

use std::path::PathBuf;

use super::common::entry::{Draft, EntryProblem, EntryReader};
use super::common::notes::{apply_disabled, seconds_to_ms};
use super::common::parse_mcp_servers_json;
use super::common::paths::{EDITORS_WITH_EXTENSIONS, editor_user_dirs};
use super::common::transport::{BareUrl, read_launch, read_type};
use crate::import::{ClientSource, ParseError, ParsedEntry, PathContext};

pub const SOURCE: ClientSource = ClientSource { id: "cline", label: "Cline", default_paths, parse };

const EXTENSION: &str = "saoudrizwan.claude-dev";

fn default_paths(ctx: &PathContext) -> Vec<PathBuf> {
    editor_user_dirs(ctx, EDITORS_WITH_EXTENSIONS)
        .into_iter()
        .map(|dir| dir.join("globalStorage").join(EXTENSION).join("settings").join("cline_mcp_settings.json"))
        .collect()
}

fn parse(text: &str) -> Result<Vec<ParsedEntry>, ParseError> {
    parse_mcp_servers_json(text, entry)
}

fn entry(_name: &str, mut r: EntryReader) -> Result<Draft, EntryProblem> {
    let declared = read_type(&mut r)?;
    let legacy = r.string("transportType")?;
    let url = r.string("url")?;
    let mut draft = read_launch(&mut r, declared.as_deref().or(legacy.as_deref()), url, BareUrl::Sse)?;
    draft.server.auto_approve = r.strings("autoApprove")?;
    apply_disabled(&mut draft, r.bool("disabled")?);
    draft.server.timeout_ms = r.number("timeout")?.map(seconds_to_ms);
    Ok(draft.with_rest(r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::clients::common::paths::testing::*;
    use crate::import::clients::common::testing::*;

    const CONFIG: &str = fixture!("cline/cline_mcp_settings.json");

    /// type, legacy transportType and the untyped-url-is-SSE rule each resolve as Cline resolves them.
    #[test]
    fn transports_follow_cline() {
        let entries = parse(CONFIG).expect("parses");
        assert_eq!(server(&entries, "remote-sse").server.kind.as_deref(), Some("sse"));
        assert_eq!(server(&entries, "remote-http").server.kind.as_deref(), Some("http"));
        assert_eq!(server(&entries, "legacy-transport").server.kind.as_deref(), Some("stdio"));
        assert_eq!(server(&entries, "legacy-sse").server.kind.as_deref(), Some("sse"));
        let git = &server(&entries, "github.com/modelcontextprotocol/servers/tree/main/src/git").server;
        assert_eq!(git.kind.as_deref(), Some("stdio"));
        assert_eq!(parse(&bom_crlf(CONFIG)), Ok(entries));
    }

    /// autoApprove is kept apart from the allowlist; disabled → enabled:false; timeout seconds → ms.
    #[test]
    fn approvals_flags_and_timeouts() {
        let entries = parse(CONFIG).expect("parses");
        let git = &server(&entries, "github.com/modelcontextprotocol/servers/tree/main/src/git").server;
        assert_eq!(git.auto_approve, Some(vec!["git_status".to_owned(), "git_log".to_owned()]));
        assert_eq!(git.tools, None);
        assert_eq!((git.timeout_ms, git.enabled), (Some(60_000), None));
        assert_eq!(server(&entries, "remote-sse").server.enabled, Some(false));
        assert_eq!(server(&entries, "legacy-transport").server.timeout_ms, Some(30_500));
        assert_eq!(server(&entries, "remote-http").server.timeout_ms, Some(120_000));
        assert!(invalid(&entries, "bad-timeout").contains("\"timeout\" must be a number"));
    }

    /// The settings file sits in each VS Code-family editor's extension storage.
    #[test]
    fn default_paths_per_os() {
        let tail = ["globalStorage", EXTENSION, "settings", "cline_mcp_settings.json"];
        let linux_paths = default_paths(&linux());
        assert_eq!(linux_paths[0], p("/home/ada", &[&[".config", "Code", "User"][..], &tail].concat()));
        assert!(linux_paths.contains(&p("/home/ada", &[&[".config", "Cursor", "User"][..], &tail].concat())));
        let mac = default_paths(&macos());
        assert_eq!(mac[0], p("/Users/ada", &[&["Library", "Application Support", "Code", "User"][..], &tail].concat()));
        let win = default_paths(&windows());
        assert_eq!(win[0], p(r"C:\Users\ada\AppData\Roaming", &[&["Code", "User"][..], &tail].concat()));
        assert_eq!(win.len(), EDITORS_WITH_EXTENSIONS.len());
    }
}
