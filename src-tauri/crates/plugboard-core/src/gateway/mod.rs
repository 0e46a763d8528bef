//! The gateway: the person's curated tools re-exposed as ONE MCP server to any client (`plugboard serve --stdio`),
//! on the same engine as the window. Every call goes through the supervisor and into the console's history. It must
//! never offer a tool the allowlist hides, never pass a client's credentials upstream or an upstream's to a client,
//! and never write anything but MCP on its stdout.

mod catalog;
mod handler;
mod logs;
mod publish;
mod relay;
mod stdio;
#[cfg(test)]
mod tests;
mod upstream_failure;
mod uris;

pub use catalog::{Catalog, Route};
pub use handler::{Gateway, GatewayOptions};
pub use publish::{CatalogFeed, publish_catalog};
pub use stdio::{GatewayError, serve_stdio};
