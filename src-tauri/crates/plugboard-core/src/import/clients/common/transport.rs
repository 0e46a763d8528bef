//! Deciding how Plugboard talks to an imported server, and reading the launch fields most clients share.
//! It must never turn an entry that names a remote URL into a command to run.

use super::entry::{Draft, EntryProblem, EntryReader};

/// What a `url` with no declared type means in a given client's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BareUrl {
    /// Unknown: Plugboard tries Streamable HTTP and falls back to SSE (the spec's rule).
    Probe,
    /// The client only ever spoke legacy HTTP+SSE over such a url (Cline, Gemini's `url`).
    Sse,
    /// The client only ever spoke Streamable HTTP over such a url (Gemini's `httpUrl`, Codex).
    Http,
}

/// The transport an entry resolves to, as `RawServer::kind` spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Transport {
    Stdio,
    /// `None` means probe.
    Remote(Option<&'static str>),
}

impl Transport {
    fn kind(self) -> Option<String> {
        match self {
            Transport::Stdio => Some("stdio".into()),
            Transport::Remote(kind) => kind.map(str::to_owned),
        }
    }
}

/// Maps a declared `type` to a transport; spellings differ between clients only in case and separators.
pub(crate) fn declared_transport(declared: &str) -> Result<Transport, EntryProblem> {
    let folded: String = declared.chars().filter(|c| !matches!(c, '-' | '_')).collect::<String>().to_lowercase();
    match folded.as_str() {
        "stdio" => Ok(Transport::Stdio),
        "http" | "streamablehttp" => Ok(Transport::Remote(Some("http"))),
        "sse" => Ok(Transport::Remote(Some("sse"))),
        _ => Err(EntryProblem::new(format!(
            "unknown transport type \"{declared}\" (Plugboard speaks stdio, Streamable HTTP and SSE)"
        ))),
    }
}

/// The transport of an entry from its declared type and which of command and url it has.
/// Returns a note when one of the two was left out.
pub(crate) fn resolve(
    declared: Option<&str>,
    has_command: bool,
    has_url: bool,
    bare_url: BareUrl,
) -> Result<(Transport, Option<&'static str>), EntryProblem> {
    match declared.map(declared_transport).transpose()? {
        Some(Transport::Stdio) => match (has_command, has_url) {
            (true, false) => Ok((Transport::Stdio, None)),
            (true, true) => Ok((Transport::Stdio, Some("its type is stdio, so the url it also had was left out"))),
            (false, true) => Err(EntryProblem::new(
                "its type is stdio but it has only a url; correct the type to import it as a remote server",
            )),
            (false, false) => Err(EntryProblem::new("its type is stdio but it has no \"command\" to run")),
        },
        Some(remote) => match (has_url, has_command) {
            (true, false) => Ok((remote, None)),
            (true, true) => Ok((remote, Some("it is a remote server, so the command it also had was left out"))),
            // A remote type with only a command is contradictory; running the command would be a guess.
            (false, _) => {
                Err(EntryProblem::new(format!("its type is {} but it has no \"url\"", declared.unwrap_or_default())))
            }
        },
        None => {
            let remote = Transport::Remote(match bare_url {
                BareUrl::Probe => None,
                BareUrl::Sse => Some("sse"),
                BareUrl::Http => Some("http"),
            });
            match (has_url, has_command) {
                (true, false) => Ok((remote, None)),
                // Remote wins: connecting to a url runs nothing on this machine.
                (true, true) => Ok((
                    remote,
                    Some(
                        "it has both a command and a url; it was imported as the remote server and the command was left out",
                    ),
                )),
                (false, true) => Ok((Transport::Stdio, None)),
                (false, false) => {
                    Err(EntryProblem::new("it has neither a \"command\" (a local server) nor a \"url\" (a remote one)"))
                }
            }
        }
    }
}

