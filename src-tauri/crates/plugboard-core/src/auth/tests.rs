//! The login flow against a local resource-and-authorization server: what it refuses, that it refuses before the
//! user agent (and before registration), that callbacks are checked before any token request, the 2025-03-26
//! fallback and its limits, and the step-up cap.

use std::sync::Arc;
use std::sync::Mutex as StdMutex;

use futures::future::BoxFuture;
use rmcp::transport::auth::{InMemoryCredentialStore, InMemoryStateStore};
use serde_json::json;
use url::Url;

use super::*;
use crate::testing::{LoopbackServer, Reply};

const REDIRECT: &str = "http://127.0.0.1:8976/callback";
const CODE: &str = "the-authorization-code";
const TOKEN: &str = "the-access-token";

/// What the server publishes; the defaults are a well-behaved server.
#[derive(Clone)]
struct Fixture {
    /// PRM `resource`; `None`: `{base}/mcp`.
    resource: Option<String>,
    /// PRM `scopes_supported`.
    scopes_supported: Option<Vec<&'static str>>,
    /// Whether protected resource metadata exists at all (not on 2025-03-26 servers).
    prm: bool,
    /// AS `issuer`; `None`: `{base}`.
    issuer: Option<String>,
    /// `code_challenge_methods_supported`.
    pkce: Option<Vec<&'static str>>,
    /// `authorization_endpoint`; `None`: `{base}/authorize`.
    authorization_endpoint: Option<String>,
    /// `authorization_response_iss_parameter_supported`.
    iss_supported: bool,
}

impl Default for Fixture {
    fn default() -> Self {
        Self {
            resource: None,
            scopes_supported: None,
            prm: true,
            issuer: None,
            pkce: Some(vec!["S256"]),
            authorization_endpoint: None,
            iss_supported: false,
        }
    }
}

async fn serve(fixture: Fixture) -> LoopbackServer {
    LoopbackServer::replying(move |method, path, base| match (method, path) {
        ("GET", "/.well-known/oauth-protected-resource/mcp") if fixture.prm => {
            let mut metadata = json!({
                "resource": fixture.resource.clone().unwrap_or(format!("{base}/mcp")),
                "authorization_servers": [base],
            });
            if let Some(scopes) = &fixture.scopes_supported {
                metadata["scopes_supported"] = json!(scopes);
            }
            Reply::json(metadata)
        }
        ("GET", "/.well-known/oauth-authorization-server") => {
            let mut metadata = json!({
                "issuer": fixture.issuer.clone().unwrap_or(base.to_owned()),
                "authorization_endpoint": fixture.authorization_endpoint.clone().unwrap_or(format!("{base}/authorize")),
                "token_endpoint": format!("{base}/token"),
                "registration_endpoint": format!("{base}/register"),
                "response_types_supported": ["code"],
                "authorization_response_iss_parameter_supported": fixture.iss_supported,
            });
            if let Some(methods) = &fixture.pkce {
                metadata["code_challenge_methods_supported"] = json!(methods);
            }
            Reply::json(metadata)
        }
        ("POST", "/register") => {
            Reply { status: 201, ..Reply::json(json!({"client_id": "registered-client", "redirect_uris": [REDIRECT]})) }
        }
        ("POST", "/token") => Reply::json(json!({"access_token": TOKEN, "token_type": "Bearer", "expires_in": 3600})),
        _ => Reply::status(404),
    })
    .await
}

/// A user agent that records the authorization URLs it was given and answers like the authorization server would.
#[derive(Default)]
struct ScriptedAgent {
    visited: StdMutex<Vec<Url>>,
    /// The `iss` to put on the callback.
    iss: Option<String>,
}

impl ScriptedAgent {
    fn visited(&self) -> Vec<Url> {
        self.visited.lock().unwrap().clone()
    }
}

impl UserAgent for ScriptedAgent {
    fn authorize<'a>(&'a self, authorization_url: &'a Url) -> BoxFuture<'a, Result<Url, LoginError>> {
        self.visited.lock().unwrap().push(authorization_url.clone());
        let state = callback::sent_state(authorization_url).unwrap_or_default();
        let mut callback = Url::parse(REDIRECT).unwrap();
        callback.query_pairs_mut().append_pair("code", CODE).append_pair("state", &state);
        if let Some(iss) = &self.iss {
            callback.query_pairs_mut().append_pair("iss", iss);
        }
        Box::pin(async move { Ok(callback) })
    }
}

