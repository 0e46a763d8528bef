//! A lenient `server.json` (`raw`) checked into a [`Preset`] Plugboard can offer and run: a name, a description,
//! one usable package (npm, pypi or oci over stdio, versions exact) or remote (https, or http to this computer),
//! and templates that name only known inputs. It never reaches the network or the config.

use std::collections::BTreeMap;

use super::model::{
    InvalidPreset, Launch, NamedTemplate, OAuthTemplate, PackageRegistry, PathKind, Preset, PresetInput,
    RemoteTransport, placeholders,
};
use super::raw::{RawArgument, RawInput, RawKeyValue, RawOAuthTemplate, RawPackage, RawRemote, RawServerJson};

/// The input keys a preset's OAuth client id and secret are asked under.
pub const OAUTH_CLIENT_ID_INPUT: &str = "oauth_client_id";
pub const OAUTH_CLIENT_SECRET_INPUT: &str = "oauth_client_secret";

impl Preset {
    /// Parses a `server.json` text and validates it.
    pub fn from_json(text: &str) -> Result<Self, InvalidPreset> {
        let raw: RawServerJson = serde_json::from_str(text)
            .map_err(|e| InvalidPreset { preset: "?".into(), reason: format!("not a server.json: {e}") })?;
        Self::validate(raw)
    }

    /// Checks the raw shape (see the module's header).
    pub fn validate(raw: RawServerJson) -> Result<Self, InvalidPreset> {
        let preset = raw.name.clone().unwrap_or_default();
        let fail = |reason: String| InvalidPreset { preset: preset.clone(), reason };
        if !preset.contains('/') || preset.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(fail("the name must look like \"namespace/server\"".into()));
        }
        let description = non_empty(raw.description.as_deref()).ok_or_else(|| fail("no description".into()))?;
        let meta = raw.plugboard_meta();
        let mut inputs = Vec::new();
        let launch =
            match (raw.packages.iter().find(|p| usable_package(p)), raw.remotes.iter().find(|r| usable_remote(r))) {
                (Some(package), _) => package_launch(package, &mut inputs),
                (None, Some(remote)) => remote_launch(remote, meta.oauth.as_ref(), &mut inputs),
                (None, None) => Err(no_usable_launch(&raw)),
            }
            .map_err(fail)?;
        check_placeholders(&launch, &inputs).map_err(fail)?;
        name_path_kinds(&mut inputs, &meta.paths).map_err(fail)?;
        Ok(Self {
            title: non_empty(raw.title.as_deref()).unwrap_or_else(|| preset.clone()),
            name: preset,
            description,
            version: non_empty(raw.version.as_deref()).unwrap_or_default(),
            website_url: non_empty(raw.website_url.as_deref()),
            repository_url: raw.repository.and_then(|r| non_empty(r.url.as_deref())),
            launch,
            inputs,
            auth_note: non_empty(meta.auth_note.as_deref()),
            sources: meta.sources.iter().filter_map(|s| non_empty(Some(s))).collect(),
        })
    }
}

/// Narrows the catalog's `filepath` inputs to what it says they name; naming another input is a catalog typo.
fn name_path_kinds(inputs: &mut [PresetInput], kinds: &BTreeMap<String, PathKind>) -> Result<(), String> {
    for (key, kind) in kinds {
        match inputs.iter_mut().find(|i| &i.key == key) {
            Some(input) if input.path.is_some() => input.path = Some(*kind),
            _ => return Err(format!("_meta names the path input {key:?}, which is no filepath input")),
        }
    }
    Ok(())
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

/// Why nothing in the entry can run here, naming what it does offer.
fn no_usable_launch(raw: &RawServerJson) -> String {
    let offered: Vec<String> = raw
        .packages
        .iter()
        .map(|p| {
            let kind = p.registry_type.as_deref().unwrap_or("?");
            let transport = p.transport.as_ref().and_then(|t| t.kind.as_deref()).unwrap_or("?");
            format!("a {kind} package over {transport}")
        })
        .chain(raw.remotes.iter().map(|r| format!("a {} remote", r.kind.as_deref().unwrap_or("?"))))
        .collect();
    let offered = if offered.is_empty() { "nothing to run".to_owned() } else { offered.join(", ") };
    format!("no npm, pypi or oci package over stdio, and no Streamable HTTP or SSE remote (it offers {offered})")
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
        (None, PackageRegistry::Oci) => check_image_pinned(&identifier)?,
        (None, _) => return Err(format!("{identifier} has no version: presets pin one")),
        (Some(v), _) if !exact_version(v) => {
            return Err(format!("{identifier}@{v}: a preset pins an exact version"));
        }
        (Some(_), _) => {}
    }
    let runtime_args = p.runtime_arguments.iter().map(|a| argument(a, inputs)).collect::<Result<_, _>>()?;
    let args = p.package_arguments.iter().map(|a| argument(a, inputs)).collect::<Result<_, _>>()?;
    let env = p.environment_variables.iter().map(|kv| key_value(kv, inputs)).collect::<Result<_, _>>()?;
    Ok(Launch::Package { registry, identifier, version, runtime_args, args, env })
}

