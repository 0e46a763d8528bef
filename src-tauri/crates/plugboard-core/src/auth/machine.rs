//! Logins without a browser, configured by the `oauth` section's `grant`: client credentials (a secret or a signed
//! JWT), workload identity (the workload's JWT) and enterprise-managed authorization (the person's ID token from
//! their identity provider, exchanged for cross-app access). The connector runs them whenever a server connects without a
//! live token, and `plugboard login` runs them on demand; the token goes to the keychain like a browser login's. The
//! keys and tokens are read from their references at each login and never leave the `Sensitive` wrappers except
//! into the token request.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use rmcp::transport::auth::AuthorizationManager;

use super::client_credentials::{ClientCredential, ClientCredentialsRequest, JwtSigningAlgorithm};
use super::store::VaultCredentialStore;
use super::workload_identity::WorkloadIdentityRequest;
use super::{
    CrossAppRequest, IdentityProvider, LoginError, login_client_credentials, login_cross_app, login_workload_identity,
};
use crate::config::model::{EnterpriseManaged, Grant, OAuthSettings, WorkloadToken};
use crate::config::references::expand;
use crate::secrets::{Sensitive, ServerReferences, Vault};

/// A token this close to its end is fetched anew rather than used.
const EXPIRY_MARGIN_SECS: u64 = 60;

/// Whether `settings` log in without a person.
pub fn is_machine_grant(settings: &OAuthSettings) -> bool {
    !matches!(settings.grant, Grant::AuthorizationCode)
}

/// Whether `server`'s stored token is still good for a while (blocking: it reads the keychain).
pub fn has_live_token(vault: &Arc<Vault>, server: &str, url: &str) -> bool {
    let Ok(Some(stored)) = VaultCredentialStore::new(Arc::clone(vault), server, url).load_now() else { return false };
    let (Some(token), Some(received)) = (stored.token_response.as_ref(), stored.token_received_at) else {
        return false;
    };
    use oauth2::TokenResponse;
    let now = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or_default();
    match token.expires_in() {
        Some(lifetime) => received + lifetime.as_secs() > now + EXPIRY_MARGIN_SECS,
        // A token without a stated lifetime is used until the server refuses it.
        None => true,
    }
}

/// Runs the machine grant of `settings` for `server` at `url`; the token is then in the keychain and the returned
/// manager serves it.
pub async fn login_machine(
    server: &str,
    url: &str,
    settings: &OAuthSettings,
    vault: &Arc<Vault>,
    challenge: Option<String>,
) -> Result<AuthorizationManager, LoginError> {
    let (server, url, settings, vault) = (server.to_owned(), url.to_owned(), settings.clone(), Arc::clone(vault));
    let runtime = tokio::runtime::Handle::current();
    // The logins' futures cannot move between threads (rmcp's discovery and exchanges hold a URL form encoder, whose
    // encoding hook is not `Sync`, across awaits), while a connector's login must: the whole login runs on one
    // blocking thread. The keychain and the token file block anyway.
    tokio::task::spawn_blocking(move || runtime.block_on(login_here(&server, &url, &settings, &vault, challenge)))
        .await
        .map_err(|e| LoginError::Store(e.to_string()))?
}

async fn login_here(
    server: &str,
    url: &str,
    settings: &OAuthSettings,
    vault: &Arc<Vault>,
    challenge: Option<String>,
) -> Result<AuthorizationManager, LoginError> {
    let credentials = VaultCredentialStore::new(Arc::clone(vault), server, url);
    match read_proof(server, settings, vault)? {
        Proof::Client(credential) => {
            let client_id = settings.client_id.clone().ok_or_else(|| refused("oauth.clientId is not set"))?;
            let request = ClientCredentialsRequest {
                url: url.to_owned(),
                client_id,
                credential,
                scopes: settings.scopes.clone(),
                challenge,
            };
            login_client_credentials(request, credentials).await
        }
        Proof::Workload(assertion) => {
            let request = WorkloadIdentityRequest {
                url: url.to_owned(),
                assertion,
                client_id: settings.client_id.clone(),
                scopes: settings.scopes.clone(),
                challenge,
            };
            login_workload_identity(request, credentials).await
        }
        Proof::IdToken { id_token, identity_provider } => {
            let client_id = settings.client_id.clone().ok_or_else(|| refused("oauth.clientId is not set"))?;
            let client_secret = super::login_server::client_secret(server, settings, vault)?
                .ok_or_else(|| refused("oauth.clientSecret is not set"))?;
            let request = CrossAppRequest {
                url: url.to_owned(),
                client_id,
                client_secret,
                identity_provider,
                id_token,
                scopes: settings.scopes.clone(),
                challenge,
            };
            login_cross_app(request, credentials).await
        }
    }
}

/// What proves who Plugboard is, read from where the settings say.
enum Proof {
    Client(ClientCredential),
    Workload(Sensitive<String>),
    IdToken { id_token: Sensitive<String>, identity_provider: IdentityProvider },
}

