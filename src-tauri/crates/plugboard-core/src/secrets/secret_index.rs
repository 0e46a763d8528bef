//! Every managed secret's value, in every form text could carry it (encodings.rs), searched in one pass
//! (aho-corasick) with the servers it belongs to: built once per change of the secrets, so checking a call's
//! arguments or redacting its result costs one scan. It must never print a value: `Debug` names secrets only, and
//! what it reports is a secret's name and owner.

use std::borrow::Cow;
use std::collections::BTreeMap;

use aho_corasick::{AhoCorasick, MatchKind};

use super::Sensitive;
use super::encodings::{MIN_ENCODED_LEN, forms};

/// Values shorter than this are not looked for: replacing every `ab` in a result would garble it and protect
/// nothing a person would call a secret.
pub const MIN_SECRET_LEN: usize = 4;

/// A secret of one server that is not sent to another below this length: a short value (a PIN, a port) turns up in
/// innocent text, and refusing calls over it would make the guard a nuisance people switch off.
pub const MIN_GUARDED_LEN: usize = MIN_ENCODED_LEN;

/// One managed secret: the server it belongs to, its name there, and its value.
#[derive(Clone)]
pub struct KnownSecret {
    pub server: String,
    pub name: String,
    pub value: Sensitive<String>,
}

/// Which secret a match was, by reference only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecretRef {
    /// The server the secret belongs to.
    pub owner: String,
    /// Its name under that server (`${secret:NAME}`).
    pub name: String,
}

impl SecretRef {
    /// `${secret:NAME}`, as servers.json refers to it; a login's token (named `oauth:…`, which no reference can
    /// name) by what it is, e.g. `[OAuth access token]`.
    pub fn reference(&self) -> String {
        match self.name.strip_prefix(super::RESERVED_SECRET_PREFIX) {
            Some(token) => format!("[OAuth {}]", token.replace('_', " ")),
            None => format!("${{secret:{}}}", self.name),
        }
    }
}

/// One distinct value and every server that holds it (the same token may be given to two servers).
struct Value {
    owners: Vec<SecretRef>,
    len: usize,
}

/// The searchable set of secrets; empty when there are none.
#[derive(Default)]
pub struct SecretIndex {
    values: Vec<Value>,
    /// For each pattern, the value it is a form of.
    pattern_value: Vec<usize>,
    /// Leftmost-longest: what redaction replaces (a value containing another is replaced whole).
    longest: Option<AhoCorasick>,
    /// Every occurrence, overlapping ones too: what the check for another server's secret looks at.
    every: Option<AhoCorasick>,
}

impl std::fmt::Debug for SecretIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<String> =
            self.values.iter().flat_map(|v| &v.owners).map(|o| format!("{}/{}", o.owner, o.name)).collect();
        f.debug_struct("SecretIndex").field("secrets", &names).finish()
    }
}

