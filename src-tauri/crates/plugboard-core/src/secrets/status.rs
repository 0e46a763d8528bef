//! `VaultStatus`: what the UI shows about where secrets live, whether they survive a restart, and what to do
//! when the keychain is missing. It describes the store; it must never contain a secret.

use serde::Serialize;

use super::error::KEYCHAIN_GUIDANCE;

/// Which kind of store holds the secrets this session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum BackendKind {
    /// The OS keychain (Secret Service, macOS Keychain, Windows Credential Manager).
    Keychain,
    /// Process memory only: every secret is gone when Plugboard quits.
    MemoryOnly,
    /// INSECURE: a plaintext JSON file the person explicitly opted into.
    InsecurePlaintextFile,
}

impl BackendKind {
    /// Whether a secret stored now is still there after Plugboard restarts.
    pub fn persists(self) -> bool {
        !matches!(self, Self::MemoryOnly)
    }
}

/// Where secrets live this session, as the settings screen and `plugboard doctor` show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct VaultStatus {
    pub backend: BackendKind,
    /// Whether secrets survive a restart.
    pub persists: bool,
    /// One sentence for the person, e.g. "Secrets are kept in memory only and are lost when Plugboard quits."
    pub summary: String,
    /// Why the keychain is not used, when it was tried and could not be reached.
    pub keychain_unavailable_reason: Option<String>,
    /// What the person can do to get the keychain back, when it could not be reached.
    pub what_to_do: Option<String>,
    /// The plaintext file, when the backend is the insecure file store.
    pub insecure_file_path: Option<String>,
}

impl VaultStatus {
    /// The status of a vault over a store of `backend` kind; `keychain_unavailable` is why the keychain was
    /// passed over, if it was.
    pub(crate) fn new(
        backend: BackendKind,
        insecure_file_path: Option<String>,
        keychain_unavailable: Option<String>,
    ) -> Self {
        let summary = match (backend, &insecure_file_path) {
            (BackendKind::Keychain, _) => "Secrets are stored in the OS keychain.".to_owned(),
            (BackendKind::MemoryOnly, _) => {
                "Secrets are kept in memory only and are lost when Plugboard quits.".to_owned()
            }
            (BackendKind::InsecurePlaintextFile, Some(path)) => format!(
                "INSECURE: secrets are stored in plaintext in {path}; anyone who can read that file can use them."
            ),
            (BackendKind::InsecurePlaintextFile, None) => {
                "INSECURE: secrets are stored in a plaintext file; anyone who can read it can use them.".to_owned()
            }
        };
        let what_to_do =
            keychain_unavailable.as_ref().map(|_| format!("To keep secrets in the OS keychain, {KEYCHAIN_GUIDANCE}."));
        Self {
            backend,
            persists: backend.persists(),
            summary,
            keychain_unavailable_reason: keychain_unavailable,
            what_to_do,
            insecure_file_path,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{BackendKind, VaultStatus};
    use serde_json::json;

    /// The JSON the UI reads: camelCase fields and backend names, null for what does not apply.
    #[test]
    fn serialises_to_the_shape_the_ui_reads() {
        let status = VaultStatus::new(BackendKind::MemoryOnly, None, Some("no D-Bus session".into()));
        let value = serde_json::to_value(&status).expect("serialisable");
        assert_eq!(value["backend"], json!("memoryOnly"));
        assert_eq!(value["persists"], json!(false));
        assert_eq!(value["keychainUnavailableReason"], json!("no D-Bus session"));
        assert!(value["whatToDo"].as_str().is_some_and(|s| s.contains("restart Plugboard")), "{value}");
        assert_eq!(value["insecureFilePath"], json!(null));
        let keychain = serde_json::to_value(VaultStatus::new(BackendKind::Keychain, None, None)).expect("json");
        assert_eq!(keychain["backend"], json!("keychain"));
        assert_eq!(keychain["persists"], json!(true));
        assert_eq!(keychain["whatToDo"], json!(null));
    }

    /// The insecure file store is called insecure and plaintext wherever the person can see it.
    #[test]
    fn insecure_file_status_says_insecure_and_plaintext() {
        let status =
            VaultStatus::new(BackendKind::InsecurePlaintextFile, Some("/d/secrets.json".into()), Some("no bus".into()));
        let value = serde_json::to_value(&status).expect("serialisable");
        assert_eq!(value["backend"], json!("insecurePlaintextFile"));
        assert!(status.persists);
        assert!(status.summary.contains("INSECURE") && status.summary.contains("plaintext"), "{}", status.summary);
        assert!(status.summary.contains("/d/secrets.json"), "{}", status.summary);
    }
}
