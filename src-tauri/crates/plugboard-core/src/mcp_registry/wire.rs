//! One page of an MCP Registry's `GET /v0.1/servers` answer, parsed: `{"servers": [{"server": <server.json>,
//! "_meta": {"io.modelcontextprotocol.registry/official": {"status", "isLatest", …}}}], "metadata": {"nextCursor"}}`.
//! Each entry is checked on its own, so one malformed or unusable entry is skipped with its reason instead of losing
//! the page; only `active` entries (or ones a minimal registry gives no status) are offered. Pure: no I/O, so the
//! parser can be fuzzed.

use serde::{Deserialize, Serialize};

use crate::presets::Preset;
use crate::presets::raw::RawServerJson;

/// The `_meta` key under which the official registry puts what it manages about an entry.
const OFFICIAL_META: &str = "io.modelcontextprotocol.registry/official";

/// An entry that can be offered: active and runnable here.
#[derive(Debug, Clone)]
pub struct PageEntry {
    pub name: String,
    pub version: String,
    pub preset: Preset,
    /// The entry's own `server.json`, kept so that adding it later needs no network.
    pub server_json: serde_json::Value,
}

/// An entry left out, and why (a fixed sentence plus what the entry said).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Skipped {
    /// The entry's name, or `entry N` when it has none.
    pub name: String,
    pub reason: String,
}

/// A parsed page.
#[derive(Debug, Clone, Default)]
pub struct Page {
    pub entries: Vec<PageEntry>,
    pub skipped: Vec<Skipped>,
    /// Where the next page starts; `None` on the last page.
    pub next_cursor: Option<String>,
}

/// Why a whole page could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the registry's answer is not a list of servers: {0}")]
pub struct MalformedPage(String);

#[derive(Deserialize)]
struct RawPage {
    servers: Vec<serde_json::Value>,
    #[serde(default)]
    metadata: RawMetadata,
}

#[derive(Default, Deserialize)]
struct RawMetadata {
    #[serde(rename = "nextCursor", alias = "next_cursor")]
    next_cursor: Option<String>,
}

#[derive(Deserialize)]
struct RawEntry {
    server: serde_json::Value,
    #[serde(rename = "_meta", default)]
    meta: serde_json::Map<String, serde_json::Value>,
}

/// Parses one page's text.
pub fn parse_page(text: &str) -> Result<Page, MalformedPage> {
    let raw: RawPage = serde_json::from_str(text).map_err(|e| MalformedPage(e.to_string()))?;
    let mut page = Page { next_cursor: raw.metadata.next_cursor.filter(|c| !c.is_empty()), ..Page::default() };
    for (index, value) in raw.servers.into_iter().enumerate() {
        match parse_entry(value) {
            Ok(entry) => page.entries.push(entry),
            Err((name, reason)) => {
                page.skipped.push(Skipped { name: name.unwrap_or_else(|| format!("entry {}", index + 1)), reason });
            }
        }
    }
    Ok(page)
}

/// Parses a single `ServerResponse` (`{"server": …, "_meta": …}`), as the versions endpoint answers.
pub fn parse_entry(value: serde_json::Value) -> Result<PageEntry, (Option<String>, String)> {
    let entry: RawEntry = serde_json::from_value(value).map_err(|e| (None, format!("not a registry entry ({e})")))?;
    let name = entry.server.get("name").and_then(serde_json::Value::as_str).map(str::to_owned);
    let fail = |reason: String| (name.clone(), reason);
    let status = entry
        .meta
        .get(OFFICIAL_META)
        .and_then(|official| official.get("status"))
        .and_then(serde_json::Value::as_str)
        .unwrap_or("active");
    if status != "active" {
        return Err(fail(format!("its status is {status:?}: only active servers are offered")));
    }
    let raw: RawServerJson = serde_json::from_value(entry.server.clone())
        .map_err(|e| fail(format!("its server.json is malformed ({e})")))?;
    let version =
        raw.version.clone().filter(|v| !v.trim().is_empty()).ok_or_else(|| fail("it has no version".into()))?;
    let preset = Preset::validate(raw).map_err(|e| fail(format!("it cannot run here: {}", e.reason)))?;
    Ok(PageEntry { name: preset.name.clone(), version, preset, server_json: entry.server })
}
