//! Finding which clients' config files exist on this machine.

use std::path::PathBuf;

use super::clients;
use super::source::{ClientSource, Os, PathContext};

impl PathContext {
    /// The real machine: this OS, the person's home, the usual environment variables, and `projects`.
    pub fn from_env(projects: Vec<PathBuf>) -> Self {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        Self {
            os: if cfg!(target_os = "macos") {
                Os::MacOs
            } else if cfg!(windows) {
                Os::Windows
            } else {
                Os::Linux
            },
            home: dirs::home_dir().unwrap_or_default(),
            app_data: var("APPDATA"),
            local_app_data: var("LOCALAPPDATA"),
            xdg_config_home: var("XDG_CONFIG_HOME"),
            projects,
        }
    }
}

/// A config file of a client that exists here.
#[derive(Debug, Clone)]
pub struct DetectedFile {
    pub client: ClientSource,
    pub path: PathBuf,
}

/// A detected file as the import wizard lists it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ImportSource {
    pub client: String,
    pub client_label: String,
    pub path: String,
}

impl From<&DetectedFile> for ImportSource {
    fn from(file: &DetectedFile) -> Self {
        Self {
            client: file.client.id.to_owned(),
            client_label: file.client.label.to_owned(),
            path: file.path.display().to_string(),
        }
    }
}

/// A known client with no config file here, and every path where one was looked for.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ClientNotFound {
    pub client: String,
    pub client_label: String,
    pub looked_in: Vec<String>,
}

/// The first step of the import wizard: the files found, and the clients that have none here.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ImportSources {
    pub found: Vec<ImportSource>,
    pub not_found: Vec<ClientNotFound>,
}

impl ImportSources {
    /// Looks for every known client's files on the machine `ctx` describes; reads none of them.
    pub fn scan(ctx: &PathContext) -> Self {
        let found: Vec<ImportSource> = detect(ctx, &[]).iter().map(ImportSource::from).collect();
        let not_found = clients::all()
            .iter()
            .filter(|c| !found.iter().any(|f| f.client == c.id))
            .map(|c| ClientNotFound {
                client: c.id.to_owned(),
                client_label: c.label.to_owned(),
                looked_in: (c.default_paths)(ctx).iter().map(|p| p.display().to_string()).collect(),
            })
            .collect();
        Self { found, not_found }
    }
}

/// Every existing config file of every known client (or only of `only`, by id), in registry order.
pub fn detect(ctx: &PathContext, only: &[String]) -> Vec<DetectedFile> {
    let mut found: Vec<DetectedFile> = Vec::new();
    for client in clients::all().iter().filter(|c| only.is_empty() || only.iter().any(|id| id == c.id)) {
        for path in (client.default_paths)(ctx) {
            // Symlinked or not, a path is listed once; existence is enough here, reading reports the rest.
            if path.exists() && !found.iter().any(|f| f.path == path) {
                found.push(DetectedFile { client: *client, path });
            }
        }
    }
    found
}

/// The client whose format a file named like `path` most likely has, for `import --file` without `--from`.
pub fn guess_client(path: &std::path::Path) -> Option<ClientSource> {
    let name = path.file_name()?.to_string_lossy().to_lowercase();
    let parent = path.parent().and_then(|p| p.file_name()).map(|p| p.to_string_lossy().to_lowercase());
    let id = match (name.as_str(), parent.as_deref()) {
        ("claude_desktop_config.json", _) => "claude-desktop",
        (".claude.json" | ".mcp.json", _) => "claude-code",
        ("mcp.json", Some(".cursor")) => "cursor",
        ("mcp.json", Some(".vscode" | "user")) => "vscode",
        ("mcp_config.json", _) => "windsurf",
        ("cline_mcp_settings.json", _) => "cline",
        ("mcp_settings.json", _) => "roo",
        ("settings.json", Some(".gemini")) => "gemini",
        ("settings.json", Some("zed")) => "zed",
        ("config.toml", _) => "codex",
        (n, _) if n.ends_with(".yaml") || n.ends_with(".yml") => "continue",
        // The plain `mcpServers` shape that Claude Desktop, Cursor and most others share.
        _ => "cursor",
    };
    clients::all().iter().find(|c| c.id == id).copied()
}
