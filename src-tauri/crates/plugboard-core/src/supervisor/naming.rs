//! Tool names as other clients see them: `mcp__<server>__<tool>`, sanitised to `[A-Za-z0-9_-]`, at most 64
//! characters, with a short hash suffix when two tools would otherwise share a name; every rename is reported.

use std::collections::BTreeMap;

use sha2::{Digest, Sha256};

/// Longest exposed name (the common limit of model APIs).
pub const MAX_EXPOSED_LEN: usize = 64;
const PREFIX: &str = "mcp__";
const HASH_LEN: usize = 6;

/// A tool of a server and the name it is exposed under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExposedName {
    pub server: String,
    pub tool: String,
    pub exposed: String,
    /// Why the name is not the plain `mcp__server__tool`, when it is not.
    pub renamed_because: Option<String>,
}

/// Names every `(server, tool)` pair; the result is in input order and every exposed name is unique.
pub fn expose(tools: &[(String, String)]) -> Vec<ExposedName> {
    let mut names: Vec<ExposedName> = tools
        .iter()
        .map(|(server, tool)| {
            let plain = format!("{PREFIX}{}__{}", sanitize(server), sanitize(tool));
            let (exposed, renamed_because) = if plain.chars().count() > MAX_EXPOSED_LEN {
                (with_hash(&plain, server, tool), Some(format!("longer than {MAX_EXPOSED_LEN} characters")))
            } else if plain != format!("{PREFIX}{server}__{tool}") {
                (plain, Some("characters outside A-Z a-z 0-9 _ - were replaced".to_owned()))
            } else {
                (plain, None)
            };
            ExposedName { server: server.clone(), tool: tool.clone(), exposed, renamed_because }
        })
        .collect();

    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for name in &names {
        *seen.entry(name.exposed.clone()).or_default() += 1;
    }
    for name in &mut names {
        if seen.get(&name.exposed).copied().unwrap_or(0) > 1 {
            let clash = name.exposed.clone();
            name.exposed = with_hash(&clash, &name.server, &name.tool);
            name.renamed_because = Some(format!("another tool is also named {clash}"));
        }
    }
    names
}

/// The prefix every exposed name of `server`'s tools starts with (before any length cut).
pub(crate) fn prefix_of(server: &str) -> String {
    format!("{PREFIX}{}__", sanitize(server))
}

fn sanitize(part: &str) -> String {
    part.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' }).collect()
}

/// `name` cut to leave room for `_` + 6 hex characters of a hash of the original pair.
fn with_hash(name: &str, server: &str, tool: &str) -> String {
    let digest = Sha256::digest(format!("{server}\u{0}{tool}").as_bytes());
    let hash: String = digest.iter().take(HASH_LEN / 2).map(|b| format!("{b:02x}")).collect();
    let keep = MAX_EXPOSED_LEN - HASH_LEN - 1;
    let head: String = name.chars().take(keep).collect();
    format!("{head}_{hash}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(s, t)| ((*s).to_owned(), (*t).to_owned())).collect()
    }

    /// A plain name is `mcp__server__tool`, unchanged and not reported.
    #[test]
    fn plain_names() {
        let names = expose(&pairs(&[("files", "read_file")]));
        assert_eq!(names[0].exposed, "mcp__files__read_file");
        assert_eq!(names[0].renamed_because, None);
    }

    /// Odd characters are replaced and reported; long names are cut to 64 with a hash and reported.
    #[test]
    fn sanitised_and_cut() {
        let names = expose(&pairs(&[("my.server", "do thing/now"), ("s", &"x".repeat(100))]));
        assert_eq!(names[0].exposed, "mcp__my_server__do_thing_now");
        assert!(names[0].renamed_because.is_some());
        assert_eq!(names[1].exposed.chars().count(), MAX_EXPOSED_LEN);
        assert!(names[1].renamed_because.as_deref().is_some_and(|r| r.contains("64")));
    }

    /// Two tools that sanitise to the same name get distinct hashed names, and both are reported.
    #[test]
    fn collisions_are_resolved_and_reported() {
        let names = expose(&pairs(&[("a.b", "t"), ("a_b", "t"), ("other", "t")]));
        assert_ne!(names[0].exposed, names[1].exposed);
        assert!(names[0].exposed.starts_with("mcp__a_b__t_") && names[1].exposed.starts_with("mcp__a_b__t_"));
        assert!(names[0].renamed_because.as_deref().is_some_and(|r| r.contains("also named")));
        assert_eq!(names[2].exposed, "mcp__other__t");
        let unique: std::collections::HashSet<_> = names.iter().map(|n| &n.exposed).collect();
        assert_eq!(unique.len(), 3);
    }

    /// The same input always gives the same names (clients cache them).
    #[test]
    fn names_are_stable() {
        let input = pairs(&[("a.b", "t"), ("a_b", "t")]);
        assert_eq!(expose(&input), expose(&input));
    }
}
