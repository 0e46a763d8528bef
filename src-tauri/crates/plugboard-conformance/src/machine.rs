//! The scenarios of logins without a browser (client credentials, workload identity, enterprise-managed cross-app
//! access) through what the app runs: a
//! server entry with the `oauth` section a person would write (its secrets as `${secret:…}` references, the values in
//! the vault), validated as servers.json is, approved, and connected by the supervisor and the live connector, which
//! get the token themselves. Nothing here talks OAuth: if the app could not, the scenario would fail.

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use plugboard_core::config::raw::RawServer;
use plugboard_core::config::validate_server;
use plugboard_core::secrets::{Sensitive, Vault};
use plugboard_core::supervisor::{LiveConnector, ServerStatus, Supervisor};
use plugboard_core::trust::{Approvals, Decision, LaunchDefinition};
use serde_json::{Value, json};

use crate::context::ScenarioContext;
use crate::entry::server_name;
use crate::scenario::Grant;

/// Connects to `url` with the grant's `oauth` section, then calls `test-tool` if the server lists it.
pub async fn run(url: &str, grant: Grant, context: &ScenarioContext) -> anyhow::Result<()> {
    // The app's own store: `make conformance` runs in the harness's Secret Service, where the keychain is real.
    let vault = Arc::new(Vault::keychain().context("the keychain (run it through `make conformance`)")?);
    let outcome = run_with(url, grant, context, &vault).await;
    // What the scenario kept there (its secrets and the token) leaves with it.
    for name in KEPT {
        let _ = vault.delete(server_name(), name);
    }
    let _ = plugboard_core::auth::logout(&vault, server_name());
    outcome
}

/// The secrets a scenario keeps in the keychain under [`server_name()`].
const KEPT: [&str; 4] = ["client-secret", "private-key", "workload-token", "id-token"];

async fn run_with(url: &str, grant: Grant, context: &ScenarioContext, vault: &Arc<Vault>) -> anyhow::Result<()> {
    let oauth = oauth_section(grant, context, vault)?;
    println!("servers.json entry: {}", json!({ server_name(): { "url": url, "oauth": oauth } }));
    let raw: RawServer = serde_json::from_value(json!({ "url": url, "oauth": oauth }))?;
    let config = validate_server(server_name(), &raw).map_err(|e| anyhow::anyhow!("the entry is invalid: {e}"))?;

    let dir = std::env::temp_dir().join(format!("plugboard-conformance-{}", std::process::id()));
    let approvals = Approvals::at(dir.join("trust.json"));
    // The person's approval of where the entry's secrets go, as the window's dialog records it.
    approvals.record(&LaunchDefinition::of(&config), Decision::Approved).context("approving the entry")?;
    let supervisor = Supervisor::new(Arc::new(LiveConnector::new(Arc::clone(vault), approvals)));
    supervisor.reconcile(vec![config]).await;
    let status = supervisor.settled(server_name(), Duration::from_secs(20)).await;
    let outcome = match status {
        Ok(ServerStatus::Ready { protocol_version, .. }) => {
            println!("ready (protocol {protocol_version})");
            call_test_tool(&supervisor).await
        }
        other => Err(anyhow::anyhow!("the server did not come up: {other:?}")),
    };
    supervisor.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
    outcome
}

async fn call_test_tool(supervisor: &Supervisor) -> anyhow::Result<()> {
    let tools = supervisor.tools(server_name()).context("tools")?;
    if !tools.iter().any(|t| t.name == "test-tool") {
        return Ok(());
    }
    let result =
        supervisor.call(server_name(), "test-tool", serde_json::Map::new(), None).await.context("test-tool")?;
    println!("test-tool answered: {}", serde_json::to_string(&result.content).unwrap_or_default());
    if result.is_error == Some(true) {
        bail!("test-tool returned an error result");
    }
    Ok(())
}

/// The `oauth` section for the scenario's grant, with each secret of the context put in the vault and referenced.
fn oauth_section(grant: Grant, context: &ScenarioContext, vault: &Vault) -> anyhow::Result<Value> {
    let keep = |name: &str, value: String| {
        vault.set(server_name(), name, &Sensitive::new(value)).with_context(|| format!("keeping {name}"))?;
        anyhow::Ok(format!("${{secret:{name}}}"))
    };
    let need = |key: &str| context.get(key).with_context(|| format!("the scenario's context has no {key}"));
    Ok(match grant {
        Grant::ClientCredentials => {
            let mut oauth = json!({ "grant": "client_credentials", "clientId": need("client_id")? });
            match (context.get("private_key_pem"), context.get("client_secret")) {
                (Some(pem), _) => {
                    oauth["privateKey"] = keep("private-key", pem)?.into();
                    if let Some(algorithm) = context.get("signing_algorithm") {
                        oauth["signingAlgorithm"] = algorithm.into();
                    }
                }
                (None, Some(secret)) => oauth["clientSecret"] = keep("client-secret", secret)?.into(),
                (None, None) => bail!("the scenario's context has no private_key_pem or client_secret"),
            }
            oauth
        }
        Grant::WorkloadIdentity => {
            let mut oauth =
                json!({ "grant": "workload_identity", "assertion": keep("workload-token", need("valid_jwt")?)? });
            if let Some(client_id) = context.get("client_id") {
                oauth["clientId"] = client_id.into();
            }
            oauth
        }
        Grant::CrossApp => json!({
            "grant": "enterprise_managed",
            "clientId": need("client_id")?,
            "clientSecret": keep("client-secret", need("client_secret")?)?,
            "identityProvider": {
                "issuer": need("idp_issuer")?,
                "tokenEndpoint": need("idp_token_endpoint")?,
                "clientId": need("idp_client_id")?,
            },
            "idToken": keep("id-token", need("idp_id_token")?)?,
        }),
        Grant::AuthorizationCode => bail!("{grant:?} is not a grant without a browser in servers.json"),
    })
}
