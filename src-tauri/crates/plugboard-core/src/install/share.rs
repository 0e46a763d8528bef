//! The reverse of an install link: a configured server as a `plugboard://install` link, or as the entry another
//! client's config takes (Cursor, VS Code, Claude Code). Secrets never leave: a `${secret:NAME}` becomes the
//! receiving side's way of asking for it (an input, or an environment variable of that name), so what is copied
//! carries references only. Settings only Plugboard has (allowlist, timeouts, OAuth) are not carried.

use std::collections::BTreeMap;

use base64::Engine as _;
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::config::raw::RawServer;
use crate::config::references::{Reference, ReferenceError, rewrite};

/// The clients whose config shape can be copied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum ClientShape {
    /// `~/.cursor/mcp.json`: `mcpServers`, `${env:NAME}`.
    Cursor,
    /// VS Code's `mcp.json`: `servers` with `type`, and `inputs` prompted as passwords for `${input:NAME}`.
    VsCode,
    /// Claude Code's `.mcp.json`: `mcpServers` with `type`, `${NAME}`.
    ClaudeCode,
}

/// Why a server cannot be shared.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ShareError {
    #[error("{server} has neither a command nor a url")]
    Incomplete { server: String },
    #[error("{server}: {source}")]
    Reference { server: String, source: ReferenceError },
}

/// `plugboard://install?name=NAME&config=BASE64(JSON)`: the server's command or URL, environment or headers, each
/// secret an `${input:NAME}` prompted as a password.
pub fn install_link(name: &str, entry: &RawServer) -> Result<String, ShareError> {
    let mut passwords = Vec::new();
    let mut config = server_object(
        name,
        entry,
        &mut |r: Reference<'_>, secrets: &mut Vec<String>| match r {
            Reference::Secret(secret) => {
                secrets.push(secret.to_owned());
                format!("${{input:{secret}}}")
            }
            Reference::Env { var, .. } => format!("${{input:{var}}}"),
        },
        &mut passwords,
        true,
    )?;
    if !passwords.is_empty() {
        config.insert("inputs".into(), inputs_json(&passwords));
    }
    let encoded = base64::engine::general_purpose::STANDARD.encode(Value::Object(config).to_string());
    let name: String = url::form_urlencoded::byte_serialize(name.as_bytes()).collect();
    let config: String = url::form_urlencoded::byte_serialize(encoded.as_bytes()).collect();
    Ok(format!("plugboard://install?name={name}&config={config}"))
}

/// The JSON another client's config takes for this server, with its own references in place of secrets.
pub fn client_config(name: &str, entry: &RawServer, client: ClientShape) -> Result<String, ShareError> {
    let mut secrets = Vec::new();
    let typed = client != ClientShape::Cursor;
    let object = server_object(
        name,
        entry,
        &mut |r: Reference<'_>, secrets: &mut Vec<String>| {
            let var = match r {
                Reference::Secret(secret) => {
                    secrets.push(secret.to_owned());
                    secret
                }
                Reference::Env { var, .. } => var,
            };
            match client {
                ClientShape::Cursor => format!("${{env:{var}}}"),
                ClientShape::VsCode => format!("${{input:{var}}}"),
                ClientShape::ClaudeCode => format!("${{{var}}}"),
            }
        },
        &mut secrets,
        typed,
    )?;
    let document = match client {
        ClientShape::Cursor | ClientShape::ClaudeCode => json!({ "mcpServers": { name: object } }),
        ClientShape::VsCode if secrets.is_empty() => json!({ "servers": { name: object } }),
        ClientShape::VsCode => json!({ "servers": { name: object }, "inputs": inputs_json(&secrets) }),
    };
    Ok(serde_json::to_string_pretty(&document).unwrap_or_default())
}

type Writer<'w> = dyn FnMut(Reference<'_>, &mut Vec<String>) -> String + 'w;

/// The server's own fields, every reference written by `write`; `typed` adds `type`.
fn server_object(
    name: &str,
    entry: &RawServer,
    write: &mut Writer<'_>,
    secrets: &mut Vec<String>,
    typed: bool,
) -> Result<Map<String, Value>, ShareError> {
    let mut text = |value: &str| -> Result<String, ShareError> {
        rewrite(value, |r| Ok(write(r, secrets)))
            .map_err(|source| ShareError::Reference { server: name.to_owned(), source })
    };
    let mut object = Map::new();
    match (&entry.command, &entry.url) {
        (Some(command), _) => {
            if typed {
                object.insert("type".into(), "stdio".into());
            }
            object.insert("command".into(), text(command)?.into());
            let args: Vec<Value> =
                entry.args.iter().flatten().map(|a| text(a).map(Value::from)).collect::<Result<_, _>>()?;
            object.insert("args".into(), args.into());
            insert_map(&mut object, "env", entry.env.as_ref(), &mut text)?;
        }
        (None, Some(url)) => {
            if typed {
                let kind = if entry.kind.as_deref() == Some("sse") { "sse" } else { "http" };
                object.insert("type".into(), kind.into());
            }
            object.insert("url".into(), text(url)?.into());
            insert_map(&mut object, "headers", entry.headers.as_ref(), &mut text)?;
        }
        (None, None) => return Err(ShareError::Incomplete { server: name.to_owned() }),
    }
    secrets.sort();
    secrets.dedup();
    Ok(object)
}

fn insert_map(
    object: &mut Map<String, Value>,
    key: &str,
    map: Option<&BTreeMap<String, String>>,
    text: &mut impl FnMut(&str) -> Result<String, ShareError>,
) -> Result<(), ShareError> {
    let Some(map) = map.filter(|m| !m.is_empty()) else { return Ok(()) };
    let written: Map<String, Value> =
        map.iter().map(|(k, v)| text(v).map(|v| (k.clone(), Value::from(v)))).collect::<Result<_, _>>()?;
    object.insert(key.into(), Value::Object(written));
    Ok(())
}

/// VS Code's `inputs`: one password prompt per secret.
fn inputs_json(secrets: &[String]) -> Value {
    secrets
        .iter()
        .map(|id| json!({ "type": "promptString", "id": id, "description": format!("{id} (kept as a secret)"), "password": true }))
        .collect()
}
