//! The lenient shape of an MCP Registry `server.json` (the official schema, only the fields Plugboard uses):
//! every field optional and unknown keys ignored, so a newer file still parses; `model` decides what is usable.

use std::collections::BTreeMap;

use serde::Deserialize;

/// One `server.json`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RawServerJson {
    pub name: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub version: Option<String>,
    pub website_url: Option<String>,
    pub repository: Option<RawRepository>,
    #[serde(default)]
    pub packages: Vec<RawPackage>,
    #[serde(default)]
    pub remotes: Vec<RawRemote>,
    /// Extension metadata by reverse-DNS key; Plugboard reads only [`PLUGBOARD_META`].
    #[serde(rename = "_meta", default)]
    pub meta: BTreeMap<String, serde_json::Value>,
}

/// The `_meta` key of what Plugboard's own catalog adds to a `server.json`.
pub const PLUGBOARD_META: &str = "dev.plugboard/preset";

/// What the catalog says beyond the registry's shape: how logging in works for a client like Plugboard, and where
/// each fact was checked.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RawPlugboardMeta {
    /// Plain words about logging in, shown before adding (e.g. why one-click OAuth cannot work and what to do).
    pub auth_note: Option<String>,
    /// The publisher's documentation the preset was checked against.
    #[serde(default)]
    pub sources: Vec<String>,
    /// OAuth settings the person may give: their own app's client id and secret, and the scopes to ask for.
    pub oauth: Option<RawOAuthTemplate>,
    /// What each `filepath` input names (`folder` or `file`), where the registry's shape cannot say.
    #[serde(default)]
    pub paths: BTreeMap<String, super::model::PathKind>,
}

/// The OAuth inputs a remote preset offers.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RawOAuthTemplate {
    pub client_id: Option<RawInput>,
    pub client_secret: Option<RawInput>,
    pub scopes: Option<String>,
}

impl RawServerJson {
    /// Plugboard's own `_meta` entry; an absent or malformed one reads as empty.
    pub fn plugboard_meta(&self) -> RawPlugboardMeta {
        self.meta.get(PLUGBOARD_META).and_then(|value| serde_json::from_value(value.clone()).ok()).unwrap_or_default()
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct RawRepository {
    pub url: Option<String>,
}

/// A package the server is published as.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RawPackage {
    pub registry_type: Option<String>,
    pub identifier: Option<String>,
    pub version: Option<String>,
    pub transport: Option<RawTransport>,
    /// Arguments for the runner (`docker run …`, `npx …`) before the package itself.
    #[serde(default)]
    pub runtime_arguments: Vec<RawArgument>,
    #[serde(default)]
    pub package_arguments: Vec<RawArgument>,
    #[serde(default)]
    pub environment_variables: Vec<RawKeyValue>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct RawTransport {
    #[serde(rename = "type")]
    pub kind: Option<String>,
}

/// The fields every input has (`Input` in the schema).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RawInput {
    pub description: Option<String>,
    #[serde(default)]
    pub is_required: bool,
    #[serde(default)]
    pub is_secret: bool,
    pub default: Option<String>,
    pub format: Option<String>,
    /// An example shown in an empty field (never used as a value).
    pub placeholder: Option<String>,
    /// The only values allowed, when given.
    #[serde(default)]
    pub choices: Vec<String>,
    /// A fixed value, possibly with `{variable}` placeholders.
    pub value: Option<String>,
    #[serde(default)]
    pub variables: BTreeMap<String, RawInput>,
}

/// A positional or named package argument.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RawArgument {
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// The flag of a named argument, dashes included.
    pub name: Option<String>,
    pub value_hint: Option<String>,
    #[serde(flatten)]
    pub input: RawInput,
}

/// An environment variable or a header.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct RawKeyValue {
    pub name: Option<String>,
    #[serde(flatten)]
    pub input: RawInput,
}

/// A hosted endpoint of the server.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct RawRemote {
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub url: Option<String>,
    #[serde(default)]
    pub headers: Vec<RawKeyValue>,
}
