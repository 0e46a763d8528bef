//! A `.mcpb` bundle's `manifest.json` (spec 0.1 to 0.4, as the MCPB repository's schemas define it): only the fields
//! Plugboard shows or runs are read, unknown ones are ignored so a newer manifest still opens.

use std::collections::BTreeMap;

use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
pub struct Manifest {
    pub manifest_version: Option<String>,
    /// The deprecated spelling of `manifest_version`.
    pub dxt_version: Option<String>,
    pub name: String,
    pub display_name: Option<String>,
    pub version: String,
    pub description: String,
    pub author: Author,
    pub server: Server,
    #[serde(default)]
    pub tools: Vec<Tool>,
    pub compatibility: Option<Compatibility>,
    #[serde(default)]
    pub user_config: BTreeMap<String, UserConfigOption>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Author {
    pub name: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Server {
    /// `node`, `python`, `binary` or `uv`.
    #[serde(rename = "type")]
    pub kind: String,
    pub entry_point: String,
    pub mcp_config: McpConfig,
}

#[derive(Debug, Clone, Deserialize)]
pub struct McpConfig {
    pub command: String,
    #[serde(default)]
    pub args: Vec<String>,
    #[serde(default)]
    pub env: BTreeMap<String, String>,
}

#[derive(Debug, Clone, serde::Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Tool {
    pub name: String,
    pub description: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Compatibility {
    #[serde(default)]
    pub platforms: Vec<String>,
    pub claude_desktop: Option<String>,
    #[serde(default)]
    pub runtimes: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct UserConfigOption {
    /// `string`, `number`, `boolean`, `directory` or `file`.
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub description: String,
    #[serde(default)]
    pub required: bool,
    pub default: Option<serde_json::Value>,
    #[serde(default)]
    pub sensitive: bool,
}

impl Manifest {
    /// The spec version the manifest declares.
    pub fn spec_version(&self) -> Option<&str> {
        self.manifest_version.as_deref().or(self.dxt_version.as_deref())
    }
}
