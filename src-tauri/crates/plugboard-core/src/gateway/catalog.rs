//! What the gateway offers at one moment: every curated tool of every ready server under its gateway-wide name
//! (`mcp__<server>__<tool>`, unique across ALL servers), each name routed back to its server and raw tool. Pure:
//! built from the supervisor's snapshot, compared to tell whether clients must hear `list_changed`. It must never
//! offer a tool the allowlist hides, nor one the client's profile leaves out.

use std::collections::HashMap;

use rmcp::model::Tool;

use super::scope::{mode, shows_server, shows_tool};
use super::search_tools;
use crate::config::{Profile, ProfileMode};
use crate::supervisor::{CuratedServer, expose};

/// Where a gateway tool goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    pub server: String,
    /// The tool's name at its server.
    pub tool: String,
}

/// The tools the gateway offers, in a stable order (server, then the server's order).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Catalog {
    tools: Vec<Tool>,
    routes: HashMap<String, Route>,
    /// One line per tool whose gateway name is not the plain one, saying why (for stderr and the log).
    renames: Vec<String>,
    /// The servers whose resources and prompts the gateway relays (ready and enabled), in name order.
    servers: Vec<String>,
    /// Whether clients list these tools or search them (a profile's `mode`).
    mode: ProfileMode,
}

impl Catalog {
    /// The catalog of `servers`' curated tools. A `read_only` server's tools are advertised as read-only and not
    /// destructive: the person vouched for it, and clients decide from these hints what they may call unasked.
    /// With a `profile`, only the servers and tools it shows are in (it narrows the curated set, never widens it).
    pub fn build(servers: &[CuratedServer], profile: Option<&Profile>) -> Self {
        // Named over every curated tool, so a tool has the same name under every profile.
        let pairs: Vec<(String, String)> =
            servers.iter().flat_map(|s| s.tools.iter().map(move |t| (s.name.clone(), t.name.to_string()))).collect();
        let names = expose(&pairs);
        let definitions = servers.iter().flat_map(|s| s.tools.iter().map(move |t| (s, t)));
        let shown = servers.iter().map(|s| s.name.clone()).filter(|s| shows_server(profile, s)).collect();
        let mut catalog = Self { servers: shown, mode: mode(profile), ..Self::default() };
        for (name, (server, definition)) in names.into_iter().zip(definitions) {
            if !shows_tool(profile, &name.server, &name.tool) {
                continue;
            }
            let mut tool = definition.clone();
            tool.name = name.exposed.clone().into();
            if server.read_only {
                let mut hints = tool.annotations.take().unwrap_or_default();
                hints.read_only_hint = Some(true);
                hints.destructive_hint = Some(false);
                tool.annotations = Some(hints);
            }
            if let Some(why) = &name.renamed_because {
                catalog
                    .renames
                    .push(format!("{}'s tool {} is offered as {} ({why})", name.server, name.tool, name.exposed));
            }
            catalog.routes.insert(name.exposed, Route { server: name.server, tool: name.tool });
            catalog.tools.push(tool);
        }
        catalog
    }

    /// Every tool it offers (in search mode: what the search finds and `call_tool` calls).
    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    /// What `tools/list` answers: the tools, or in search mode only the three search tools.
    pub fn listed(&self) -> Vec<Tool> {
        match self.mode {
            ProfileMode::Direct => self.tools.clone(),
            ProfileMode::Search => search_tools::definitions(),
        }
    }

    pub fn mode(&self) -> ProfileMode {
        self.mode
    }

    /// Whether the client may reach `server`'s resources and prompts.
    pub fn shows_server(&self, server: &str) -> bool {
        self.servers.iter().any(|s| s == server)
    }

    /// The servers whose resources and prompts the client sees, in name order.
    pub fn servers(&self) -> &[String] {
        &self.servers
    }

    /// The server and raw tool behind a gateway name.
    pub fn route(&self, exposed: &str) -> Option<&Route> {
        self.routes.get(exposed)
    }

    pub fn renames(&self) -> &[String] {
        &self.renames
    }

    /// Whether a client would list other tools in `other` (names, schemas, hints); in search mode the list stays
    /// the three search tools whatever the index holds.
    pub fn tools_differ(&self, other: &Self) -> bool {
        match (self.mode, other.mode) {
            (ProfileMode::Search, ProfileMode::Search) => false,
            _ => self.mode != other.mode || self.tools != other.tools,
        }
    }

    /// Whether the client sees `server`'s resources and prompts.
    pub fn relays(&self, server: &str) -> bool {
        self.servers.binary_search_by(|s| s.as_str().cmp(server)).is_ok()
    }

