//! `CommandError`: the one error shape that crosses the IPC boundary, `{ "code": …, "message": … }`.
//! Only the cases the UI branches on get their own code; the rest is `Internal` with a readable message.

use plugboard_core::bundle::BundleError;
use plugboard_core::config::ConfigError;
use plugboard_core::console::{ConsoleError, HistoryError};
use plugboard_core::engine::EngineError;
use plugboard_core::export::ExportError;
use plugboard_core::install::{InstallError, ShareError};
use plugboard_core::mcp_registry::RegistryError as McpRegistryError;
use plugboard_core::person::PersonError;
use plugboard_core::presets::PresetError;
use plugboard_core::registry::RegistryError;
use plugboard_core::secrets::VaultError;
use plugboard_core::supervisor::SupervisorError;
use serde::Serialize;

/// An error returned by a command, serialised with a `code` tag the UI can switch on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type, thiserror::Error)]
#[serde(tag = "code")]
pub enum CommandError {
    #[error("{message}")]
    NotFound { message: String },
    #[error("{message}")]
    AlreadyExists { message: String },
    /// The server config cannot be used as it is; `field` is the field (or `mcpServers.<name>`) when known.
    #[error("{message}")]
    InvalidConfig { field: Option<String>, message: String },
    /// Another program changed servers.json; Plugboard reloaded it and the UI should refresh and let the person retry.
    #[error("{message}")]
    ChangedOnDisk { message: String },
    #[error("{message}")]
    KeychainUnavailable { message: String },
    /// The server is not ready (connecting, failed, needs login…); `status` says which.
    #[error("{message}")]
    NotReady { message: String },
    /// A tool's arguments are not what it takes.
    #[error("{message}")]
    InvalidArguments { message: String },
    /// The call did not finish in time or was cancelled.
    #[error("{message}")]
    Timeout { message: String },
    /// A login did not complete; `refused` when Plugboard refused the server's metadata (a MUST of the spec) rather
    /// than the login failing along the way. `message` names the step that failed.
    /// The server wants a (new) login before it answers; `server` names it for the UI's "Log in" action.
    #[error("{message}")]
    AuthRequired { server: String, message: String },
    #[error("{message}")]
    LoginFailed { refused: bool, message: String },
    #[error("{message}")]
    Internal { message: String },
}

impl From<EngineError> for CommandError {
    fn from(e: EngineError) -> Self {
        match e {
            EngineError::Config(e) => e.into(),
            EngineError::Registry(e) => e.into(),
            EngineError::Supervisor(e) => e.into(),
            EngineError::Login(e) => e.into(),
            EngineError::UnknownServer { .. } => Self::NotFound { message: e.to_string() },
            // Shown one definition, deciding on another: refresh and let the person look again.
            EngineError::ApprovalOutdated { .. } => Self::ChangedOnDisk { message: e.to_string() },
            other => Self::Internal { message: other.to_string() },
        }
    }
}

impl From<ExportError> for CommandError {
    fn from(e: ExportError) -> Self {
        let message = e.to_string();
        match e {
            ExportError::UnknownClient { .. } | ExportError::NoBackup { .. } => Self::NotFound { message },
            // The file changed under the diff the person saw: the screen plans again and shows the new diff.
            ExportError::ChangedSinceRead { .. } | ExportError::NotAsShown { .. } => Self::ChangedOnDisk { message },
            ExportError::Parse { .. }
            | ExportError::Unsupported { .. }
            | ExportError::UnknownProfile { .. }
            | ExportError::InvalidProfile { .. } => Self::InvalidConfig { field: None, message },
            ExportError::InvalidLimit { .. } => Self::InvalidArguments { message },
            _ => Self::Internal { message },
        }
    }
}

impl From<plugboard_core::auth::LoginError> for CommandError {
    fn from(e: plugboard_core::auth::LoginError) -> Self {
        Self::LoginFailed { refused: e.is_refusal(), message: e.to_string() }
    }
}

impl From<ConfigError> for CommandError {
    fn from(e: ConfigError) -> Self {
        let message = e.to_string();
        match e {
            ConfigError::ChangedOnDisk { .. } => Self::ChangedOnDisk { message },
            ConfigError::Syntax { .. } | ConfigError::BrokenOnDisk { .. } => {
                Self::InvalidConfig { field: None, message }
            }
            _ => Self::Internal { message },
        }
    }
}

