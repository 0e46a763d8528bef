//! Translations several clients share: `${…}` placeholders Plugboard cannot resolve, tool deny-lists, env files,
//! `disabled` flags and timeouts. Every one that changes meaning leaves a note; none puts a value in a note.

use std::ops::Range;

use serde_json::Value;

use super::entry::Draft;
use crate::config::raw::RawServer;

/// Every `${…}` placeholder in `text`: the byte range of the whole placeholder and its inner text.
pub(crate) fn placeholders(text: &str) -> Vec<(Range<usize>, &str)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(start) = text[from..].find("${").map(|i| from + i) {
        let Some(end) = text[start + 2..].find('}').map(|i| start + 2 + i) else { break };
        found.push((start..end + 1, &text[start + 2..end]));
        from = end + 1;
    }
    found
}

/// Applies `f` to every text of an entry a placeholder may live in: command, args, env, cwd, url, headers.
pub(crate) fn each_text_mut(server: &mut RawServer, mut f: impl FnMut(&mut String)) {
    let RawServer { command, args, env, cwd, url, headers, .. } = server;
    command.iter_mut().chain(cwd.iter_mut()).chain(url.iter_mut()).for_each(&mut f);
    args.iter_mut().flatten().for_each(&mut f);
    env.iter_mut().flat_map(|m| m.values_mut()).for_each(&mut f);
    headers.iter_mut().flat_map(|m| m.values_mut()).for_each(&mut f);
}

/// Notes each distinct placeholder that only the source client can fill in (`${workspaceFolder}`…): Plugboard
/// would read it as an environment variable, so the person has to replace it with a real value.
pub(crate) fn note_client_variables(draft: &mut Draft, client: &str, is_client_variable: fn(&str) -> bool) {
    let mut seen: Vec<String> = Vec::new();
    each_text_mut(&mut draft.server, |text| {
        for (_, inner) in placeholders(text) {
            if is_client_variable(inner) && !seen.iter().any(|s| s == inner) {
                seen.push(inner.to_owned());
            }
        }
    });
    for variable in seen {
        draft.note(format!(
            "`${{{variable}}}` is a {client} variable that Plugboard cannot resolve; the text was kept, replace it with a real value"
        ));
    }
}

/// VS Code-family predefined variables (Cursor and VS Code share them).
pub(crate) fn is_editor_variable(inner: &str) -> bool {
    const NAMES: &[&str] = &[
        "userHome",
        "workspaceFolder",
        "workspaceFolderBasename",
        "workspaceRoot",
        "pathSeparator",
        "/",
        "cwd",
        "file",
        "fileWorkspaceFolder",
        "relativeFile",
        "fileDirname",
        "execPath",
    ];
    NAMES.contains(&inner) || ["workspaceFolder:", "config:", "command:"].iter().any(|p| inner.starts_with(p))
}

/// Tools the client starts disabled. Plugboard only has an allowlist, which cannot be written before the server's
/// tools are known, so the names are kept as `disabledTools` in the entry and the person is told.
pub(crate) fn keep_disabled_tools(draft: &mut Draft, client: &str, tools: Vec<String>) {
    if tools.is_empty() {
        return;
    }
    let list = tools.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", ");
    draft.note(format!(
        "{client} kept these tools disabled: {list}. Plugboard's tool list is an allowlist, so they are kept as \
         `disabledTools` and stay off only once you pick this server's tools"
    ));
    draft.keep("disabledTools", Value::from(tools));
}

/// `envFile` is read by the source client at launch; Plugboard does not read env files, so it is only kept.
pub(crate) fn keep_env_file(draft: &mut Draft, client: &str, path: String) {
    draft.note(format!(
        "{client} loaded environment variables from the file in `envFile`; Plugboard does not read env files, so \
         copy the variables this server needs into `env`"
    ));
    draft.keep("envFile", Value::from(path));
}

/// `disabled: true` is `enabled: false`; a false `disabled` is the default and says nothing.
pub(crate) fn apply_disabled(draft: &mut Draft, disabled: Option<bool>) {
    if disabled == Some(true) {
        draft.server.enabled = Some(false);
    }
}

/// Seconds (possibly fractional) to whole milliseconds, saturating.
pub(crate) fn seconds_to_ms(seconds: f64) -> u64 {
    let ms = (seconds * 1000.0).round();
    if ms >= u64::MAX as f64 { u64::MAX } else { ms as u64 }
}

/// Milliseconds as written (possibly fractional) to whole milliseconds.
pub(crate) fn whole_ms(ms: f64) -> u64 {
    seconds_to_ms(ms / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Placeholders are found with their ranges; an unterminated one is ignored.
    #[test]
    fn placeholders_are_found() {
        let text = "a ${env:X} b ${workspaceFolder}/c ${oops";
        let found: Vec<_> = placeholders(text).into_iter().map(|(r, inner)| (&text[r], inner)).collect();
        assert_eq!(found, [("${env:X}", "env:X"), ("${workspaceFolder}", "workspaceFolder")]);
    }

    /// Editor variables get one note each; `${env:…}` and plain `${VAR}` are left alone.
    #[test]
    fn client_variables_are_noted_once() {
        let mut draft = Draft::default();
        draft.server.args = Some(vec!["${workspaceFolder}/a".into(), "${workspaceFolder}/b".into()]);
        draft.server.cwd = Some("${userHome}".into());
        draft.server.env = Some([("A".to_owned(), "${env:HOME} ${TOKEN}".to_owned())].into());
        note_client_variables(&mut draft, "Cursor", is_editor_variable);
        assert_eq!(draft.notes.len(), 2, "{:?}", draft.notes);
        assert!(draft.notes.iter().any(|n| n.contains("${workspaceFolder}")));
        assert_eq!(draft.server.args.as_ref().map(|a| a[0].as_str()), Some("${workspaceFolder}/a"));
    }

    /// Timeouts convert exactly and never overflow.
    #[test]
    fn timeouts_convert() {
        assert_eq!(seconds_to_ms(60.0), 60_000);
        assert_eq!(seconds_to_ms(1.5), 1_500);
        assert_eq!(seconds_to_ms(1e300), u64::MAX);
        assert_eq!(whole_ms(2500.4), 2_500);
    }
}
