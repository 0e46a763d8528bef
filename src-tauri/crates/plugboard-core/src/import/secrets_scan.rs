//! Moving literal secrets out of an imported entry before it is saved: each one is replaced by a `${secret:NAME}`
//! reference and handed back for the vault. It must never put a secret's value in a name, location, note, error or
//! `Debug` output, and never touch a value that is already a reference.

mod formats;
mod keys;
#[cfg(test)]
mod tests;

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use crate::config::raw::RawServer;
use crate::import::clients::common::notes::placeholders;
use crate::secrets::Sensitive;
use keys::{KeyClass, classify, is_reference_like, is_secret_value};

/// A secret taken out of an entry; store `value` in the vault under this server and `name`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundSecret {
    /// The vault secret name, already referenced in the entry as `${secret:NAME}`.
    pub name: String,
    pub value: Sensitive<String>,
    /// Where it was, for the person: `env.GITHUB_TOKEN`, `headers.Authorization`, `args[3]`, `oauth client secret`.
    pub location: String,
}

/// Replaces every literal secret in `server` (env, headers, args, url, command, cwd, OAuth client secret, and
/// unrecognised settings) with `${secret:NAME}` and returns the secrets. Names are unique within the server (the
/// vault keys secrets by server and name, so `server_name` does not need to be part of them); a value found twice
/// is stored once.
pub fn move_literal_secrets(_server_name: &str, server: &mut RawServer) -> Vec<FoundSecret> {
    let mut vault = Collector { found: Vec::new(), taken: existing_secret_names(server) };
    let RawServer { command, args, env, cwd, url, headers, oauth, other, .. } = server;
    for (key, value) in env.iter_mut().flatten() {
        keyed(key, value, &format!("env.{key}"), &mut vault);
    }
    for (key, value) in headers.iter_mut().flatten() {
        keyed(key, value, &format!("headers.{key}"), &mut vault);
    }
    if let Some(args) = args {
        scan_args(args, &mut vault);
    }
    if let Some(url) = url {
        scan_url(url, &mut vault);
    }
    for (field, text) in [("command", command), ("cwd", cwd)] {
        if let Some(text) = text {
            by_shape(text, None, field, &mut vault);
        }
    }
    if let Some(oauth) = oauth {
        // Other clients' spellings land on `oauth.clientSecret`, the key login reads the client secret from.
        for key in ["clientSecret", "client_secret"] {
            if oauth.client_secret.is_none()
                && let Some(Value::String(secret)) = oauth.other.remove(key)
            {
                oauth.client_secret = Some(secret);
            }
        }
        if let Some(secret) = &mut oauth.client_secret
            && !secret.trim().is_empty()
            && !is_reference_like(secret.trim())
        {
            let name = vault.store("oauth-client-secret", secret, "oauth client secret");
            *secret = reference(&name);
        }
        scan_json(&mut oauth.other, "oauth", &mut vault);
    }
    scan_json(other, "other", &mut vault);
    vault.found
}

/// Turns any text into a valid vault secret name: `[A-Za-z0-9_.-]`, at most 64 characters, never empty.
pub(crate) fn secret_name(raw: &str) -> String {
    let name: String = raw
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') { c } else { '_' })
        .take(64)
        .collect();
    let name = name.trim_matches('_');
    if name.is_empty() { "secret".to_owned() } else { name.to_owned() }
}

fn reference(name: &str) -> String {
    format!("${{secret:{name}}}")
}

/// The secrets found so far and every name already in use in the entry.
struct Collector {
    found: Vec<FoundSecret>,
    taken: BTreeSet<String>,
}

impl Collector {
    /// Records a secret under a name derived from `wanted` and returns the name to reference.
    fn store(&mut self, wanted: &str, value: &str, location: &str) -> String {
        if let Some(same) = self.found.iter().find(|f| f.value.expose() == value) {
            return same.name.clone();
        }
        let base = secret_name(wanted);
        let name = std::iter::once(base.clone())
            .chain((2..).map(|n| format!("{base}_{n}")))
            .find(|candidate| !self.taken.contains(candidate))
            .unwrap_or(base);
        self.taken.insert(name.clone());
        self.found.push(FoundSecret {
            name: name.clone(),
            value: Sensitive::new(value.to_owned()),
            location: location.to_owned(),
        });
        name
    }
}

/// Names the entry already references (a VS Code password input, a hand-written `${secret:…}`), so that a moved
/// secret never takes one of them.
fn existing_secret_names(server: &RawServer) -> BTreeSet<String> {
    let text = serde_json::to_string(server).unwrap_or_default();
    placeholders(&text).into_iter().filter_map(|(_, inner)| inner.strip_prefix("secret:").map(str::to_owned)).collect()
}

/// Authorization schemes kept in front of the reference, so `Bearer abc` becomes `Bearer ${secret:…}`.
const SCHEMES: &[&str] = &["bearer", "basic", "token", "bot", "digest", "apikey", "api-key", "dpop", "negotiate"];

/// A value under a name: moved whole (after its scheme) when the name says secret; else, when the value names
/// itself (`--header=Authorization: Bearer …`, `TOKEN=…`), that inner name decides; else it is scanned by shape.
fn keyed(key: &str, value: &mut String, location: &str, vault: &mut Collector) {
    keyed_within(key, value, location, vault, 3);
}

