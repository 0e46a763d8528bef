//! The lenient shape of `servers.json` as people and other clients write it (the `mcpServers` superset).
//! Unknown keys are kept so that the file round-trips; validation into the runnable model happens later.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The whole file.
#[derive(Debug, Default, Deserialize, Serialize)]
pub(crate) struct RawConfigFile {
    #[serde(rename = "mcpServers", default)]
    pub servers: BTreeMap<String, RawServer>,
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// One entry under `mcpServers`, every field optional.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RawServer {
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    #[serde(flatten)]
    pub other: Map<String, Value>,
}
