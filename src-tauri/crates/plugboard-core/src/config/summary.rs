//! What a person sees of the configured servers before they connect: name, transport, target, enabled,
//! and the entries that need fixing.

use serde::Serialize;

use super::model::{Auth, HttpMode, ServerConfig, Transport};
use super::other_keys::other_keys;
use super::raw::RawConfigFile;
use super::validate::validate_server;

/// How Plugboard will reach a server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum TransportKind {
    /// A local process speaking JSON-RPC over stdin/stdout.
    Stdio,
    /// The Streamable HTTP transport (2025-03-26 and later).
    StreamableHttp,
    /// The legacy HTTP+SSE transport (2024-11-05).
    Sse,
    /// A bare URL: Streamable HTTP first, SSE when the initialize POST answers 400/404/405.
    Probe,
}

/// One configured server as listed in the UI and by `plugboard list`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ServerSummary {
    pub name: String,
    pub transport: TransportKind,
    /// The command line (stdio) or the URL (remote), as written in the file: references stay unexpanded.
    pub target: String,
    pub enabled: bool,
    /// The client it was imported from, if any.
    pub origin: Option<String>,
    /// Whether it may log in with OAuth: it has an `oauth` section, or it is a URL server with no credentials of its
    /// own (an OAuth server when it answers 401 with a challenge). The UI offers Log in when it needs a login.
    pub oauth: bool,
    /// How keys other clients write were read, and keys Plugboard does not know (kept in the file, ignored).
    pub notes: Vec<String>,
}

/// An entry of the file that cannot be used as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct InvalidServer {
    pub name: String,
    pub field: String,
    pub message: String,
}

/// Every configured server, and where the file that holds them lives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ServerList {
    pub config_path: String,
    pub servers: Vec<ServerSummary>,
    pub invalid: Vec<InvalidServer>,
    /// Why the file on disk is not in use (Plugboard then shows its last good version).
    pub file_problem: Option<String>,
}

impl ServerList {
    /// Validates every entry of `file` and sorts them into usable and invalid ones.
    pub fn from_file(config_path: String, file: &RawConfigFile, file_problem: Option<String>) -> Self {
        let mut servers = Vec::new();
        let mut invalid = Vec::new();
        for (name, raw) in &file.servers {
            match validate_server(name, raw) {
                Ok(config) => servers.push(ServerSummary {
                    notes: other_keys(raw).map(|keys| keys.notes).unwrap_or_default(),
                    ..ServerSummary::from(&config)
                }),
                Err(e) => invalid.push(InvalidServer { name: name.clone(), field: e.field, message: e.message }),
            }
        }
        for (name, entry) in &file.unreadable {
            invalid.push(InvalidServer {
                name: name.clone(),
                field: entry.field.clone(),
                message: entry.message.clone(),
            });
        }
        invalid.sort_by(|a, b| a.name.cmp(&b.name));
        Self { config_path, servers, invalid, file_problem }
    }
}

impl From<&ServerConfig> for ServerSummary {
    fn from(config: &ServerConfig) -> Self {
        let (transport, target) = match &config.transport {
            Transport::Stdio(stdio) => (TransportKind::Stdio, command_line(&stdio.command, &stdio.args)),
            Transport::Http(http) => (
                match http.mode {
                    HttpMode::StreamableHttp => TransportKind::StreamableHttp,
                    HttpMode::Sse => TransportKind::Sse,
                    HttpMode::Probe => TransportKind::Probe,
                },
                http.url.clone(),
            ),
        };
        Self {
            name: config.name.to_string(),
            transport,
            target,
            enabled: config.enabled,
            origin: config.origin.as_ref().map(|o| o.client.clone()),
            oauth: matches!((&config.transport, &config.auth), (_, Auth::OAuth(_)) | (Transport::Http(_), Auth::None)),
            notes: Vec::new(),
        }
    }
}

fn command_line(command: &str, args: &[String]) -> String {
    std::iter::once(command).chain(args.iter().map(String::as_str)).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Usable entries are summarised with their transport and whether they log in with OAuth; broken ones are listed
    /// apart with their field.
    #[test]
    fn entries_are_sorted_into_servers_and_invalid() {
        let file: RawConfigFile = serde_json::from_str(
            r#"{ "mcpServers": {
                "a": { "command": "npx", "args": ["-y", "pkg"] },
                "b": { "type": "http", "url": "https://x/mcp", "oauth": {} },
                "c": { "type": "sse", "url": "https://x/sse", "origin": { "client": "cursor", "path": "/p" }, "headers": { "X-Key": "${secret:k}" } },
                "d": { "url": "https://x/", "enabled": false },
                "ghost": { "args": [] } } }"#,
        )
        .expect("parse");
        let list = ServerList::from_file("/cfg/servers.json".into(), &file, None);
        let kinds: Vec<_> = list.servers.iter().map(|s| (s.name.as_str(), s.transport, s.enabled)).collect();
        assert_eq!(
            kinds,
            [
                ("a", TransportKind::Stdio, true),
                ("b", TransportKind::StreamableHttp, true),
                ("c", TransportKind::Sse, true),
                ("d", TransportKind::Probe, false),
            ]
        );
        assert_eq!(list.servers[0].target, "npx -y pkg");
        assert_eq!(list.servers[2].origin.as_deref(), Some("cursor"));
        let oauth: Vec<_> = list.servers.iter().map(|s| s.oauth).collect();
        assert_eq!(oauth, [false, true, false, true], "a URL server without credentials of its own may log in");
        assert_eq!(
            list.invalid,
            [InvalidServer { name: "ghost".into(), field: "command".into(), message: list.invalid[0].message.clone() }]
        );
    }
}
