//! Claude Code's servers: `~/.claude.json` holds user-scope servers at its top and local-scope ones under
//! `projects["/abs/path"]`; a project's `.mcp.json` holds project-scope ones. `${VAR}` and `${VAR:-default}` are
//! Plugboard's syntax too, so they are kept as written. `$CLAUDE_CONFIG_DIR` is not followed (it would need the
//! environment, which a path lookup does not read).

use std::path::PathBuf;

use serde_json::Value;

use super::common::entry::{Draft, EntryProblem, EntryReader, server_map, translate_all};
use super::common::node::{Node, document, parse_jsonc};
use super::common::paths::in_projects;
use super::common::transport::{BareUrl, read_launch, read_type};
use crate::config::raw::RawOAuth;
use crate::import::{ClientSource, ParseError, ParsedEntry, PathContext};

pub const SOURCE: ClientSource = ClientSource { id: "claude-code", label: "Claude Code", default_paths, parse };

fn default_paths(ctx: &PathContext) -> Vec<PathBuf> {
    let mut paths = in_projects(ctx, &[".mcp.json"]);
    paths.push(ctx.home.join(".claude.json"));
    paths
}

fn parse(text: &str) -> Result<Vec<ParsedEntry>, ParseError> {
    let doc = document(parse_jsonc(text)?)?;
    let mut entries = translate_all(server_map(&doc, "mcpServers")?, None, entry);
    if let Some(Node::Object(projects)) = doc.iter().rev().find(|(k, _)| k == "projects").map(|(_, v)| v) {
        for (path, project) in projects {
            let Node::Object(project) = project else { continue };
            let scope = format!("projects[{}]", Value::from(path.as_str()));
            // One project's malformed block must not hide the others' servers.
            match server_map(project, "mcpServers") {
                Ok(servers) => entries.extend(translate_all(servers, Some(&scope), entry)),
                Err(e) => entries.push(ParsedEntry::Invalid { name: scope, reason: e.message }),
            }
        }
    }
    Ok(entries)
}

/// Connections Claude Code makes to its own IDE extensions or SDK; they are not servers a person configured.
const INTERNAL_TYPES: &[&str] = &["sse-ide", "ws-ide", "sdk", "claudeai-proxy"];

fn entry(_name: &str, mut r: EntryReader) -> Result<Draft, EntryProblem> {
    let declared = read_type(&mut r)?;
    if let Some(kind) = declared.as_deref().filter(|k| INTERNAL_TYPES.contains(k)) {
        return Err(EntryProblem::new(format!(
            "a \"{kind}\" connection that Claude Code manages itself, not a server to import"
        )));
    }
    let url = r.string("url")?;
    let mut draft = read_launch(&mut r, declared.as_deref(), url, BareUrl::Probe)?;
    if let Some(helper) = r.take("headersHelper") {
        draft.keep("headersHelper", helper.into_json());
        draft.note(
            "Claude Code ran the `headersHelper` command to compute request headers; Plugboard keeps it but does \
             not run it, so add the headers this server needs (secrets as `${secret:…}`)",
        );
    }
    if let Some(oauth) = r.object("oauth")? {
        draft.server.oauth = Some(read_oauth(&mut draft, oauth)?);
    }
    Ok(draft.with_rest(r))
}