impl From<plugboard_core::gateway::http::TokenError> for CommandError {
    fn from(e: plugboard_core::gateway::http::TokenError) -> Self {
        use plugboard_core::gateway::http::TokenError;
        let message = e.to_string();
        match e {
            TokenError::NoKeychain { .. } => Self::KeychainUnavailable { message },
            _ => Self::Internal { message },
        }
    }
}

impl From<VaultError> for CommandError {
    fn from(e: VaultError) -> Self {
        let message = e.to_string();
        match e {
            VaultError::KeychainUnavailable { .. } => Self::KeychainUnavailable { message },
            _ => Self::Internal { message },
        }
    }
}

impl From<RegistryError> for CommandError {
    fn from(e: RegistryError) -> Self {
        let message = e.to_string();
        match e {
            RegistryError::NotFound { .. } => Self::NotFound { message },
            RegistryError::AlreadyExists { .. } => Self::AlreadyExists { message },
            RegistryError::Invalid(entry) => Self::InvalidConfig { field: Some(entry.field), message },
            RegistryError::Config(config) => config.into(),
            RegistryError::Vault(vault) => vault.into(),
            _ => Self::Internal { message },
        }
    }
}

impl From<PresetError> for CommandError {
    fn from(e: PresetError) -> Self {
        let message = e.to_string();
        match e {
            PresetError::UnknownPreset { .. } => Self::NotFound { message },
            PresetError::UnknownInput { input, .. }
            | PresetError::MissingInput { input, .. }
            | PresetError::NotAChoice { input, .. } => Self::InvalidConfig { field: Some(input), message },
            PresetError::NameTaken { .. } => Self::AlreadyExists { message },
            PresetError::Registry(registry) => registry.into(),
            _ => Self::Internal { message },
        }
    }
}

impl From<McpRegistryError> for CommandError {
    fn from(e: McpRegistryError) -> Self {
        let message = e.to_string();
        match e {
            McpRegistryError::Sources(_) => Self::InvalidConfig { field: Some("registry".into()), message },
            McpRegistryError::UnknownEntry { .. } => Self::NotFound { message },
            McpRegistryError::Preset(preset) => preset.into(),
            _ => Self::Internal { message },
        }
    }
}

impl From<InstallError> for CommandError {
    fn from(e: InstallError) -> Self {
        match e {
            InstallError::Link(_) => Self::InvalidConfig { field: Some("link".into()), message: e.to_string() },
            InstallError::Preset(preset) => preset.into(),
            _ => Self::Internal { message: e.to_string() },
        }
    }
}

impl From<BundleError> for CommandError {
    fn from(e: BundleError) -> Self {
        match e {
            BundleError::Preset(preset) => preset.into(),
            BundleError::AlreadyInstalled(_) => Self::AlreadyExists { message: e.to_string() },
            _ => Self::InvalidConfig { field: Some("bundle".into()), message: e.to_string() },
        }
    }
}

impl From<ShareError> for CommandError {
    fn from(e: ShareError) -> Self {
        Self::InvalidConfig { field: None, message: e.to_string() }
    }
}

impl From<SupervisorError> for CommandError {
    fn from(e: SupervisorError) -> Self {
        let message = e.to_string();
        match e {
            SupervisorError::NotFound { .. } | SupervisorError::UnknownTool { .. } => Self::NotFound { message },
            SupervisorError::NotReady { .. } => Self::NotReady { message },
            SupervisorError::AuthRequired { server, .. } => Self::AuthRequired { server, message },
            SupervisorError::Timeout { .. } | SupervisorError::Cancelled { .. } => Self::Timeout { message },
            _ => Self::Internal { message },
        }
    }
}

impl From<HistoryError> for CommandError {
    fn from(e: HistoryError) -> Self {
        let message = e.to_string();
        match e {
            HistoryError::NotFound { .. } => Self::NotFound { message },
            _ => Self::Internal { message },
        }
    }
}

impl From<PersonError> for CommandError {
    fn from(e: PersonError) -> Self {
        let message = e.to_string();
        match e {
            PersonError::NotFound { .. } => Self::NotFound { message },
            // The dialog shows it beside the answer, which the person can correct.
            PersonError::InvalidAnswer { .. } => Self::InvalidArguments { message },
            _ => Self::Internal { message },
        }
    }
}

