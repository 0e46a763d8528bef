//! The validated preset: what Plugboard can offer and run, checked from the lenient `server.json` shape (`raw`).
//! Templates hold `{key}` placeholders naming the preset's inputs; nothing here touches the config or the vault.

use serde::Serialize;

use super::raw::{RawArgument, RawInput, RawKeyValue, RawPackage, RawRemote, RawServerJson};

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
        /// Absent only for an OCI image (Docker then runs its `latest` tag).
        version: Option<String>,
        /// Each group is one argument's tokens; a group naming an optional input left empty is dropped whole.
        args: Vec<Vec<String>>,
        env: Vec<NamedTemplate>,
    },
    /// A hosted endpoint.
    Remote { transport: RemoteTransport, url: String, headers: Vec<NamedTemplate> },
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
    /// The value is a path on this machine.
    pub filepath: bool,
}

/// Why a `server.json` cannot be offered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("preset {preset:?}: {reason}")]
pub struct InvalidPreset {
    pub preset: String,
    pub reason: String,
}

impl Preset {
    /// Parses a `server.json` text and validates it.
    pub fn from_json(text: &str) -> Result<Self, InvalidPreset> {
        let raw: RawServerJson = serde_json::from_str(text)
            .map_err(|e| InvalidPreset { preset: "?".into(), reason: format!("not a server.json: {e}") })?;
        Self::validate(raw)
    }

    /// Checks the raw shape: a name, a description, one usable package (npm, pypi or oci over stdio) or remote
    /// (https, Streamable HTTP or SSE), exact versions, and templates that name only known inputs.
    pub fn validate(raw: RawServerJson) -> Result<Self, InvalidPreset> {
        let preset = raw.name.clone().unwrap_or_default();
        let fail = |reason: String| InvalidPreset { preset: preset.clone(), reason };
        if !preset.contains('/') || preset.chars().any(char::is_whitespace) {
            return Err(fail("the name must look like \"namespace/server\"".into()));
        }
        let description = non_empty(raw.description.as_deref()).ok_or_else(|| fail("no description".into()))?;
        let mut inputs = Vec::new();
        let launch =
            match (raw.packages.iter().find(|p| usable_package(p)), raw.remotes.iter().find(|r| usable_remote(r))) {
                (Some(package), _) => package_launch(package, &mut inputs),
                (None, Some(remote)) => remote_launch(remote, &mut inputs),
                (None, None) => {
                    Err("no npm, pypi or oci package over stdio, and no Streamable HTTP or SSE remote".into())
                }
            }
            .map_err(fail)?;
        check_placeholders(&launch, &inputs).map_err(fail)?;
        Ok(Self {
            title: non_empty(raw.title.as_deref()).unwrap_or_else(|| preset.clone()),
            name: preset,
            description,
            version: non_empty(raw.version.as_deref()).unwrap_or_default(),
            website_url: non_empty(raw.website_url.as_deref()),
            repository_url: raw.repository.and_then(|r| non_empty(r.url.as_deref())),
            launch,
            inputs,
        })
    }

    /// The input named `key`.
    pub fn input(&self, key: &str) -> Option<&PresetInput> {
        self.inputs.iter().find(|i| i.key == key)
    }
}

fn non_empty(text: Option<&str>) -> Option<String> {
    text.map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned)
}

fn usable_package(p: &RawPackage) -> bool {
    matches!(p.registry_type.as_deref(), Some("npm" | "pypi" | "oci"))
        && p.transport.as_ref().and_then(|t| t.kind.as_deref()) == Some("stdio")
}

fn usable_remote(r: &RawRemote) -> bool {
    matches!(r.kind.as_deref(), Some("streamable-http" | "sse"))
}

fn package_launch(p: &RawPackage, inputs: &mut Vec<PresetInput>) -> Result<Launch, String> {
    let registry = match p.registry_type.as_deref() {
        Some("npm") => PackageRegistry::Npm,
        Some("pypi") => PackageRegistry::Pypi,
        _ => PackageRegistry::Oci,
    };
    let identifier = non_empty(p.identifier.as_deref()).ok_or("a package has no identifier")?;
    if identifier.starts_with('-') || identifier.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!("{identifier:?} is not a package identifier"));
    }
    let version = non_empty(p.version.as_deref());
    match (&version, registry) {
        (None, PackageRegistry::Oci) => {}
        (None, _) => return Err(format!("{identifier} has no version: presets pin one")),
        (Some(v), _) if v == "latest" || v.contains(['^', '~', '>', '<', '*', ' ', '|']) => {
            return Err(format!("{identifier}@{v}: a preset pins an exact version"));
        }
        (Some(_), _) => {}
    }
    let args = p.package_arguments.iter().map(|a| argument(a, inputs)).collect::<Result<_, _>>()?;
    let env = p.environment_variables.iter().map(|kv| key_value(kv, inputs)).collect::<Result<_, _>>()?;
    Ok(Launch::Package { registry, identifier, version, args, env })
}

