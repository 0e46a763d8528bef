//! Logging out: the server's tokens leave the keychain, and where its authorization server publishes a
//! `revocation_endpoint` (RFC 7009) they are revoked there first, so a copy elsewhere stops working too. The
//! endpoint is a URL the authorization server named, so the POST carrying the tokens goes through the network
//! guard and never follows a redirect: a token must never be sent to an address the guard refuses.

use std::sync::Arc;
use std::time::Duration;

use rmcp::transport::auth::StoredCredentials;
use url::Url;

use super::oauth_http::authorization_manager;
use super::store::VaultCredentialStore;
use super::{LoginError, metadata_checks::secure_endpoint, oauth_target};
use crate::config::model::ServerConfig;
use crate::net::{ApprovedHosts, GuardError, GuardedClient, Redirects};
use crate::secrets::{Sensitive, Vault};

/// What became of the tokens at the authorization server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Revocation {
    /// Every token was revoked.
    Revoked,
    /// The authorization server publishes no revocation endpoint: the tokens expire on their own.
    NotOffered,
    /// Revoking failed; the tokens are deleted here anyway.
    Failed(String),
    /// There was no login to revoke.
    NothingStored,
}

/// The outcome of a logout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedOut {
    pub had_login: bool,
    pub revocation: Revocation,
}

/// Logs out of the OAuth server `config`: revokes its tokens where supported, then deletes them from the keychain
/// (whatever the revocation did: the person asked for them to be gone).
pub async fn logout_server(config: &ServerConfig, vault: Arc<Vault>) -> Result<LoggedOut, LoginError> {
    let name = config.name.as_str();
    let (settings, url) = oauth_target(config, &vault)?;
    let store = VaultCredentialStore::new(Arc::clone(&vault), name, url.clone());
    let stored = {
        let store = store.clone();
        tokio::task::spawn_blocking(move || store.load_now())
            .await
            .map_err(|e| LoginError::Store(e.to_string()))?
            .map_err(|e| LoginError::Store(e.to_string()))?
    };
    let revocation = match &stored {
        Some(credentials) => {
            let secret = super::login_server::client_secret(name, &settings, &vault).ok().flatten();
            revoke(&url, credentials, secret.as_ref()).await
        }
        None => Revocation::NothingStored,
    };
    super::logout(&vault, name)?;
    Ok(LoggedOut { had_login: stored.is_some(), revocation })
}