fn request(server: &LoopbackServer) -> LoginRequest {
    let challenge = format!(
        "Bearer resource_metadata=\"{}/.well-known/oauth-protected-resource/mcp\", scope=\"mcp:read\"",
        server.base
    );
    LoginRequest { challenge: Some(challenge), ..LoginRequest::new("test", format!("{}/mcp", server.base), REDIRECT) }
}

async fn log_in(
    server: &LoopbackServer,
    agent: &ScriptedAgent,
) -> Result<rmcp::transport::auth::AuthorizationManager, LoginError> {
    login(request(server), InMemoryCredentialStore::new(), InMemoryStateStore::new(), agent).await
}

/// The error of a login that must fail.
fn failure<T>(result: Result<T, LoginError>) -> LoginError {
    match result {
        Ok(_) => panic!("the login succeeded"),
        Err(error) => error,
    }
}

fn query(url: &Url, key: &str) -> Option<String> {
    url.query_pairs().find(|(k, _)| k == key).map(|(_, v)| v.into_owned())
}

/// A well-behaved server: one visit to the authorization page with the challenge's scope, S256 and the resource,
/// then a token the manager serves.
#[tokio::test]
async fn login_completes_with_the_challenge_scope() {
    let server = serve(Fixture::default()).await;
    let agent = ScriptedAgent::default();
    let manager = log_in(&server, &agent).await.unwrap();
    assert_eq!(manager.get_access_token().await.unwrap(), TOKEN);
    let visited = agent.visited();
    assert_eq!(visited.len(), 1);
    assert_eq!(query(&visited[0], "scope").as_deref(), Some("mcp:read"));
    assert_eq!(query(&visited[0], "code_challenge_method").as_deref(), Some("S256"));
    assert_eq!(query(&visited[0], "resource"), Some(format!("{}/mcp", server.base)));
}

/// Without a `scope` in the challenge the resource's `scopes_supported` is asked for; without either, no scope.
#[tokio::test]
async fn scopes_fall_back_to_scopes_supported_then_none() {
    let server = serve(Fixture { scopes_supported: Some(vec!["mcp:a", "mcp:b"]), ..Fixture::default() }).await;
    let agent = ScriptedAgent::default();
    let challenge = format!("Bearer resource_metadata=\"{}/.well-known/oauth-protected-resource/mcp\"", server.base);
    let without_scope = LoginRequest { challenge: Some(challenge.clone()), ..request(&server) };
    login(without_scope, InMemoryCredentialStore::new(), InMemoryStateStore::new(), &agent).await.unwrap();
    assert_eq!(query(&agent.visited()[0], "scope").as_deref(), Some("mcp:a mcp:b"));

    let server = serve(Fixture::default()).await;
    let agent = ScriptedAgent::default();
    let challenge = format!("Bearer resource_metadata=\"{}/.well-known/oauth-protected-resource/mcp\"", server.base);
    let without_scope = LoginRequest { challenge: Some(challenge), ..request(&server) };
    login(without_scope, InMemoryCredentialStore::new(), InMemoryStateStore::new(), &agent).await.unwrap();
    assert_eq!(query(&agent.visited()[0], "scope"), None);
}

/// A protected-resource `resource` naming another server is refused before registration or the user agent.
#[tokio::test]
async fn resource_mismatch_is_refused_before_anything() {
    let server = serve(Fixture { resource: Some("https://evil.example/mcp".into()), ..Fixture::default() }).await;
    let agent = ScriptedAgent::default();
    let error = failure(log_in(&server, &agent).await);
    assert!(matches!(error, LoginError::ResourceMismatch { .. }), "{error}");
    assert!(agent.visited().is_empty());
    assert!(!server.request_lines().iter().any(|r| r.starts_with("POST")), "{:?}", server.request_lines());
}