/// Reads `command`, `args`, `env`, `cwd` and `headers`, then settles the transport from `declared` and `url`
/// (which the caller reads, because clients name them differently).
pub(crate) fn read_launch(
    r: &mut EntryReader,
    declared: Option<&str>,
    url: Option<String>,
    bare_url: BareUrl,
) -> Result<Draft, EntryProblem> {
    let command = r.string("command")?.filter(|c| !c.trim().is_empty());
    let url = url.filter(|u| !u.trim().is_empty());
    let mut draft = Draft::default();
    let (transport, dropped) = resolve(declared, command.is_some(), url.is_some(), bare_url)?;
    if let Some(note) = dropped {
        draft.note(note);
    }
    let server = &mut draft.server;
    server.kind = transport.kind();
    server.args = r.strings("args")?;
    server.env = r.string_map("env")?;
    server.cwd = r.string("cwd")?;
    server.headers = r.string_map("headers")?;
    match transport {
        Transport::Stdio => server.command = command,
        Transport::Remote(_) => server.url = url,
    }
    Ok(draft)
}

/// Reads the usual `type` key.
pub(crate) fn read_type(r: &mut EntryReader) -> Result<Option<String>, EntryProblem> {
    Ok(r.string("type")?.filter(|t| !t.trim().is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HTTP: Transport = Transport::Remote(Some("http"));
    const SSE: Transport = Transport::Remote(Some("sse"));
    const PROBE: Transport = Transport::Remote(None);

    /// The inference table: declared type × command × url × the client's bare-url rule.
    #[test]
    fn transport_inference_table() {
        use BareUrl::*;
        let ok = |d, c, u, b| resolve(d, c, u, b).map(|(t, _)| t).ok();
        let table = [
            // declared, command, url, bare url rule, expected (None = Invalid)
            (None, true, false, Probe, Some(Transport::Stdio)),
            (None, false, true, Probe, Some(PROBE)),
            (None, false, true, Sse, Some(SSE)),
            (None, false, true, Http, Some(HTTP)),
            (None, true, true, Probe, Some(PROBE)),
            (None, true, true, Sse, Some(SSE)),
            (None, false, false, Probe, None),
            (Some("stdio"), true, false, Probe, Some(Transport::Stdio)),
            (Some("stdio"), true, true, Probe, Some(Transport::Stdio)),
            (Some("stdio"), false, true, Probe, None),
            (Some("http"), false, true, Sse, Some(HTTP)),
            (Some("streamableHttp"), false, true, Sse, Some(HTTP)),
            (Some("streamable-http"), false, true, Probe, Some(HTTP)),
            (Some("Streamable_HTTP"), false, true, Probe, Some(HTTP)),
            (Some("sse"), false, true, Http, Some(SSE)),
            (Some("sse"), true, true, Probe, Some(SSE)),
            (Some("http"), true, false, Probe, None),
            (Some("websocket"), false, true, Probe, None),
        ];
        for (declared, command, url, bare, expected) in table {
            assert_eq!(ok(declared, command, url, bare), expected, "{declared:?} command={command} url={url} {bare:?}");
        }
    }

    /// No combination that has a url ever resolves to stdio unless the type says stdio and a command exists.
    #[test]
    fn a_url_never_becomes_stdio_without_a_command() {
        for declared in [None, Some("stdio"), Some("http"), Some("sse"), Some("streamableHttp")] {
            for bare in [BareUrl::Probe, BareUrl::Sse, BareUrl::Http] {
                if let Ok((t, _)) = resolve(declared, false, true, bare) {
                    assert_ne!(t, Transport::Stdio, "{declared:?}");
                }
            }
        }
    }

    /// An empty command or url counts as absent, and the dropped half of a both-entry is noted.
    #[test]
    fn empty_fields_are_absent_and_drops_are_noted() {
        let node = super::super::node::parse_jsonc(r#"{ "command": " ", "url": "https://x.example/mcp" }"#);
        let mut r = EntryReader::new(node.expect("valid")).expect("object");
        let url = r.string("url").expect("text");
        let draft = read_launch(&mut r, None, url, BareUrl::Probe).expect("remote");
        assert_eq!((draft.server.kind, draft.server.command), (None, None));
        assert!(draft.notes.is_empty());

        let node = super::super::node::parse_jsonc(r#"{ "command": "npx", "url": "https://x.example/mcp" }"#);
        let mut r = EntryReader::new(node.expect("valid")).expect("object");
        let url = r.string("url").expect("text");
        let draft = read_launch(&mut r, None, url, BareUrl::Probe).expect("remote");
        assert_eq!(draft.server.command, None);
        assert_eq!(draft.server.url.as_deref(), Some("https://x.example/mcp"));
        assert_eq!(draft.notes.len(), 1);
    }
}