impl From<ConsoleError> for CommandError {
    fn from(e: ConsoleError) -> Self {
        match e {
            ConsoleError::UnknownServer { .. } => Self::NotFound { message: e.to_string() },
            ConsoleError::History(history) => history.into(),
            _ => Self::Internal { message: e.to_string() },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::CommandError;
    use serde_json::json;

    fn to_json(e: &CommandError) -> serde_json::Value {
        serde_json::to_value(e).expect("serialisable")
    }

    /// Each variant has the exact JSON shape the UI's generated types promise.
    #[test]
    fn variants_serialise_to_the_documented_shape() {
        let m = || "m".to_owned();
        assert_eq!(to_json(&CommandError::NotFound { message: m() }), json!({ "code": "NotFound", "message": "m" }));
        assert_eq!(
            to_json(&CommandError::AlreadyExists { message: m() }),
            json!({ "code": "AlreadyExists", "message": "m" })
        );
        assert_eq!(
            to_json(&CommandError::InvalidConfig { field: Some("url".into()), message: m() }),
            json!({ "code": "InvalidConfig", "field": "url", "message": "m" })
        );
        assert_eq!(
            to_json(&CommandError::InvalidConfig { field: None, message: m() }),
            json!({ "code": "InvalidConfig", "field": null, "message": "m" })
        );
        assert_eq!(
            to_json(&CommandError::ChangedOnDisk { message: m() }),
            json!({ "code": "ChangedOnDisk", "message": "m" })
        );
        assert_eq!(
            to_json(&CommandError::KeychainUnavailable { message: m() }),
            json!({ "code": "KeychainUnavailable", "message": "m" })
        );
        assert_eq!(to_json(&CommandError::NotReady { message: m() }), json!({ "code": "NotReady", "message": "m" }));
        assert_eq!(
            to_json(&CommandError::InvalidArguments { message: m() }),
            json!({ "code": "InvalidArguments", "message": "m" })
        );
        assert_eq!(to_json(&CommandError::Timeout { message: m() }), json!({ "code": "Timeout", "message": "m" }));
        assert_eq!(to_json(&CommandError::Internal { message: m() }), json!({ "code": "Internal", "message": "m" }));
        assert_eq!(
            to_json(&CommandError::AuthRequired { server: "s".into(), message: m() }),
            json!({ "code": "AuthRequired", "server": "s", "message": "m" })
        );
        assert_eq!(
            to_json(&CommandError::LoginFailed { refused: true, message: m() }),
            json!({ "code": "LoginFailed", "refused": true, "message": "m" })
        );
    }

    /// A gone request is NotFound and a wrong answer InvalidArguments, each with the exact JSON the dialog reads.
    #[test]
    fn person_errors_map_to_codes() {
        use plugboard_core::person::PersonError;
        assert_eq!(
            to_json(&PersonError::NotFound { id: 3 }.into()),
            json!({ "code": "NotFound", "message": "the request 3 is no longer waiting for an answer" })
        );
        assert_eq!(
            to_json(&PersonError::InvalidAnswer { message: "age: expected a number".into() }.into()),
            json!({ "code": "InvalidArguments", "message": "age: expected a number" })
        );
    }

    /// Registry failures map to the codes the UI branches on, keeping the field of a validation error.
    #[test]
    fn registry_errors_map_to_codes() {
        use plugboard_core::config::EntryError;
        use plugboard_core::registry::RegistryError;
        let invalid =
            RegistryError::Invalid(EntryError { server: "s".into(), field: "url".into(), message: "bad".into() });
        assert!(
            matches!(CommandError::from(invalid), CommandError::InvalidConfig { field: Some(f), .. } if f == "url")
        );
        assert!(matches!(
            CommandError::from(RegistryError::NotFound { name: "x".into() }),
            CommandError::NotFound { message } if message.contains("\"x\"")
        ));
        assert!(matches!(
            CommandError::from(RegistryError::AlreadyExists { name: "x".into() }),
            CommandError::AlreadyExists { .. }
        ));
    }

    /// Console failures: an unknown server and a missing history row are NotFound, a broken history is Internal.
    #[test]
    fn console_errors_map_to_codes() {
        use plugboard_core::console::{ConsoleError, HistoryError};
        assert_eq!(
            to_json(&ConsoleError::UnknownServer { server: "gh".into() }.into()),
            json!({ "code": "NotFound", "message": "there is no server named \"gh\"" })
        );
        assert_eq!(
            to_json(&ConsoleError::History(HistoryError::NotFound { id: 7 }).into()),
            json!({ "code": "NotFound", "message": "there is no call 7 in the history" })
        );
        assert_eq!(
            to_json(&HistoryError::Database { message: "disk full".into() }.into()),
            json!({ "code": "Internal", "message": "the call history could not be read or written: disk full" })
        );
    }

    /// A registry entry no search offered is NotFound; a URL that cannot be a registry is InvalidConfig on the
    /// `registry` field; a registry that did not answer is Internal with its reason.
    #[test]
    fn mcp_registry_errors_map_to_codes() {
        use plugboard_core::mcp_registry::RegistryError as McpRegistryError;
        let unknown = McpRegistryError::UnknownEntry {
            registry: "https://r.example".into(),
            name: "a/b".into(),
            version: "1".into(),
        };
        assert_eq!(
            to_json(&unknown.into()),
            json!({ "code": "NotFound", "message": "a/b 1 of https://r.example is not known here: search for it first" })
        );
        assert_eq!(
            to_json(&McpRegistryError::Sources("\"x\" cannot be a registry: use https".into()).into()),
            json!({ "code": "InvalidConfig", "field": "registry", "message": "\"x\" cannot be a registry: use https" })
        );
        let down = McpRegistryError::Unreachable {
            registry: "https://r.example".into(),
            reason: "it answered HTTP 503".into(),
        };
        assert_eq!(
            to_json(&down.into()),
            json!({ "code": "Internal", "message": "https://r.example cannot be searched: it answered HTTP 503" })
        );
    }

    /// The engine's errors keep the code of the part that failed; an unknown server is NotFound.
    #[test]
    fn engine_errors_map_to_codes() {
        use plugboard_core::engine::EngineError;
        use plugboard_core::registry::RegistryError;
        assert_eq!(
            to_json(&EngineError::UnknownServer { name: "gh".into() }.into()),
            json!({ "code": "NotFound", "message": "there is no valid server named \"gh\"" })
        );
        let taken = EngineError::Registry(RegistryError::AlreadyExists { name: "x".into() });
        assert!(matches!(CommandError::from(taken), CommandError::AlreadyExists { .. }));
        let watch = EngineError::Watch {
            path: "/home/ada/.config/plugboard/servers.json".into(),
            message: "no inotify".into(),
        };
        assert_eq!(to_json(&watch.into())["code"], "Internal");
    }

    /// Write-back: a file changed under the shown diff is ChangedOnDisk (the screen plans again), a broken client
    /// file is InvalidConfig naming where, an unknown client NotFound, a bad limit InvalidArguments.
    #[test]
    fn export_errors_map_to_codes() {
        use plugboard_core::export::ExportError;
        use std::path::PathBuf;
        assert_eq!(
            to_json(&ExportError::NotAsShown { path: PathBuf::from("/h/.cursor/mcp.json") }.into()),
            json!({ "code": "ChangedOnDisk", "message": "/h/.cursor/mcp.json changed since the change was shown, so nothing was written; look at the new change" })
        );
        let parse = ExportError::Parse {
            path: PathBuf::from("/h/x.json"),
            message: "expected }".into(),
            position: Some((3, 7)),
        };
        assert_eq!(
            to_json(&parse.into()),
            json!({ "code": "InvalidConfig", "field": null, "message": "/h/x.json does not parse, so it was not changed: expected } (line 3, column 7)" })
        );
        assert_eq!(
            to_json(&ExportError::UnknownClient { id: "n".into(), known: vec!["cursor".into()] }.into())["code"],
            "NotFound"
        );
        assert_eq!(to_json(&ExportError::InvalidLimit { limit: 0 }.into())["code"], "InvalidArguments");
    }

    /// A preset's missing input names the field to fix; a taken name is AlreadyExists with the free name to use.
    #[test]
    fn preset_errors_map_to_codes() {
        use plugboard_core::presets::PresetError;
        let missing = PresetError::MissingInput { input: "allowed_folder".into(), description: String::new() };
        assert_eq!(
            serde_json::to_value(CommandError::from(missing)).expect("json"),
            json!({ "code": "InvalidConfig", "field": "allowed_folder", "message": "\"allowed_folder\" is required" })
        );
        let taken = PresetError::NameTaken { name: "github".into(), suggestion: "github-2".into() };
        assert_eq!(
            serde_json::to_value(CommandError::from(taken)).expect("json"),
            json!({ "code": "AlreadyExists", "message": "a server named \"github\" already exists; \"github-2\" is free" })
        );
        assert!(matches!(
            CommandError::from(PresetError::UnknownPreset { name: "x".into() }),
            CommandError::NotFound { .. }
        ));
    }
}
