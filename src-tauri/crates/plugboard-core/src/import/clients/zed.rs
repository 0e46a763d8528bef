//! Zed's `settings.json` (JSONC) `context_servers`: `{command, args, env}`, the older `{command: {path, args, env}}`,
//! or `{url, headers}`. Servers that a Zed extension provides carry no command, so they cannot be imported.

use std::path::PathBuf;

use super::common::entry::{Draft, EntryProblem, EntryReader, server_map, translate_all};
use super::common::node::{Node, document, parse_jsonc};
use super::common::paths::{app_config_dir, in_projects, join_all, xdg_config_dir};
use super::common::transport::{BareUrl, read_launch, read_type};
use crate::import::{ClientSource, Os, ParseError, ParsedEntry, PathContext};

pub const SOURCE: ClientSource = ClientSource { id: "zed", label: "Zed", default_paths, parse };

fn default_paths(ctx: &PathContext) -> Vec<PathBuf> {
    let mut paths = in_projects(ctx, &[".zed", "settings.json"]);
    match ctx.os {
        // Zed uses ~/.config/zed on macOS too, not Application Support.
        Os::Linux | Os::MacOs => paths.push(xdg_config_dir(ctx).join("zed").join("settings.json")),
        Os::Windows => paths.push(app_config_dir(ctx).join("Zed").join("settings.json")),
    }
    if ctx.os == Os::Linux {
        // The Flatpak build keeps its config inside the sandbox's own dir.
        paths.push(join_all(&ctx.home, &[".var", "app", "dev.zed.Zed", "config", "zed", "settings.json"]));
    }
    paths
}

fn parse(text: &str) -> Result<Vec<ParsedEntry>, ParseError> {
    let doc = document(parse_jsonc(text)?)?;
    Ok(translate_all(server_map(&doc, "context_servers")?, None, entry))
}

fn entry(_name: &str, mut r: EntryReader) -> Result<Draft, EntryProblem> {
    let source = r.take("source");
    let settings = r.take("settings");
    let legacy = match r.take("command") {
        Some(Node::Object(fields)) => Some(legacy_command(&mut r, fields)?),
        Some(other) => {
            r.put("command", other);
            None
        }
        None => None,
    };
    let url = r.string("url")?;
    if url.is_none() && !r.has("command") && (source.is_some() || settings.is_some()) {
        return Err(EntryProblem::new(
            "it is provided by a Zed extension, which starts it itself; the settings do not say how to run it, so \
             add it to Plugboard by hand (or from a preset)",
        ));
    }
    let declared = read_type(&mut r)?;
    let mut draft = read_launch(&mut r, declared.as_deref(), url, BareUrl::Probe)?;
    if let Some((args, env)) = legacy {
        let server = &mut draft.server;
        server.args = server.args.take().or(args);
        server.env = server.env.take().or(env);
    }
    if r.bool("enabled")? == Some(false) {
        draft.server.enabled = Some(false);
    }
    if let Some(source) = source {
        draft.keep("source", source.into_json());
    }
    if let Some(settings) = settings {
        if !matches!(&settings, Node::Object(fields) if fields.is_empty()) {
            draft.note("Zed passed `settings` to this server's extension; Plugboard keeps them but does not use them");
        }
        draft.keep("settings", settings.into_json());
    }
    Ok(draft.with_rest(r))
}

type LegacyLaunch = (Option<Vec<String>>, Option<std::collections::BTreeMap<String, String>>);

/// `command: {path, args, env}` → the path becomes the command; args and env are returned for the caller.
fn legacy_command(r: &mut EntryReader, fields: Vec<(String, Node)>) -> Result<LegacyLaunch, EntryProblem> {
    let mut command = EntryReader::new(Node::Object(fields))?;
    let path =
        command.string("path")?.ok_or_else(|| EntryProblem::new("its `command` object has no \"path\" to run"))?;
    let launch = (command.strings("args")?, command.string_map("env")?);
    r.put("command", Node::String(path));
    // Anything else the old object held stays visible beside the entry instead of vanishing.
    for (key, value) in command.into_fields() {
        r.put(&format!("command.{key}"), value);
    }
    Ok(launch)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::clients::common::paths::testing::*;
    use crate::import::clients::common::testing::*;
    use serde_json::Value;

    const SETTINGS: &str = fixture!("zed/settings.json");

    /// The flat shape, the legacy `command` object and a url entry all translate; comments are fine.
    #[test]
    fn three_shapes() {
        let entries = parse(SETTINGS).expect("parses");
        let gh = &server(&entries, "mcp-server-github").server;
        assert_eq!((gh.kind.as_deref(), gh.command.as_deref()), (Some("stdio"), Some("docker")));
        assert_eq!(
            gh.env.as_ref().and_then(|e| e.get("GITHUB_PERSONAL_ACCESS_TOKEN")).map(String::as_str),
            Some("${GITHUB_TOKEN}")
        );
        let sqlite = &server(&entries, "sqlite").server;
        assert_eq!(sqlite.command.as_deref(), Some("uvx"));
        assert_eq!(sqlite.args.as_ref().map(Vec::len), Some(3));
        let docs = &server(&entries, "remote-docs").server;
        assert_eq!((docs.kind.as_deref(), docs.url.as_deref()), (None, Some("https://docs.example.com/mcp")));
        assert_eq!(parse(&bom_crlf(SETTINGS)), Ok(entries));
    }

    /// Extension-provided servers are Invalid with a reason; a legacy command without a path is Invalid.
    #[test]
    fn extension_servers_are_invalid() {
        let entries = parse(SETTINGS).expect("parses");
        assert!(invalid(&entries, "mcp-server-context7").contains("Zed extension"));
        assert!(invalid(&entries, "postgres").contains("Zed extension"));
        assert!(invalid(&entries, "bad-legacy").contains("no \"path\""));
    }

    /// `source` is kept silently; non-empty `settings` are kept with a note; empty ones without.
    #[test]
    fn source_and_settings_are_kept() {
        let entries = parse(SETTINGS).expect("parses");
        let gh = server(&entries, "mcp-server-github");
        assert_eq!(gh.server.other.get("source"), Some(&Value::from("custom")));
        assert!(gh.notes.is_empty());
        let sqlite = server(&entries, "sqlite");
        assert!(sqlite.server.other.contains_key("settings") && sqlite.notes.is_empty());
        let with = parse(r#"{"context_servers":{"x":{"command":"y","settings":{"k":1}}}}"#).expect("parses");
        assert!(noted(server(&with, "x"), "settings"));
    }

    /// ~/.config/zed on Linux (XDG) and macOS, %APPDATA%\Zed on Windows, projects' .zed first.
    #[test]
    fn default_paths_per_os() {
        assert_eq!(
            default_paths(&linux()),
            [
                p("/home/ada/src/app", &[".zed", "settings.json"]),
                p("/home/ada", &[".config", "zed", "settings.json"]),
                p("/home/ada", &[".var", "app", "dev.zed.Zed", "config", "zed", "settings.json"]),
            ]
        );
        assert_eq!(default_paths(&linux_xdg())[1], p("/home/ada/.xdg", &["zed", "settings.json"]));
        assert_eq!(default_paths(&macos())[1], p("/Users/ada", &[".config", "zed", "settings.json"]));
        assert_eq!(default_paths(&windows())[1], p(r"C:\Users\ada\AppData\Roaming", &["Zed", "settings.json"]));
    }
}