/// Revokes the refresh and access tokens at the authorization server of `url`.
pub async fn revoke(
    url: &str,
    credentials: &StoredCredentials,
    client_secret: Option<&Sensitive<String>>,
) -> Revocation {
    let Ok(url) = Url::parse(url) else {
        return Revocation::Failed("the server URL is not a URL".into());
    };
    let metadata = match authorization_manager(url.clone()).await {
        Ok(manager) => manager.resolve_metadata().await.map(|r| r.metadata),
        Err(e) => Err(e),
    };
    let metadata = match metadata {
        Ok(metadata) => metadata,
        Err(e) => return Revocation::Failed(format!("could not read the authorization server's metadata: {e}")),
    };
    let Some(endpoint) = metadata.additional_fields.get("revocation_endpoint").and_then(|v| v.as_str()) else {
        return Revocation::NotOffered;
    };
    let endpoint = match secure_endpoint("revocation_endpoint", endpoint) {
        Ok(endpoint) => endpoint,
        Err(e) => return Revocation::Failed(e.to_string()),
    };
    let http = match GuardedClient::new(ApprovedHosts::of(&url)) {
        Ok(http) => http,
        Err(e) => return Revocation::Failed(e.to_string()),
    };
    let token_response = serde_json::to_value(&credentials.token_response).unwrap_or_default();
    // The refresh token first: revoking it usually ends the access tokens minted from it as well (RFC 7009 §2.1).
    for hint in ["refresh_token", "access_token"] {
        let Some(token) = token_response.get(hint).and_then(|t| t.as_str()) else { continue };
        let mut form = vec![("token", token), ("token_type_hint", hint)];
        if client_secret.is_none() {
            form.push(("client_id", credentials.client_id.as_str()));
        }
        let body = url::form_urlencoded::Serializer::new(String::new()).extend_pairs(&form).finish();
        // Checked before anything is sent: an endpoint on a refused address gets no POST, so no token travels.
        let mut request = match http.request(reqwest::Method::POST, endpoint.clone(), Redirects::Refused) {
            Ok(request) => request,
            Err(refused) => return Revocation::Failed(refused.to_string()),
        };
        request = request
            .header(reqwest::header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .timeout(Duration::from_secs(10))
            .body(body);
        if let Some(secret) = client_secret {
            request = request.basic_auth(&credentials.client_id, Some(secret.expose()));
        }
        match request.send().await {
            Ok(response) if response.status().is_success() => {}
            Ok(response) => {
                return Revocation::Failed(format!("the revocation endpoint answered {}", response.status()));
            }
            Err(e) => {
                return Revocation::Failed(match GuardError::found_in(&e) {
                    Some(refused) => refused.to_string(),
                    None => format!("the revocation endpoint could not be reached: {e}"),
                });
            }
        }
    }
    Revocation::Revoked
}

#[cfg(test)]
mod tests {
    #![allow(clippy::expect_used)]

    use serde_json::json;

    use super::*;
    use crate::testing::{LoopbackServer, Reply};

    fn credentials() -> StoredCredentials {
        serde_json::from_value(json!({
            "client_id": "client-1",
            "token_response": {"access_token": "at-1", "token_type": "Bearer", "refresh_token": "rt-1"},
        }))
        .expect("credentials")
    }

    async fn authorization_server(revocation: bool) -> LoopbackServer {
        authorization_server_revoking_at(revocation.then_some("")).await
    }

    /// An authorization server whose revocation endpoint is `{endpoint_base}/revoke` (its own base when empty).
    async fn authorization_server_revoking_at(endpoint_base: Option<&str>) -> LoopbackServer {
        let endpoint_base = endpoint_base.map(str::to_owned);
        LoopbackServer::replying(move |method, path, base| match (method, path) {
            ("GET", "/.well-known/oauth-authorization-server") => {
                let mut metadata = json!({
                    "issuer": base, "authorization_endpoint": format!("{base}/authorize"),
                    "token_endpoint": format!("{base}/token"), "code_challenge_methods_supported": ["S256"],
                });
                if let Some(endpoint_base) = &endpoint_base {
                    let endpoint_base = if endpoint_base.is_empty() { base } else { endpoint_base };
                    metadata["revocation_endpoint"] = json!(format!("{endpoint_base}/revoke"));
                }
                Reply::json(metadata)
            }
            ("POST", "/revoke") => Reply::status(200),
            _ => Reply::status(404),
        })
        .await
    }

    /// With a revocation endpoint both tokens are revoked there, the refresh token first.
    #[tokio::test]
    async fn revokes_refresh_then_access_token() {
        let server = authorization_server(true).await;
        assert_eq!(revoke(&format!("{}/mcp", server.base), &credentials(), None).await, Revocation::Revoked);
        let revokes: Vec<_> = server.request_lines().into_iter().filter(|r| r.starts_with("POST /revoke")).collect();
        assert_eq!(revokes.len(), 2, "{:?}", server.request_lines());
    }

    /// Without one, nothing is posted and the logout says the tokens simply expire.
    #[tokio::test]
    async fn no_endpoint_no_revocation() {
        let server = authorization_server(false).await;
        assert_eq!(revoke(&format!("{}/mcp", server.base), &credentials(), None).await, Revocation::NotOffered);
        assert!(!server.request_lines().iter().any(|r| r.starts_with("POST")), "{:?}", server.request_lines());
    }

    /// A revocation endpoint on another internal host (127.0.0.2, while the server is on 127.0.0.1) gets no POST,
    /// so no token travels there, and the logout says why.
    #[tokio::test]
    async fn a_revocation_endpoint_on_another_internal_host_gets_no_token() {
        let other =
            LoopbackServer::replying_at(std::net::Ipv4Addr::new(127, 0, 0, 2), |_, _, _| Reply::status(200)).await;
        let server = authorization_server_revoking_at(Some(&other.base)).await;
        let revocation = revoke(&format!("{}/mcp", server.base), &credentials(), None).await;
        assert!(other.requests().is_empty(), "tokens were posted: {:?}", other.request_lines());
        let Revocation::Failed(why) = revocation else { panic!("{revocation:?}") };
        assert!(why.contains(&format!("{}/revoke points to a loopback address (127.0.0.2)", other.base)), "{why}");
    }
}
