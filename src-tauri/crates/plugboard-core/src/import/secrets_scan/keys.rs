//! Recognising secrets by what they are called: an env var, header, flag or setting whose name says token, key,
//! secret, password… holds a secret unless its value is plainly something else (a number, a path, a reference).

/// How strongly a name suggests its value is a secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum KeyClass {
    /// `GITHUB_TOKEN`, `X-Api-Key`, `clientSecret`: any literal value is a secret.
    Strong,
    /// Only `AUTH`-like words: a secret unless the value is a plain setting word (`AUTH=oauth`).
    Auth,
    /// `SESSION`, `PRIVATE`…: a secret only when the value looks random enough.
    Weak,
    Plain,
}

const STRONG: &[&str] = &[
    "TOKEN",
    "TOKENS",
    "KEY",
    "KEYS",
    "APIKEY",
    "SECRET",
    "SECRETS",
    "PASSWORD",
    "PASSWORDS",
    "PASSWD",
    "PASSPHRASE",
    "CREDENTIAL",
    "CREDENTIALS",
    "CREDS",
    "AUTHORIZATION",
    "COOKIE",
    "COOKIES",
];
/// Compound words written without a separator (`APITOKEN`, `ACCESSKEY`); a bare `KEY` suffix is not enough
/// (`MONKEY`, `HOCKEY`).
const STRONG_SUFFIXES: &[&str] =
    &["TOKEN", "SECRET", "PASSWORD", "PASSWD", "APIKEY", "ACCESSKEY", "SECRETKEY", "PRIVATEKEY", "AUTHKEY"];
const AUTH: &[&str] = &["AUTH", "AUTHENTICATION", "AUTHN", "AUTHZ", "OAUTH"];
const WEAK: &[&str] = &["SESSION", "PAT", "SIGNATURE", "SIG", "PRIVATE", "ACCESS", "BEARER", "JWT", "LICENSE", "SALT"];
/// A name ending in one of these describes the secret (where it is, what kind) rather than holding it.
const NOT_THE_SECRET: &[&str] = &[
    "FILE",
    "FILES",
    "PATH",
    "PATHS",
    "DIR",
    "DIRECTORY",
    "FOLDER",
    "URL",
    "URLS",
    "URI",
    "ENDPOINT",
    "HOST",
    "HOSTNAME",
    "PORT",
    "TYPE",
    "KIND",
    "MODE",
    "METHOD",
    "ENABLED",
    "DISABLED",
    "ENABLE",
    "NAME",
    "ID",
    "IDS",
    "PREFIX",
    "LIMIT",
    "COUNT",
    "SIZE",
    "LENGTH",
    "TTL",
    "TIMEOUT",
    "EXPIRY",
    "EXPIRES",
    "EXPIRATION",
    "SOCK",
    "SOCKET",
    "USER",
    "USERNAME",
    "EMAIL",
    "REGION",
    "PROVIDER",
    "VERSION",
    "FORMAT",
    "SERVER",
    "ISSUER",
    "AUDIENCE",
    "SCOPE",
    "SCOPES",
    "REALM",
    "DOMAIN",
    "LOCATION",
    "HELPER",
    "COMMAND",
    "CMD",
    "VAR",
    "ENV",
    "FIELD",
    "ALGORITHM",
    "ALG",
    "LEVEL",
    "MAX",
    "MIN",
    "POLICY",
    "STRATEGY",
    "STORE",
    "SEC",
    "MS",
    "SECONDS",
    "RETRIES",
    "PARAM",
    "SOURCE",
];

/// Classifies a name by its words (split at separators and camelCase humps).
pub(super) fn classify(name: &str) -> KeyClass {
    let words = words(name);
    let Some(last) = words.last() else { return KeyClass::Plain };
    if NOT_THE_SECRET.contains(&last.as_str()) {
        return KeyClass::Plain;
    }
    let any = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    if any(STRONG) || words.iter().any(|w| STRONG_SUFFIXES.iter().any(|s| w.len() > s.len() && w.ends_with(s))) {
        KeyClass::Strong
    } else if any(AUTH) {
        KeyClass::Auth
    } else if any(WEAK) {
        KeyClass::Weak
    } else {
        KeyClass::Plain
    }
}

