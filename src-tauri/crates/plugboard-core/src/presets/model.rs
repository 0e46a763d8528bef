//! The validated preset: what Plugboard can offer and run, checked from the lenient `server.json` shape (`raw`) by
//! `validate.rs`. Templates hold `{key}` placeholders naming the preset's inputs; nothing here touches the config or
//! the vault.

use serde::Serialize;

/// One integration of the catalog.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Preset {
    /// The registry name, such as `io.github.modelcontextprotocol/everything`.
    pub name: String,
    pub title: String,
    pub description: String,
    pub version: String,
    pub website_url: Option<String>,
    pub repository_url: Option<String>,
    pub launch: Launch,
    /// What the person is asked for, in the order the preset lists them.
    pub inputs: Vec<PresetInput>,
    /// Plain words about logging in (why one-click OAuth cannot work here and what to do instead), when the catalog
    /// has something to say.
    pub auth_note: Option<String>,
    /// The publisher's documentation the preset was checked against.
    pub sources: Vec<String>,
}

/// How the preset's server is reached.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Launch {
    /// A local process from a package registry.
    #[serde(rename_all = "camelCase")]
    Package {
        registry: PackageRegistry,
        identifier: String,
        /// Absent only for an OCI image whose identifier carries its tag or digest.
        version: Option<String>,
        /// The runner's own arguments (`docker run … <here> image`), grouped like `args`.
        runtime_args: Vec<Vec<String>>,
        /// Each group is one argument's tokens; a group naming an optional input left empty is dropped whole.
        args: Vec<Vec<String>>,
        env: Vec<NamedTemplate>,
    },
    /// A program as a link or a bundle gives it (not from a package registry): the command and its arguments.
    Command {
        command: String,
        /// Grouped like a package's `args`.
        args: Vec<Vec<String>>,
        env: Vec<NamedTemplate>,
    },
    /// A hosted endpoint.
    Remote {
        transport: RemoteTransport,
        url: String,
        headers: Vec<NamedTemplate>,
        /// The OAuth settings the person may give (their own app's client), when the preset offers them.
        oauth: Option<OAuthTemplate>,
    },
}

/// The inputs that become a remote server's `oauth` settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct OAuthTemplate {
    /// The input holding the person's own OAuth client id.
    pub client_id_input: Option<String>,
    /// The secret input holding that client's secret (stored where logins look for it).
    pub client_secret_input: Option<String>,
    /// The scopes to ask for.
    pub scopes: Option<String>,
}

/// Where a package comes from, which decides the runner (`npx`, `uvx`, `docker`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum PackageRegistry {
    Npm,
    Pypi,
    Oci,
}

/// Which HTTP transport a hosted endpoint speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum RemoteTransport {
    StreamableHttp,
    Sse,
}

/// An environment variable or header whose value is a template.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct NamedTemplate {
    pub name: String,
    pub template: String,
}

/// One value the person gives when adding the preset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct PresetInput {
    /// The placeholder name; for a secret also its name in the keychain.
    pub key: String,
    pub description: Option<String>,
    pub required: bool,
    /// Stored in the keychain and referenced as `${secret:KEY}`; never written to servers.json.
    pub secret: bool,
    pub default: Option<String>,
    /// The value is a path on this machine, and of which kind: the window offers a picker for it.
    pub path: Option<PathKind>,
    /// An example shown in the empty field, never used as the value.
    pub placeholder: Option<String>,
    /// The only values allowed, when not empty.
    pub choices: Vec<String>,
}

/// What a path input names, so the window offers the right picker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum PathKind {
    Folder,
    File,
    /// The entry does not say (a registry's `filepath`): either picker.
    Any,
}

/// Why a `server.json` cannot be offered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("preset {preset:?}: {reason}")]
pub struct InvalidPreset {
    pub preset: String,
    pub reason: String,
}

impl Preset {
    /// Whether every word of `query` (any case) appears in the title, name, description, package or URL; an empty
    /// query matches everything.
    pub fn matches(&self, query: &str) -> bool {
        let target = match &self.launch {
            Launch::Package { identifier, .. } => identifier,
            Launch::Command { command, .. } => command,
            Launch::Remote { url, .. } => url,
        };
        let haystack = [&self.title, &self.name, &self.description, target].map(|t| t.to_lowercase());
        query.split_whitespace().all(|word| {
            let word = word.to_lowercase();
            haystack.iter().any(|text| text.contains(&word))
        })
    }

    /// The input named `key`.
    pub fn input(&self, key: &str) -> Option<&PresetInput> {
        self.inputs.iter().find(|i| i.key == key)
    }
}

/// The `{key}` placeholders of a template, in order.
pub(crate) fn placeholders(template: &str) -> impl Iterator<Item = &str> {
    template.split('{').skip(1).filter_map(|rest| rest.split_once('}').map(|(key, _)| key))
}
