//! Continue's `~/.continue/config.yaml`: `mcpServers` is a YAML list of `{name, type, command, args, env, url}`.
//! Continue's `${{ secrets.NAME }}` becomes a Plugboard `${secret:NAME}`; Hub blocks (`uses:`) cannot be imported.
//! The per-server files under `.continue/mcpServers/` have the same shape, but listing a folder is I/O, so they
//! are not among the default paths.

use std::path::PathBuf;

use super::common::entry::{Draft, EntryProblem, EntryReader, translate_all};
use super::common::node::{Node, document, parse_yaml};
use super::common::notes::each_text_mut;
use super::common::transport::{BareUrl, read_launch, read_type};
use crate::import::secrets_scan::secret_name;
use crate::import::{ClientSource, ParseError, ParsedEntry, PathContext};

pub const SOURCE: ClientSource = ClientSource { id: "continue", label: "Continue", default_paths, parse };

fn default_paths(ctx: &PathContext) -> Vec<PathBuf> {
    vec![ctx.home.join(".continue").join("config.yaml")]
}

fn parse(text: &str) -> Result<Vec<ParsedEntry>, ParseError> {
    let doc = document(parse_yaml(text)?)?;
    let entries = match Node::Object(doc).get("mcpServers") {
        None | Some(Node::Null) => Vec::new(),
        Some(Node::List(items)) => {
            items.iter().enumerate().map(|(i, item)| (list_name(item, i), item.clone())).collect()
        }
        // Some people write a map of name → server; it is unambiguous, so it is read too.
        Some(Node::Object(pairs)) => pairs.clone(),
        Some(other) => {
            return Err(ParseError {
                message: format!("\"mcpServers\" must be a list of servers, found {}", other.describe()),
                position: None,
            });
        }
    };
    Ok(translate_all(entries, None, entry))
}

/// A list item's `name`, or where it sits when it has none.
fn list_name(item: &Node, index: usize) -> String {
    match (item.get("name"), item.get("uses")) {
        (Some(Node::String(name)), _) if !name.trim().is_empty() => name.clone(),
        (_, Some(Node::String(uses))) => uses.clone(),
        _ => format!("mcpServers[{index}]"),
    }
}

fn entry(name: &str, mut r: EntryReader) -> Result<Draft, EntryProblem> {
    if let Some(uses) = r.string("uses")? {
        return Err(EntryProblem::new(format!(
            "it is a Continue Hub block (`uses: {uses}`), which only Continue can fetch; add the server by hand"
        )));
    }
    let named = r.string("name")?.is_some_and(|n| !n.trim().is_empty());
    if !named && name.starts_with("mcpServers[") {
        return Err(EntryProblem::new("it has no \"name\""));
    }
    let declared = read_type(&mut r)?;
    let url = r.string("url")?;
    let mut draft = read_launch(&mut r, declared.as_deref(), url, BareUrl::Probe)?;
    if let Some(mut options) = r.object("requestOptions")? {
        if draft.server.headers.is_none() {
            draft.server.headers = options.string_map("headers")?;
        }
        let rest = options.rest();
        if !rest.is_empty() {
            draft.keep("requestOptions", rest.into());
        }
    }
    templates(&mut draft, name);
    Ok(draft.with_rest(r))
}