    /// Whether `other` relays the resources and prompts of other servers.
    pub fn servers_differ(&self, other: &Self) -> bool {
        self.servers != other.servers
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    fn tool(name: &str) -> Tool {
        let mut tool = Tool::default();
        tool.name = name.to_owned().into();
        tool.input_schema = Arc::new(serde_json::Map::new());
        tool
    }

    fn server(name: &str, tools: &[&str], read_only: bool) -> CuratedServer {
        CuratedServer { name: name.into(), read_only, tools: tools.iter().map(|t| tool(t)).collect() }
    }

    /// Every curated tool is offered once under `mcp__server__tool` and routed back to its server and raw name.
    #[test]
    fn names_and_routes() {
        let catalog =
            Catalog::build(&[server("files", &["read_file", "list"], false), server("gh", &["issue"], false)], None);
        let names: Vec<&str> = catalog.tools().iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(names, ["mcp__files__read_file", "mcp__files__list", "mcp__gh__issue"]);
        assert_eq!(catalog.route("mcp__gh__issue"), Some(&Route { server: "gh".into(), tool: "issue".into() }));
        assert_eq!(catalog.route("issue"), None);
        assert!(catalog.renames().is_empty());
    }

    /// Two servers whose names sanitise alike get distinct names (a hash suffix), each reported, each routed right.
    #[test]
    fn names_are_unique_across_the_whole_gateway() {
        let catalog =
            Catalog::build(&[server("my.files", &["read"], false), server("my_files", &["read"], false)], None);
        let names: Vec<String> = catalog.tools().iter().map(|t| t.name.to_string()).collect();
        assert_ne!(names[0], names[1], "{names:?}");
        assert!(names.iter().all(|n| n.starts_with("mcp__my_files__read_") && n.len() <= 64), "{names:?}");
        assert_eq!(catalog.route(&names[0]).map(|r| r.server.as_str()), Some("my.files"));
        assert_eq!(catalog.route(&names[1]).map(|r| r.server.as_str()), Some("my_files"));
        assert_eq!(catalog.renames().len(), 2, "{:?}", catalog.renames());
    }

    /// A read-only server's tools say so (readOnlyHint true, destructiveHint false); others keep their own hints.
    #[test]
    fn read_only_servers_are_advertised_as_such() {
        let catalog = Catalog::build(&[server("notes", &["write"], true), server("shell", &["run"], false)], None);
        let hints = catalog.tools()[0].annotations.clone().expect("hints");
        assert_eq!((hints.read_only_hint, hints.destructive_hint), (Some(true), Some(false)));
        assert_eq!(catalog.tools()[1].annotations, None);
    }

    fn profile(mode: ProfileMode, servers: &[(&str, Option<&[&str]>)]) -> Profile {
        use crate::config::model::ToolFilter;
        let filter = |tools: &Option<&[&str]>| match tools {
            None => ToolFilter::All,
            Some(tools) => ToolFilter::Only(tools.iter().map(|t| (*t).to_owned()).collect()),
        };
        let servers = servers.iter().map(|(name, tools)| ((*name).to_owned(), filter(tools))).collect();
        Profile { name: "p".into(), servers, mode }
    }

    fn names(catalog: &Catalog) -> Vec<&str> {
        catalog.tools().iter().map(|t| t.name.as_ref()).collect()
    }

    /// A profile shows only the servers it names (a server without a tool list: all its curated tools), and only
    /// those servers' resources and prompts; the names stay those of the whole gateway.
    #[test]
    fn a_profile_narrows_to_its_servers_and_tools() {
        let curated = [server("files", &["read", "list"], false), server("gh", &["issue", "pr"], false)];
        let only_gh = profile(ProfileMode::Direct, &[("gh", Some(&["mcp__gh__pr"]))]);
        let catalog = Catalog::build(&curated, Some(&only_gh));
        assert_eq!(names(&catalog), ["mcp__gh__pr"]);
        assert_eq!(catalog.route("mcp__files__read"), None, "a server the profile leaves out cannot be called");
        assert_eq!(catalog.servers(), ["gh"]);
        assert!(!catalog.shows_server("files"));
        let all_files = profile(ProfileMode::Direct, &[("files", None)]);
        assert_eq!(names(&Catalog::build(&curated, Some(&all_files))), ["mcp__files__read", "mcp__files__list"]);
        assert_eq!(names(&Catalog::build(&curated, None)).len(), 4, "no profile: everything curated");
    }

    /// A profile naming a tool the allowlist hides (it is not among the curated tools) does not bring it back.
    #[test]
    fn a_profile_never_widens_an_allowlist() {
        // The allowlist let only `issue` through: `delete` is not curated.
        let curated = [server("gh", &["issue"], false)];
        let greedy = profile(ProfileMode::Direct, &[("gh", Some(&["issue", "delete"])), ("gone", None)]);
        let catalog = Catalog::build(&curated, Some(&greedy));
        assert_eq!(names(&catalog), ["mcp__gh__issue"]);
        assert_eq!(catalog.route("mcp__gh__delete"), None);
        assert_eq!(catalog.servers(), ["gh"], "a server that is not curated is not shown either");
    }

    /// In search mode the list is the three search tools while the catalog keeps the profile's tools for them; a
    /// change of the tools behind it is no change of the list.
    #[test]
    fn search_mode_lists_only_the_search_tools() {
        let curated = [server("gh", &["issue", "pr"], false)];
        let search = profile(ProfileMode::Search, &[("gh", None)]);
        let catalog = Catalog::build(&curated, Some(&search));
        let listed: Vec<String> = catalog.listed().iter().map(|t| t.name.to_string()).collect();
        assert_eq!(listed, ["find_tools", "describe_tool", "call_tool"]);
        assert_eq!(names(&catalog), ["mcp__gh__issue", "mcp__gh__pr"]);
        let fewer = Catalog::build(&[server("gh", &["issue"], false)], Some(&search));
        assert!(!catalog.tools_differ(&fewer) && catalog != fewer);
        assert!(catalog.tools_differ(&Catalog::build(&curated, None)), "leaving search mode changes the list");
    }
}
