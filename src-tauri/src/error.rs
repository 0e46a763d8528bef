//! `CommandError`: the one error shape that crosses the IPC boundary, `{ "code": …, "message": … }`.
//! Only the cases the UI branches on get their own code; the rest is `Internal` with a readable message.

use plugboard_core::config::ConfigError;
use plugboard_core::secrets::VaultError;
use serde::Serialize;

/// An error returned by a command, serialised with a `code` tag the UI can switch on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type, thiserror::Error)]
#[serde(tag = "code")]
pub enum CommandError {
    #[error("{message}")]
    NotFound { message: String },
    /// The server config cannot be used as it is; `field` is the dotted path when known.
    #[error("{message}")]
    InvalidConfig { field: Option<String>, message: String },
    #[error("{message}")]
    KeychainUnavailable { message: String },
    #[error("{message}")]
    Internal { message: String },
}

impl From<ConfigError> for CommandError {
    fn from(e: ConfigError) -> Self {
        Self::InvalidConfig { field: e.field().map(str::to_owned), message: e.to_string() }
    }
}

impl From<VaultError> for CommandError {
    fn from(e: VaultError) -> Self {
        match e {
            VaultError::KeychainUnavailable { .. } => Self::KeychainUnavailable { message: e.to_string() },
            other => Self::Internal { message: other.to_string() },
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
        assert_eq!(
            to_json(&CommandError::NotFound { message: "no server named x".into() }),
            json!({ "code": "NotFound", "message": "no server named x" })
        );
        assert_eq!(
            to_json(&CommandError::InvalidConfig { field: Some("mcpServers.a".into()), message: "bad".into() }),
            json!({ "code": "InvalidConfig", "field": "mcpServers.a", "message": "bad" })
        );
        assert_eq!(
            to_json(&CommandError::InvalidConfig { field: None, message: "bad".into() }),
            json!({ "code": "InvalidConfig", "field": null, "message": "bad" })
        );
        assert_eq!(
            to_json(&CommandError::KeychainUnavailable { message: "no bus".into() }),
            json!({ "code": "KeychainUnavailable", "message": "no bus" })
        );
        assert_eq!(
            to_json(&CommandError::Internal { message: "boom".into() }),
            json!({ "code": "Internal", "message": "boom" })
        );
    }

    /// A config syntax error reaches the UI as InvalidConfig with the position in its message.
    #[test]
    fn config_errors_become_invalid_config() {
        let err = plugboard_core::config::parse_server_list(std::path::Path::new("/c/servers.json"), "{")
            .expect_err("broken");
        match CommandError::from(err) {
            CommandError::InvalidConfig { field: None, message } => {
                assert!(message.contains("line 1"), "{message}");
            }
            other => panic!("unexpected {other:?}"),
        }
    }
}
