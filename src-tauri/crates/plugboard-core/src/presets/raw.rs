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
