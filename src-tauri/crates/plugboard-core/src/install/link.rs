//! `plugboard://install` links, parsed: `?name=NAME&config=BASE64(JSON of one server)` (the shape Cursor's and LM
//! Studio's links use) and `?{url-encoded JSON with "name"}` (VS Code's). The result is a [`Preset`] whose inputs are
//! what the link leaves for the person (`${input:ID}`, an empty value, a `<placeholder>`), so it is added exactly
//! like a preset. Anyone can send a link: an oversized or malformed one, one that carries a secret, reads the
//! environment or the keychain (`${env:…}`, `${secret:…}`), names a file to read (`envFile`, `cwd`) or holds
//! control characters is refused with a reason that never repeats a value. Pure: no I/O, so it can be fuzzed.

use std::collections::BTreeMap;

use base64::Engine as _;
use serde::Deserialize;

use crate::config::model::ServerName;
use crate::config::raw::RawServer;
use crate::presets::{Launch, NamedTemplate, Preset, PresetInput, RemoteTransport};

/// The longest link accepted (a configuration is a few hundred bytes; browsers cap URLs near here too).
pub const MAX_LINK_BYTES: usize = 16 * 1024;
/// At most this many arguments, environment variables or headers.
const MAX_ITEMS: usize = 64;

/// A parsed install link: the server's name as the link gives it and what would be added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstallLink {
    pub name: String,
    pub preset: Preset,
}

/// Why a link was refused; each message says what is wrong without repeating a value from the link.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LinkError {
    #[error("it is not a plugboard://install link")]
    NotAnInstallLink,
    #[error("it is longer than {MAX_LINK_BYTES} bytes")]
    Oversized,
    #[error("it is malformed: {0}")]
    Malformed(String),
    #[error("it gives no server name")]
    NoName,
    #[error("its server name cannot be used: {0}")]
    BadName(String),
    #[error(
        "it carries what looks like a secret in {location}: a link never carries one (the publisher should leave it empty so that you are asked)"
    )]
    CarriesSecret { location: String },
    #[error("{location} refers to {reference}: a link may not read your environment, keychain or files")]
    ForbiddenReference { location: String, reference: String },
    #[error("it sets {field}, which an install link may not set")]
    ForbiddenField { field: String },
    #[error("{0}")]
    Unusable(String),
}

/// One server object of a link (Cursor's `mcpServers` entry, or VS Code's with `name` and `inputs`).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct LinkServer {
    name: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
    command: Option<String>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    url: Option<String>,
    #[serde(default)]
    headers: BTreeMap<String, String>,
    /// VS Code's prompts for `${input:ID}`.
    #[serde(default)]
    inputs: Vec<LinkInput>,
}

#[derive(Debug, Deserialize)]
struct LinkInput {
    id: String,
    description: Option<String>,
    #[serde(default)]
    password: bool,
    #[serde(rename = "type")]
    _kind: Option<String>,
}

/// Parses a `plugboard://install` link into what it offers.
pub fn parse(raw: &str) -> Result<InstallLink, LinkError> {
    if raw.len() > MAX_LINK_BYTES {
        return Err(LinkError::Oversized);
    }
    let url = url::Url::parse(raw).map_err(|_| LinkError::NotAnInstallLink)?;
    if url.scheme() != "plugboard" || url.host_str() != Some("install") || !matches!(url.path(), "" | "/") {
        return Err(LinkError::NotAnInstallLink);
    }
    let query = url.query().unwrap_or_default();
    let server = if query.starts_with('{') || query.starts_with("%7B") || query.starts_with("%7b") {
        let json = percent_decode(query)?;
        from_json(&json)?
    } else {
        cursor_shape(&url)?
    };
    to_install_link(&server)
}

/// `?name=NAME&config=BASE64`: each parameter once.
fn cursor_shape(url: &url::Url) -> Result<LinkServer, LinkError> {
    let (mut name, mut config) = (None, None);
    for (key, value) in url.query_pairs() {
        let slot = match key.as_ref() {
            "name" => &mut name,
            "config" => &mut config,
            other => return Err(LinkError::Malformed(format!("it has an unknown parameter {:?}", short(other)))),
        };
        if slot.replace(value.into_owned()).is_some() {
            return Err(LinkError::Malformed(format!("it gives {key} twice")));
        }
    }
    let config = config.ok_or_else(|| LinkError::Malformed("it has no config".into()))?;
    let bytes = decode_base64(config.trim())?;
    let text = String::from_utf8(bytes).map_err(|_| LinkError::Malformed("its config is not UTF-8 text".into()))?;
    let mut server = from_json(&text)?;
    if server.name.is_some() {
        return Err(LinkError::Malformed("its config names the server too: give the name once".into()));
    }
    server.name = name;
    Ok(server)
}

/// Standard or URL-safe base64, with or without padding (publishers' generators differ).
fn decode_base64(text: &str) -> Result<Vec<u8>, LinkError> {
    use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
    [STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD]
        .iter()
        .find_map(|engine| engine.decode(text).ok())
        .ok_or_else(|| LinkError::Malformed("its config is not base64".into()))
}