/// `GITHUB_PERSONAL_ACCESS_TOKEN` → GITHUB PERSONAL ACCESS TOKEN; `xApiKey` → X API KEY; `APIKey` → APIKEY.
fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() {
            previous_lower = false;
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        if c.is_ascii_uppercase() && previous_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        current.push(c.to_ascii_uppercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// Whether a literal value under a name of this class is a secret.
pub(super) fn is_secret_value(value: &str, class: KeyClass) -> bool {
    let v = value.trim();
    if class == KeyClass::Plain || v.is_empty() || is_reference_like(v) || is_obviously_not_secret(v) {
        return false;
    }
    match class {
        KeyClass::Strong => true,
        KeyClass::Auth => !(v.len() <= 20 && v.chars().all(|c| c.is_ascii_lowercase() || c == '-' || c == '_')),
        KeyClass::Weak => looks_random(v),
        KeyClass::Plain => false,
    }
}

/// References of any client's syntax: Plugboard's `${…}` anywhere, or a whole `$VAR` / `%VAR%`.
pub(super) fn is_reference_like(v: &str) -> bool {
    let name = |s: &str| {
        s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    v.contains("${")
        || v.strip_prefix('$').is_some_and(name)
        || v.strip_prefix('%').and_then(|s| s.strip_suffix('%')).is_some_and(name)
}

/// Numbers, booleans, paths and plain URLs are settings, whatever their name says.
fn is_obviously_not_secret(v: &str) -> bool {
    let lower = v.to_ascii_lowercase();
    v.parse::<f64>().is_ok()
        || ["true", "false", "yes", "no", "on", "off", "none", "null", "undefined"].contains(&lower.as_str())
        || v.starts_with('/')
        || v.starts_with("~/")
        || v.starts_with("./")
        || v.starts_with("../")
        || v.starts_with(r"\\")
        || (v.as_bytes().first().is_some_and(u8::is_ascii_alphabetic)
            && v.as_bytes().get(1..3).is_some_and(|s| s == b":\\" || s == b":/"))
        || ["http://", "https://", "ws://", "wss://", "file://"].iter().any(|p| lower.starts_with(p))
}

/// Long, without spaces, several kinds of characters and high Shannon entropy: how generated tokens look.
pub(super) fn looks_random(v: &str) -> bool {
    if v.len() < 20 || v.chars().any(char::is_whitespace) {
        return false;
    }
    let classes = [
        v.chars().any(|c| c.is_ascii_lowercase()),
        v.chars().any(|c| c.is_ascii_uppercase()),
        v.chars().any(|c| c.is_ascii_digit()),
        v.chars().any(|c| !c.is_ascii_alphanumeric()),
    ];
    classes.iter().filter(|&&c| c).count() >= 2 && entropy(v) >= 3.5
}

fn entropy(v: &str) -> f64 {
    let mut counts = std::collections::BTreeMap::new();
    for c in v.chars() {
        *counts.entry(c).or_insert(0usize) += 1;
    }
    let n = v.chars().count() as f64;
    counts.values().map(|&k| k as f64 / n).map(|p| -p * p.log2()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names are classified by whole words, so KEYBOARD, MONKEY or AUTHOR are not secret-ish, and a name that
    /// describes a secret (`…_FILE`, `…_URL`, `…_ID`) does not hold one.
    #[test]
    fn names_are_classified_by_words() {
        use KeyClass::*;
        for (name, class) in [
            ("GITHUB_PERSONAL_ACCESS_TOKEN", Strong),
            ("OPENAI_API_KEY", Strong),
            ("apiKey", Strong),
            ("APIKey", Strong),
            ("X-Api-Key", Strong),
            ("Authorization", Strong),
            ("Cookie", Strong),
            ("clientSecret", Strong),
            ("DB_PASSWORD", Strong),
            ("GOOGLE_APPLICATION_CREDENTIALS", Strong),
            ("SLACKBOTTOKEN", Strong),
            ("AUTH_HEADER", Auth),
            ("AUTH", Auth),
            ("SESSION", Weak),
            ("GITHUB_PAT", Weak),
            ("KEYBOARD_LAYOUT", Plain),
            ("MONKEY", Plain),
            ("AUTHOR", Plain),
            ("GITHUB_TOKEN_FILE", Plain),
            ("AUTH_URL", Plain),
            ("OAUTH_CLIENT_ID", Plain),
            ("AWS_ACCESS_KEY_ID", Plain),
            ("SSH_AUTH_SOCK", Plain),
            ("LOG_LEVEL", Plain),
            ("PATH", Plain),
        ] {
            assert_eq!(classify(name), class, "{name}");
        }
    }

    /// Numbers, booleans, paths, URLs and references are never secrets; a setting word under AUTH is not either.
    #[test]
    fn values_that_are_plainly_settings() {
        for v in [
            "4096",
            "true",
            "/home/ada/key.pem",
            "C:\\keys\\a.pem",
            "~/creds.json",
            "https://x.example",
            "${env:X}",
            "Bearer ${secret:t}",
            "$GITHUB_TOKEN",
            "%API_KEY%",
            "  ",
        ] {
            assert!(!is_secret_value(v, KeyClass::Strong), "{v}");
        }
        assert!(is_secret_value("hunter2", KeyClass::Strong));
        assert!(!is_secret_value("oauth", KeyClass::Auth));
        assert!(is_secret_value("Basic dXNlcjpwYXNz", KeyClass::Auth));
        assert!(!is_secret_value("short-value", KeyClass::Weak));
        assert!(is_secret_value("q8Zr2LxP0vN4wK7tY1mB6cH9", KeyClass::Weak));
        assert!(!is_secret_value("aaaaaaaaaaaaaaaaaaaaaaaa1", KeyClass::Weak));
    }
}
