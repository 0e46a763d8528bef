//! What every headless gateway does before it takes a client: pick the client's profile, start the configured
//! servers, follow edits of servers.json, and publish the catalog. Shared by `serve --stdio` and `serve --http`;
//! the window does its own starting and only publishes.

use std::sync::Arc;

use super::publish::{CatalogFeed, publish_catalog};
use super::scope::Scope;
use super::stdio::GatewayError;
use crate::engine::Engine;

/// Starts every configured server (registered before the first request is read, so a `tools/list` sees them
/// connecting) and returns the feed of what the gateway offers under `profile`.
pub(crate) async fn start_headless(engine: &Arc<Engine>, profile: Option<&str>) -> Result<CatalogFeed, GatewayError> {
    // Before any server starts: a client launched with a profile that is not there hears why at once.
    let scope = Scope::select(engine.registry(), profile)?;
    engine.start(None).await?;
    tokio::spawn(engine.follow_config()?);
    let (catalog, publishing) = publish_catalog(engine.supervisor(), scope);
    tokio::spawn(publishing);
    Ok(catalog)
}
