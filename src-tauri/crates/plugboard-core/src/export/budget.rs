//! A client's tool budget: how many tools it would see through Plugboard (the curated tools under the profile its
//! entry names; a search-mode profile shows its three tools) against the limit the person chose for it or, when
//! none, the one the client documents; and, when over, the trims that fit (a profile, or search mode). It only
//! counts: what a profile shows is decided by the gateway's own rule (`scope::shows_tool`), never again here.

use std::collections::BTreeMap;

use serde::Serialize;

use super::limits::documented_limit;
use crate::config::raw::RawConfigFile;
use crate::config::{Profile, ProfileMode, validate_profiles};
use crate::gateway::{search_mode_tools, shows_server, shows_tool};

/// Each enabled server's curated tools (its allowlist applied) by raw name, as last approved (the tool pins); `None`
/// for a server whose tools are not known yet (never approved and listed). Disabled servers are not in it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KnownTools(pub BTreeMap<String, Option<Vec<String>>>);

/// How many tools one way of connecting shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ToolCount {
    /// The profile (`None`: every curated tool).
    pub profile: Option<String>,
    /// The profile is in search mode: the client sees the three search tools, whatever the profile holds.
    pub search: bool,
    pub tools: u32,
    /// Servers it shows whose tools are not known yet, so not counted (connect them once in Plugboard).
    pub unknown_servers: Vec<String>,
}

/// Where the limit in force comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum LimitFrom {
    /// The person chose it for this client.
    Chosen,
    /// The client's documentation.
    Documented,
    /// Neither: there is no limit to keep under.
    None,
}

/// A way under the limit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Trim {
    /// Connect the client with this profile of servers.json: it fits.
    Profile { profile: String, tools: u32, search: bool },
    /// Give a profile `"mode": "search"` (no profile in search mode exists yet): the client then sees `tools` tools.
    SearchMode { tools: u32 },
}

/// One client's budget, as `clients list` and the Clients screen show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ToolBudget {
    /// The limit in force (`None`: no limit).
    pub limit: Option<u32>,
    pub limit_from: LimitFrom,
    /// What the client's documentation says, and where.
    pub documented: Option<u32>,
    pub documented_says: String,
    pub documented_source: Option<String>,
    /// What the client sees through Plugboard now (its entry's profile), or would see connected without a profile.
    pub current: ToolCount,
    pub over: bool,
    /// Every way to connect it (everything, then each valid profile), each with its count: the profile choice.
    pub options: Vec<ToolCount>,
    /// When over: the ways that fit.
    pub trims: Vec<Trim>,
}

/// The limits the person chose, by client id (kept in the data dir, `client-budgets.json`).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize, Serialize)]
pub struct ChosenBudgets(pub BTreeMap<String, u32>);

impl KnownTools {
    /// How many tools `profile` (none: everything curated) shows a client.
    pub fn count(&self, profile: Option<&Profile>) -> ToolCount {
        let name = profile.map(|p| p.name.clone());
        if profile.is_some_and(|p| p.mode == ProfileMode::Search) {
            let tools = u32::try_from(search_mode_tools().len()).unwrap_or(u32::MAX);
            return ToolCount { profile: name, search: true, tools, unknown_servers: Vec::new() };
        }
        let mut tools = 0usize;
        let mut unknown_servers = Vec::new();
        for (server, known) in self.0.iter().filter(|(server, _)| shows_server(profile, server)) {
            match known {
                Some(known) => tools += known.iter().filter(|tool| shows_tool(profile, server, tool)).count(),
                None => unknown_servers.push(server.clone()),
            }
        }
        ToolCount { profile: name, search: false, tools: u32::try_from(tools).unwrap_or(u32::MAX), unknown_servers }
    }
}

