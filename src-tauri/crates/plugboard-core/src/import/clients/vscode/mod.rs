//! VS Code's MCP servers: the user or workspace `mcp.json` (`servers` + `inputs`) and the legacy `"mcp"` block of
//! `settings.json`. One source reads both shapes, since a person thinks of them as "my VS Code servers".

mod inputs;

use std::path::PathBuf;

use super::common::entry::{Draft, EntryProblem, EntryReader, server_map, translate_all};
use super::common::node::{Node, document, parse_jsonc};
use super::common::notes::{is_editor_variable, keep_env_file, note_client_variables};
use super::common::paths::{editor_user_dirs, in_projects};
use super::common::transport::{BareUrl, read_launch, read_type};
use crate::config::raw::RawOAuth;
use crate::import::{ClientSource, ParseError, ParsedEntry, PathContext};
use inputs::{Input, read_inputs};

pub const SOURCE: ClientSource = ClientSource { id: "vscode", label: "VS Code", default_paths, parse };

fn default_paths(ctx: &PathContext) -> Vec<PathBuf> {
    let users = editor_user_dirs(ctx, &["Code", "Code - Insiders"]);
    let mut paths = in_projects(ctx, &[".vscode", "mcp.json"]);
    paths.extend(users.iter().map(|dir| dir.join("mcp.json")));
    // The legacy settings.json block comes last: newer VS Code moved those servers to mcp.json.
    paths.extend(in_projects(ctx, &[".vscode", "settings.json"]));
    paths.extend(users.iter().map(|dir| dir.join("settings.json")));
    paths
}

fn parse(text: &str) -> Result<Vec<ParsedEntry>, ParseError> {
    let doc = document(parse_jsonc(text)?)?;
    let root = Node::Object(doc);
    let mut entries = servers_of(&root)?;
    if let Some(legacy @ Node::Object(_)) = root.get("mcp") {
        entries.extend(servers_of(legacy)?);
    }
    Ok(entries)
}

/// The `servers` of one block, with the `inputs` declared beside them.
fn servers_of(block: &Node) -> Result<Vec<ParsedEntry>, ParseError> {
    let Node::Object(fields) = block else { return Ok(Vec::new()) };
    let inputs = read_inputs(block.get("inputs"));
    Ok(translate_all(server_map(fields, "servers")?, None, |name, r| entry(name, r, &inputs)))
}