/// `${{ secrets.NAME }}` → `${secret:NAME}` (noted: the person sets it once); other templates are kept and noted.
fn templates(draft: &mut Draft, server: &str) {
    let mut secrets: Vec<String> = Vec::new();
    let mut others: Vec<String> = Vec::new();
    each_text_mut(&mut draft.server, |text| {
        let mut out = String::with_capacity(text.len());
        let mut rest = text.as_str();
        while let Some(start) = rest.find("${{") {
            let Some(len) = rest[start..].find("}}") else { break };
            let inner = rest[start + 3..start + len].trim();
            out.push_str(&rest[..start]);
            match inner.strip_prefix("secrets.") {
                Some(secret) => {
                    let name = secret_name(secret);
                    out.push_str(&format!("${{secret:{name}}}"));
                    if !secrets.contains(&name) {
                        secrets.push(name);
                    }
                }
                None => {
                    out.push_str(&rest[start..start + len + 2]);
                    if !others.iter().any(|o| o == inner) {
                        others.push(inner.to_owned());
                    }
                }
            }
            rest = &rest[start + len + 2..];
        }
        out.push_str(rest);
        *text = out;
    });
    for name in secrets {
        draft.note(format!("Continue secret '{name}': set it with `plugboard secret set {server} {name}`"));
    }
    for template in others {
        draft.note(format!(
            "`${{{{ {template} }}}}` is a Continue template Plugboard cannot fill in; the text was kept, replace it \
             with a real value"
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::clients::common::paths::testing::*;
    use crate::import::clients::common::testing::*;

    const CONFIG: &str = fixture!("continue/config.yaml");

    /// The YAML list is read in order, named by `name`; `uses:` blocks, WebSocket and nameless items are Invalid.
    #[test]
    fn parses_the_list() {
        let entries = parse(CONFIG).expect("parses");
        assert_eq!(
            names(&entries),
            ["SQLite", "GitHub", "Remote Docs", "Events", "Socket", "anthropic/memory-mcp", "mcpServers[6]"]
        );
        assert_eq!(server(&entries, "SQLite").server.kind.as_deref(), Some("stdio"));
        assert!(!server(&entries, "SQLite").server.other.contains_key("name"));
        assert_eq!(server(&entries, "Remote Docs").server.kind.as_deref(), Some("http"));
        assert_eq!(server(&entries, "Events").server.kind.as_deref(), Some("sse"));
        assert!(invalid(&entries, "Socket").contains("websocket"));
        assert!(invalid(&entries, "anthropic/memory-mcp").contains("Continue Hub"));
        assert!(invalid(&entries, "mcpServers[6]").contains("no \"name\""));
    }

    /// requestOptions.headers become headers.
    #[test]
    fn request_option_headers() {
        let entries = parse(CONFIG).expect("parses");
        let docs = &server(&entries, "Remote Docs").server;
        assert_eq!(docs.headers.as_ref().and_then(|h| h.get("X-Docs-Team")).map(String::as_str), Some("continue"));
        assert!(!docs.other.contains_key("requestOptions"));
    }

    /// `${{ secrets.X }}` becomes `${secret:X}` with a note; `${{ inputs.X }}` is kept with a note.
    #[test]
    fn templates_are_translated() {
        let entries = parse(CONFIG).expect("parses");
        let gh = server(&entries, "GitHub");
        let env = gh.server.env.as_ref().expect("env");
        assert_eq!(env.get("GITHUB_PERSONAL_ACCESS_TOKEN").map(String::as_str), Some("${secret:GITHUB_PAT}"));
        assert!(noted(gh, "`plugboard secret set GitHub GITHUB_PAT`"));
        let events = server(&entries, "Events");
        assert_eq!(
            events.server.env.as_ref().and_then(|e| e.get("REGION")).map(String::as_str),
            Some("${{ inputs.region }}")
        );
        assert!(noted(events, "inputs.region"));
    }

    /// A map instead of a list is accepted; a scalar `mcpServers` is a file error; CRLF is fine.
    #[test]
    fn other_shapes() {
        let map = parse("mcpServers:\n  time:\n    command: uvx\n    args: [mcp-server-time]\n").expect("map");
        assert_eq!(server(&map, "time").server.command.as_deref(), Some("uvx"));
        assert!(parse("mcpServers: 3\n").expect_err("scalar").message.contains("must be a list"));
        assert_eq!(parse(&CONFIG.replace('\n', "\r\n")), parse(CONFIG));
    }

    /// ~/.continue/config.yaml on every OS.
    #[test]
    fn default_paths_per_os() {
        assert_eq!(default_paths(&linux()), [p("/home/ada", &[".continue", "config.yaml"])]);
        assert_eq!(default_paths(&macos()), [p("/Users/ada", &[".continue", "config.yaml"])]);
        assert_eq!(default_paths(&windows()), [p(r"C:\Users\ada", &[".continue", "config.yaml"])]);
    }
}
