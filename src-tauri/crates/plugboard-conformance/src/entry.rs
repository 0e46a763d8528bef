//! The servers.json entry a scenario runs under, and the one way its server is reached: the entry validated as the
//! file is, the person's approval recorded as the window's dialog records it, and the supervisor connecting with the
//! live connector over the keychain, the person's requests answered by the stand-in (person.rs). It must never
//! connect by any other path, and whatever a scenario kept (its secrets, its login, the approvals' folder) must
//! leave with it.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::Duration;

use anyhow::{Context, bail};
use plugboard_core::config::model::ServerConfig;
use plugboard_core::config::raw::RawServer;
use plugboard_core::config::validate_server;
use plugboard_core::person::{PersonRequests, WAIT_LIMIT};
use plugboard_core::secrets::{Sensitive, Vault};
use plugboard_core::supervisor::{LiveConnector, ServerStatus, Supervisor};
use plugboard_core::trust::{Approvals, Decision, LaunchDefinition};
use rmcp::model::JsonObject;
use serde_json::{Value, json};

use crate::context::ScenarioContext;
use crate::person;
use crate::scenario::Scenario;

/// How long to let rmcp's standalone SSE stream connect before a scenario's first call (see its use).
const STANDALONE_STREAM_GRACE: Duration = Duration::from_millis(300);

/// How long a connection (or a login) may take here.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// `conformance-<pid>`. One per process: the suite runs scenarios at once, and their secrets and tokens share one
/// keychain.
pub fn server_name() -> &'static str {
    static NAME: OnceLock<String> = OnceLock::new();
    NAME.get_or_init(|| format!("conformance-{}", std::process::id()))
}

/// The keychain and the approvals' folder a scenario runs with. Dropping it removes what the scenario kept in them,
/// on every path out of the scenario (an early error included).
pub struct Scratch {
    vault: Arc<Vault>,
    dir: PathBuf,
    /// The names of the secrets kept under [`server_name()`].
    kept: Mutex<Vec<String>>,
}

impl Scratch {
    pub fn open() -> anyhow::Result<Self> {
        // The app's own store: `make conformance` runs in the harness's Secret Service, where the keychain is real.
        let vault = Arc::new(Vault::keychain().context("the keychain (run it through `make conformance`)")?);
        let dir = std::env::temp_dir().join(format!("plugboard-conformance-{}", std::process::id()));
        Ok(Self { vault, dir, kept: Mutex::default() })
    }

    pub fn vault(&self) -> &Arc<Vault> {
        &self.vault
    }

    /// Keeps `value` in the keychain as the entry's secret `name`; returns the `${secret:…}` reference to it.
    pub fn keep(&self, name: &str, value: String) -> anyhow::Result<String> {
        self.vault.set(server_name(), name, &Sensitive::new(value)).with_context(|| format!("keeping {name}"))?;
        self.kept.lock().unwrap_or_else(PoisonError::into_inner).push(name.to_owned());
        Ok(format!("${{secret:{name}}}"))
    }

    /// Runs `entry` as the app would and, once its server is ready, makes `scenario`'s calls.
    pub async fn run(&self, entry: Value, scenario: Scenario, context: &ScenarioContext) -> anyhow::Result<()> {
        self.serve(entry, async |served| {
            served.ready().await?;
            served.make_calls(scenario, context).await
        })
        .await
    }

    /// Runs `entry` as the app would, hands the running server to `then`, then stops everything it started.
    pub async fn serve(
        &self,
        entry: Value,
        then: impl AsyncFnOnce(&Served) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        println!("servers.json entry: {}", json!({ server_name(): &entry }));
        let raw: RawServer = serde_json::from_value(entry)?;
        let config = validate_server(server_name(), &raw).map_err(|e| anyhow::anyhow!("the entry is invalid: {e}"))?;
        let approvals = Approvals::at(self.dir.join("trust.json"));
        // The person's approval of what the entry runs and where its secrets go, as the window's dialog records it.
        approvals.record(&LaunchDefinition::of(&config), Decision::Approved).context("approving the entry")?;

        let requests = Arc::new(PersonRequests::new(WAIT_LIMIT));
        // Listening before the server starts, so no request can arrive unseen.
        let person = person::stand_in(Arc::clone(&requests));
        let connector = LiveConnector::with_person(Arc::clone(&self.vault), approvals, requests);
        let served = Served { supervisor: Supervisor::new(Arc::new(connector)), config };
        served.supervisor.reconcile(vec![served.config.clone()]).await;
        let outcome = then(&served).await;
        served.supervisor.shutdown().await;
        person.abort();
        outcome
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        for name in self.kept.get_mut().unwrap_or_else(PoisonError::into_inner).iter() {
            let _ = self.vault.delete(server_name(), name);
        }
        let _ = plugboard_core::auth::logout(&self.vault, server_name());
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A scenario's server, started by the supervisor.
pub struct Served {
    pub supervisor: Supervisor,
    /// The validated entry.
    pub config: ServerConfig,
}

impl Served {
    /// How the server settled, once it did (or [`PATIENCE`] ran out).
    pub async fn settled(&self) -> anyhow::Result<ServerStatus> {
        Ok(self.supervisor.settled(server_name(), PATIENCE).await?)
    }

    /// Waits until the server is ready; says which protocol version the session agreed.
    async fn ready(&self) -> anyhow::Result<()> {
        match self.settled().await? {
            ready @ ServerStatus::Ready { .. } => {
                report_ready(&ready);
                Ok(())
            }
            other => bail!("the server did not come up: {other:?}"),
        }
    }

    /// Lists the tools the supervisor kept for the server and makes `scenario`'s calls of them, in order; a call of a
    /// tool the server does not list fails the scenario.
    pub async fn make_calls(&self, scenario: Scenario, context: &ScenarioContext) -> anyhow::Result<()> {
        let tools = self.supervisor.tools(server_name()).context("tools")?;
        println!("tools: {:?}", tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>());
        let calls = scenario.calls(&tools, context);
        if !calls.is_empty() {
            // rmcp opens the standalone GET stream in the background after `initialized` and gives no signal when it
            // is up. Through the supervisor it usually reached the server 8 to 31 ms before the first call, but in a
            // CI run under load it came 72 ms after the sse-retry scenario's call had begun, and the suite took that
            // first GET for the call's reconnection, too early for its `retry: 500`.
            tokio::time::sleep(STANDALONE_STREAM_GRACE).await;
        }
        for call in calls {
            if !tools.iter().any(|t| t.name == call.tool) {
                bail!("the server does not list the tool `{}` this scenario calls", call.tool);
            }
            self.call(&call.tool, call.arguments).await?;
        }
        Ok(())
    }

    /// Calls `tool` through the supervisor; a result with `isError` fails the scenario. The supervisor's error stays
    /// the root cause, for a caller that looks for `AuthRequired`.
    async fn call(&self, tool: &str, arguments: JsonObject) -> anyhow::Result<()> {
        let result = self
            .supervisor
            .call(server_name(), tool, arguments, None)
            .await
            .with_context(|| format!("calling {tool}"))?;
        println!("{tool} answered: {}", serde_json::to_string(&result.content).unwrap_or_default());
        if result.is_error == Some(true) {
            bail!("{tool} returned an error result");
        }
        Ok(())
    }
}

/// The line a ready server gets in the report.
pub fn report_ready(status: &ServerStatus) {
    if let ServerStatus::Ready { protocol_version, server_name, .. } = status {
        let name = server_name.as_deref().unwrap_or("an unnamed server");
        println!("connected to {name} (protocol {protocol_version})");
    }
}
