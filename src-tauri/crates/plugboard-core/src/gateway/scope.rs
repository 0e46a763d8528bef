//! Which part of what the person curated one gateway serves: everything, or one profile of servers.json
//! (`serve --profile NAME`), read again at every rebuild so an edit of the file is followed. It must never widen an
//! allowlist (a profile only removes tools from the curated set) and never serve another profile than the one asked.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use crate::config::model::ToolFilter;
use crate::config::{ConfigStore, Profile, ProfileMode, ProfileProblem, validate_profiles};
use crate::registry::Registry;
use crate::supervisor::curate;

/// Why `serve --profile NAME` cannot start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProfileError {
    #[error("{path} has no profile named {name:?}; {}", listed(known))]
    Unknown { path: PathBuf, name: String, known: Vec<String> },
    #[error("{path}: {problem}; fix the profile in the file and start again")]
    Malformed { path: PathBuf, problem: ProfileProblem },
}

fn listed(known: &[String]) -> String {
    if known.is_empty() {
        "it has no profiles (\"profiles\" in the file; see the README)".to_owned()
    } else {
        format!("the profiles it has: {}", known.join(", "))
    }
}

/// What a gateway serves, followed through edits of servers.json.
#[derive(Clone)]
pub struct Scope {
    registry: Arc<Registry>,
    /// The profile asked for, and the last valid version of it (kept while the file holds a malformed one).
    profile: Option<Arc<Mutex<Profile>>>,
    /// The warnings last given, so an unchanged problem is not repeated at every rebuild.
    warned: Arc<Mutex<Vec<String>>>,
}

impl Scope {
    /// Every curated tool, for a gateway with no profile (the window's endpoint).
    pub fn everything(registry: &Arc<Registry>) -> Self {
        Self { registry: Arc::clone(registry), profile: None, warned: Arc::default() }
    }

    /// Every curated tool (no profile), or the profile `name`, which the file must hold in a valid form now.
    pub fn select(registry: &Arc<Registry>, name: Option<&str>) -> Result<Self, ProfileError> {
        let store = registry.store();
        let profile = match name {
            None => None,
            Some(name) => Some(Arc::new(Mutex::new(valid_profile(store, name)?))),
        };
        let scope = Self { registry: Arc::clone(registry), profile, warned: Arc::default() };
        scope.current();
        Ok(scope)
    }

    /// The profile to apply now (`None`: everything curated). A profile that became malformed keeps its last valid
    /// version; one that was removed shows nothing. Both are warned about (stderr and the log) once.
    pub fn current(&self) -> Option<Profile> {
        let store = self.registry.store();
        let file = store.snapshot();
        let profiles = validate_profiles(&file);
        let path = store.path().display();
        let mut warnings: Vec<String> = profiles.problems.iter().map(|p| format!("{path}: {p}")).collect();
        let profile = self.profile.as_ref().map(|kept| {
            let mut kept = kept.lock().unwrap_or_else(PoisonError::into_inner);
            let name = kept.name.clone();
            if let Some(now) = profiles.valid.get(&name) {
                kept.clone_from(now);
            } else if profiles.problem(&name).is_some() {
                warnings.push(format!("profile {name:?} is malformed, so its last valid version is still served"));
            } else {
                warnings.push(format!("profile {name:?} is no longer in {path}, so this client is shown nothing"));
                *kept = Profile::empty(&name);
            }
            for server in kept.unknown_servers(&file) {
                warnings.push(format!("profile {name:?} names server {server:?}, which {path} does not configure"));
            }
            kept.clone()
        });
        self.warn_once(warnings);
        profile
    }

    fn warn_once(&self, warnings: Vec<String>) {
        let mut warned = self.warned.lock().unwrap_or_else(PoisonError::into_inner);
        if *warned != warnings {
            for warning in &warnings {
                // A warning reaches stderr (a client's log) as well as the log file.
                tracing::warn!("{warning}");
            }
            *warned = warnings;
        }
    }

    /// The config store whose saves and reloads may change the scope.
    pub fn store(&self) -> &ConfigStore {
        self.registry.store()
    }
}

fn valid_profile(store: &ConfigStore, name: &str) -> Result<Profile, ProfileError> {
    let profiles = validate_profiles(&store.snapshot());
    let path = store.path().to_owned();
    if let Some(problem) = profiles.problem(name) {
        return Err(ProfileError::Malformed { path, problem: problem.clone() });
    }
    let known = profiles.names();
    profiles.valid.get(name).cloned().ok_or_else(|| ProfileError::Unknown { path, name: name.to_owned(), known })
}

/// Whether `profile` (none: everything) shows `server`.
pub fn shows_server(profile: Option<&Profile>, server: &str) -> bool {
    profile.is_none_or(|p| p.servers.contains_key(server))
}

