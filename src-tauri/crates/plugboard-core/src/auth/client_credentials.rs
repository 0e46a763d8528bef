//! Logins without a person (SEP-1046): the client-credentials grant with a client secret or a signed JWT
//! (`private_key_jwt`, RFC 7523), for servers Plugboard reaches as a machine client. Discovery and its checks are
//! the browser flow's; the token is bound to the server with `resource` (RFC 8707). The secret and the private key
//! never leave the [`Sensitive`] wrappers except into rmcp's token request.

use rmcp::transport::auth::{AuthError, AuthorizationManager, ClientCredentialsConfig, CredentialStore};

pub use rmcp::transport::auth::JwtSigningAlgorithm;

use super::LoginError;
use super::error::scrub;
use super::flow::{discover, manager_for};
use super::metadata_checks::check_client_credentials_metadata;
use crate::secrets::Sensitive;

/// How Plugboard proves it is the client.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum ClientCredential {
    /// `client_secret_basic` or `client_secret_post`, whichever the authorization server lists.
    Secret(Sensitive<String>),
    /// A JWT signed with this PEM private key (PKCS#8 EC or RSA).
    PrivateKeyJwt { private_key_pem: Sensitive<String>, algorithm: JwtSigningAlgorithm },
}

/// What a client-credentials login needs.
#[derive(Debug, Clone)]
pub struct ClientCredentialsRequest {
    /// The MCP endpoint exactly as configured (the protected resource).
    pub url: String,
    /// The pre-registered client id.
    pub client_id: String,
    /// The client's proof.
    pub credential: ClientCredential,
    /// Space-separated scopes to ask for, if any.
    pub scopes: Option<String>,
    /// The `WWW-Authenticate` header of the 401 that started this login, if there was one.
    pub challenge: Option<String>,
}

/// Gets a token with the client-credentials grant; on success it is in `credentials` and the returned manager is
/// authorized.
pub async fn login_client_credentials<C>(
    request: ClientCredentialsRequest,
    credentials: C,
) -> Result<AuthorizationManager, LoginError>
where
    C: CredentialStore + 'static,
{
    let (url, mut manager) = manager_for(&request.url).await?;
    manager.set_credential_store(credentials);
    let (metadata, source) = discover(&manager, &url, request.challenge.as_deref()).await?;
    check_client_credentials_metadata(&metadata, source)?;
    manager.set_metadata(metadata);

    let scopes: Vec<String> =
        request.scopes.as_deref().unwrap_or_default().split_whitespace().map(Into::into).collect();
    // The resource indicator is the server's URL as configured, which discovery has just checked against the
    // protected resource metadata.
    let resource = Some(request.url.clone());
    let (config, secret) = match &request.credential {
        ClientCredential::Secret(secret) => (
            ClientCredentialsConfig::ClientSecret {
                client_id: request.client_id.clone(),
                client_secret: secret.expose().clone(),
                scopes,
                resource,
            },
            secret.expose().as_str(),
        ),
        ClientCredential::PrivateKeyJwt { private_key_pem, algorithm } => (
            ClientCredentialsConfig::PrivateKeyJwt {
                client_id: request.client_id.clone(),
                signing_key: private_key_pem.expose().clone().into_bytes(),
                signing_algorithm: *algorithm,
                token_endpoint_audience: None,
                scopes,
                resource,
            },
            private_key_pem.expose().as_str(),
        ),
    };
    let failed = |e: AuthError| LoginError::Grant(scrub(&e.to_string(), &[secret]));
    manager.validate_client_credentials_metadata(&config).map_err(failed)?;
    manager.configure_client_credentials(&config).map_err(failed)?;
    manager.exchange_client_credentials(&config).await.map_err(failed)?;
    Ok(manager)
}
