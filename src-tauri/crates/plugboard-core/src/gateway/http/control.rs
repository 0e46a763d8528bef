//! The window's HTTP endpoint, switched on and off by the person's settings. The settings live in the data dir
//! (`gateway-endpoint.json`), never in servers.json: imports, install links and other programs write that file, and
//! none of them may open a port. Changing the port restarts the endpoint; the token stays. It must never start an
//! endpoint the settings do not ask for.

use std::path::PathBuf;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tokio::sync::Mutex;

use super::endpoint::{DEFAULT_PORT, HttpEndpoint, HttpOptions};
use super::token::{TokenError, current_or_new, rotate};
use crate::engine::Engine;
use crate::gateway::handler::GatewayOptions;
use crate::gateway::publish::{CatalogFeed, publish_catalog};
use crate::gateway::scope::Scope;
use crate::secrets::Sensitive;

/// What the person chose for the window's endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct EndpointSettings {
    pub enabled: bool,
    pub port: u16,
}

impl Default for EndpointSettings {
    fn default() -> Self {
        Self { enabled: false, port: DEFAULT_PORT }
    }
}

/// How the endpoint is doing, for the Settings screen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct EndpointStatus {
    pub settings: EndpointSettings,
    /// Where clients connect, while it is running.
    pub url: Option<String>,
    /// Why it is not running although enabled (the port is taken, no keychain, …), with what to do.
    pub problem: Option<String>,
}

/// Why the settings could not be saved (the endpoint is then left as it was).
#[derive(Debug, thiserror::Error)]
#[error("cannot save the gateway's settings in {path}: {message}")]
pub struct SettingsError {
    path: String,
    message: String,
}

struct Running {
    settings: EndpointSettings,
    endpoint: Option<HttpEndpoint>,
    problem: Option<String>,
}

/// The window's endpoint over its engine.
pub struct EndpointControl {
    engine: Arc<Engine>,
    catalog: CatalogFeed,
    settings_path: PathBuf,
    running: Mutex<Running>,
}

impl EndpointControl {
    /// A control over `engine` with its settings in `data_dir`; nothing listens until [`EndpointControl::resume`].
    /// Must be called inside the async runtime (the catalog's publisher starts here).
    pub fn new(engine: Arc<Engine>, data_dir: &std::path::Path) -> Self {
        let (catalog, publishing) = publish_catalog(engine.supervisor(), Scope::everything(engine.registry()));
        tokio::spawn(publishing);
        let running = Mutex::new(Running { settings: EndpointSettings::default(), endpoint: None, problem: None });
        Self { engine, catalog, settings_path: data_dir.join("gateway-endpoint.json"), running }
    }

    /// Starts the endpoint if the saved settings say so (the window calls this once it is up).
    pub async fn resume(&self) -> EndpointStatus {
        let saved = read_settings(&self.settings_path);
        let mut running = self.running.lock().await;
        self.switch(&mut running, saved).await;
        status_of(&running)
    }

    /// Saves `settings` and makes the endpoint match them.
    pub async fn apply(&self, settings: EndpointSettings) -> Result<EndpointStatus, SettingsError> {
        let mut running = self.running.lock().await;
        write_settings(&self.settings_path, &settings)?;
        self.switch(&mut running, settings).await;
        Ok(status_of(&running))
    }

    pub async fn status(&self) -> EndpointStatus {
        status_of(&*self.running.lock().await)
    }

    /// The token clients send (made on first use). Blocks on the keychain off the runtime.
    pub async fn token(&self) -> Result<Sensitive<String>, TokenError> {
        let vault = (**self.engine.vault()).clone();
        tokio::task::spawn_blocking(move || current_or_new(&vault))
            .await
            .map_err(|e| TokenError::Interrupted(e.to_string()))?
    }

    /// A new token, in force at once for the running endpoint and every other one.
    pub async fn rotate_token(&self) -> Result<Sensitive<String>, TokenError> {
        let vault = (**self.engine.vault()).clone();
        tokio::task::spawn_blocking(move || rotate(&vault)).await.map_err(|e| TokenError::Interrupted(e.to_string()))?
    }

    /// Stops the endpoint (the window is closing); the settings stay as saved.
    pub async fn stop(&self) {
        if let Some(endpoint) = self.running.lock().await.endpoint.take() {
            endpoint.stop().await;
        }
    }

    async fn switch(&self, running: &mut Running, settings: EndpointSettings) {
        let restart = running.endpoint.is_some() && settings.port != running.settings.port;
        if (!settings.enabled || restart)
            && let Some(endpoint) = running.endpoint.take()
        {
            endpoint.stop().await;
        }
        running.settings = settings;
        running.problem = None;
        if settings.enabled && running.endpoint.is_none() {
            let http = HttpOptions { port: settings.port, ..HttpOptions::default() };
            let started =
                HttpEndpoint::start(Arc::clone(&self.engine), self.catalog.clone(), GatewayOptions::default(), http);
            match started.await {
                Ok(endpoint) => running.endpoint = Some(endpoint),
                Err(e) => {
                    tracing::warn!(error = %e, "the gateway's endpoint did not start");
                    running.problem = Some(e.to_string());
                }
            }
        }
    }
}

fn status_of(running: &Running) -> EndpointStatus {
    EndpointStatus {
        settings: running.settings,
        url: running.endpoint.as_ref().map(HttpEndpoint::url),
        problem: running.problem.clone(),
    }
}

/// The saved settings; a missing or unreadable file means the endpoint stays off (said in the log).
fn read_settings(path: &std::path::Path) -> EndpointSettings {
    match std::fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes).unwrap_or_else(|e| {
            tracing::warn!(path = %path.display(), error = %e, "the gateway's settings are unreadable; it stays off");
            EndpointSettings::default()
        }),
        Err(_) => EndpointSettings::default(),
    }
}

fn write_settings(path: &std::path::Path, settings: &EndpointSettings) -> Result<(), SettingsError> {
    let error = |e: &dyn std::fmt::Display| SettingsError { path: path.display().to_string(), message: e.to_string() };
    let bytes = serde_json::to_vec_pretty(settings).map_err(|e| error(&e))?;
    crate::private_file::write_private_atomically(path, &bytes).map_err(|e| error(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Saved settings come back as written; a damaged file keeps the endpoint off instead of guessing.
    #[test]
    fn settings_round_trip_and_damage_means_off() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("gateway-endpoint.json");
        assert_eq!(read_settings(&path), EndpointSettings::default());
        let chosen = EndpointSettings { enabled: true, port: 9123 };
        write_settings(&path, &chosen).expect("write");
        assert_eq!(read_settings(&path), chosen);
        std::fs::write(&path, b"{\"enabled\": tru").expect("damage");
        assert!(!read_settings(&path).enabled);
    }
}