/// `oauth{clientId, callbackPort, authServerMetadataUrl, scopes}`: the fields Plugboard models are mapped, the
/// others kept under their own names.
fn read_oauth(draft: &mut Draft, mut oauth: EntryReader) -> Result<RawOAuth, EntryProblem> {
    let client_id = oauth.string("clientId")?;
    let scopes = oauth.words("scopes")?;
    if oauth.has("callbackPort") {
        draft.note(
            "Claude Code used a fixed OAuth callback port (`oauth.callbackPort`, kept); a pre-registered client may \
             only accept that redirect",
        );
    }
    Ok(RawOAuth { client_id, scopes, other: oauth.rest(), ..RawOAuth::default() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::clients::common::paths::testing::*;
    use crate::import::clients::common::testing::*;

    const USER_FILE: &str = fixture!("claude-code/claude.json");
    const PROJECT_FILE: &str = fixture!("claude-code/mcp.json");

    /// User-scope servers come first without a scope, then each project's local servers with its scope.
    #[test]
    fn user_and_local_scopes() {
        let entries = parse(USER_FILE).expect("parses");
        assert_eq!(
            names(&entries),
            ["sentry", "airtable", "internal-api", "acme", "ide", "stripe", "asana", "nothing"]
        );
        assert_eq!(server(&entries, "sentry").scope, None);
        assert_eq!(server(&entries, "stripe").scope.as_deref(), Some(r#"projects["/home/ada/src/shop"]"#));
        assert_eq!(server(&entries, "asana").server.kind.as_deref(), Some("sse"));
        assert_eq!(server(&entries, "sentry").server.kind.as_deref(), Some("http"));
        assert!(invalid(&entries, "nothing").contains("no \"command\""));
        assert!(invalid(&entries, "ide").contains("manages itself"));
    }

    /// `${VAR}` and `${VAR:-default}` stay as written, with no note.
    #[test]
    fn env_expansions_are_kept() {
        let entries = parse(USER_FILE).expect("parses");
        let airtable = server(&entries, "airtable");
        assert_eq!(
            airtable.server.env.as_ref().and_then(|e| e.get("AIRTABLE_API_KEY")).map(String::as_str),
            Some("${AIRTABLE_API_KEY}")
        );
        let api = server(&entries, "internal-api");
        assert_eq!(api.server.url.as_deref(), Some("${API_BASE_URL:-https://api.example.com}/mcp"));
    }

    /// `headersHelper` is kept in `other` with a note that it is not run.
    #[test]
    fn headers_helper_is_kept_not_run() {
        let entries = parse(USER_FILE).expect("parses");
        let api = server(&entries, "internal-api");
        assert_eq!(api.server.other.get("headersHelper"), Some(&Value::from("/opt/bin/get-mcp-auth-headers.sh")));
        assert!(noted(api, "not run"));
    }

    /// `oauth.clientId` maps to the model; `callbackPort` and `authServerMetadataUrl` are kept verbatim.
    #[test]
    fn oauth_is_mapped() {
        let entries = parse(USER_FILE).expect("parses");
        let acme = server(&entries, "acme");
        let oauth = acme.server.oauth.as_ref().expect("oauth");
        assert_eq!(oauth.client_id.as_deref(), Some("claude-code-acme"));
        assert_eq!(oauth.other.get("callbackPort"), Some(&Value::from(8080)));
        assert!(oauth.other.contains_key("authServerMetadataUrl"));
        assert!(noted(acme, "callbackPort"));
    }

    /// A project's `.mcp.json` has the same shape without projects; a broken project block is one Invalid entry.
    #[test]
    fn project_file_and_broken_project_block() {
        let entries = parse(PROJECT_FILE).expect("parses");
        assert_eq!(names(&entries), ["shared-db", "docs"]);
        assert_eq!(parse(&bom_crlf(PROJECT_FILE)), Ok(entries));
        let entries = parse(
            r#"{ "projects": { "/a": { "mcpServers": [] }, "/b": { "mcpServers": { "x": { "command": "y" } } } } }"#,
        )
        .expect("parses");
        assert!(invalid(&entries, r#"projects["/a"]"#).contains("must be an object"));
        assert_eq!(server(&entries, "x").scope.as_deref(), Some(r#"projects["/b"]"#));
    }

    /// Project `.mcp.json` files first, then `~/.claude.json`, on every OS.
    #[test]
    fn default_paths_per_os() {
        assert_eq!(
            default_paths(&linux()),
            [p("/home/ada/src/app", &[".mcp.json"]), p("/home/ada", &[".claude.json"])]
        );
        assert_eq!(default_paths(&macos())[1], p("/Users/ada", &[".claude.json"]));
        assert_eq!(
            default_paths(&windows()),
            [p(r"C:\src\app", &[".mcp.json"]), p(r"C:\Users\ada", &[".claude.json"])]
        );
    }
}