/// Authorization-server metadata with another issuer is refused, and the 2025-03-26 fallback does not rescue a
/// server that publishes protected-resource metadata.
#[tokio::test]
async fn issuer_mismatch_is_refused() {
    let server = serve(Fixture { issuer: Some("https://evil.example".into()), ..Fixture::default() }).await;
    let agent = ScriptedAgent::default();
    let error = failure(log_in(&server, &agent).await);
    assert!(matches!(error, LoginError::IssuerMismatch { .. }), "{error}");
    assert!(agent.visited().is_empty());
}

/// Metadata without S256 is refused (naming the override) before registration; with the override the login runs.
#[tokio::test]
async fn missing_s256_is_refused_unless_overridden() {
    let server = serve(Fixture { pkce: None, ..Fixture::default() }).await;
    let agent = ScriptedAgent::default();
    let error = failure(log_in(&server, &agent).await);
    assert!(matches!(error, LoginError::PkceNotAdvertised { .. }), "{error}");
    assert!(agent.visited().is_empty());
    assert!(!server.request_lines().iter().any(|r| r.starts_with("POST /register")));

    let allowed = LoginRequest { allow_missing_pkce_metadata: true, ..request(&server) };
    login(allowed, InMemoryCredentialStore::new(), InMemoryStateStore::new(), &agent).await.unwrap();
    assert_eq!(agent.visited().len(), 1);
}

/// Authorization endpoints that must never reach an opener (dangerous schemes, shell metacharacters, non-loopback
/// http) are refused before registration and before the user agent.
#[tokio::test]
async fn dangerous_authorization_endpoints_are_refused_before_the_user_agent() {
    for endpoint in ["javascript:alert(1)", "file:///etc/passwd", "$(calc)", "http://evil.example/authorize"] {
        let server = serve(Fixture { authorization_endpoint: Some(endpoint.into()), ..Fixture::default() }).await;
        let agent = ScriptedAgent::default();
        let error = failure(log_in(&server, &agent).await);
        assert!(error.is_refusal(), "{endpoint}: {error}");
        assert!(agent.visited().is_empty(), "{endpoint}");
        assert!(
            !server.request_lines().iter().any(|r| r.starts_with("POST")),
            "{endpoint}: {:?}",
            server.request_lines()
        );
    }
}

/// RFC 9207: a callback naming another issuer is rejected before any token request, and the error quotes neither
/// the code nor the state.
#[tokio::test]
async fn callback_from_another_issuer_is_rejected_before_the_exchange() {
    let server = serve(Fixture::default()).await;
    let agent = ScriptedAgent { iss: Some("https://evil.example".into()), ..ScriptedAgent::default() };
    let error = failure(log_in(&server, &agent).await);
    assert!(matches!(error, LoginError::CallbackRejected(_)), "{error}");
    let state = query(&agent.visited()[0], "state").unwrap();
    let text = error.to_string();
    assert!(!text.contains(CODE) && !text.contains(&state) && !text.contains(TOKEN), "{text}");
    assert!(!server.request_lines().iter().any(|r| r.starts_with("POST /token")));
}

/// A server that promises `iss` and leaves it out is rejected; one that sends the right `iss` is accepted.
#[tokio::test]
async fn promised_iss_is_required() {
    let server = serve(Fixture { iss_supported: true, ..Fixture::default() }).await;
    let error = failure(log_in(&server, &ScriptedAgent::default()).await);
    assert!(matches!(error, LoginError::CallbackRejected(_)), "{error}");
    let agent = ScriptedAgent { iss: Some(server.base.clone()), ..ScriptedAgent::default() };
    log_in(&server, &agent).await.unwrap();
}

