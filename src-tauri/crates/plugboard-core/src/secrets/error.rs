//! Why the vault could not do what was asked, what the person can do about it, and whether trying again can help.
//! An error here must never carry a secret's value: keys, paths and reasons only.

use std::path::PathBuf;

/// What to do when no keychain can be reached, for the platform this build runs on.
#[cfg(all(unix, not(target_os = "macos")))]
pub const KEYCHAIN_GUIDANCE: &str = "start a Secret Service provider (GNOME Keyring, or KeePassXC with its Secret Service \
     integration) in your desktop session and restart Plugboard; on a machine without a desktop, run Plugboard inside \
     `dbus-run-session` with `gnome-keyring-daemon --unlock`";
/// What to do when no keychain can be reached, for the platform this build runs on.
#[cfg(target_os = "macos")]
pub const KEYCHAIN_GUIDANCE: &str =
    "open Keychain Access, check that your login keychain exists and is unlocked, then restart Plugboard";
/// What to do when no keychain can be reached, for the platform this build runs on.
#[cfg(windows)]
pub const KEYCHAIN_GUIDANCE: &str =
    "check that the Credential Manager service (VaultSvc) is running, then restart Plugboard";
/// What to do when no keychain can be reached, for the platform this build runs on.
#[cfg(not(any(unix, windows)))]
pub const KEYCHAIN_GUIDANCE: &str = "this platform has no keychain Plugboard can use";

/// A vault failure. "No such secret" is not an error: the vault returns `Ok(None)` for it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VaultError {
    /// No keychain can be reached (no D-Bus session, no Secret Service, unsupported platform). Not retryable:
    /// the person has to change their setup, which [`KEYCHAIN_GUIDANCE`] (part of the message) explains.
    #[error("the OS keychain is not available ({reason}); to fix it, {guidance}", guidance = KEYCHAIN_GUIDANCE)]
    KeychainUnavailable { reason: String },
    /// The keychain is there but refused access, typically because it is locked. Retryable once unlocked.
    #[error("the OS keychain refused access ({reason}); unlock it and try again")]
    Locked { reason: String },
    /// The keychain answered with something else that went wrong. Not known to be retryable.
    #[error("the OS keychain failed: {reason}")]
    Backend { reason: String },
    /// One entry would exceed what the store can hold. The vault chunks long values, so this means a store
    /// with a smaller limit than the chunk size, or a value beyond the vault's own maximum.
    #[error("the secret store cannot hold entry {key}: it is longer than the limit of {limit_bytes} bytes")]
    TooLong { key: String, limit_bytes: usize },
    /// A stored secret is damaged: a chunk is missing or does not match its manifest, or the entry is not text.
    /// Not retryable; deleting the secret and setting it again (or signing in again) repairs it.
    #[error("the stored secret {key} is damaged ({reason}); delete it and set it again, or sign in again")]
    Corrupt { key: String, reason: String },
    /// The opted-in insecure plaintext secrets file cannot be read or written. Plugboard never overwrites a file
    /// it cannot parse, so nothing is lost; the person fixes or removes the file.
    #[error(
        "the insecure plaintext secrets file {} cannot be used: {reason}; fix or remove it \
         (Plugboard will not overwrite it)",
        .path.display()
    )]
    InsecureFile { path: PathBuf, reason: String },
    /// A server or secret name that cannot be stored unambiguously as `<server>/<name>`.
    #[error("{name:?} cannot name a stored secret: {reason}")]
    InvalidName { name: String, reason: &'static str },
}

impl VaultError {
    /// Whether the same call may succeed later without the person changing anything but the keychain's state.
    pub fn is_transient(&self) -> bool {
        matches!(self, Self::Locked { .. })
    }

    /// What the person can do about it, when there is something specific to say.
    pub fn what_to_do(&self) -> Option<&'static str> {
        match self {
            Self::KeychainUnavailable { .. } => Some(KEYCHAIN_GUIDANCE),
            Self::Locked { .. } => Some("unlock the OS keychain and try again"),
            Self::Corrupt { .. } => Some("delete the secret and set it again, or sign in to the server again"),
            Self::InsecureFile { .. } => Some("fix or remove the insecure plaintext secrets file"),
            _ => None,
        }
    }
}

impl From<keyring::Error> for VaultError {
    fn from(e: keyring::Error) -> Self {
        use keyring::Error as K;
        // Two variants carry the stored bytes (BadEncoding, BadDataFormat): they get a fixed reason, and no
        // keyring error is ever formatted with `{:?}`. The other messages name entries, never values.
        match e {
            K::NoDefaultStore | K::PlatformFailure(_) => Self::KeychainUnavailable { reason: e.to_string() },
            K::NoStorageAccess(_) => Self::Locked { reason: e.to_string() },
            K::TooLong(key, limit) => Self::TooLong { key, limit_bytes: limit as usize },
            K::BadEncoding(_) | K::BadDataFormat(..) => {
                Self::Backend { reason: "the keychain returned an entry that is not valid text".to_owned() }
            }
            other => Self::Backend { reason: other.to_string() },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{KEYCHAIN_GUIDANCE, VaultError};

    /// Only a locked keychain is worth retrying; every other failure needs the person or a fix.
    #[test]
    fn only_locked_is_transient() {
        assert!(VaultError::Locked { reason: "locked".into() }.is_transient());
        assert!(!VaultError::KeychainUnavailable { reason: "no bus".into() }.is_transient());
        assert!(!VaultError::Corrupt { key: "s/n".into(), reason: "missing chunk".into() }.is_transient());
        assert!(!VaultError::Backend { reason: "x".into() }.is_transient());
    }

    /// KeychainUnavailable tells the person what to do, in its message and through `what_to_do`.
    #[test]
    fn keychain_unavailable_carries_guidance() {
        let e = VaultError::from(keyring::Error::NoDefaultStore);
        assert!(matches!(e, VaultError::KeychainUnavailable { .. }), "{e:?}");
        assert!(e.to_string().contains(KEYCHAIN_GUIDANCE), "{e}");
        assert_eq!(e.what_to_do(), Some(KEYCHAIN_GUIDANCE));
    }

    /// keyring errors that carry the stored bytes are reduced to a fixed reason, so no value reaches a message.
    #[test]
    fn keyring_errors_with_bytes_never_reach_the_message() {
        let e = VaultError::from(keyring::Error::BadEncoding(b"sk-live-canary\xff".to_vec()));
        assert!(!format!("{e} {e:?}").contains("canary"), "{e:?}");
        let e = VaultError::from(keyring::Error::TooLong("plugboard/s/n".into(), 2560));
        assert_eq!(e, VaultError::TooLong { key: "plugboard/s/n".into(), limit_bytes: 2560 });
        let e = VaultError::from(keyring::Error::NoStorageAccess("locked".into()));
        assert!(e.is_transient(), "{e:?}");
    }
}
