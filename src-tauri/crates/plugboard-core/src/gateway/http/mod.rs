//! The gateway over Streamable HTTP on 127.0.0.1: `plugboard serve --http` runs it headless, the window runs it
//! while open. Every request needs the bearer token kept in the keychain. See endpoint.rs for what a request
//! passes through; this file runs the headless form.

mod control;
mod endpoint;
#[cfg(feature = "fuzzing")]
mod fuzz_hook;
mod guard;
mod sessions;
#[cfg(test)]
mod tests;
mod token;

use std::future::Future;
use std::sync::Arc;

pub use control::{EndpointControl, EndpointSettings, EndpointStatus, SettingsError};
pub use endpoint::{DEFAULT_PORT, EndpointError, HttpEndpoint, HttpOptions, MCP_PATH};
pub use guard::MAX_BODY_BYTES;
pub use token::{TokenError, current_or_new as gateway_token, rotate as rotate_gateway_token};

#[cfg(feature = "fuzzing")]
pub(crate) use fuzz_hook::{FUZZ_TOKEN, fuzz_request};

use super::handler::GatewayOptions;
use super::start::start_headless;
use super::stdio::GatewayError;
use crate::engine::Engine;

/// Serves the gateway on `http` until `stop` resolves, then stops every server. `listening` is told the running
/// endpoint (its address) once clients can connect.
pub async fn serve_http(
    engine: Arc<Engine>,
    gateway: GatewayOptions,
    http: HttpOptions,
    listening: impl FnOnce(&HttpEndpoint),
    stop: impl Future<Output = ()>,
) -> Result<(), GatewayError> {
    let catalog = start_headless(&engine, gateway.profile.as_deref()).await?;
    let served = match HttpEndpoint::start(Arc::clone(&engine), catalog, gateway, http).await {
        Ok(endpoint) => {
            listening(&endpoint);
            stop.await;
            endpoint.stop().await;
            Ok(())
        }
        Err(e) => Err(e.into()),
    };
    engine.shutdown().await;
    served
}
