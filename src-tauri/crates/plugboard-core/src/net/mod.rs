//! The network edge every front end shares: the one pooled HTTP client (keep-alive, bounded connect, no redirects)
//! for the URLs the person configured, the guard every configured server URL passes, and the guarded client every
//! URL Plugboard discovers by itself goes through. Transport, auth and the doctor reach the network only through
//! these; nothing here may follow an unchecked redirect or log a URL, which can carry a secret after expansion.

mod client;
mod guard;
mod guarded_client;
mod url_guard;

pub use client::pooled_http_client;
pub use guard::{AddressKind, ApprovedHosts};
pub use guarded_client::{GuardError, GuardedClient, MAX_REDIRECTS, Redirects, check_discovered_url};
pub use url_guard::{UrlRefused, check_server_url};