/// Whether `profile` shows the curated tool `tool` (its raw name) of `server`. Only asked of tools the allowlist
/// already allows, so a profile can remove tools and never add one.
pub fn shows_tool(profile: Option<&Profile>, server: &str, tool: &str) -> bool {
    let Some(profile) = profile else { return true };
    match profile.servers.get(server) {
        None => false,
        Some(ToolFilter::All) => true,
        Some(filter) => !curate(server, &[tool.to_owned()], filter).allowed.is_empty(),
    }
}

/// How `profile`'s tools are offered.
pub fn mode(profile: Option<&Profile>) -> ProfileMode {
    profile.map_or(ProfileMode::Direct, |p| p.mode)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Engine, EngineOptions, PersonAnswers};
    use crate::secrets::Fallback;

    fn engine(dir: &tempfile::TempDir, text: &str) -> Engine {
        std::fs::write(dir.path().join("servers.json"), text).expect("config");
        let options = EngineOptions {
            config_path: dir.path().join("servers.json"),
            secrets: Fallback::chosen(false),
            person: PersonAnswers::Declined,
            approvals: crate::trust::Approvals::at(dir.path().join("trust.json")),
            log_scrub: crate::secrets::LogScrub::default(),
            history_check: crate::console::DamageCheck::OnUse,
        };
        Engine::open(options).expect("engine")
    }

    const PROFILES: &str = r#"{"mcpServers": {"files": {"command": "x"}}, "profiles": {
        "coding": {"servers": {"files": {"tools": ["read"]}}},
        "broken": {"servers": {"files": {"tools": "read"}}}
    }}"#;

    /// An unknown profile is refused with the list of the profiles the file has; a malformed one with what is wrong
    /// with it; no profile and a valid one are served.
    #[test]
    fn selecting_a_profile() {
        let dir = tempfile::tempdir().expect("dir");
        let engine = engine(&dir, PROFILES);
        let unknown = Scope::select(engine.registry(), Some("codign")).err().expect("unknown").to_string();
        assert!(unknown.contains("no profile named \"codign\"") && unknown.contains("broken, coding"), "{unknown}");
        assert!(unknown.contains("servers.json"), "the file is named: {unknown}");
        let broken = Scope::select(engine.registry(), Some("broken")).err().expect("malformed").to_string();
        assert!(broken.contains("servers.files.tools") && broken.contains("servers.json"), "{broken}");
        assert_eq!(Scope::select(engine.registry(), None).expect("everything").current(), None);
        let coding = Scope::select(engine.registry(), Some("coding")).expect("coding").current().expect("a profile");
        assert_eq!(coding.servers["files"], ToolFilter::Only(vec!["read".into()]));
    }

    /// An edit of the profile is followed; a malformed edit keeps the last valid version; a removed profile shows
    /// nothing.
    #[test]
    fn a_selected_profile_follows_the_file() {
        let dir = tempfile::tempdir().expect("dir");
        let engine = engine(&dir, PROFILES);
        let scope = Scope::select(engine.registry(), Some("coding")).expect("coding");
        let rewrite = |profile: &str| {
            let text = format!(r#"{{"mcpServers": {{"files": {{"command": "x"}}}}, "profiles": {{{profile}}}}}"#);
            std::fs::write(dir.path().join("servers.json"), text).expect("edit");
            engine.registry().store().reload().expect("reload");
        };
        rewrite(r#""coding": {"servers": {"files": {"tools": ["write"]}}}"#);
        let edited = scope.current().expect("profile");
        assert_eq!(edited.servers["files"], ToolFilter::Only(vec!["write".into()]));
        rewrite(r#""coding": {"servers": {"files": {"tools": [""]}}}"#);
        assert_eq!(scope.current(), Some(edited), "the last valid version is kept");
        rewrite(r#""other": {"servers": {}}"#);
        assert_eq!(scope.current().expect("profile").servers.len(), 0, "a removed profile shows nothing");
    }

    /// A profile shows the curated tools it names (raw or gateway names) and only of its servers.
    #[test]
    fn shows_only_what_the_profile_names() {
        let servers = [("gh".to_owned(), ToolFilter::Only(vec!["mcp__gh__pr".into(), "issue".into()]))];
        let profile = Profile { name: "p".into(), servers: servers.into_iter().collect(), mode: ProfileMode::Direct };
        assert!(shows_tool(Some(&profile), "gh", "pr") && shows_tool(Some(&profile), "gh", "issue"));
        assert!(!shows_tool(Some(&profile), "gh", "delete") && !shows_tool(Some(&profile), "files", "pr"));
        assert!(shows_tool(None, "files", "anything") && shows_server(None, "files"));
        assert!(shows_server(Some(&profile), "gh") && !shows_server(Some(&profile), "files"));
    }
}
