//! The vault: per-server secrets in the OS keychain (long ones chunked to fit Windows' 2,560-byte limit); without a
//! keychain, in memory for the session, or in an INSECURE plaintext file only if the person opted in.
//! Nothing here may log, print or serialise a secret's value, and nothing falls back to plaintext on its own.

mod chunked;
mod encodings;
mod error;
mod insecure_file_store;
mod keychain_store;
mod keychain_watch;
mod locks;
mod log_scrub;
mod memory_store;
mod references;
mod resolved;
mod secret_index;
mod sensitive;
mod status;
mod store;
mod vault;
mod windows_size_limit_fake;

pub use chunked::CHUNK_UTF16_UNITS;
pub use error::{KEYCHAIN_GUIDANCE, VaultError};
pub use insecure_file_store::{INSECURE_FILE_NAME, InsecureFileStore};
pub use keychain_store::{KEYCHAIN_SERVICE, KeychainStore};
pub use keychain_watch::{KeychainWatch, UNHEARD_RETRY};
pub use log_scrub::LogScrub;
pub use memory_store::MemoryStore;
pub use references::{RESERVED_SECRET_PREFIX, ServerReferences};
pub use resolved::{RecordingReferences, ResolvedSecrets};
pub use secret_index::{KnownSecret, MIN_GUARDED_LEN, MIN_SECRET_LEN, SecretIndex, SecretRef};
pub use sensitive::Sensitive;
pub use status::{BackendKind, VaultStatus};
pub use store::SecretStore;
pub use vault::{Fallback, INSECURE_OPT_IN_ENV, Vault};
pub use windows_size_limit_fake::{WINDOWS_CREDENTIAL_BLOB_LIMIT_BYTES, WindowsSizeLimitFake};