fn percent_decode(text: &str) -> Result<String, LinkError> {
    percent_encoding::percent_decode_str(text)
        .decode_utf8()
        .map(|t| t.into_owned())
        .map_err(|_| LinkError::Malformed("its configuration is not UTF-8 text".into()))
}

fn from_json(text: &str) -> Result<LinkServer, LinkError> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| LinkError::Malformed(format!("its configuration is not JSON ({e})")))?;
    if let Some(object) = value.as_object() {
        for field in ["cwd", "envFile", "auth", "oauth"] {
            if object.contains_key(field) {
                return Err(LinkError::ForbiddenField { field: field.into() });
            }
        }
    }
    serde_json::from_value(value)
        .map_err(|e| LinkError::Malformed(format!("its configuration is not one server ({e})")))
}

fn short(text: &str) -> String {
    text.chars().take(32).collect()
}

fn to_install_link(server: &LinkServer) -> Result<InstallLink, LinkError> {
    let name = server.name.as_deref().map(str::trim).filter(|n| !n.is_empty()).ok_or(LinkError::NoName)?;
    let name = ServerName::parse(&ServerName::sanitize(name).to_string())
        .map_err(|e| LinkError::BadName(e.to_string()))?
        .to_string();
    check_texts(server)?;
    refuse_literal_secrets(&name, server)?;
    if server.args.len() > MAX_ITEMS || server.env.len() > MAX_ITEMS || server.headers.len() > MAX_ITEMS {
        return Err(LinkError::Unusable(format!("it has more than {MAX_ITEMS} arguments, variables or headers")));
    }
    let mut inputs = Inputs { declared: &server.inputs, made: Vec::new() };
    let launch = match (server.command.as_deref(), server.url.as_deref(), server.kind.as_deref()) {
        (Some(command), None, None | Some("stdio")) => {
            let command = command.trim().to_owned();
            if command.is_empty() {
                return Err(LinkError::Unusable("its command is empty".into()));
            }
            let args = server
                .args
                .iter()
                .enumerate()
                .map(|(i, arg)| {
                    inputs.template(&format!("args[{i}]"), &format!("arg{}", i + 1), arg, false).map(|a| vec![a])
                })
                .collect::<Result<_, _>>()?;
            let env = named(&mut inputs, "env", &server.env)?;
            Launch::Command { command, args, env }
        }
        (None, Some(url), kind) => {
            let transport = match kind {
                None | Some("http" | "streamable-http" | "streamableHttp") => RemoteTransport::StreamableHttp,
                Some("sse") => RemoteTransport::Sse,
                Some(_) => return Err(LinkError::Unusable("its type is none of stdio, http or sse".into())),
            };
            check_url(url)?;
            let url = inputs.template("url", "url", url, false)?;
            let headers = named(&mut inputs, "headers", &server.headers)?;
            Launch::Remote { transport, url, headers, oauth: None }
        }
        (Some(_), Some(_), _) => return Err(LinkError::Unusable("it gives both a command and a url".into())),
        (None, None, _) => return Err(LinkError::Unusable("it gives neither a command nor a url".into())),
        (Some(_), None, Some(_)) => return Err(LinkError::Unusable("a command runs over stdio only".into())),
    };
    let preset = Preset {
        name: format!("link/{name}"),
        title: name.clone(),
        description: "Offered by an install link: add it only if you trust where it came from. Nothing runs until you approve it.".into(),
        version: String::new(),
        website_url: None,
        repository_url: None,
        launch,
        inputs: inputs.made,
        auth_note: None,
        sources: Vec::new(),
    };
    crate::presets::validate::check_placeholders(&preset.launch, &preset.inputs).map_err(LinkError::Unusable)?;
    Ok(InstallLink { name, preset })
}

/// No control character anywhere (they can hide what a line says), and no `{`/`}` outside `${input:…}` (Plugboard's
/// templates use them).
fn check_texts(server: &LinkServer) -> Result<(), LinkError> {
    let texts = server
        .command
        .iter()
        .chain(&server.url)
        .chain(&server.args)
        .chain(server.env.iter().flat_map(|(k, v)| [k, v]))
        .chain(server.headers.iter().flat_map(|(k, v)| [k, v]));
    for text in texts {
        if text.chars().any(char::is_control) {
            return Err(LinkError::Unusable("it holds control characters".into()));
        }
    }
    Ok(())
}

/// The import's scan of literal secrets over the link's server, as if it were about to be saved (the values left
/// for the person to fill in are not secrets, whatever their key).
fn refuse_literal_secrets(name: &str, server: &LinkServer) -> Result<(), LinkError> {
    let unfilled = |map: &BTreeMap<String, String>| -> BTreeMap<String, String> {
        map.iter()
            .map(|(k, v)| {
                let left = is_placeholder(v.strip_prefix("Bearer ").unwrap_or(v));
                (k.clone(), if left { String::new() } else { v.clone() })
            })
            .collect()
    };
    let mut raw = RawServer {
        command: server.command.clone(),
        args: Some(server.args.clone()),
        env: Some(unfilled(&server.env)),
        url: server.url.clone(),
        headers: Some(unfilled(&server.headers)),
        ..RawServer::default()
    };
    match crate::import::secrets_scan::move_literal_secrets(name, &mut raw).into_iter().next() {
        Some(found) => Err(LinkError::CarriesSecret { location: found.location }),
        None => Ok(()),
    }
}

