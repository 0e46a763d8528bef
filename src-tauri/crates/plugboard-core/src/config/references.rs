//! `${secret:NAME}`, `${env:VAR}`, `${VAR}` and `${VAR:-default}` in config values, expanded at connect time only.
//! An unset variable expands empty with a warning naming it; a missing secret is an error (an empty token
//! would fail later, further from the cause). Expanded values are never written back to the file.

use crate::secrets::Sensitive;

/// A `${…}` reference found in a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reference<'a> {
    Secret(&'a str),
    Env { var: &'a str, default: Option<&'a str> },
}

/// Where references get their values.
pub trait ReferenceSource {
    /// An environment variable, `None` when unset.
    fn env(&self, var: &str) -> Option<String>;
    /// A secret of the server being expanded, `Ok(None)` when there is none.
    fn secret(&self, name: &str) -> Result<Option<Sensitive<String>>, ReferenceError>;
}

/// Why a value could not be expanded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReferenceError {
    #[error(
        "the secret {name:?} is not set: set it under Secrets on the server's page in Plugboard (or with `plugboard secret set`)"
    )]
    MissingSecret { name: String },
    #[error("the secret {name:?} could not be read: {reason}")]
    SecretUnreadable { name: String, reason: String },
    /// The keychain holding the secret is locked: unlocking it is all it takes (see `VaultError::Locked`).
    #[error("the secret {name:?} could not be read: the OS keychain is locked ({reason})")]
    KeychainLocked { name: String, reason: String },
    #[error("{text:?} has an unterminated \"${{\"")]
    Unterminated { text: String },
}

/// A value after expansion; it may hold a secret, so it is `Sensitive`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expanded {
    pub value: Sensitive<String>,
    /// Variables that were unset and expanded empty.
    pub unset: Vec<String>,
}

/// Every config value of `transport` that may hold references: command, args, env and cwd, or url and headers.
pub fn expandable_texts(transport: &crate::config::model::Transport) -> Vec<&String> {
    use crate::config::model::Transport;
    match transport {
        Transport::Stdio(s) => std::iter::once(&s.command).chain(&s.args).chain(s.env.values()).chain(&s.cwd).collect(),
        Transport::Http(h) => std::iter::once(&h.url).chain(h.headers.values()).collect(),
    }
}

/// Every reference in `text`, in order (unknown `${…}` forms are treated as environment variables, as shells do).
pub fn references(text: &str) -> Result<Vec<Reference<'_>>, ReferenceError> {
    let mut found = Vec::new();
    scan(text, |r| {
        found.push(r);
        Ok(String::new())
    })?;
    Ok(found)
}

/// Expands every reference of `text` from `source`.
pub fn expand(text: &str, source: &dyn ReferenceSource) -> Result<Expanded, ReferenceError> {
    let mut unset = Vec::new();
    let value = scan(text, |reference| match reference {
        Reference::Secret(name) => match source.secret(name)? {
            Some(secret) => Ok(secret.expose().clone()),
            None => Err(ReferenceError::MissingSecret { name: name.to_owned() }),
        },
        Reference::Env { var, default } => match (source.env(var), default) {
            (Some(value), _) if !(value.is_empty() && default.is_some()) => Ok(value),
            (_, Some(default)) => Ok(default.to_owned()),
            (None, None) => {
                unset.push(var.to_owned());
                Ok(String::new())
            }
            (Some(empty), None) => Ok(empty),
        },
    })?;
    Ok(Expanded { value: Sensitive::new(value), unset })
}

/// `text` with each reference written as `write` returns (another client's syntax), the rest as it is.
pub fn rewrite<'a>(
    text: &'a str,
    write: impl FnMut(Reference<'a>) -> Result<String, ReferenceError>,
) -> Result<String, ReferenceError> {
    scan(text, write)
}

