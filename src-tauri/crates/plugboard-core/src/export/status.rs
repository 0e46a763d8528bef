//! What `clients list` shows for each client: the files looked at, whether Plugboard's entry is there and current,
//! and which of the client's own entries duplicate servers Plugboard has. It only reads; it must never write.

use serde::Serialize;
use serde_json::Value;

use super::budget::{ToolBudget, budget};
use super::change::ExportContext;
use super::entry::PlugboardEntry;
use super::targets::{ClientTarget, all_targets};
use super::verify;
use crate::config::raw::{RawConfigFile, RawServer};
use crate::import::ParsedEntry;

/// One file a client may read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct LookedAt {
    pub path: String,
    pub found: bool,
}

/// Whether the client's file has Plugboard's entry, and whether it launches this Plugboard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "state", rename_all = "camelCase")]
pub enum Connection {
    NotConnected,
    /// It launches this binary with `serve --stdio`, and the profile (if any) exists.
    Current {
        profile: Option<String>,
    },
    /// It is there but launches something else (another binary, an unknown profile, other arguments).
    Stale {
        reason: String,
    },
}

/// One client as `clients list` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ClientStatus {
    pub client: String,
    pub label: String,
    /// The file connect writes.
    pub file: String,
    pub looked_at: Vec<LookedAt>,
    pub connection: Connection,
    /// The client's own entries that launch or reach a server Plugboard already has.
    pub duplicates: Vec<String>,
    /// Why the file could not be read, when it could not.
    pub problem: Option<String>,
    /// A restore is possible.
    pub has_backup: bool,
    /// How many tools it sees (or would) through Plugboard, against its limit.
    pub budget: ToolBudget,
}

impl ExportContext {
    /// Every client's status, in `all_targets` order.
    pub fn statuses(&self) -> Vec<ClientStatus> {
        all_targets().iter().map(|t| self.status(t)).collect()
    }

    /// One client's status.
    pub fn status(&self, target: &ClientTarget) -> ClientStatus {
        let looked_at = target
            .candidate_paths(&self.paths)
            .into_iter()
            .map(|p| LookedAt { found: p.exists(), path: p.display().to_string() })
            .collect();
        let has_backup = super::backup::load(&self.backups_dir, target.id).ok().flatten().is_some();
        let mut status = ClientStatus {
            client: target.id.to_owned(),
            label: target.label.to_owned(),
            file: target.file(&self.paths).display().to_string(),
            looked_at,
            connection: Connection::NotConnected,
            duplicates: Vec::new(),
            problem: None,
            has_backup,
            budget: self.budget(target.id, None),
        };
        let read = self.read(target).and_then(|(path, text)| {
            let duplicates = self.duplicates(target, &path, text.as_deref())?;
            Ok((text, duplicates))
        });
        match read {
            Ok((text, duplicates)) => {
                status.duplicates = duplicates;
                let doc = verify::document(target.format, text.as_deref().unwrap_or(""));
                if let Ok(doc) = doc {
                    let (_, servers) = verify::split(target.format, doc);
                    if let Some(entry) = verify::our_entry(&servers) {
                        status.connection = self.connection(target, entry);
                    }
                }
            }
            Err(e) => status.problem = Some(e.to_string()),
        }
        if let Connection::Current { profile: Some(profile) } = &status.connection {
            status.budget = self.budget(target.id, Some(profile));
        }
        status
    }

    /// `client`'s tool budget when connected with `profile` (none: every curated tool).
    pub fn budget(&self, client: &str, profile: Option<&str>) -> ToolBudget {
        budget(client, profile, &self.servers, &self.tools, &self.chosen)
    }

    fn connection(&self, target: &ClientTarget, entry: &Value) -> Connection {
        let command = entry.get("command").and_then(Value::as_str).unwrap_or_default();
        if command != self.binary.display().to_string() {
            return Connection::Stale { reason: format!("it launches {command:?}, not this Plugboard") };
        }
        let args: Vec<&str> =
            entry.get("args").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
        let profile = match args.as_slice() {
            ["serve", "--stdio"] => None,
            ["serve", "--stdio", "--profile", profile] => Some((*profile).to_owned()),
            _ => return Connection::Stale { reason: format!("its arguments are {args:?}") },
        };
        let expected = PlugboardEntry { binary: self.binary.clone(), profile: profile.clone() }.value(target.format);
        if *entry != expected {
            return Connection::Stale { reason: "it has settings Plugboard does not write".into() };
        }
        match &profile {
            Some(p) if !crate::config::validate_profiles(&self.servers).valid.contains_key(p) => {
                Connection::Stale { reason: format!("its profile {p:?} is not in servers.json") }
            }
            _ => Connection::Current { profile },
        }
    }
}

/// The names of the entries that launch (same command and arguments) or reach (same URL) a Plugboard server.
pub(crate) fn duplicate_names(entries: &[ParsedEntry], servers: &RawConfigFile) -> Vec<String> {
    entries
        .iter()
        .filter_map(|entry| match entry {
            ParsedEntry::Server(s) if s.name != super::ENTRY_NAME => Some(s),
            _ => None,
        })
        .filter(|s| servers.servers.values().any(|ours| same_server(&s.server, ours)))
        .map(|s| s.name.clone())
        .collect()
}

fn same_server(theirs: &RawServer, ours: &RawServer) -> bool {
    let launch = |s: &RawServer| s.command.clone().map(|c| (c, s.args.clone().unwrap_or_default()));
    match (launch(theirs), launch(ours)) {
        (Some(a), Some(b)) => a == b,
        _ => theirs.url.is_some() && theirs.url == ours.url,
    }
}