fn read_proof(server: &str, settings: &OAuthSettings, vault: &Vault) -> Result<Proof, LoginError> {
    let references = ServerReferences { server, vault };
    let expanded = |key: &str, written: &str| {
        expand(written, &references).map(|e| e.value).map_err(|e| refused(&format!("its oauth.{key}: {e}")))
    };
    match &settings.grant {
        Grant::AuthorizationCode => Err(refused("it logs in in the browser (no \"grant\" without a person)")),
        Grant::ClientCredentials { private_key: Some(key), signing_algorithm } => {
            Ok(Proof::Client(ClientCredential::PrivateKeyJwt {
                private_key_pem: expanded("privateKey", key)?,
                algorithm: signing_algorithm_named(signing_algorithm.as_deref().unwrap_or("ES256"))?,
            }))
        }
        Grant::ClientCredentials { private_key: None, .. } => {
            match super::login_server::client_secret(server, settings, vault)? {
                Some(secret) => Ok(Proof::Client(ClientCredential::Secret(secret))),
                None => Err(refused("oauth.clientSecret is not set")),
            }
        }
        Grant::WorkloadIdentity(WorkloadToken::Reference(written)) => {
            Ok(Proof::Workload(expanded("assertion", written)?))
        }
        Grant::WorkloadIdentity(WorkloadToken::File(path)) => {
            let token = std::fs::read_to_string(path)
                .map_err(|e| refused(&format!("its workload token file {} cannot be read: {e}", path.display())))?;
            Ok(Proof::Workload(Sensitive::new(token.trim().to_owned())))
        }
        Grant::EnterpriseManaged(EnterpriseManaged { identity_provider: idp, id_token }) => {
            let client_secret = match &idp.client_secret {
                Some(written) => Some(expanded("identityProvider.clientSecret", written)?),
                None => None,
            };
            Ok(Proof::IdToken {
                id_token: expanded("idToken", id_token)?,
                identity_provider: IdentityProvider {
                    issuer: idp.issuer.clone(),
                    token_endpoint: idp.token_endpoint.clone(),
                    client_id: idp.client_id.clone(),
                    client_secret,
                },
            })
        }
    }
}

/// rmcp's JWT algorithm of the name `oauth.signingAlgorithm` takes (`config::SIGNING_ALGORITHMS`).
pub fn signing_algorithm_named(name: &str) -> Result<JwtSigningAlgorithm, LoginError> {
    Ok(match name {
        "ES256" => JwtSigningAlgorithm::ES256,
        "ES384" => JwtSigningAlgorithm::ES384,
        "RS256" => JwtSigningAlgorithm::RS256,
        "RS384" => JwtSigningAlgorithm::RS384,
        "RS512" => JwtSigningAlgorithm::RS512,
        other => return Err(refused(&format!("{other:?} is not a signing algorithm Plugboard offers"))),
    })
}

fn refused(why: &str) -> LoginError {
    LoginError::Refused(why.to_owned())
}

#[cfg(test)]
mod tests {
    use rmcp::transport::auth::{CredentialStore, StoredCredentials};
    use serde_json::json;

    use super::*;
    use crate::secrets::MemoryStore;

    const URL: &str = "https://mcp.example/mcp";

    fn stored(received_secs_ago: u64, expires_in: Option<u64>) -> StoredCredentials {
        let now = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or_default();
        let mut token = json!({"access_token": "t", "token_type": "Bearer"});
        if let Some(lifetime) = expires_in {
            token["expires_in"] = lifetime.into();
        }
        serde_json::from_value(json!({
            "client_id": "c",
            "token_response": token,
            "granted_scopes": [],
            "token_received_at": now - received_secs_ago,
        }))
        .unwrap_or_else(|e| panic!("credentials: {e}"))
    }

    async fn live_after(saved: Option<StoredCredentials>) -> bool {
        let vault = Arc::new(Vault::with_store(Arc::new(MemoryStore::new())));
        if let Some(saved) = saved {
            let store = VaultCredentialStore::new(Arc::clone(&vault), "s", URL);
            store.save(saved).await.unwrap_or_else(|e| panic!("save: {e}"));
        }
        has_live_token(&vault, "s", URL)
    }

    /// A stored token is used while more than a minute of it is left; a spent one, one about to end or none at all
    /// sends the connector to the grant.
    #[tokio::test]
    async fn a_token_is_live_until_a_minute_before_its_end() {
        assert!(live_after(Some(stored(10, Some(3600)))).await);
        assert!(live_after(Some(stored(0, None))).await, "no lifetime stated: used until refused");
        assert!(!live_after(Some(stored(3600 - 30, Some(3600)))).await, "30 s left");
        assert!(!live_after(Some(stored(7200, Some(3600)))).await);
        assert!(!live_after(None).await);
    }

    /// Each grant reads its proof from where the settings say; the browser grant has none to read.
    #[test]
    fn the_proof_comes_from_the_reference_or_the_file() {
        let vault = Vault::with_store(Arc::new(MemoryStore::new()));
        vault.set("s", "k", &Sensitive::new("PEM".to_owned())).unwrap_or_else(|e| panic!("{e}"));
        let settings = |grant| OAuthSettings { client_id: Some("c".into()), grant, ..OAuthSettings::default() };
        let key =
            settings(Grant::ClientCredentials { private_key: Some("${secret:k}".into()), signing_algorithm: None });
        assert!(matches!(
            read_proof("s", &key, &vault),
            Ok(Proof::Client(ClientCredential::PrivateKeyJwt { private_key_pem, algorithm: JwtSigningAlgorithm::ES256 }))
                if private_key_pem.expose() == "PEM"
        ));
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = dir.path().join("token");
        std::fs::write(&file, "eyJ.workload.token\n").unwrap_or_else(|e| panic!("{e}"));
        let workload = settings(Grant::WorkloadIdentity(WorkloadToken::File(file.clone())));
        assert!(
            matches!(read_proof("s", &workload, &vault), Ok(Proof::Workload(t)) if t.expose() == "eyJ.workload.token")
        );
        std::fs::remove_file(&file).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            matches!(read_proof("s", &workload, &vault), Err(LoginError::Refused(why)) if why.contains("cannot be read"))
        );
        let missing = settings(Grant::WorkloadIdentity(WorkloadToken::Reference("${secret:absent}".into())));
        assert!(read_proof("s", &missing, &vault).is_err());
        assert!(read_proof("s", &settings(Grant::AuthorizationCode), &vault).is_err());
    }
}
