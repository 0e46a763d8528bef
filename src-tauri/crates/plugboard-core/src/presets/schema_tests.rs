//! The catalog's schema test: every embedded file is checked against the rules of the official `server.json`
//! schema (2025-12-11: required fields, name pattern, lengths, enums, pinned versions, image tags), written out
//! here as strict types that refuse any field the schema does not define, plus the catalog's own `_meta` entry.

#![allow(dead_code, reason = "the fields exist so that deserializing checks them; nothing reads them after")]

use std::collections::BTreeMap;

use serde::Deserialize;

use super::EMBEDDED;

const SCHEMA_URL: &str = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ServerDetail {
    #[serde(rename = "$schema")]
    schema: String,
    name: String,
    description: String,
    title: Option<String>,
    version: String,
    website_url: Option<String>,
    repository: Option<Repository>,
    #[serde(default)]
    packages: Vec<Package>,
    #[serde(default)]
    remotes: Vec<Transport>,
    #[serde(rename = "_meta")]
    meta: BTreeMap<String, serde_json::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Repository {
    url: String,
    source: String,
    subfolder: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Package {
    registry_type: RegistryType,
    identifier: String,
    version: Option<String>,
    transport: Transport,
    #[serde(default)]
    runtime_arguments: Vec<Argument>,
    #[serde(default)]
    package_arguments: Vec<Argument>,
    #[serde(default)]
    environment_variables: Vec<KeyValue>,
}

#[derive(Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
enum RegistryType {
    Npm,
    Pypi,
    Oci,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, tag = "type", rename_all = "kebab-case")]
enum Transport {
    Stdio,
    StreamableHttp {
        url: String,
        #[serde(default)]
        headers: Vec<KeyValue>,
    },
    Sse {
        url: String,
        #[serde(default)]
        headers: Vec<KeyValue>,
    },
}

/// `Input` of the schema (its fields are shared by arguments, variables and key-value inputs).
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Input {
    description: Option<String>,
    is_required: Option<bool>,
    is_secret: Option<bool>,
    format: Option<Format>,
    value: Option<String>,
    default: Option<String>,
    placeholder: Option<String>,
    choices: Option<Vec<String>>,
    #[serde(default)]
    variables: BTreeMap<String, Input>,
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum Format {
    String,
    Number,
    Boolean,
    Filepath,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct KeyValue {
    name: String,
    #[serde(flatten)]
    input: Input,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, tag = "type", rename_all = "lowercase")]
enum Argument {
    Positional {
        #[serde(rename = "valueHint")]
        value_hint: Option<String>,
        #[serde(flatten)]
        input: Input,
    },
    Named {
        name: String,
        #[serde(rename = "valueHint")]
        value_hint: Option<String>,
        #[serde(flatten)]
        input: Input,
    },
}

/// The catalog's own `_meta["dev.plugboard/preset"]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct PlugboardMeta {
    sources: Vec<String>,
    auth_note: Option<String>,
    oauth: Option<OAuth>,
    paths: Option<std::collections::BTreeMap<String, PathName>>,
}

/// What a path input names.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
enum PathName {
    Folder,
    File,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct OAuth {
    client_id: Option<Input>,
    client_secret: Option<Input>,
    scopes: Option<String>,
}

fn check(text: &str) -> Result<(), String> {
    let server: ServerDetail = serde_json::from_str(text).map_err(|e| format!("does not match the schema: {e}"))?;
    let name_ok =
        |s: &str, extra: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || extra.contains(c));
    let (namespace, rest) = server.name.split_once('/').ok_or("the name has no '/'")?;
    if !(3..=200).contains(&server.name.len()) || !name_ok(namespace, ".-") || !name_ok(rest, "._-") {
        return Err(format!("the name {:?} does not match ^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$", server.name));
    }
    if server.schema != SCHEMA_URL {
        return Err(format!("$schema is {:?}", server.schema));
    }
    let len_ok = |s: &str| (1..=100).contains(&s.chars().count());
    if !len_ok(&server.description) || !server.title.as_deref().is_none_or(len_ok) {
        return Err("the description and title must be 1 to 100 characters".into());
    }
    if server.version.is_empty() || server.version.len() > 255 {
        return Err("the version must be 1 to 255 characters".into());
    }
    for url in server.website_url.iter().chain(server.repository.as_ref().map(|r| &r.url)) {
        url::Url::parse(url).map_err(|e| format!("{url}: {e}"))?;
    }
    if let Some(repo) = &server.repository
        && (repo.source != "github" || repo.subfolder.as_deref().is_some_and(|s| s.contains(' ') || s.starts_with('/')))
    {
        return Err(format!("repository {:?}/{:?}", repo.source, repo.subfolder));
    }
    if server.packages.len() + server.remotes.len() != 1 {
        return Err("a curated preset offers exactly one package or one remote".into());
    }
    for package in &server.packages {
        match (&package.registry_type, &package.version) {
            (RegistryType::Oci, None) => {
                let tag = package.identifier.rsplit('/').next().and_then(|last| last.split_once(':'));
                if tag.is_none_or(|(_, t)| t == "latest") && !package.identifier.contains("@sha256:") {
                    return Err(format!("{}: no tag or digest", package.identifier));
                }
            }
            (_, Some(v)) if v == "latest" || v.contains(['^', '~', '>', '<', '*']) => {
                return Err(format!("{}: version {v} is not exact", package.identifier));
            }
            (_, Some(_)) => {}
            (_, None) => return Err(format!("{}: npm and pypi packages need a version", package.identifier)),
        }
        if !matches!(package.transport, Transport::Stdio) {
            return Err("a curated package speaks stdio".into());
        }
        for argument in package.runtime_arguments.iter().chain(&package.package_arguments) {
            if let Argument::Positional { value_hint: None, input, .. } = argument
                && input.value.is_none()
            {
                return Err("a positional argument needs a valueHint or a value".into());
            }
        }
    }
    let meta = server.meta.get("dev.plugboard/preset").ok_or("no _meta[\"dev.plugboard/preset\"]")?;
    let meta: PlugboardMeta =
        serde_json::from_value(meta.clone()).map_err(|e| format!("_meta[\"dev.plugboard/preset\"]: {e}"))?;
    if meta.sources.is_empty() {
        return Err("no source: say where the facts were checked".into());
    }
    for source in &meta.sources {
        let url = url::Url::parse(source).map_err(|e| format!("source {source}: {e}"))?;
        if url.scheme() != "https" {
            return Err(format!("source {source} is not https"));
        }
    }
    Ok(())
}

/// Every embedded file passes the schema's rules and says where its facts come from.
#[test]
fn the_catalog_passes_its_schema_test() {
    assert!(EMBEDDED.len() >= 30, "the catalog has {} presets", EMBEDDED.len());
    let failures: Vec<String> =
        EMBEDDED.iter().filter_map(|(file, text)| check(text).err().map(|e| format!("{file}: {e}"))).collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The schema test fails on what it is there to catch: an unknown field, a floating version, an untagged image, a
/// long description, a missing source.
#[test]
fn the_schema_test_refuses_what_the_schema_refuses() {
    let base = |packages: &str, extra: &str| {
        format!(
            r#"{{"$schema":"{SCHEMA_URL}","name":"a.b/c","description":"d","version":"1","packages":[{packages}],
            "_meta":{{"dev.plugboard/preset":{{"sources":["https://a.example"]}}}}{extra}}}"#
        )
    };
    let npm = |v: &str| {
        format!(r#"{{"registryType":"npm","identifier":"p","version":"{v}","transport":{{"type":"stdio"}}}}"#)
    };
    assert_eq!(check(&base(&npm("1.0.0"), "")), Ok(()));
    assert!(check(&base(&npm("latest"), "")).is_err());
    assert!(check(&base(&npm("1.0.0"), r#","surprise":1"#)).is_err());
    assert!(check(&base(r#"{"registryType":"oci","identifier":"o/i","transport":{"type":"stdio"}}"#, "")).is_err());
    let long = base(&npm("1"), "").replace(r#""description":"d""#, &format!(r#""description":"{}""#, "x".repeat(101)));
    assert!(check(&long).is_err());
    assert!(check(&base(&npm("1"), "").replace("https://a.example", "")).is_err());
}
