//! Cursor's `mcp.json` (global `~/.cursor/mcp.json` and each project's `.cursor/mcp.json`): `mcpServers` with
//! commands or urls, an optional `type`, an `auth` block for pre-registered OAuth clients, and editor variables.

use std::path::PathBuf;

use super::common::entry::{Draft, EntryProblem, EntryReader};
use super::common::notes::{is_editor_variable, keep_env_file, note_client_variables};
use super::common::parse_mcp_servers_json;
use super::common::paths::in_projects;
use super::common::transport::{BareUrl, read_launch, read_type};
use crate::config::raw::RawOAuth;
use crate::import::{ClientSource, ParseError, ParsedEntry, PathContext};

pub const SOURCE: ClientSource = ClientSource { id: "cursor", label: "Cursor", default_paths, parse };

fn default_paths(ctx: &PathContext) -> Vec<PathBuf> {
    let mut paths = in_projects(ctx, &[".cursor", "mcp.json"]);
    paths.push(ctx.home.join(".cursor").join("mcp.json"));
    paths
}

fn parse(text: &str) -> Result<Vec<ParsedEntry>, ParseError> {
    parse_mcp_servers_json(text, entry)
}

fn entry(_name: &str, mut r: EntryReader) -> Result<Draft, EntryProblem> {
    let declared = read_type(&mut r)?;
    let url = r.string("url")?;
    let mut draft = read_launch(&mut r, declared.as_deref(), url, BareUrl::Probe)?;
    if let Some(path) = r.string("envFile")? {
        keep_env_file(&mut draft, "Cursor", path);
    }
    if let Some(auth) = r.object("auth")? {
        draft.server.oauth = Some(oauth(auth)?);
    }
    // `${env:X}` is Plugboard's syntax too; only Cursor's own variables need a person's attention.
    note_client_variables(&mut draft, "Cursor", is_editor_variable);
    Ok(draft.with_rest(r))
}

/// `auth{CLIENT_ID, CLIENT_SECRET, scopes}` → `oauth`. The secret is a literal in `oauth.clientSecret` only until
/// the secrets scan moves it into the keychain behind a reference there, where login reads it.
fn oauth(mut auth: EntryReader) -> Result<RawOAuth, EntryProblem> {
    let mut oauth = RawOAuth { client_id: auth.string("CLIENT_ID")?, ..RawOAuth::default() };
    oauth.client_secret = auth.string("CLIENT_SECRET")?;
    oauth.scopes = auth.words("scopes")?;
    oauth.other.extend(auth.rest());
    Ok(oauth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::clients::common::paths::testing::*;
    use crate::import::clients::common::testing::*;
    use serde_json::Value;

    const CONFIG: &str = fixture!("cursor/mcp.json");

    /// Remote urls are probed unless typed, commands are stdio, and each bad entry is reported on its own.
    #[test]
    fn parses_transports_and_bad_entries() {
        let entries = parse(CONFIG).expect("parses");
        assert_eq!(entries.len(), 8);
        let linear = &server(&entries, "linear").server;
        assert_eq!((linear.kind.as_deref(), linear.url.as_deref()), (None, Some("https://mcp.linear.app/sse")));
        assert_eq!(server(&entries, "playwright").server.kind.as_deref(), Some("sse"));
        assert_eq!(server(&entries, "postgres").server.kind.as_deref(), Some("stdio"));
        assert!(invalid(&entries, "typo").contains("no \"url\""));
        assert!(invalid(&entries, "shell-string").contains("not an object"));
    }

    /// `${env:X}` is kept verbatim and silently; `${userHome}`/`${workspaceFolder}` are kept and noted once each.
    #[test]
    fn variables_are_kept_and_editor_ones_noted() {
        let entries = parse(CONFIG).expect("parses");
        let context7 = server(&entries, "context7");
        assert_eq!(
            context7.server.headers.as_ref().and_then(|h| h.get("CONTEXT7_API_KEY")).map(String::as_str),
            Some("${env:CONTEXT7_API_KEY}")
        );
        assert!(context7.notes.is_empty(), "{:?}", context7.notes);
        let tools = server(&entries, "project-tools");
        assert_eq!(tools.server.command.as_deref(), Some("${userHome}/bin/project-tools-mcp"));
        assert!(noted(tools, "${userHome}") && noted(tools, "${workspaceFolder}"));
        assert_eq!(tools.notes.len(), 2, "{:?}", tools.notes);
    }

    /// `envFile` is kept in `other` and explained.
    #[test]
    fn env_file_is_kept_and_noted() {
        let entries = parse(CONFIG).expect("parses");
        let pg = server(&entries, "postgres");
        assert_eq!(pg.server.other.get("envFile"), Some(&Value::from("${workspaceFolder}/.env")));
        assert!(noted(pg, "envFile"));
    }

    /// `auth` becomes `oauth`: client id and space-joined scopes, the secret parked where the scan finds it.
    #[test]
    fn auth_becomes_oauth() {
        let entries = parse(CONFIG).expect("parses");
        let oauth = server(&entries, "acme").server.oauth.clone().expect("oauth");
        assert_eq!(oauth.client_id.as_deref(), Some("cursor-acme-client"));
        assert_eq!(oauth.scopes.as_deref(), Some("tickets:read tickets:write"));
        assert_eq!(oauth.client_secret.as_deref(), Some("acme-client-secret-value-0001"));
        let err = parse(r#"{"mcpServers":{"x":{"url":"https://x.example","auth":{"scopes":[{}]}}}}"#).expect("file");
        assert!(invalid(&err, "x").contains("\"scopes[0]\" must be text"));
    }

    /// BOM + CRLF changes nothing.
    #[test]
    fn bom_and_crlf_parse_the_same() {
        assert_eq!(parse(&bom_crlf(CONFIG)), parse(CONFIG));
    }

    /// Project files come first (they override the global one in Cursor), on every OS.
    #[test]
    fn default_paths_per_os() {
        assert_eq!(
            default_paths(&linux()),
            [p("/home/ada/src/app", &[".cursor", "mcp.json"]), p("/home/ada", &[".cursor", "mcp.json"])]
        );
        assert_eq!(default_paths(&macos())[1], p("/Users/ada", &[".cursor", "mcp.json"]));
        assert_eq!(
            default_paths(&windows()),
            [p(r"C:\src\app", &[".cursor", "mcp.json"]), p(r"C:\Users\ada", &[".cursor", "mcp.json"])]
        );
    }
}