fn remote_launch(r: &RawRemote, inputs: &mut Vec<PresetInput>) -> Result<Launch, String> {
    let url = non_empty(r.url.as_deref()).ok_or("a remote has no url")?;
    let parsed = url::Url::parse(&url).map_err(|e| format!("{url:?} is not a URL: {e}"))?;
    if parsed.scheme() != "https" {
        return Err(format!("{url}: a hosted endpoint must use https"));
    }
    let transport =
        if r.kind.as_deref() == Some("sse") { RemoteTransport::Sse } else { RemoteTransport::StreamableHttp };
    let headers = r.headers.iter().map(|kv| key_value(kv, inputs)).collect::<Result<_, _>>()?;
    Ok(Launch::Remote { transport, url, headers })
}

/// A positional argument is `{hint}` or its fixed value; a named one is the flag then its value.
fn argument(a: &RawArgument, inputs: &mut Vec<PresetInput>) -> Result<Vec<String>, String> {
    let key = non_empty(a.value_hint.as_deref());
    match a.kind.as_deref() {
        Some("positional") => {
            let value = templated(&a.input, key.as_deref(), inputs)
                .ok_or("a positional argument has neither a value nor a valueHint")?;
            Ok(vec![value?])
        }
        Some("named") => {
            let flag = non_empty(a.name.as_deref()).ok_or("a named argument has no name")?;
            let key = key.unwrap_or_else(|| flag.trim_start_matches('-').replace('-', "_"));
            let value = templated(&a.input, Some(key.as_str()), inputs).unwrap_or_else(|| Ok(String::new()))?;
            Ok(if value.is_empty() { vec![flag] } else { vec![flag, value] })
        }
        other => Err(format!("argument type {other:?}: use \"positional\" or \"named\"")),
    }
}

fn key_value(kv: &RawKeyValue, inputs: &mut Vec<PresetInput>) -> Result<NamedTemplate, String> {
    let name = non_empty(kv.name.as_deref()).ok_or("an environment variable or header has no name")?;
    let template = templated(&kv.input, Some(name.as_str()), inputs).unwrap_or_else(|| Ok(String::new()))?;
    Ok(NamedTemplate { name, template })
}

/// The template of a value: its fixed `value` (whose `{variables}` become inputs) or `{key}` (the value itself is
/// asked for). `None` when there is neither.
fn templated(input: &RawInput, key: Option<&str>, inputs: &mut Vec<PresetInput>) -> Option<Result<String, String>> {
    if let Some(value) = &input.value {
        for (var, spec) in &input.variables {
            if let Err(e) = push_input(inputs, var, spec) {
                return Some(Err(e));
            }
        }
        return Some(Ok(value.clone()));
    }
    let key = key?;
    Some(push_input(inputs, key, input).map(|()| format!("{{{key}}}")))
}

fn push_input(inputs: &mut Vec<PresetInput>, key: &str, spec: &RawInput) -> Result<(), String> {
    if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return Err(format!("input {key:?}: use letters, digits, '_' or '-'"));
    }
    if inputs.iter().any(|i| i.key == key) {
        return Err(format!("two inputs are named {key:?}"));
    }
    inputs.push(PresetInput {
        key: key.to_owned(),
        description: non_empty(spec.description.as_deref()),
        required: spec.is_required,
        secret: spec.is_secret,
        default: spec.default.clone(),
        filepath: spec.format.as_deref() == Some("filepath"),
    });
    Ok(())
}

/// Every `{key}` a template may hold: an error names a placeholder that is no input (a typo in the catalog).
fn check_placeholders(launch: &Launch, inputs: &[PresetInput]) -> Result<(), String> {
    let templates: Vec<&str> = match launch {
        Launch::Package { args, env, .. } => {
            args.iter().flatten().map(String::as_str).chain(env.iter().map(|e| e.template.as_str())).collect()
        }
        Launch::Remote { headers, url, .. } => {
            std::iter::once(url.as_str()).chain(headers.iter().map(|h| h.template.as_str())).collect()
        }
    };
    for key in templates.into_iter().flat_map(placeholders) {
        if !inputs.iter().any(|i| i.key == key) {
            return Err(format!("the placeholder {{{key}}} names no input"));
        }
    }
    Ok(())
}

/// The `{key}` placeholders of a template, in order.
pub(crate) fn placeholders(template: &str) -> impl Iterator<Item = &str> {
    template.split('{').skip(1).filter_map(|rest| rest.split_once('}').map(|(key, _)| key))
}
