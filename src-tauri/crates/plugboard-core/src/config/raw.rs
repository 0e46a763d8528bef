//! The lenient shape of `servers.json` as people and other clients write it (the `mcpServers` superset).
//! Every field is optional and unknown keys are kept, so a file round-trips; `validate` turns it into the model.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The whole file.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
pub struct RawConfigFile {
    #[serde(rename = "mcpServers", default)]
    pub servers: BTreeMap<String, RawServer>,
    /// What each gateway profile offers (see `profiles.rs`). Kept as written: a malformed profile must not make
    /// the whole file unreadable, so it is checked on its own, after parsing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profiles: Option<Value>,
    /// Keys of the file Plugboard does not know, kept as they were.
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// One entry under `mcpServers`, exactly as written.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RawServer {
    /// `stdio`, `http` / `streamable-http` / `streamableHttp`, or `sse`; absent means inferred.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env: Option<BTreeMap<String, String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headers: Option<BTreeMap<String, String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// A failure of this server stops start-up instead of being skipped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// The tool allowlist: absent or `["*"]` all, `[]` none; names raw or namespaced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<String>>,
    /// Tools the source client ran without asking; kept apart from the allowlist, never merged into it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_approve: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oauth: Option<RawOAuth>,
    /// Send `Authorization: Bearer $VAR` whenever that environment variable is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bearer_token_env_var: Option<String>,
    /// Where the entry was imported from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<RawOrigin>,
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// OAuth settings of a remote server.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RawOAuth {
    /// Space-separated scopes to ask for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scopes: Option<String>,
    /// A pre-registered client id (its secret, if any, lives in the keychain).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    /// `loopback` (default) or `deep-link`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect: Option<String>,
    /// Log in even when the authorization server does not advertise S256 PKCE (the spec says to refuse).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_missing_pkce_metadata: Option<bool>,
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// The client and file an entry was imported from.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RawOrigin {
    pub client: String,
    pub path: String,
}
