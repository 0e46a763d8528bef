//! The lenient shape of `servers.json` as people and other clients write it (the `mcpServers` superset).
//! Every field is optional and unknown keys are kept, so a file round-trips; `validate` turns it into the model.
//! An entry whose shape is wrong is kept as written apart from the others (`lenient.rs`): it must never make the
//! rest of the file unreadable, nor be dropped when Plugboard saves.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The whole file.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(from = "super::lenient::WireFile", into = "super::lenient::WireFile")]
pub struct RawConfigFile {
    /// The entries of `mcpServers` whose shape could be read.
    pub servers: BTreeMap<String, RawServer>,
    /// The entries of `mcpServers` whose shape could not be read (a string where a list belongs), exactly as
    /// written: listed with their reason, and written back unchanged.
    pub unreadable: BTreeMap<String, UnreadableEntry>,
    /// What each gateway profile offers (see `profiles.rs`). Kept as written: a malformed profile must not make
    /// the whole file unreadable, so it is checked on its own, after parsing.
    pub profiles: Option<Value>,
    /// Keys of the file Plugboard does not know, kept as they were.
    pub other: Map<String, Value>,
}

impl RawConfigFile {
    /// Whether an entry of that name is in the file, readable or not.
    pub fn has_entry(&self, name: &str) -> bool {
        self.servers.contains_key(name) || self.unreadable.contains_key(name)
    }
}

/// An entry of `mcpServers` whose shape could not be read, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct UnreadableEntry {
    /// The entry as written.
    pub written: Value,
    /// The field whose shape is wrong, as written in the file (`args`, `oauth.scopes`); `mcpServers` when the
    /// entry itself is not an object.
    pub field: String,
    /// What is wrong with it, without quoting the value (it may be a secret).
    pub message: String,
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
    /// `{…}`, or `true` for `{}` as other clients write it (`false`: no login).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "super::lenient::oauth_section",
        serialize_with = "super::lenient::write_oauth_section"
    )]
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
    /// A pre-registered client id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    /// The pre-registered client's secret: a `${secret:NAME}` reference (an import moves a literal one there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_secret: Option<String>,
    /// The https URL of a client ID metadata document describing Plugboard, used as the client id where the
    /// authorization server accepts one (before dynamic registration is tried).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_metadata_url: Option<String>,
    /// `loopback` (default) or `deep-link`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect: Option<String>,
    /// Log in even when the authorization server does not advertise S256 PKCE (the spec says to refuse).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_missing_pkce_metadata: Option<bool>,
    /// `false` asks for bearer tokens even where the authorization server offers DPoP (RFC 9449); by default a
    /// browser login binds its token to a key kept in the keychain whenever it is offered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dpop: Option<bool>,
    /// `authorization_code` (default), `client_credentials`, `workload_identity` or `enterprise_managed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grant: Option<String>,
    /// For `client_credentials` with a signed JWT: the PEM private key, as a `${secret:…}` reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub private_key: Option<String>,
    /// The JWT's algorithm for `privateKey`: ES256 (default), ES384, RS256, RS384, RS512, PS256, PS384 or PS512.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signing_algorithm: Option<String>,
    /// For `workload_identity`: the workload's JWT, as a `${env:…}` or `${secret:…}` reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assertion: Option<String>,
    /// For `workload_identity`: the file holding the workload's JWT, read at each exchange.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assertion_file: Option<String>,
    /// For `enterprise_managed`: the enterprise identity provider that issued the person's ID token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identity_provider: Option<RawIdentityProvider>,
    /// For `enterprise_managed`: the person's ID token from it, as a `${env:…}` or `${secret:…}` reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id_token: Option<String>,
    #[serde(flatten)]
    pub other: Map<String, Value>,
    /// `Some(flag)` when the file says `"oauth": true` or `false` instead of an object: written back the same way.
    #[serde(skip)]
    pub written_as: Option<bool>,
}

/// The enterprise identity provider of an `enterprise_managed` grant, and Plugboard's registration with it.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RawIdentityProvider {
    /// Its issuer identifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issuer: Option<String>,
    /// Its token endpoint, where the ID token is exchanged for an ID-JAG.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_endpoint: Option<String>,
    /// Plugboard's client id there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    /// Plugboard's client secret there, for a confidential registration: a `${secret:…}` reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_secret: Option<String>,
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

impl RawOAuth {
    /// Whether the section asks for no login (`"oauth": false`).
    pub fn is_off(&self) -> bool {
        self.written_as == Some(false)
    }
}

/// The client and file an entry was imported from.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RawOrigin {
    pub client: String,
    pub path: String,
}
