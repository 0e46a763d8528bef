//! `WindowsSizeLimitFake`: a test double of Windows Credential Manager's size limit, so chunking is proven on
//! every OS. It is a fake: in memory, never a real backend, never chosen by `Vault::open`.

use std::fmt;

use super::{BackendKind, MemoryStore, SecretStore, Sensitive, VaultError};

/// Credential Manager's `CRED_MAX_CREDENTIAL_BLOB_SIZE`: 5 × 512 bytes per credential blob.
pub const WINDOWS_CREDENTIAL_BLOB_LIMIT_BYTES: usize = 2_560;

/// An in-memory store that rejects what Windows Credential Manager rejects: a value whose UTF-16 encoding (the
/// form keyring stores passwords in on Windows) exceeds 2,560 bytes, i.e. more than 1,280 UTF-16 code units.
#[derive(Default)]
pub struct WindowsSizeLimitFake {
    inner: MemoryStore,
}

impl WindowsSizeLimitFake {
    pub fn new() -> Self {
        Self::default()
    }
}

impl fmt::Debug for WindowsSizeLimitFake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WindowsSizeLimitFake").field("inner", &self.inner).finish()
    }
}

impl SecretStore for WindowsSizeLimitFake {
    fn kind(&self) -> BackendKind {
        BackendKind::MemoryOnly
    }

    fn get(&self, key: &str) -> Result<Option<Sensitive<String>>, VaultError> {
        self.inner.get(key)
    }

    fn set(&self, key: &str, value: &str) -> Result<(), VaultError> {
        // Counted the way Windows counts: bytes of the UTF-16 blob, so an emoji costs 4 and an ASCII letter 2.
        if value.encode_utf16().count() * 2 > WINDOWS_CREDENTIAL_BLOB_LIMIT_BYTES {
            return Err(VaultError::TooLong { key: key.to_owned(), limit_bytes: WINDOWS_CREDENTIAL_BLOB_LIMIT_BYTES });
        }
        self.inner.set(key, value)
    }

    fn delete(&self, key: &str) -> Result<bool, VaultError> {
        self.inner.delete(key)
    }
}

#[cfg(test)]
mod tests {
    use super::{SecretStore, VaultError, WindowsSizeLimitFake};

    /// Exactly 1,280 UTF-16 units fit, one more does not; an emoji counts as two units.
    #[test]
    fn rejects_blobs_over_2560_utf16_bytes() {
        let store = WindowsSizeLimitFake::new();
        store.set("s/fits", &"a".repeat(1_280)).expect("1280 units fit");
        assert!(matches!(store.set("s/over", &"a".repeat(1_281)), Err(VaultError::TooLong { limit_bytes: 2_560, .. })));
        store.set("s/emoji", &"😀".repeat(640)).expect("640 emoji = 1280 units fit");
        assert!(store.set("s/emoji", &"😀".repeat(641)).is_err());
        // 1,280 three-byte characters are 3,840 UTF-8 bytes but only 2,560 UTF-16 bytes: Windows accepts them.
        store.set("s/cjk", &"語".repeat(1_280)).expect("BMP characters are one unit each");
    }

    /// An unchunked 3 KB value is refused, which is why the vault must chunk.
    #[test]
    fn rejects_an_unchunked_3kb_value() {
        let store = WindowsSizeLimitFake::new();
        let err = store.set("s/token", &"x".repeat(3 * 1024)).expect_err("too long");
        assert_eq!(err, VaultError::TooLong { key: "s/token".into(), limit_bytes: 2_560 });
        assert_eq!(store.get("s/token").expect("get"), None, "nothing was stored");
    }
}
