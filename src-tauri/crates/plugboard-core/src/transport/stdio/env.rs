//! The environment a stdio server starts with: a short allowlist of the parent's variables plus what the person
//! configured. It must never pass on the rest of Plugboard's environment (it may hold tokens), nor log values.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};

/// What every server gets from the parent, as the MCP TypeScript SDK's `getDefaultEnvironment` does, plus the
/// locale and the runtime dirs that tools commonly need. Anything else must be configured explicitly.
#[cfg(unix)]
const INHERITED: &[&str] = &["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "TMPDIR", "XDG_RUNTIME_DIR"];
#[cfg(windows)]
const INHERITED: &[&str] = &[
    "APPDATA",
    "HOMEDRIVE",
    "HOMEPATH",
    "LOCALAPPDATA",
    "PATH",
    "PROCESSOR_ARCHITECTURE",
    "SYSTEMDRIVE",
    "SYSTEMROOT",
    "TEMP",
    "USERNAME",
    "USERPROFILE",
    "PROGRAMFILES",
];

/// Whether the parent's variable `name` may pass to a server.
fn is_inherited(name: &OsStr) -> bool {
    let Some(name) = name.to_str() else { return false };
    // Windows variable names are case-insensitive (`Path` is `PATH`).
    let known = INHERITED.iter().any(|k| if cfg!(windows) { k.eq_ignore_ascii_case(name) } else { *k == name });
    known || (cfg!(unix) && name.starts_with("LC_"))
}

/// The child's whole environment: the allowlisted part of `parent`, `PATH` replaced by `search_path` (the PATH
/// the program was resolved against, so `#!/usr/bin/env node` finds the same node), then `configured` on top.
pub(crate) fn child_environment(
    parent: impl IntoIterator<Item = (OsString, OsString)>,
    search_path: &OsStr,
    configured: &BTreeMap<String, String>,
) -> Vec<(OsString, OsString)> {
    let mut env: BTreeMap<OsString, OsString> = parent
        .into_iter()
        // A value starting with "()" is an exported shell function (the Shellshock vector): never pass one on.
        .filter(|(k, v)| is_inherited(k) && !v.as_encoded_bytes().starts_with(b"()"))
        .filter(|(k, _)| !is_path(k))
        .collect();
    if !search_path.is_empty() {
        env.insert(OsString::from("PATH"), search_path.to_owned());
    }
    for (k, v) in configured {
        if is_path(OsStr::new(k)) {
            env.retain(|existing, _| !is_path(existing));
        }
        env.insert(OsString::from(k), OsString::from(v));
    }
    env.into_iter().collect()
}

fn is_path(name: &OsStr) -> bool {
    name.to_str().is_some_and(|n| if cfg!(windows) { n.eq_ignore_ascii_case("PATH") } else { n == "PATH" })
}

/// The names (never the values) of an environment, for logs.
pub(crate) fn names(env: &[(OsString, OsString)]) -> Vec<String> {
    env.iter().map(|(k, _)| k.to_string_lossy().into_owned()).collect()
}
