//! Gateway profiles (`"profiles"` in servers.json): which servers, and which of their curated tools, a client of
//! `plugboard serve --profile NAME` sees, and whether it sees them directly or through search. Checked apart from
//! the servers: a malformed profile must never hide the servers or the other profiles, and nothing here can widen
//! an allowlist (a profile's tool list is applied on top of it, see gateway/scope.rs).
//!
//! ```json
//! "profiles": {
//!   "coding": {
//!     "description": "what my editor sees",
//!     "mode": "search",
//!     "servers": { "github": { "tools": ["create_issue"] }, "files": {} }
//!   }
//! }
//! ```

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{Map, Value};

use super::model::{MAX_NAME_LEN, ToolFilter, is_name_char};
use super::raw::RawConfigFile;
use super::validate::tool_filter;

/// How a profile's tools are offered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ProfileMode {
    /// Every tool of the profile is listed (`"mode": "direct"`, the default).
    #[default]
    Direct,
    /// Only `find_tools`, `describe_tool` and `call_tool` are listed, over a search index of the profile's tools.
    Search,
}

/// One valid profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    pub name: String,
    /// The servers it shows, each with the tools of it that it shows: `All` is every tool the allowlist allows.
    pub servers: BTreeMap<String, ToolFilter>,
    pub mode: ProfileMode,
}

impl Profile {
    /// A profile that shows nothing (what a profile that was removed from the file leaves a client with).
    pub fn empty(name: &str) -> Self {
        Self { name: name.to_owned(), servers: BTreeMap::new(), mode: ProfileMode::Direct }
    }

    /// The servers it names that `file` does not configure (a typo hides every tool of the server it meant).
    pub fn unknown_servers<'a>(&'a self, file: &RawConfigFile) -> Vec<&'a str> {
        self.servers.keys().filter(|s| !file.servers.contains_key(*s)).map(String::as_str).collect()
    }
}

/// Why one profile (or the whole `profiles` key) cannot be used as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileProblem {
    /// The profile, or `None` when `profiles` itself is not an object.
    pub profile: Option<String>,
    /// Where in the profile, as written (`servers.github.tools`); empty when it is the profile as a whole.
    pub field: String,
    pub message: String,
}

impl fmt::Display for ProfileProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.profile {
            Some(profile) if self.field.is_empty() => write!(f, "profile {profile:?}: {}", self.message),
            Some(profile) => write!(f, "profile {profile:?}: {}: {}", self.field, self.message),
            None => write!(f, "{}: {}", self.field, self.message),
        }
    }
}

/// Every profile of the file: the valid ones by name, and what is wrong with the others.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Profiles {
    pub valid: BTreeMap<String, Profile>,
    pub problems: Vec<ProfileProblem>,
}

impl Profiles {
    /// The names of every profile the file has, valid or not, in name order.
    pub fn names(&self) -> Vec<String> {
        let broken = self.problems.iter().filter_map(|p| p.profile.clone());
        let mut names: Vec<String> = self.valid.keys().cloned().chain(broken).collect();
        names.sort();
        names.dedup();
        names
    }

    /// What is wrong with the profile `name`, when it is in the file but not valid.
    pub fn problem(&self, name: &str) -> Option<&ProfileProblem> {
        self.problems.iter().find(|p| p.profile.as_deref() == Some(name))
    }
}

/// Checks the `profiles` key of `file`, each profile on its own.
pub fn validate_profiles(file: &RawConfigFile) -> Profiles {
    let mut profiles = Profiles::default();
    let Some(raw) = &file.profiles else { return profiles };
    let Value::Object(raw) = raw else {
        let message = "must be an object of profiles by name".to_owned();
        profiles.problems.push(ProfileProblem { profile: None, field: "profiles".into(), message });
        return profiles;
    };
    for (name, value) in raw {
        match validate_profile(name, value) {
            Ok(profile) => {
                profiles.valid.insert(name.clone(), profile);
            }
            Err((field, message)) => {
                profiles.problems.push(ProfileProblem { profile: Some(name.clone()), field, message });
            }
        }
    }
    profiles
}

type Problem = (String, String);

fn validate_profile(name: &str, value: &Value) -> Result<Profile, Problem> {
    check_name(name)?;
    let fields = object(value, "a profile")?;
    // An unknown key is most likely a misspelt one; ignoring it would silently show the client something else.
    reject_unknown_keys(fields, &["servers", "mode", "description"], "")?;
    let mode = match fields.get("mode") {
        None => ProfileMode::Direct,
        Some(Value::String(mode)) if mode == "direct" => ProfileMode::Direct,
        Some(Value::String(mode)) if mode == "search" => ProfileMode::Search,
        Some(other) => return Err(("mode".into(), format!("{other}: use \"direct\" or \"search\""))),
    };
    if let Some(description) = fields.get("description")
        && !description.is_string()
    {
        return Err(("description".into(), "must be a string".into()));
    }
    let servers = fields.get("servers").ok_or_else(|| {
        ("servers".to_owned(), "is missing: name the servers the profile shows, e.g. {\"files\": {}}".to_owned())
    })?;
    let mut shown = BTreeMap::new();
    for (server, entry) in
        object(servers, "\"servers\" (servers by name)").map_err(|(_, m)| ("servers".to_owned(), m))?
    {
        let at = format!("servers.{server}");
        let entry = object(entry, "a server of a profile").map_err(|(_, m)| (at.clone(), m))?;
        reject_unknown_keys(entry, &["tools"], &format!("{at}."))?;
        let tools = match entry.get("tools") {
            None => ToolFilter::All,
            Some(tools) => {
                let names =
                    string_list(tools).ok_or_else(|| (format!("{at}.tools"), "must be a list of tool names".into()))?;
                tool_filter(Some(&names)).map_err(|m| (format!("{at}.tools"), m.to_owned()))?
            }
        };
        shown.insert(server.clone(), tools);
    }
    Ok(Profile { name: name.to_owned(), servers: shown, mode })
}

