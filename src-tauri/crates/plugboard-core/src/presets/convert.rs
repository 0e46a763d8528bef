//! A preset plus the person's inputs → a `servers.json` entry and the secrets to store. Secret inputs become
//! `${secret:KEY}` references: their values only ever leave here inside `Sensitive`, bound for the vault.

use std::collections::BTreeMap;

use crate::config::raw::RawServer;
use crate::secrets::Sensitive;

use super::error::PresetError;
use super::model::{Launch, NamedTemplate, PackageRegistry, Preset, PresetInput, RemoteTransport, placeholders};

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
        if input.secret {
            secrets.push((input.key.clone(), Sensitive::new(value.clone())));
        }
        given.insert(input.key.as_str(), value);
    }
    let values = Values { preset, given };
    let entry = match &preset.launch {
        Launch::Package { registry, identifier, version, args, env } => {
            let args: Vec<String> = args.iter().filter_map(|group| render_group(&values, group)).flatten().collect();
            let env = values.render_all(env);
            let (command, mut argv) = runner(*registry, identifier, version.as_deref(), env.as_ref());
            argv.extend(args);
            RawServer { command: Some(command), args: Some(argv), env, ..RawServer::default() }
        }
        Launch::Remote { transport, url, headers } => RawServer {
            kind: Some(match transport {
                RemoteTransport::StreamableHttp => "http".into(),
                RemoteTransport::Sse => "sse".into(),
            }),
            url: Some(url.clone()),
            headers: values.render_all(headers),
            ..RawServer::default()
        },
    };
    // A secret left unused (its header or argument dropped) must not be stored.
    let used = crate::registry::secret_names(&entry);
    secrets.retain(|(key, _)| used.contains(key));
    Ok(Converted { entry, secrets })
}

/// The value to use: what the person typed (trimmed, except a secret), else the default; empty counts as none.
fn chosen_value(input: &PresetInput, typed: Option<&String>) -> Option<String> {
    let typed = typed.map(|v| if input.secret { v.clone() } else { v.trim().to_owned() });
    typed.filter(|v| !v.is_empty()).or_else(|| input.default.clone().filter(|d| !d.is_empty()))
}

fn render_group(values: &Values<'_>, group: &[String]) -> Option<Vec<String>> {
    group.iter().map(|token| values.render(token)).collect()
}

/// The command and its first arguments for a package: `npx -y pkg@v`, `uvx pkg==v`, `docker run -i --rm -e VAR… image`.
pub fn runner(
    registry: PackageRegistry,
    identifier: &str,
    version: Option<&str>,
    env: Option<&BTreeMap<String, String>>,
) -> (String, Vec<String>) {
    match registry {
        PackageRegistry::Npm => {
            let pkg = version.map_or_else(|| identifier.to_owned(), |v| format!("{identifier}@{v}"));
            ("npx".into(), vec!["-y".into(), pkg])
        }
        PackageRegistry::Pypi => {
            let pkg = version.map_or_else(|| identifier.to_owned(), |v| format!("{identifier}=={v}"));
            ("uvx".into(), vec![pkg])
        }
        PackageRegistry::Oci => {
            let mut argv: Vec<String> = vec!["run".into(), "-i".into(), "--rm".into()];
            // `-e NAME` without a value passes the variable from docker's own environment, so the value (maybe a
            // secret reference, expanded at connect time) stays in `env` and never appears on the command line.
            for name in env.into_iter().flat_map(BTreeMap::keys) {
                argv.extend(["-e".into(), name.clone()]);
            }
            argv.push(version.map_or_else(|| identifier.to_owned(), |v| format!("{identifier}:{v}")));
            ("docker".into(), argv)
        }
    }
}
