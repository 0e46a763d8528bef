//! VS Code `inputs`: values VS Code prompts for when a server starts, referenced as `${input:id}`. A password
//! input becomes a `${secret:id}` the person sets once in Plugboard; any other input is kept and explained.

use crate::import::clients::common::entry::Draft;
use crate::import::clients::common::node::Node;
use crate::import::clients::common::notes::{each_text_mut, placeholders};
use crate::import::secrets_scan::secret_name;

/// One declared input (only what the translation needs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Input {
    id: String,
    description: Option<String>,
    password: bool,
}

/// The `inputs` list; malformed items are skipped because a reference to them is reported as undeclared anyway.
pub(super) fn read_inputs(inputs: Option<&Node>) -> Vec<Input> {
    let Some(Node::List(items)) = inputs else { return Vec::new() };
    items
        .iter()
        .filter_map(|item| {
            let Some(Node::String(id)) = item.get("id") else { return None };
            let description = match item.get("description") {
                Some(Node::String(d)) if !d.trim().is_empty() => Some(d.clone()),
                _ => None,
            };
            let password = matches!(item.get("password"), Some(Node::Bool(true)));
            Some(Input { id: id.clone(), description, password })
        })
        .collect()
}

/// Rewrites `${input:id}` references in every text of the entry and notes what the person must do.
pub(super) fn apply(draft: &mut Draft, server: &str, inputs: &[Input]) {
    let mut used: Vec<String> = Vec::new();
    each_text_mut(&mut draft.server, |text| {
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for (range, inner) in placeholders(text) {
            let Some(id) = inner.strip_prefix("input:") else { continue };
            if !used.iter().any(|u| u == id) {
                used.push(id.to_owned());
            }
            if inputs.iter().any(|i| i.id == id && i.password) {
                out.push_str(&text[last..range.start]);
                out.push_str(&format!("${{secret:{}}}", secret_name(id)));
                last = range.end;
            }
        }
        if last > 0 {
            out.push_str(&text[last..]);
            *text = out;
        }
    });
    for id in used {
        let note = match inputs.iter().find(|i| i.id == id) {
            Some(input) => {
                let described = input.description.as_ref().map(|d| format!(" ({d})")).unwrap_or_default();
                if input.password {
                    format!(
                        "VS Code input '{id}'{described} is a secret: set {} under Secrets on {server}'s page in \
                         Plugboard (or `plugboard secret set {server} {}`)",
                        secret_name(&id),
                        secret_name(&id)
                    )
                } else {
                    format!(
                        "VS Code asked for input '{id}'{described} when the server started; Plugboard cannot ask, so \
                         replace `${{input:{id}}}` with the value"
                    )
                }
            }
            None => format!(
                "`${{input:{id}}}` names an input the file does not declare; replace it with the value it stands for"
            ),
        };
        draft.note(note);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::clients::common::node::parse_jsonc;

    fn inputs() -> Vec<Input> {
        let node = parse_jsonc(
            r#"[ { "type": "promptString", "id": "api key", "description": "The key", "password": true },
                 { "type": "pickString", "id": "region", "options": ["eu", "us"] },
                 { "type": "promptString" } ]"#,
        )
        .expect("valid");
        read_inputs(Some(&node))
    }

    /// Malformed inputs are skipped; ids, descriptions and the password flag are read.
    #[test]
    fn inputs_are_read() {
        let inputs = inputs();
        assert_eq!(inputs.len(), 2);
        assert!(inputs[0].password && !inputs[1].password);
    }

    /// A password input inside a longer text becomes a sanitised `${secret:…}`; other inputs stay and are noted.
    #[test]
    fn password_inputs_become_secrets() {
        let mut draft = Draft::default();
        draft.server.headers = Some([("Authorization".to_owned(), "Bearer ${input:api key}".to_owned())].into());
        draft.server.args = Some(vec!["--region=${input:region}".into(), "${input:nope}".into()]);
        apply(&mut draft, "acme", &inputs());
        let auth = draft.server.headers.as_ref().and_then(|h| h.get("Authorization")).cloned();
        assert_eq!(auth.as_deref(), Some("Bearer ${secret:api_key}"));
        assert_eq!(draft.server.args.as_ref().map(|a| a[0].as_str()), Some("--region=${input:region}"));
        assert_eq!(draft.notes.len(), 3, "{:?}", draft.notes);
        let has = |needle: &str| draft.notes.iter().any(|n| n.contains(needle));
        assert!(has("'api key' (The key) is a secret: set api_key under Secrets on acme's page in Plugboard"));
        assert!(has("(or `plugboard secret set acme api_key`)"));
        assert!(has("'region' when the server started; Plugboard cannot ask"));
        assert!(has("`${input:nope}` names an input the file does not declare"));
    }
}