/// https, or plain http to this computer; no user name or password in it.
fn check_url(url: &str) -> Result<(), LinkError> {
    let without_inputs = url.replace("${input:", "x").replace('}', "");
    let parsed = url::Url::parse(&without_inputs).map_err(|_| LinkError::Unusable("its url is not a URL".into()))?;
    let loopback = matches!(parsed.host_str(), Some("127.0.0.1" | "localhost" | "[::1]"));
    if parsed.scheme() != "https" && !(parsed.scheme() == "http" && loopback) {
        return Err(LinkError::Unusable("its url must use https (plain http only on this computer)".into()));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(LinkError::CarriesSecret { location: "url".into() });
    }
    Ok(())
}

fn named(inputs: &mut Inputs<'_>, what: &str, map: &BTreeMap<String, String>) -> Result<Vec<NamedTemplate>, LinkError> {
    map.iter()
        .map(|(name, value)| {
            if name.is_empty() || name.contains(['{', '}', '=']) || name.chars().any(char::is_whitespace) {
                return Err(LinkError::Unusable(format!("{what} has a name that cannot be one")));
            }
            let secret = crate::import::secrets_scan::is_secret_key(name) || name.eq_ignore_ascii_case("authorization");
            let template = inputs.template(&format!("{what}.{name}"), name, value, secret)?;
            Ok(NamedTemplate { name: name.clone(), template })
        })
        .collect()
}

/// The inputs a link leaves for the person, made as its values are read.
struct Inputs<'a> {
    declared: &'a [LinkInput],
    made: Vec<PresetInput>,
}

impl Inputs<'_> {
    /// The template of one value: `${input:ID}` becomes `{ID}`; an empty value or a `<placeholder>` (also after
    /// `Bearer `) becomes `{KEY}`; any other `${…}` and stray braces are refused.
    fn template(&mut self, location: &str, key: &str, value: &str, secret: bool) -> Result<String, LinkError> {
        let (prefix, rest) = match value.strip_prefix("Bearer ") {
            Some(rest) => ("Bearer ", rest),
            None => ("", value),
        };
        if is_placeholder(rest) {
            let key = input_key(key);
            self.add(&key, None, secret || !prefix.is_empty(), location)?;
            return Ok(format!("{prefix}{{{key}}}"));
        }
        let mut out = String::new();
        let mut text = value;
        while let Some(start) = text.find("${") {
            let end = text[start..].find('}').map(|i| start + i).ok_or_else(|| stray(location))?;
            let reference = &text[start + 2..end];
            let Some(id) = reference.strip_prefix("input:") else {
                return Err(LinkError::ForbiddenReference {
                    location: location.into(),
                    reference: format!("${{{}}}", short(reference)),
                });
            };
            let key = input_key(id);
            let declared = self.declared.iter().find(|i| i.id == id);
            let description = declared.and_then(|i| i.description.clone());
            self.add(&key, description, secret || declared.is_some_and(|i| i.password), location)?;
            push_literal(&mut out, &text[..start], location)?;
            out.push_str(&format!("{{{key}}}"));
            text = &text[end + 1..];
        }
        push_literal(&mut out, text, location)?;
        Ok(out)
    }

    fn add(&mut self, key: &str, description: Option<String>, secret: bool, location: &str) -> Result<(), LinkError> {
        if let Some(existing) = self.made.iter_mut().find(|i| i.key == key) {
            existing.secret |= secret;
            return Ok(());
        }
        if self.made.len() >= MAX_ITEMS {
            return Err(LinkError::Unusable(format!("{location}: it asks for too many values")));
        }
        self.made.push(PresetInput {
            key: key.to_owned(),
            description: description.or_else(|| Some(format!("Asked for by the link ({location})."))),
            required: true,
            secret,
            default: None,
            path: None,
            placeholder: None,
            choices: Vec::new(),
        });
        Ok(())
    }
}

/// Text the publisher left to fill in: empty, `<…>`, `YOUR_…`/`your-…`.
fn is_placeholder(text: &str) -> bool {
    let text = text.trim();
    text.is_empty()
        || (text.starts_with('<') && text.ends_with('>'))
        || text.to_ascii_lowercase().starts_with("your_")
        || text.to_ascii_lowercase().starts_with("your-")
}

/// An input key from any text: letters, digits, `_` and `-`.
fn input_key(text: &str) -> String {
    let key: String = text.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
    if key.is_empty() { "value".into() } else { key }
}

fn push_literal(out: &mut String, text: &str, location: &str) -> Result<(), LinkError> {
    if text.contains(['{', '}']) {
        return Err(stray(location));
    }
    out.push_str(text);
    Ok(())
}

fn stray(location: &str) -> LinkError {
    LinkError::Unusable(format!("{location} holds braces outside a ${{input:…}} reference"))
}
