//! Workload identity federation (SEP-1933): a workload (a CI job, a pod) already holds a JWT its platform issued;
//! Plugboard exchanges it at the MCP server's authorization server with the JWT-bearer grant (RFC 7523 §2.1) for an
//! access token bound to the server (RFC 8707). No person and no client secret. A refusal (`invalid_grant`,
//! `invalid_scope`, `unauthorized_client`) is said as the authorization server said it and never retried nor
//! answered with another grant. The workload's token never goes into an error or a log.

use std::time::Duration;

use reqwest::Method;
use rmcp::transport::auth::{AuthorizationManager, CredentialStore};
use serde::Deserialize;

use super::LoginError;
use super::error::scrub;
use super::flow::{discover, manager_for};
use super::kept_token::{BearerToken, keep_bearer_token};
use super::metadata_checks::check_client_credentials_metadata;
use crate::net::{ApprovedHosts, GuardedClient, Redirects};
use crate::secrets::Sensitive;

/// The JWT-bearer grant type (RFC 7523 §2.1).
pub const JWT_BEARER_GRANT: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/// What a workload-identity login needs.
#[derive(Debug, Clone)]
pub struct WorkloadIdentityRequest {
    /// The MCP endpoint exactly as configured (the protected resource).
    pub url: String,
    /// The workload's JWT, as its platform issued it.
    pub assertion: Sensitive<String>,
    /// A client id to name, where the authorization server registered the workload as one.
    pub client_id: Option<String>,
    /// Space-separated scopes to ask for, if any.
    pub scopes: Option<String>,
    /// The `WWW-Authenticate` header of the 401 that started this login, if there was one.
    pub challenge: Option<String>,
}

/// The token endpoint's answer, success or refusal (RFC 6749 §5.1, §5.2).
#[derive(Deserialize)]
struct TokenAnswer {
    access_token: Option<String>,
    expires_in: Option<u64>,
    scope: Option<String>,
    error: Option<String>,
    error_description: Option<String>,
}

/// Exchanges the workload's JWT for an access token to `request.url`; on success it is in `credentials` and the
/// returned manager serves it.
pub async fn login_workload_identity<C>(
    request: WorkloadIdentityRequest,
    credentials: C,
) -> Result<AuthorizationManager, LoginError>
where
    C: CredentialStore + 'static,
{
    let (url, manager) = manager_for(&request.url).await?;
    let (metadata, source) = discover(&manager, &url, request.challenge.as_deref()).await?;
    check_client_credentials_metadata(&metadata, source)?;
    if let Some(grants) = metadata.additional_fields.get("grant_types_supported").and_then(|g| g.as_array())
        && !grants.iter().any(|g| g.as_str() == Some(JWT_BEARER_GRANT))
    {
        return Err(LoginError::Refused(
            "the authorization server does not list the JWT-bearer grant, which workload identity needs".into(),
        ));
    }
    let endpoint = url::Url::parse(&metadata.token_endpoint)
        .map_err(|_| LoginError::Refused("the token endpoint is not a URL".into()))?;

    let mut form = url::form_urlencoded::Serializer::new(String::new());
    form.append_pair("grant_type", JWT_BEARER_GRANT).append_pair("assertion", request.assertion.expose());
    if let Some(client_id) = &request.client_id {
        form.append_pair("client_id", client_id);
    }
    if let Some(scopes) = &request.scopes {
        form.append_pair("scope", scopes);
    }
    // The resource indicator is the server's URL as configured, which discovery has just checked.
    let form = Sensitive::new(form.append_pair("resource", &request.url).finish());
    // Through the network guard, on the MCP server's host as the approved one (the endpoint was discovered from
    // it), and never following a redirect with the token in the body.
    let secret = request.assertion.expose().as_str();
    let failed = |why: String| LoginError::Grant(scrub(&why, &[secret]));
    let client = GuardedClient::new(ApprovedHosts::of(&url)).map_err(|e| failed(e.to_string()))?;
    let response = client
        .request(Method::POST, endpoint, Redirects::Refused)?
        .header("Accept", "application/json")
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(form.expose().clone())
        .send()
        .await
        .map_err(|e| failed(format!("the token endpoint did not answer ({})", e.without_url())))?;
    let status = response.status();
    let answer: TokenAnswer = response
        .json()
        .await
        .map_err(|_| failed(format!("the token endpoint answered {status} without a token response")))?;
    let (Some(access_token), true) = (answer.access_token, status.is_success()) else {
        let error = answer.error.unwrap_or_else(|| status.to_string());
        let description = answer.error_description.map(|d| format!(": {d}")).unwrap_or_default();
        return Err(failed(format!("the authorization server refused the workload's token ({error}{description})")));
    };

    let granted = answer.scope.or(request.scopes).unwrap_or_default();
    let kept = BearerToken {
        access_token: &access_token,
        expires_in: answer.expires_in.map(Duration::from_secs),
        scopes: granted.split_whitespace().map(str::to_owned).collect(),
        client_id: request.client_id.unwrap_or_default(),
    };
    keep_bearer_token(kept, credentials, manager, metadata).await
}