/// A version that names one release: not `latest`, a range or a wildcard.
fn exact_version(version: &str) -> bool {
    version != "latest"
        && !version.contains(['^', '~', '>', '<', '*', ' ', '|'])
        && !version.split('.').any(|part| part == "x" || part == "X")
}

/// An image reference must carry a tag other than `latest`, or a digest: otherwise whatever is pushed next runs.
fn check_image_pinned(image: &str) -> Result<(), String> {
    if image.contains("@sha256:") {
        return Ok(());
    }
    // The tag is after the last ':' that follows the last '/' (a registry's port comes before a '/').
    let last = image.rsplit('/').next().unwrap_or(image);
    match last.split_once(':') {
        Some((_, tag)) if !tag.is_empty() && tag != "latest" => Ok(()),
        _ => Err(format!("{image}: an image is pinned by a tag (not latest) or a digest")),
    }
}

fn remote_launch(
    r: &RawRemote,
    oauth: Option<&RawOAuthTemplate>,
    inputs: &mut Vec<PresetInput>,
) -> Result<Launch, String> {
    let url = non_empty(r.url.as_deref()).ok_or("a remote has no url")?;
    let parsed = url::Url::parse(&url).map_err(|e| format!("{url:?} is not a URL: {e}"))?;
    let loopback = matches!(parsed.host_str(), Some("127.0.0.1" | "localhost" | "[::1]"));
    if parsed.scheme() != "https" && !(parsed.scheme() == "http" && loopback) {
        return Err(format!("{url}: a hosted endpoint must use https (http only on this computer)"));
    }
    let transport =
        if r.kind.as_deref() == Some("sse") { RemoteTransport::Sse } else { RemoteTransport::StreamableHttp };
    let headers = r.headers.iter().map(|kv| key_value(kv, inputs)).collect::<Result<_, _>>()?;
    let oauth = oauth.map(|o| oauth_template(o, inputs)).transpose()?;
    Ok(Launch::Remote { transport, url, headers, oauth })
}

fn oauth_template(o: &RawOAuthTemplate, inputs: &mut Vec<PresetInput>) -> Result<OAuthTemplate, String> {
    let mut push = |key: &str, spec: Option<&RawInput>, secret: bool| -> Result<Option<String>, String> {
        let Some(spec) = spec else { return Ok(None) };
        let spec = RawInput { is_secret: secret, ..spec.clone() };
        push_input(inputs, key, &spec).map(|()| Some(key.to_owned()))
    };
    Ok(OAuthTemplate {
        client_id_input: push(OAUTH_CLIENT_ID_INPUT, o.client_id.as_ref(), false)?,
        client_secret_input: push(OAUTH_CLIENT_SECRET_INPUT, o.client_secret.as_ref(), true)?,
        scopes: non_empty(o.scopes.as_deref()),
    })
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
        path: (spec.format.as_deref() == Some("filepath")).then_some(PathKind::Any),
        placeholder: non_empty(spec.placeholder.as_deref()),
        choices: spec.choices.clone(),
    });
    Ok(())
}

/// Every `{key}` a template may hold: an error names a placeholder that is no input (a typo in the catalog).
pub(crate) fn check_placeholders(launch: &Launch, inputs: &[PresetInput]) -> Result<(), String> {
    let templates: Vec<&str> = match launch {
        Launch::Package { runtime_args, args, env, .. } => runtime_args
            .iter()
            .chain(args)
            .flatten()
            .map(String::as_str)
            .chain(env.iter().map(|e| e.template.as_str()))
            .collect(),
        Launch::Command { command, args, env } => std::iter::once(command.as_str())
            .chain(args.iter().flatten().map(String::as_str))
            .chain(env.iter().map(|e| e.template.as_str()))
            .collect(),
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