/// Walks `text`, replacing each reference with what `resolve` returns; `$$` is no escape: text stays as written.
fn scan<'a>(
    text: &'a str,
    mut resolve: impl FnMut(Reference<'a>) -> Result<String, ReferenceError>,
) -> Result<String, ReferenceError> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let end = after.find('}').ok_or_else(|| ReferenceError::Unterminated { text: text.to_owned() })?;
        out.push_str(&resolve(parse_reference(&after[..end]))?);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

fn parse_reference(inner: &str) -> Reference<'_> {
    if let Some(name) = inner.strip_prefix("secret:") {
        return Reference::Secret(name.trim());
    }
    let inner = inner.strip_prefix("env:").unwrap_or(inner);
    match inner.split_once(":-") {
        Some((var, default)) => Reference::Env { var: var.trim(), default: Some(default) },
        None => Reference::Env { var: inner.trim(), default: None },
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    struct Fixed {
        env: HashMap<&'static str, &'static str>,
        secrets: HashMap<&'static str, &'static str>,
    }

    impl ReferenceSource for Fixed {
        fn env(&self, var: &str) -> Option<String> {
            self.env.get(var).map(|v| (*v).to_owned())
        }
        fn secret(&self, name: &str) -> Result<Option<Sensitive<String>>, ReferenceError> {
            Ok(self.secrets.get(name).map(|v| Sensitive::new((*v).to_owned())))
        }
    }

    fn source() -> Fixed {
        Fixed {
            env: HashMap::from([("HOME", "/home/me"), ("EMPTY", "")]),
            secrets: HashMap::from([("token", "s3cr3t")]),
        }
    }

    fn value(text: &str) -> String {
        expand(text, &source()).expect("expands").value.expose().clone()
    }

    /// Every reference form expands, and text around references is kept.
    #[test]
    fn forms_expand() {
        assert_eq!(value("Bearer ${secret:token}"), "Bearer s3cr3t");
        assert_eq!(value("${env:HOME}/notes"), "/home/me/notes");
        assert_eq!(value("${HOME}"), "/home/me");
        assert_eq!(value("${MISSING:-fallback}"), "fallback");
        assert_eq!(value("${EMPTY:-fallback}"), "fallback");
        assert_eq!(value("${HOME:-fallback}"), "/home/me");
        assert_eq!(value("no references, $HOME stays"), "no references, $HOME stays");
    }

    /// An unset variable expands empty and is reported by name.
    #[test]
    fn unset_variables_are_reported() {
        let out = expand("a${env:NOPE}b${ALSO_NOPE}", &source()).expect("expands");
        assert_eq!(out.value.expose(), "ab");
        assert_eq!(out.unset, ["NOPE", "ALSO_NOPE"]);
    }

    /// A missing secret is an error naming it and where to set it (no placeholder to fill in); a broken reference is an error too.
    #[test]
    fn missing_secret_and_unterminated_are_errors() {
        let err = expand("${secret:other}", &source()).expect_err("missing");
        assert_eq!(err, ReferenceError::MissingSecret { name: "other".into() });
        assert!(err.to_string().contains("under Secrets on the server's page"), "{err}");
        assert!(!err.to_string().contains("<server>"), "no placeholder for the person to fill in: {err}");
        assert!(matches!(expand("${HOME", &source()), Err(ReferenceError::Unterminated { .. })));
    }

    /// The expanded value never shows in Debug output.
    #[test]
    fn expanded_debug_is_redacted() {
        let out = expand("${secret:token}", &source()).expect("expands");
        assert!(!format!("{out:?}").contains("s3cr3t"));
    }

    /// `references` lists what a value refers to, for checks before connecting.
    #[test]
    fn references_are_listed() {
        let refs = references("${secret:a} ${env:B} ${C:-d}").expect("scan");
        assert_eq!(
            refs,
            [
                Reference::Secret("a"),
                Reference::Env { var: "B", default: None },
                Reference::Env { var: "C", default: Some("d") }
            ]
        );
    }
}
