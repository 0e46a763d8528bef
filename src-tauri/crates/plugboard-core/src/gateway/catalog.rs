//! What the gateway offers at one moment: every curated tool of every ready server under its gateway-wide name
//! (`mcp__<server>__<tool>`, unique across ALL servers), each name routed back to its server and raw tool. Pure:
//! built from the supervisor's snapshot, compared to tell whether clients must hear `list_changed`. It must never
//! offer a tool the allowlist hides.

use std::collections::HashMap;

use rmcp::model::Tool;

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
}

impl Catalog {
    /// The catalog of `servers`' curated tools. A `read_only` server's tools are advertised as read-only and not
    /// destructive: the person vouched for it, and clients decide from these hints what they may call unasked.
    pub fn build(servers: &[CuratedServer]) -> Self {
        let pairs: Vec<(String, String)> =
            servers.iter().flat_map(|s| s.tools.iter().map(move |t| (s.name.clone(), t.name.to_string()))).collect();
        let names = expose(&pairs);
        let definitions = servers.iter().flat_map(|s| s.tools.iter().map(move |t| (s, t)));
        let mut catalog = Self { servers: servers.iter().map(|s| s.name.clone()).collect(), ..Self::default() };
        for (name, (server, definition)) in names.into_iter().zip(definitions) {
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

    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    /// The server and raw tool behind a gateway name.
    pub fn route(&self, exposed: &str) -> Option<&Route> {
        self.routes.get(exposed)
    }

    pub fn renames(&self) -> &[String] {
        &self.renames
    }

    /// Whether a client would see other tools in `other` (names, schemas, hints).
    pub fn tools_differ(&self, other: &Self) -> bool {
        self.tools != other.tools
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
            Catalog::build(&[server("files", &["read_file", "list"], false), server("gh", &["issue"], false)]);
        let names: Vec<&str> = catalog.tools().iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(names, ["mcp__files__read_file", "mcp__files__list", "mcp__gh__issue"]);
        assert_eq!(catalog.route("mcp__gh__issue"), Some(&Route { server: "gh".into(), tool: "issue".into() }));
        assert_eq!(catalog.route("issue"), None);
        assert!(catalog.renames().is_empty());
    }

    /// Two servers whose names sanitise alike get distinct names (a hash suffix), each reported, each routed right.
    #[test]
    fn names_are_unique_across_the_whole_gateway() {
        let catalog = Catalog::build(&[server("my.files", &["read"], false), server("my_files", &["read"], false)]);
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
        let catalog = Catalog::build(&[server("notes", &["write"], true), server("shell", &["run"], false)]);
        let hints = catalog.tools()[0].annotations.clone().expect("hints");
        assert_eq!((hints.read_only_hint, hints.destructive_hint), (Some(true), Some(false)));
        assert_eq!(catalog.tools()[1].annotations, None);
    }
}