fn entry(name: &str, mut r: EntryReader, inputs: &[Input]) -> Result<Draft, EntryProblem> {
    let declared = read_type(&mut r)?;
    let url = r.string("url")?;
    // VS Code itself tries Streamable HTTP and falls back to SSE for an untyped url, as Plugboard's probe does.
    let mut draft = read_launch(&mut r, declared.as_deref(), url, BareUrl::Probe)?;
    if let Some(path) = r.string("envFile")? {
        keep_env_file(&mut draft, "VS Code", path);
    }
    if let Some(mut oauth) = r.object("oauth")? {
        let client_id = oauth.string("clientId")?;
        let scopes = oauth.words("scopes")?;
        draft.server.oauth = Some(RawOAuth { client_id, scopes, other: oauth.rest(), ..RawOAuth::default() });
    }
    inputs::apply(&mut draft, name, inputs);
    note_client_variables(&mut draft, "VS Code", is_editor_variable);
    Ok(draft.with_rest(r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::clients::common::paths::testing::*;
    use crate::import::clients::common::testing::*;

    const MCP_JSON: &str = fixture!("vscode/mcp.json");
    const SETTINGS: &str = fixture!("vscode/settings.json");

    /// Types map to transports; an untyped command is stdio; an unknown type is one Invalid entry.
    #[test]
    fn parses_servers_and_types() {
        let entries = parse(MCP_JSON).expect("parses");
        assert_eq!(
            names(&entries),
            ["perplexity", "github", "fetch", "sqlite", "legacy-sse", "undeclared", "websocket"]
        );
        assert_eq!(server(&entries, "github").server.kind.as_deref(), Some("http"));
        assert_eq!(server(&entries, "legacy-sse").server.kind.as_deref(), Some("sse"));
        assert_eq!(server(&entries, "sqlite").server.kind.as_deref(), Some("stdio"));
        assert!(invalid(&entries, "websocket").contains("unknown transport type \"ws\""));
    }

    /// A password input becomes `${secret:<id>}` with the `plugboard secret set` note, also inside `Bearer …`.
    #[test]
    fn password_inputs_become_secret_references() {
        let entries = parse(MCP_JSON).expect("parses");
        let perplexity = server(&entries, "perplexity");
        let env = perplexity.server.env.as_ref().expect("env");
        assert_eq!(env.get("PERPLEXITY_API_KEY").map(String::as_str), Some("${secret:perplexity-key}"));
        assert!(noted(perplexity, "VS Code input 'perplexity-key' (Perplexity API Key) is a secret"));
        assert!(noted(perplexity, "`plugboard secret set perplexity perplexity-key`"));
        let sse = server(&entries, "legacy-sse");
        let auth = sse.server.headers.as_ref().and_then(|h| h.get("Authorization")).map(String::as_str);
        assert_eq!(auth, Some("Bearer ${secret:perplexity-key}"));
    }

    /// Non-password and undeclared inputs keep their text and get a note.
    #[test]
    fn other_inputs_are_kept_and_noted() {
        let entries = parse(MCP_JSON).expect("parses");
        let sqlite = server(&entries, "sqlite");
        assert_eq!(sqlite.server.args.as_ref().map(|a| a[2].as_str()), Some("${input:db-name}"));
        assert!(noted(sqlite, "'db-name' (Database to open)"));
        assert!(noted(server(&entries, "undeclared"), "does not declare"));
    }

    /// `envFile` goes to `other` with a note; `${workspaceFolder}` is kept and noted.
    #[test]
    fn env_file_and_variables() {
        let entries = parse(MCP_JSON).expect("parses");
        let fetch = server(&entries, "fetch");
        assert!(fetch.server.other.contains_key("envFile"));
        assert!(noted(fetch, "envFile") && noted(fetch, "${workspaceFolder}"));
        assert_eq!(fetch.server.cwd.as_deref(), Some("${workspaceFolder}"));
    }

    /// The legacy `"mcp": {"servers", "inputs"}` block of settings.json reads the same way; other settings are ignored.
    #[test]
    fn legacy_settings_block() {
        let entries = parse(SETTINGS).expect("parses");
        assert_eq!(names(&entries), ["brave", "time"]);
        let brave = server(&entries, "brave");
        assert_eq!(
            brave.server.env.as_ref().and_then(|e| e.get("BRAVE_API_KEY")).map(String::as_str),
            Some("${secret:brave-key}")
        );
        assert_eq!(parse(r#"{ "editor.fontSize": 12 }"#), Ok(vec![]));
        assert_eq!(parse(&bom_crlf(SETTINGS)), Ok(entries));
    }

    /// Workspace files first, then the user dirs of Code, Insiders and VS Code Server; settings.json last.
    #[test]
    fn default_paths_per_os() {
        let linux_paths = default_paths(&linux());
        assert_eq!(linux_paths[0], p("/home/ada/src/app", &[".vscode", "mcp.json"]));
        assert_eq!(linux_paths[1], p("/home/ada", &[".config", "Code", "User", "mcp.json"]));
        assert_eq!(linux_paths[2], p("/home/ada", &[".config", "Code - Insiders", "User", "mcp.json"]));
        assert_eq!(linux_paths[3], p("/home/ada", &[".vscode-server", "data", "User", "mcp.json"]));
        assert!(linux_paths.contains(&p("/home/ada", &[".config", "Code", "User", "settings.json"])));
        assert_eq!(linux_paths.len(), 10);
        let mac = default_paths(&macos());
        assert_eq!(mac[1], p("/Users/ada", &["Library", "Application Support", "Code", "User", "mcp.json"]));
        let win = default_paths(&windows());
        assert_eq!(win[1], p(r"C:\Users\ada\AppData\Roaming", &["Code", "User", "mcp.json"]));
        assert_eq!(win.len(), 6, "no VS Code Server dirs on Windows: {win:?}");
    }
}
