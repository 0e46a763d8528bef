//! The scenarios of logins without a browser (client credentials, workload identity, enterprise-managed cross-app
//! access): a server entry with the `oauth` section a person would write (its secrets as `${secret:…}` references,
//! the values in the keychain), run as the app runs it (entry.rs), where the supervisor and the live connector get
//! the token themselves. It must never talk OAuth itself: if the app could not, the scenario would fail.

use anyhow::{Context, bail};
use serde_json::{Value, json};

use crate::context::ScenarioContext;
use crate::entry::Scratch;
use crate::scenario::{Grant, Scenario};

/// Connects to `url` with the grant's `oauth` section, then calls `test-tool` if the server lists it.
pub async fn run(url: &str, grant: Grant, context: &ScenarioContext, scratch: &Scratch) -> anyhow::Result<()> {
    let oauth = oauth_section(grant, context, scratch)?;
    scratch.run(json!({ "url": url, "oauth": oauth }), Scenario::Auth(grant), context).await
}

/// The `oauth` section for the scenario's grant, with each secret of the context kept in the keychain and referenced.
fn oauth_section(grant: Grant, context: &ScenarioContext, scratch: &Scratch) -> anyhow::Result<Value> {
    let need = |key: &str| context.get(key).with_context(|| format!("the scenario's context has no {key}"));
    Ok(match grant {
        Grant::ClientCredentials => {
            let mut oauth = json!({ "grant": "client_credentials", "clientId": need("client_id")? });
            match (context.get("private_key_pem"), context.get("client_secret")) {
                (Some(pem), _) => {
                    oauth["privateKey"] = scratch.keep("private-key", pem)?.into();
                    if let Some(algorithm) = context.get("signing_algorithm") {
                        oauth["signingAlgorithm"] = algorithm.into();
                    }
                }
                (None, Some(secret)) => oauth["clientSecret"] = scratch.keep("client-secret", secret)?.into(),
                (None, None) => bail!("the scenario's context has no private_key_pem or client_secret"),
            }
            oauth
        }
        Grant::WorkloadIdentity => {
            let assertion = scratch.keep("workload-token", need("valid_jwt")?)?;
            let mut oauth = json!({ "grant": "workload_identity", "assertion": assertion });
            if let Some(client_id) = context.get("client_id") {
                oauth["clientId"] = client_id.into();
            }
            oauth
        }
        Grant::CrossApp => json!({
            "grant": "enterprise_managed",
            "clientId": need("client_id")?,
            "clientSecret": scratch.keep("client-secret", need("client_secret")?)?,
            "identityProvider": {
                "issuer": need("idp_issuer")?,
                "tokenEndpoint": need("idp_token_endpoint")?,
                "clientId": need("idp_client_id")?,
            },
            "idToken": scratch.keep("id-token", need("idp_id_token")?)?,
        }),
        Grant::AuthorizationCode => bail!("{grant:?} is not a grant without a browser in servers.json"),
    })
}
