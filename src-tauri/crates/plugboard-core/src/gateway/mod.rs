//! The gateway: the person's curated tools re-exposed as ONE MCP server to any client (`plugboard serve --stdio`,
//! and Streamable HTTP on 127.0.0.1 behind a bearer token), on the same engine as the window. Every call goes through the supervisor and into the console's history. A
//! profile (`serve --profile NAME`) narrows what one client sees, and may offer it through search instead. It must
//! never offer a tool the allowlist or the client's profile hides, never pass a client's credentials upstream or an
//! upstream's to a client, and never write anything but MCP on its stdout.

mod catalog;
mod client_streams;
mod handler;
pub mod http;
mod list_changes;
mod logs;
mod publish;
mod relay;
mod scope;
mod search;
mod search_tools;
mod start;
mod stdio;
mod subscriptions;
#[cfg(test)]
mod tests;
mod upstream_failure;
mod uris;

pub use catalog::{Catalog, Route};
pub use handler::{Gateway, GatewayOptions};
pub use publish::{CatalogFeed, publish_catalog};
pub use scope::{ProfileError, Scope};
/// Write-back counts a client's tools (export/budget.rs) by the same rule the gateway serves them by.
pub(crate) use scope::{shows_server, shows_tool};
pub(crate) use search_tools::definitions as search_mode_tools;
pub use stdio::{GatewayError, serve_stdio};