fn check_name(name: &str) -> Result<(), Problem> {
    let problem = |message: String| Err(("name".to_owned(), message));
    if name.is_empty() || name.chars().count() > MAX_NAME_LEN {
        return problem(format!("a profile name has 1 to {MAX_NAME_LEN} characters"));
    }
    match name.chars().find(|c| !is_name_char(*c)) {
        Some(bad) => problem(format!("{bad:?} is not allowed in a profile name: use letters, digits, '-', '_' or '.'")),
        None => Ok(()),
    }
}

fn object<'a>(value: &'a Value, what: &str) -> Result<&'a Map<String, Value>, Problem> {
    value.as_object().ok_or_else(|| (String::new(), format!("{what} must be an object, not {value}")))
}

fn reject_unknown_keys(fields: &Map<String, Value>, known: &[&str], at: &str) -> Result<(), Problem> {
    match fields.keys().find(|k| !known.contains(&k.as_str())) {
        Some(key) => Err((format!("{at}{key}"), format!("is not a profile setting; use {}", known.join(", ")))),
        None => Ok(()),
    }
}

fn string_list(value: &Value) -> Option<Vec<String>> {
    value.as_array()?.iter().map(|v| v.as_str().map(str::to_owned)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::parse_config_text;

    fn file(text: &str) -> RawConfigFile {
        parse_config_text(std::path::Path::new("/cfg/servers.json"), text).expect("parses")
    }

    /// The documented shape: a server with a tool list shows those tools, one without shows all it curated; the
    /// mode defaults to direct.
    #[test]
    fn a_good_profile_parses() {
        let profiles = validate_profiles(&file(
            r#"{"mcpServers": {}, "profiles": {
                "coding": {"mode": "search", "description": "x", "servers": {"github": {"tools": ["create_issue"]}, "files": {}}},
                "plain": {"servers": {"files": {"tools": ["*"]}}}
            }}"#,
        ));
        assert!(profiles.problems.is_empty(), "{:?}", profiles.problems);
        let coding = &profiles.valid["coding"];
        assert_eq!(coding.mode, ProfileMode::Search);
        assert_eq!(coding.servers["github"], ToolFilter::Only(vec!["create_issue".into()]));
        assert_eq!(coding.servers["files"], ToolFilter::All);
        assert_eq!(profiles.valid["plain"].mode, ProfileMode::Direct);
        assert_eq!(profiles.valid["plain"].servers["files"], ToolFilter::All);
    }

    /// Each malformed profile is reported with the field and what is wrong, and leaves the other profiles (and the
    /// servers) as they are.
    #[test]
    fn a_malformed_profile_is_reported_and_the_rest_kept() {
        let text = r#"{"mcpServers": {"files": {"command": "x"}}, "profiles": {
            "good": {"servers": {"files": {}}},
            "mode": {"mode": "fast", "servers": {}},
            "tools": {"servers": {"files": {"tools": "read"}}},
            "empty": {"servers": {"files": {"tools": [""]}}},
            "typo": {"sevrers": {"files": {}}},
            "inner": {"servers": {"files": {"tool": ["a"]}}},
            "missing": {},
            "shape": ["files"],
            "bad name": {"servers": {}}
        }}"#;
        let parsed = file(text);
        assert!(parsed.servers.contains_key("files"), "the servers are still there");
        let profiles = validate_profiles(&parsed);
        assert_eq!(profiles.valid.keys().collect::<Vec<_>>(), ["good"]);
        let field = |name: &str| profiles.problem(name).map(|p| p.field.clone()).unwrap_or_default();
        assert_eq!(field("mode"), "mode");
        assert_eq!(field("tools"), "servers.files.tools");
        assert_eq!(field("empty"), "servers.files.tools");
        assert_eq!(field("typo"), "sevrers");
        assert_eq!(field("inner"), "servers.files.tool");
        assert_eq!(field("missing"), "servers");
        assert!(profiles.problem("shape").is_some_and(|p| p.message.contains("must be an object")));
        assert_eq!(field("bad name"), "name");
        assert_eq!(profiles.names().len(), 9, "every profile of the file is named, broken or not");
        let said = profiles.problem("mode").expect("problem").to_string();
        assert!(said.contains("\"mode\"") && said.contains("\"direct\" or \"search\""), "{said}");
    }

    /// `profiles` that is not an object is one problem, and the file still parses.
    #[test]
    fn profiles_of_the_wrong_shape_do_not_break_the_file() {
        let profiles = validate_profiles(&file(r#"{"mcpServers": {"a": {"command": "x"}}, "profiles": 3}"#));
        assert!(profiles.valid.is_empty());
        assert_eq!(profiles.problems[0].field, "profiles");
    }

    /// A profile naming a server the file does not configure is valid, and that server is reported.
    #[test]
    fn unknown_servers_are_named() {
        let parsed = file(
            r#"{"mcpServers": {"files": {"command": "x"}}, "profiles": {"p": {"servers": {"files": {}, "gihub": {}}}}}"#,
        );
        let profiles = validate_profiles(&parsed);
        assert_eq!(profiles.valid["p"].unknown_servers(&parsed), ["gihub"]);
    }
}