/// `depth` bounds how many self-named layers are unwrapped, so `a=a=a=…` cannot recurse without end.
fn keyed_within(key: &str, value: &mut String, location: &str, vault: &mut Collector, depth: u8) {
    let class = classify(key);
    if class != KeyClass::Plain {
        let (scheme, secret) = split_scheme(value);
        if is_secret_value(secret, class) {
            let secret = secret.trim().to_owned();
            let scheme = scheme.to_owned();
            let name = vault.store(key, &secret, location);
            *value = format!("{scheme}{}", reference(&name));
            return;
        }
    }
    if let Some((name, at)) = self_named(value).filter(|_| depth > 0) {
        let mut inner = value[at..].to_owned();
        keyed_within(name.trim_start_matches('-'), &mut inner, location, vault, depth - 1);
        value.replace_range(at.., &inner);
        return;
    }
    by_shape(value, (!key.is_empty()).then_some(key), location, vault);
}

/// Whether `value`, found under the key `key`, is a secret by the import's rules (for other features that hide
/// secrets, such as the console's history).
pub(crate) fn is_secret_under_key(key: &str, value: &str) -> bool {
    is_secret_value(value, classify(key))
}

/// Whether `key` names a secret whatever its value (`token`, `apiKey`, `password`…).
pub(crate) fn is_secret_key(key: &str) -> bool {
    classify(key) == KeyClass::Strong
}

/// The byte ranges of every token-shaped span of `text` (known prefixes, JWTs, URL passwords).
pub(crate) fn token_spans(text: &str) -> Vec<std::ops::Range<usize>> {
    formats::find(text).into_iter().map(|hit| hit.range).collect()
}

/// `NAME=value` (any identifier, `--` allowed) or `Name: value` (only a secret-ish name, so `https://…` and
/// `host:port` are not mistaken for one): the name and where the value starts.
pub(super) fn self_named(text: &str) -> Option<(&str, usize)> {
    let split = |sep: char| {
        let (name, rest) = text.split_once(sep)?;
        let bare = name.trim_start_matches('-');
        let valid = !bare.is_empty() && bare.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        valid.then(|| (name, text.len() - rest.trim_start().len()))
    };
    split('=').or_else(|| split(':').filter(|(name, _)| classify(name) != KeyClass::Plain))
}

fn split_scheme(value: &str) -> (&str, &str) {
    let trimmed = value.trim_start();
    if let Some(space) = trimmed.find(char::is_whitespace) {
        let rest = trimmed[space..].trim_start();
        if SCHEMES.contains(&trimmed[..space].to_ascii_lowercase().as_str()) && !rest.is_empty() {
            let split = value.len() - rest.len();
            return value.split_at(split);
        }
    }
    ("", value)
}

/// Replaces each secret-shaped span of `text`, named after `hint` (the key) or what kind of token it is.
fn by_shape(text: &mut String, hint: Option<&str>, location: &str, vault: &mut Collector) {
    let hits = formats::find(text);
    if hits.is_empty() {
        return;
    }
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for hit in hits {
        let name = vault.store(hint.unwrap_or(hit.label), &text[hit.range.clone()], location);
        out.push_str(&text[last..hit.range.start]);
        out.push_str(&reference(&name));
        last = hit.range.end;
    }
    out.push_str(&text[last..]);
    *text = out;
}

/// Args name their values in three ways: `--api-key=…` or `NAME=…`, `Authorization: Bearer …`, and a flag
/// followed by its value (`--token …`). Anything else is scanned by shape.
fn scan_args(args: &mut [String], vault: &mut Collector) {
    for i in 0..args.len() {
        let location = format!("args[{i}]");
        let previous_flag = i.checked_sub(1).and_then(|p| flag_name(&args[p])).map(str::to_owned);
        let arg = &mut args[i];
        let flag = previous_flag.filter(|_| !arg.starts_with('-'));
        keyed(flag.as_deref().unwrap_or_default(), arg, &location, vault);
    }
}

/// `--name` / `-n` without a value of its own.
fn flag_name(arg: &str) -> Option<&str> {
    let name = arg.strip_prefix('-')?.trim_start_matches('-');
    (!name.is_empty()
        && !arg.contains('=')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_')))
    .then_some(name)
}

/// A url's query parameters are named values (`?api_key=…`); the rest (user info, path) is scanned by shape.
fn scan_url(url: &mut String, vault: &mut Collector) {
    let query_start = url.find('?').map(|i| i + 1);
    let (head, query) = match query_start {
        Some(i) => (url[..i].to_owned(), url[i..].to_owned()),
        None => (url.clone(), String::new()),
    };
    let mut head = head;
    by_shape(&mut head, None, "url", vault);
    let (query, fragment) = match query.split_once('#') {
        Some((q, f)) => {
            let mut fragment = format!("#{f}");
            by_shape(&mut fragment, None, "url", vault);
            (q.to_owned(), fragment)
        }
        None => (query, String::new()),
    };
    let pairs: Vec<String> = query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((key, value)) => {
                let mut value = value.to_owned();
                keyed(key, &mut value, "url", vault);
                format!("{key}={value}")
            }
            None => {
                let mut pair = pair.to_owned();
                by_shape(&mut pair, None, "url", vault);
                pair
            }
        })
        .collect();
    *url = if query_start.is_some() { format!("{head}{}{fragment}", pairs.join("&")) } else { head };
}

/// Settings Plugboard keeps without understanding them: text under a secret-ish key is moved whole, any other
/// text is scanned by shape.
fn scan_json(map: &mut Map<String, Value>, path: &str, vault: &mut Collector) {
    for (key, value) in map.iter_mut() {
        let location = format!("{path}.{key}");
        scan_value(key, value, &location, vault);
    }
}

fn scan_value(key: &str, value: &mut Value, location: &str, vault: &mut Collector) {
    match value {
        Value::String(text) => keyed(key, text, location, vault),
        Value::Array(items) => {
            for (i, item) in items.iter_mut().enumerate() {
                scan_value(key, item, &format!("{location}[{i}]"), vault);
            }
        }
        Value::Object(map) => scan_json(map, location, vault),
        _ => {}
    }
}