impl SecretIndex {
    /// The index over `secrets` (values shorter than [`MIN_SECRET_LEN`] are left out).
    pub fn new(secrets: impl IntoIterator<Item = KnownSecret>) -> Self {
        let mut by_value: BTreeMap<String, Vec<SecretRef>> = BTreeMap::new();
        for secret in secrets {
            if secret.value.expose().chars().count() < MIN_SECRET_LEN {
                continue;
            }
            let owners = by_value.entry(secret.value.expose().clone()).or_default();
            let owner = SecretRef { owner: secret.server, name: secret.name };
            if !owners.contains(&owner) {
                owners.push(owner);
            }
        }
        let mut values = Vec::with_capacity(by_value.len());
        let mut patterns = Vec::new();
        let mut pattern_value = Vec::new();
        for (value, owners) in by_value {
            for form in forms(&value) {
                patterns.push(form);
                pattern_value.push(values.len());
            }
            values.push(Value { owners, len: value.chars().count() });
        }
        let build = |kind| AhoCorasick::builder().match_kind(kind).build(&patterns).ok();
        let (longest, every) = if patterns.is_empty() {
            (None, None)
        } else {
            (build(MatchKind::LeftmostLongest), build(MatchKind::Standard))
        };
        Self { values, pattern_value, longest, every }
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The length in bytes of the longest form of any value searched for (0 when there are none).
    pub fn longest_form(&self) -> usize {
        self.longest.as_ref().map_or(0, AhoCorasick::max_pattern_len)
    }

    /// The first secret in `text` that belongs to another server than `server` (and not to `server` too), in any
    /// of its forms.
    pub fn foreign_secret(&self, server: &str, text: &str) -> Option<SecretRef> {
        let every = self.every.as_ref()?;
        every.find_overlapping_iter(text).find_map(|found| {
            let value = &self.values[self.pattern_value[found.pattern().as_usize()]];
            let foreign = value.len >= MIN_GUARDED_LEN && !value.owners.iter().any(|o| o.owner == server);
            foreign.then(|| value.owners[0].clone())
        })
    }

    /// `text` as a call of `server` may show it: every secret value in it (its own, and any other server's long
    /// enough to guard) replaced by its `${secret:NAME}`, in whatever form it appears.
    pub fn redact<'t>(&self, server: &str, text: &'t str) -> Cow<'t, str> {
        self.replace(text, |value| {
            let own = value.owners.iter().find(|o| o.owner == server);
            own.or_else(|| (value.len >= MIN_GUARDED_LEN).then(|| &value.owners[0]))
        })
    }

    /// `text` with every secret value in it replaced by its `${secret:NAME}`, whoever it belongs to (a log line).
    pub fn redact_all<'t>(&self, text: &'t str) -> Cow<'t, str> {
        self.replace(text, |value| value.owners.first())
    }

    /// Replaces each match whose value `pick` names a reference for.
    fn replace<'t, 'a>(&'a self, text: &'t str, pick: impl Fn(&'a Value) -> Option<&'a SecretRef>) -> Cow<'t, str> {
        let Some(longest) = &self.longest else { return Cow::Borrowed(text) };
        let mut out = String::new();
        let mut last = 0;
        for found in longest.find_iter(text) {
            let Some(owner) = pick(&self.values[self.pattern_value[found.pattern().as_usize()]]) else { continue };
            out.push_str(&text[last..found.start()]);
            out.push_str(&owner.reference());
            last = found.end();
        }
        if last == 0 {
            return Cow::Borrowed(text);
        }
        out.push_str(&text[last..]);
        Cow::Owned(out)
    }
}

#[cfg(test)]
mod tests {
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD;

    use super::*;

    fn secret(server: &str, name: &str, value: &str) -> KnownSecret {
        KnownSecret { server: server.into(), name: name.into(), value: Sensitive::new(value.into()) }
    }

    fn index() -> SecretIndex {
        SecretIndex::new([
            secret("github", "token", "ghp_0123456789abcdef"),
            secret("shared-a", "key", "same-value-in-two"),
            secret("shared-b", "key", "same-value-in-two"),
            secret("github", "pin", "4242"),
            secret("github", "tiny", "ab"),
        ])
    }

    /// Another server's secret is found in any of its forms; a server's own secret, one given to both servers, and
    /// a short value are not another's.
    #[test]
    fn finds_another_servers_secret_in_any_form() {
        let index = index();
        let github = SecretRef { owner: "github".into(), name: "token".into() };
        for text in [
            "ghp_0123456789abcdef".to_owned(),
            format!("x={}", STANDARD.encode("Bearer ghp_0123456789abcdef")),
            "q=ghp_0123456789abcdef%20".to_owned(),
        ] {
            assert_eq!(index.foreign_secret("notes", &text), Some(github.clone()), "{text}");
        }
        assert_eq!(index.foreign_secret("github", "ghp_0123456789abcdef"), None, "its own");
        assert_eq!(index.foreign_secret("shared-b", "same-value-in-two"), None, "given to it too");
        assert!(index.foreign_secret("notes", "same-value-in-two").is_some());
        assert_eq!(index.foreign_secret("notes", "pin 4242"), None, "too short to guard");
    }

    /// Redaction replaces a server's own short secret too, another server's long one, and leaves the rest.
    #[test]
    fn redacts_own_and_guarded_values() {
        let index = index();
        assert_eq!(
            index.redact("github", "pin 4242, token ghp_0123456789abcdef"),
            "pin ${secret:pin}, token ${secret:token}"
        );
        assert_eq!(index.redact("notes", "pin 4242, ghp_0123456789abcdef, ab"), "pin 4242, ${secret:token}, ab");
        assert!(matches!(index.redact("notes", "nothing here"), Cow::Borrowed(_)));
        assert_eq!(index.redact_all("pin 4242, ab"), "pin ${secret:pin}, ab", "a log line loses every value");
    }

    /// `Debug` lists secrets by owner and name, never a value.
    #[test]
    fn debug_names_only() {
        let shown = format!("{:?}", index());
        assert!(shown.contains("github/token") && !shown.contains("ghp_0123"), "{shown}");
    }
}
