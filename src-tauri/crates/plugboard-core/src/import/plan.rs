//! The import plan: every detected file and every entry in it with its outcome (new, identical, conflict with
//! the difference, invalid with the reason), computed without writing anything. Literal secrets are already
//! moved out of each entry here; their values stay in memory until the plan is applied.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;

use super::detect::DetectedFile;
use super::read::read_source_file;
use super::secrets_scan::move_literal_secrets;
use super::source::{ClientSource, ParsedEntry};
use crate::config::model::ServerName;
use crate::config::raw::{RawConfigFile, RawOrigin, RawServer};
use crate::config::{ServerSummary, TransportKind, validate_server};
use crate::secrets::Sensitive;

/// Everything an import would do.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ImportPlan {
    pub files: Vec<FilePlan>,
}

/// One source file and what it holds.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct FilePlan {
    pub client: String,
    pub client_label: String,
    pub path: String,
    /// Why the file could not be used; its entries are then empty.
    pub error: Option<String>,
    pub entries: Vec<EntryPlan>,
}

/// One server entry of a source file.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct EntryPlan {
    /// The name in the source file.
    pub source_name: String,
    /// The name it gets in Plugboard (sanitised).
    pub name: String,
    pub scope: Option<String>,
    pub outcome: EntryOutcome,
    pub notes: Vec<String>,
    /// Where literal secrets were found (`env.GITHUB_TOKEN`); they go to the keychain, never to the file.
    pub secrets_moved: Vec<String>,
    /// How it would run, for a usable entry: a local command or a URL (so the review can show it, and "local only"
    /// can leave out what is reached by URL).
    pub transport: Option<TransportKind>,
    /// Its command line or URL as it would be saved: moved secrets appear as their `${secret:…}` references.
    pub target: Option<String>,
    #[serde(skip)]
    pub(crate) server: Option<RawServer>,
    #[serde(skip)]
    pub(crate) secret_values: Vec<(String, Sensitive<String>)>,
}

/// What importing an entry would do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum EntryOutcome {
    New,
    /// Already there, the same.
    Identical,
    /// A server of that name exists and differs; each line names a field and both values.
    Conflict {
        differences: Vec<String>,
    },
    Invalid {
        reason: String,
    },
}

impl EntryOutcome {
    /// Whether the entry's name is taken by a different server (the person chooses what happens).
    pub fn is_conflict(&self) -> bool {
        matches!(self, Self::Conflict { .. })
    }
}

impl ImportPlan {
    /// Reads and parses `files`, comparing each entry with `current` and with the entries planned before it.
    pub fn build(files: &[DetectedFile], current: &RawConfigFile) -> Self {
        let mut planned: BTreeMap<String, RawServer> = current.servers.clone();
        // A name whose entry Plugboard cannot read is taken all the same: importing over it is a conflict.
        planned.extend(current.unreadable.keys().map(|name| (name.clone(), RawServer::default())));
        let files = files.iter().map(|f| plan_file(f.client, &f.path, &mut planned)).collect();
        Self { files }
    }

    /// Every entry with the given outcome kind, for summaries.
    pub fn count(&self, pick: impl Fn(&EntryOutcome) -> bool) -> usize {
        self.files.iter().flat_map(|f| &f.entries).filter(|e| pick(&e.outcome)).count()
    }
}

fn plan_file(client: ClientSource, path: &Path, planned: &mut BTreeMap<String, RawServer>) -> FilePlan {
    let mut file = FilePlan {
        client: client.id.to_owned(),
        client_label: client.label.to_owned(),
        path: path.display().to_string(),
        error: None,
        entries: Vec::new(),
    };
    let parsed = read_source_file(path)
        .map_err(|e| format!("{} {e}", path.display()))
        .and_then(|text| (client.parse)(&text).map_err(|e| e.to_string()));
    match parsed {
        Ok(entries) => {
            let origin = RawOrigin { client: client.id.to_owned(), path: file.path.clone() };
            file.entries = entries.into_iter().map(|e| plan_entry(e, &origin, planned)).collect();
        }
        Err(reason) => file.error = Some(reason),
    }
    file
}

fn plan_entry(entry: ParsedEntry, origin: &RawOrigin, planned: &mut BTreeMap<String, RawServer>) -> EntryPlan {
    let imported = match entry {
        ParsedEntry::Server(imported) => imported,
        ParsedEntry::Invalid { name, reason } => {
            return EntryPlan {
                name: ServerName::sanitize(&name).to_string(),
                source_name: name,
                scope: None,
                outcome: EntryOutcome::Invalid { reason },
                notes: Vec::new(),
                secrets_moved: Vec::new(),
                transport: None,
                target: None,
                server: None,
                secret_values: Vec::new(),
            };
        }
    };
    let name = ServerName::sanitize(&imported.name).to_string();
    let mut server = imported.server;
    server.origin = Some(origin.clone());
    let found = move_literal_secrets(&name, &mut server);
    let mut plan = EntryPlan {
        source_name: imported.name,
        name: name.clone(),
        scope: imported.scope,
        outcome: EntryOutcome::New,
        notes: imported.notes,
        secrets_moved: found.iter().map(|s| s.location.clone()).collect(),
        transport: None,
        target: None,
        server: None,
        secret_values: found.into_iter().map(|s| (s.name, s.value)).collect(),
    };
    if plan.source_name != name {
        plan.notes
            .push(format!("renamed from {:?}: server names use letters, digits, '-', '_' and '.'", plan.source_name));
    }
    match validate_server(&name, &server) {
        Ok(config) => {
            let summary = ServerSummary::from(&config);
            (plan.transport, plan.target) = (Some(summary.transport), Some(summary.target));
        }
        Err(e) => {
            plan.outcome = EntryOutcome::Invalid { reason: format!("{}: {}", e.field, e.message) };
            return plan;
        }
    }
    plan.outcome = match planned.get(&name) {
        None => EntryOutcome::New,
        Some(existing) if same_ignoring_origin(existing, &server) => EntryOutcome::Identical,
        Some(existing) => EntryOutcome::Conflict { differences: differences(existing, &server) },
    };
    if plan.outcome == EntryOutcome::New {
        planned.insert(name, server.clone());
    }
    plan.server = Some(server);
    plan
}

fn same_ignoring_origin(a: &RawServer, b: &RawServer) -> bool {
    RawServer { origin: None, ..a.clone() } == RawServer { origin: None, ..b.clone() }
}

/// One line per differing top-level field: `url: "https://a" → "https://b"`.
fn differences(ours: &RawServer, theirs: &RawServer) -> Vec<String> {
    let as_map = |s: &RawServer| match serde_json::to_value(RawServer { origin: None, ..s.clone() }) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    let (ours, theirs) = (as_map(ours), as_map(theirs));
    let mut keys: Vec<&String> = ours.keys().chain(theirs.keys()).collect();
    keys.sort();
    keys.dedup();
    let show = |v: Option<&serde_json::Value>| v.map_or_else(|| "(none)".to_owned(), ToString::to_string);
    keys.into_iter()
        .filter(|k| ours.get(*k) != theirs.get(*k))
        .map(|k| format!("{k}: {} → {}", show(ours.get(k)), show(theirs.get(k))))
        .collect()
}
