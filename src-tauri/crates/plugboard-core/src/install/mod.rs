//! Installing from outside the catalog: `plugboard://install` links (`link.rs`, a pure parser that can be fuzzed),
//! the consent they ask for (`offer.rs`: the exact command or URL, environment and header names, trust flags), and
//! the reverse (`share.rs`: a server as a link or as another client's config, with references instead of secrets).
//! Nothing here runs anything: an installed server waits for the person's approval like any other.

pub mod link;
mod offer;
mod share;

#[cfg(test)]
mod tests;

pub use link::{InstallLink, LinkError, MAX_LINK_BYTES, parse};
pub use offer::{InstallError, InstallOffer, add, flags_of, offer, preview};
pub use share::{ClientShape, ShareError, client_config, install_link};
