//! Why the vault could not do what was asked, and whether trying again can help.

/// A keychain failure. "No such secret" is not an error: the vault returns `Ok(None)` for it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum VaultError {
    /// No keychain can be reached (no D-Bus session, no Secret Service, unsupported platform).
    #[error(
        "the OS keychain is not available ({reason}); on Linux, start a Secret Service such as \
         gnome-keyring or KeePassXC in your desktop session"
    )]
    KeychainUnavailable { reason: String },
    /// The keychain is there but refused access, typically because it is locked.
    #[error("the OS keychain refused access ({reason}); unlock it and try again")]
    Locked { reason: String },
    /// The keychain answered with something else that went wrong.
    #[error("the OS keychain failed: {reason}")]
    Backend { reason: String },
}

impl VaultError {
    /// Whether the same call may succeed later without the person changing anything but the keychain's state.
    pub fn is_transient(&self) -> bool {
        matches!(self, Self::Locked { .. })
    }
}

impl From<keyring::Error> for VaultError {
    fn from(e: keyring::Error) -> Self {
        use keyring::Error as K;
        // keyring's messages never contain the secret itself, so they are safe to keep.
        let reason = e.to_string();
        match e {
            K::NoDefaultStore | K::PlatformFailure(_) => Self::KeychainUnavailable { reason },
            K::NoStorageAccess(_) => Self::Locked { reason },
            _ => Self::Backend { reason },
        }
    }
}
