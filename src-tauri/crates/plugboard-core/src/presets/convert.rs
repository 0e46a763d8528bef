//! A preset plus the person's inputs → a `servers.json` entry and the secrets to store. Secret inputs become
//! `${secret:KEY}` references: their values only ever leave here inside `Sensitive`, bound for the vault.

use std::collections::BTreeMap;

use crate::auth::CLIENT_SECRET_SECRET;
use crate::config::raw::{RawOAuth, RawServer};
use crate::secrets::Sensitive;

use super::error::PresetError;
use super::model::{
    Launch, NamedTemplate, OAuthTemplate, PackageRegistry, Preset, PresetInput, RemoteTransport, placeholders,
};

/// The entry to write and the secrets (`(key, value)`) to store under the new server's name.
#[derive(Debug)]
pub struct Converted {
    pub entry: RawServer,
    pub secrets: Vec<(String, Sensitive<String>)>,
}

/// What each placeholder becomes: a literal value, a secret reference, or nothing (an optional input left empty).
struct Values<'a> {
    preset: &'a Preset,
    given: BTreeMap<&'a str, String>,
}

impl Values<'_> {
    /// The template with every placeholder filled; `None` when it names an optional input that was left empty.
    fn render(&self, template: &str) -> Option<String> {
        let mut out = template.to_owned();
        for key in placeholders(template) {
            let input = self.preset.input(key)?;
            let value = self.given.get(key)?;
            let replacement = if input.secret { format!("${{secret:{key}}}") } else { value.clone() };
            out = out.replace(&format!("{{{key}}}"), &replacement);
        }
        Some(out)
    }

    fn render_all(&self, named: &[NamedTemplate]) -> Option<BTreeMap<String, String>> {
        let map: BTreeMap<String, String> =
            named.iter().filter_map(|n| self.render(&n.template).map(|v| (n.name.clone(), v))).collect();
        (!map.is_empty()).then_some(map)
    }
}

/// Checks `inputs` against the preset (unknown keys, required ones missing) and builds the entry.
pub fn convert(preset: &Preset, inputs: &BTreeMap<String, String>) -> Result<Converted, PresetError> {
    if let Some(unknown) = inputs.keys().find(|k| preset.input(k).is_none()) {
        return Err(PresetError::UnknownInput { preset: preset.name.clone(), input: unknown.clone() });
    }
    let mut given = BTreeMap::new();
    let mut secrets = Vec::new();
    for input in &preset.inputs {
        let Some(value) = chosen_value(input, inputs.get(&input.key)) else {
            if input.required {
                return Err(PresetError::MissingInput {
                    input: input.key.clone(),
                    description: input.description.clone().unwrap_or_default(),
                });
            }
            continue;
        };
        if !input.choices.is_empty() && !input.choices.contains(&value) {
            return Err(PresetError::NotAChoice { input: input.key.clone(), value, choices: input.choices.join(", ") });
        }
        if input.secret {
            secrets.push((input.key.clone(), Sensitive::new(value.clone())));
        }
        given.insert(input.key.as_str(), value);
    }
    let values = Values { preset, given };
    let entry = match &preset.launch {
        Launch::Package { registry, identifier, version, runtime_args, args, env } => {
            let rendered = |groups: &[Vec<String>]| -> Vec<String> {
                groups.iter().filter_map(|group| render_group(&values, group)).flatten().collect()
            };
            let env = values.render_all(env);
            let package = Package { registry: *registry, identifier, version: version.as_deref() };
            let (command, mut argv) = runner(&package, &rendered(runtime_args), env.as_ref());
            argv.extend(rendered(args));
            RawServer { command: Some(command), args: Some(argv), env, ..RawServer::default() }
        }
        Launch::Command { command, args, env } => RawServer {
            command: Some(command.clone()),
            args: Some(args.iter().filter_map(|group| render_group(&values, group)).flatten().collect()),
            env: values.render_all(env),
            ..RawServer::default()
        },
        Launch::Remote { transport, url, headers, oauth } => RawServer {
            kind: Some(match transport {
                RemoteTransport::StreamableHttp => "http".into(),
                RemoteTransport::Sse => "sse".into(),
            }),
            url: values.render(url),
            headers: values.render_all(headers),
            oauth: oauth.as_ref().and_then(|o| oauth_settings(o, &values.given)),
            ..RawServer::default()
        },
    };
    // A secret left unused (its header or argument dropped) must not be stored; the OAuth client secret is looked
    // up by the login under its own reserved name, never through a reference.
    let used = crate::registry::secret_names(&entry);
    let client_secret = match &preset.launch {
        Launch::Remote { oauth: Some(OAuthTemplate { client_secret_input: Some(key), .. }), .. } => Some(key.as_str()),
        _ => None,
    };
    let mut stored = Vec::new();
    for (key, value) in secrets {
        if Some(key.as_str()) == client_secret {
            stored.push((CLIENT_SECRET_SECRET.to_owned(), value));
        } else if used.contains(&key) {
            stored.push((key, value));
        }
    }
    Ok(Converted { entry, secrets: stored })
}

