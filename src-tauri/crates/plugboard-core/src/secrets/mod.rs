//! The vault: secrets in the OS keychain, one entry per server and secret name, never on disk in plaintext.
//! Nothing here may log, print or serialise a secret's value.

mod error;
mod sensitive;
mod vault;

pub use error::VaultError;
pub use sensitive::Sensitive;
pub use vault::{KEYCHAIN_SERVICE, Vault};