/// `client`'s budget when its entry names `profile` (or would, connected without one).
pub(crate) fn budget(
    client: &str,
    profile: Option<&str>,
    servers: &RawConfigFile,
    known: &KnownTools,
    chosen: &ChosenBudgets,
) -> ToolBudget {
    let documented = documented_limit(client);
    let (limit, limit_from) = match (chosen.0.get(client), documented.tools) {
        (Some(chosen), _) => (Some(*chosen), LimitFrom::Chosen),
        (None, Some(documented)) => (Some(documented), LimitFrom::Documented),
        (None, None) => (None, LimitFrom::None),
    };
    let profiles = validate_profiles(servers);
    let options: Vec<ToolCount> =
        std::iter::once(known.count(None)).chain(profiles.valid.values().map(|p| known.count(Some(p)))).collect();
    let current = match profile.and_then(|p| profiles.valid.get(p)) {
        Some(profile) => known.count(Some(profile)),
        // An entry naming a profile the file lacks shows nothing (the gateway's rule for a removed profile).
        None if profile.is_some() => {
            ToolCount { profile: profile.map(str::to_owned), search: false, tools: 0, unknown_servers: Vec::new() }
        }
        None => known.count(None),
    };
    let fits = |count: &ToolCount| limit.is_none_or(|limit| count.tools <= limit);
    let over = !fits(&current);
    let mut trims = Vec::new();
    if over {
        trims.extend(options.iter().filter(|o| fits(o)).filter_map(|o| {
            let profile = o.profile.clone()?;
            Some(Trim::Profile { profile, tools: o.tools, search: o.search })
        }));
        if !options.iter().any(|o| o.search) {
            let tools = u32::try_from(search_mode_tools().len()).unwrap_or(u32::MAX);
            trims.push(Trim::SearchMode { tools });
        }
    }
    ToolBudget {
        limit,
        limit_from,
        documented: documented.tools,
        documented_says: documented.says.to_owned(),
        documented_source: documented.source.map(str::to_owned),
        current,
        over,
        options,
        trims,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn servers(profiles: serde_json::Value) -> RawConfigFile {
        RawConfigFile { profiles: Some(profiles), ..RawConfigFile::default() }
    }

    fn known(servers: &[(&str, Option<&[&str]>)]) -> KnownTools {
        KnownTools(
            servers
                .iter()
                .map(|(name, tools)| ((*name).to_owned(), tools.map(|t| t.iter().map(|s| (*s).to_owned()).collect())))
                .collect(),
        )
    }

    fn many(prefix: &str, n: usize) -> Vec<String> {
        (0..n).map(|i| format!("{prefix}{i}")).collect()
    }

    /// 30 GitHub tools and 20 file tools are 50 through Plugboard: over Cursor's documented 40, under VS Code's 128.
    /// The trims are the profiles that fit (a narrow one and a search one), counted as the gateway would serve them.
    #[test]
    fn counts_against_the_documented_limit_and_offers_what_fits() {
        let mut tools = KnownTools::default();
        tools.0.insert("github".into(), Some(many("gh", 30)));
        tools.0.insert("files".into(), Some(many("f", 20)));
        let file = servers(json!({
            "narrow": { "servers": { "github": { "tools": ["gh1", "gh2", "mcp__github__gh3"] }, "files": {} } },
            "wide": { "servers": { "github": {}, "files": {} } },
            "find": { "mode": "search", "servers": { "github": {} } }
        }));
        let cursor = budget("cursor", None, &file, &tools, &ChosenBudgets::default());
        assert_eq!(
            (cursor.limit, cursor.limit_from, cursor.current.tools, cursor.over),
            (Some(40), LimitFrom::Documented, 50, true)
        );
        let counts: Vec<(Option<&str>, u32, bool)> =
            cursor.options.iter().map(|o| (o.profile.as_deref(), o.tools, o.search)).collect();
        assert_eq!(
            counts,
            [(None, 50, false), (Some("find"), 3, true), (Some("narrow"), 23, false), (Some("wide"), 50, false)]
        );
        assert_eq!(
            cursor.trims,
            [
                Trim::Profile { profile: "find".into(), tools: 3, search: true },
                Trim::Profile { profile: "narrow".into(), tools: 23, search: false }
            ]
        );
        let vscode = budget("vscode", None, &file, &tools, &ChosenBudgets::default());
        assert!(!vscode.over && vscode.trims.is_empty());
    }

    /// A client that documents no limit is never over, unless the person chose a limit for it; a chosen limit wins
    /// over a documented one. With no search profile in the file, search mode is offered as a trim.
    #[test]
    fn a_chosen_limit_wins_and_search_mode_is_offered() {
        let tools = known(&[("github", Some(&["a", "b", "c", "d", "e"][..]))]);
        let file = RawConfigFile::default();
        let free = budget("claude-desktop", None, &file, &tools, &ChosenBudgets::default());
        assert_eq!((free.limit, free.limit_from, free.over), (None, LimitFrom::None, false));
        let chosen = ChosenBudgets([("claude-desktop".to_owned(), 4)].into());
        let tight = budget("claude-desktop", None, &file, &tools, &chosen);
        assert_eq!((tight.limit, tight.limit_from, tight.over), (Some(4), LimitFrom::Chosen, true));
        assert_eq!(tight.trims, [Trim::SearchMode { tools: 3 }]);
        let roomy = budget("cursor", None, &file, &tools, &ChosenBudgets([("cursor".to_owned(), 100)].into()));
        assert_eq!((roomy.limit, roomy.over), (Some(100), false));
    }

    /// The entry's profile is what is counted; servers whose tools are not known are named, not guessed; a profile
    /// the file lacks shows nothing, as the gateway serves it.
    #[test]
    fn counts_the_entrys_profile_and_names_what_is_unknown() {
        let tools = known(&[("github", Some(&["a", "b"][..])), ("linear", None), ("files", Some(&["x"][..]))]);
        let file = servers(json!({ "coding": { "servers": { "github": { "tools": ["a"] }, "linear": {} } } }));
        let coding = budget("cursor", Some("coding"), &file, &tools, &ChosenBudgets::default());
        assert_eq!(
            coding.current,
            ToolCount {
                profile: Some("coding".into()),
                search: false,
                tools: 1,
                unknown_servers: vec!["linear".into()]
            }
        );
        let everything = budget("cursor", None, &file, &tools, &ChosenBudgets::default());
        assert_eq!((everything.current.tools, everything.current.unknown_servers), (3, vec!["linear".to_owned()]));
        let gone = budget("cursor", Some("removed"), &file, &tools, &ChosenBudgets::default());
        assert_eq!(gone.current.tools, 0);
    }
}