/// The entry's `oauth` block: the person's own client id and the preset's scopes; `None` when neither applies.
fn oauth_settings(template: &OAuthTemplate, given: &BTreeMap<&str, String>) -> Option<RawOAuth> {
    let client_id = template.client_id_input.as_deref().and_then(|key| given.get(key)).cloned();
    if client_id.is_none() && template.scopes.is_none() {
        return None;
    }
    Some(RawOAuth { client_id, scopes: template.scopes.clone(), ..RawOAuth::default() })
}

/// The value to use: what the person typed (trimmed, except a secret), else the default; empty counts as none.
fn chosen_value(input: &PresetInput, typed: Option<&String>) -> Option<String> {
    let typed = typed.map(|v| if input.secret { v.clone() } else { v.trim().to_owned() });
    typed.filter(|v| !v.is_empty()).or_else(|| input.default.clone().filter(|d| !d.is_empty()))
}

fn render_group(values: &Values<'_>, group: &[String]) -> Option<Vec<String>> {
    group.iter().map(|token| values.render(token)).collect()
}

/// A package as its registry names it.
pub struct Package<'a> {
    pub registry: PackageRegistry,
    pub identifier: &'a str,
    pub version: Option<&'a str>,
}

/// The command and its first arguments for a package: `npx -y pkg@v`, `uvx pkg==v`,
/// `docker run -i --rm -e VAR… image`, with the runner's own arguments before the package.
pub fn runner(
    package: &Package<'_>,
    runtime_args: &[String],
    env: Option<&BTreeMap<String, String>>,
) -> (String, Vec<String>) {
    let Package { registry, identifier, version } = *package;
    let runtime_args = runtime_args.iter().cloned();
    match registry {
        PackageRegistry::Npm => {
            let pkg = version.map_or_else(|| identifier.to_owned(), |v| format!("{identifier}@{v}"));
            ("npx".into(), std::iter::once("-y".into()).chain(runtime_args).chain([pkg]).collect())
        }
        PackageRegistry::Pypi => {
            let pkg = version.map_or_else(|| identifier.to_owned(), |v| format!("{identifier}=={v}"));
            ("uvx".into(), runtime_args.chain([pkg]).collect())
        }
        PackageRegistry::Oci => {
            let mut argv: Vec<String> = vec!["run".into(), "-i".into(), "--rm".into()];
            // `-e NAME` without a value passes the variable from docker's own environment, so the value (maybe a
            // secret reference, expanded at connect time) stays in `env` and never appears on the command line.
            for name in env.into_iter().flat_map(BTreeMap::keys) {
                argv.extend(["-e".into(), name.clone()]);
            }
            argv.extend(runtime_args);
            argv.push(version.map_or_else(|| identifier.to_owned(), |v| format!("{identifier}:{v}")));
            ("docker".into(), argv)
        }
    }
}
