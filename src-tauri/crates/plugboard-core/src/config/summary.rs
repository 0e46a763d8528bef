//! What a person sees of a configured server before it connects: name, transport, target, enabled.

use serde::Serialize;

use super::raw::RawServer;

/// How Plugboard will reach a server, inferred from its entry the way DESIGN.md describes.
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
}

/// Every configured server, and where the file that holds them lives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ServerList {
    pub config_path: String,
    pub servers: Vec<ServerSummary>,
}

impl ServerSummary {
    /// Projects a raw entry; `None` when the entry names neither a command nor a URL.
    pub(crate) fn from_raw(name: &str, raw: &RawServer) -> Option<Self> {
        let (transport, target) = match (&raw.command, &raw.url) {
            // A remote entry is never turned into stdio, whatever else it carries.
            (_, Some(url)) => (remote_kind(raw.kind.as_deref()), url.clone()),
            (Some(command), None) => (TransportKind::Stdio, command_line(command, &raw.args)),
            (None, None) => return None,
        };
        Some(Self { name: name.to_owned(), transport, target, enabled: raw.enabled.unwrap_or(true) })
    }
}

fn remote_kind(kind: Option<&str>) -> TransportKind {
    match kind {
        Some("http" | "streamable-http" | "streamableHttp") => TransportKind::StreamableHttp,
        Some("sse") => TransportKind::Sse,
        _ => TransportKind::Probe,
    }
}

fn command_line(command: &str, args: &[String]) -> String {
    std::iter::once(command).chain(args.iter().map(String::as_str)).collect::<Vec<_>>().join(" ")
}