/// A 2025-03-26 server (no protected-resource metadata, metadata at the root with an issuer under a path of the
/// same origin) logs in through the fallback; an issuer on another origin is still refused.
#[tokio::test]
async fn legacy_fallback_only_for_same_origin_issuers_without_prm() {
    let server = LoopbackServer::replying(|method, path, base| match (method, path) {
        ("GET", "/.well-known/oauth-authorization-server") => Reply::json(json!({
            "issuer": format!("{base}/oauth"),
            "authorization_endpoint": format!("{base}/oauth/authorize"),
            "token_endpoint": format!("{base}/oauth/token"),
            "code_challenge_methods_supported": ["S256"],
        })),
        ("POST", "/oauth/token") => Reply::json(json!({"access_token": TOKEN, "token_type": "Bearer"})),
        _ => Reply::status(404),
    })
    .await;
    let agent = ScriptedAgent::default();
    let request = LoginRequest {
        client_id: Some("pre-registered".into()),
        challenge: Some("Bearer error=\"invalid_token\"".into()),
        ..LoginRequest::new("legacy", format!("{}/mcp", server.base), REDIRECT)
    };
    let manager =
        login(request.clone(), InMemoryCredentialStore::new(), InMemoryStateStore::new(), &agent).await.unwrap();
    assert_eq!(manager.get_access_token().await.unwrap(), TOKEN);

    let foreign = LoopbackServer::replying(|_, path, _| match path {
        "/.well-known/oauth-authorization-server" => Reply::json(json!({
            "issuer": "https://elsewhere.example",
            "authorization_endpoint": "https://elsewhere.example/authorize",
            "token_endpoint": "https://elsewhere.example/token",
            "code_challenge_methods_supported": ["S256"],
        })),
        _ => Reply::status(404),
    })
    .await;
    let request = LoginRequest { url: format!("{}/mcp", foreign.base), ..request };
    let error = failure(login(request, InMemoryCredentialStore::new(), InMemoryStateStore::new(), &agent).await);
    assert!(matches!(error, LoginError::IssuerMismatch { .. }), "{error}");
}

/// Step-up asks for the union of granted and demanded scopes, and stops at three authorization attempts per
/// session (the login included) without visiting the authorization page again.
#[tokio::test]
async fn step_up_unions_scopes_and_stops_at_the_cap() {
    let server = serve(Fixture::default()).await;
    let agent = ScriptedAgent::default();
    let manager = log_in(&server, &agent).await.unwrap();
    let step_up = StepUp::after_login(
        Arc::new(tokio::sync::Mutex::new(manager)),
        Url::parse(&format!("{}/mcp", server.base)).unwrap(),
        REDIRECT,
    );
    let challenge = "Bearer error=\"insufficient_scope\", scope=\"mcp:write\"";
    step_up.reauthorize(challenge, &agent).await.unwrap();
    let scopes = query(&agent.visited()[1], "scope").unwrap();
    assert_eq!(scopes, "mcp:read mcp:write");
    step_up.reauthorize(challenge, &agent).await.unwrap();
    assert_eq!(step_up.attempts(), MAX_AUTHORIZATION_ATTEMPTS);
    let error = step_up.reauthorize(challenge, &agent).await.unwrap_err();
    assert!(matches!(error, LoginError::TooManyAttempts { attempts: 3 }), "{error}");
    assert_eq!(agent.visited().len(), 3);
}

/// The client-credentials grant discovers with the same checks and leaves a token the manager serves.
#[tokio::test]
async fn client_credentials_get_a_token() {
    let server = serve(Fixture::default()).await;
    let request = ClientCredentialsRequest {
        url: format!("{}/mcp", server.base),
        client_id: "machine".into(),
        credential: ClientCredential::Secret(crate::secrets::Sensitive::new("machine-secret".into())),
        scopes: None,
        challenge: request(&server).challenge,
    };
    let manager = login_client_credentials(request, InMemoryCredentialStore::new()).await.unwrap();
    assert_eq!(manager.get_access_token().await.unwrap(), TOKEN);
    assert!(server.request_lines().iter().any(|r| r == "POST /token"));
}

/// Cross-app access refuses an identity provider reached over plain http on a public host, before any exchange.
#[tokio::test]
async fn cross_app_refuses_an_insecure_identity_provider() {
    let server = serve(Fixture::default()).await;
    let request = CrossAppRequest {
        url: format!("{}/mcp", server.base),
        client_id: "client".into(),
        client_secret: crate::secrets::Sensitive::new("secret".into()),
        identity_provider: IdentityProvider {
            issuer: "http://idp.example".into(),
            token_endpoint: "http://idp.example/token".into(),
            client_id: "idp-client".into(),
            client_secret: None,
        },
        id_token: crate::secrets::Sensitive::new("id-token".into()),
        scopes: None,
        challenge: request(&server).challenge,
    };
    let error = failure(login_cross_app(request, InMemoryCredentialStore::new()).await);
    assert!(matches!(error, LoginError::InsecureEndpoint { .. }), "{error}");
    assert!(!server.request_lines().iter().any(|r| r.starts_with("POST")));
}
