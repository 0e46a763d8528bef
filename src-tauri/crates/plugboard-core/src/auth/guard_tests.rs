//! The network guard in real logins: a resource on 127.0.0.1 (the configured, approved host) whose metadata names
//! URLs on 127.0.0.2 or `localhost`, both other hosts for the guard although they are this machine. Each refusal
//! is checked to have sent nothing to the refused server, which is a complete authorization server: without the
//! guard the login would go through it.

use std::net::Ipv4Addr;

use rmcp::transport::auth::{InMemoryCredentialStore, InMemoryStateStore};
use serde_json::json;

use super::*;
use crate::testing::{LoopbackServer, Reply};

const OTHER_HOST: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 2);
const REDIRECT: &str = "http://127.0.0.1:8976/callback";
const TOKEN: &str = "the-access-token";

/// What an authorization server names; `None` for each: itself.
#[derive(Clone, Default)]
struct Names {
    /// The protected resource's `authorization_servers` entry.
    authorization_server: Option<String>,
    token_endpoint: Option<String>,
    registration_endpoint: Option<String>,
    /// Where `POST /register` redirects (307), if it does.
    registration_redirect: Option<String>,
}

/// A resource and authorization server in one, answering at `ip`.
async fn server_at(ip: Ipv4Addr, names: Names) -> LoopbackServer {
    LoopbackServer::replying_at(ip, move |method, path, base| match (method, path) {
        ("GET", "/.well-known/oauth-protected-resource/mcp") => Reply::json(json!({
            "resource": format!("{base}/mcp"),
            "authorization_servers": [names.authorization_server.clone().unwrap_or(base.to_owned())],
        })),
        ("GET", "/.well-known/oauth-authorization-server") => Reply::json(json!({
            "issuer": base,
            "authorization_endpoint": format!("{base}/authorize"),
            "token_endpoint": names.token_endpoint.clone().unwrap_or(format!("{base}/token")),
            "registration_endpoint": names.registration_endpoint.clone().unwrap_or(format!("{base}/register")),
            "response_types_supported": ["code"],
            "code_challenge_methods_supported": ["S256"],
        })),
        ("POST", "/register") => match &names.registration_redirect {
            Some(to) => Reply::redirect(307, to.clone()),
            None => Reply {
                status: 201,
                ..Reply::json(json!({"client_id": "registered-client", "redirect_uris": [REDIRECT]}))
            },
        },
        ("POST", "/token") => Reply::json(json!({"access_token": TOKEN, "token_type": "Bearer", "expires_in": 3600})),
        _ => Reply::status(404),
    })
    .await
}

/// A user agent that answers like the authorization server would, counting its visits.
#[derive(Default)]
struct Agent(std::sync::Mutex<u32>);

impl UserAgent for Agent {
    fn authorize<'a>(&'a self, url: &'a Url) -> futures::future::BoxFuture<'a, Result<Url, LoginError>> {
        *self.0.lock().unwrap() += 1;
        let state = callback::sent_state(url).unwrap_or_default();
        let mut callback = Url::parse(REDIRECT).unwrap();
        callback.query_pairs_mut().append_pair("code", "the-code").append_pair("state", &state);
        Box::pin(async move { Ok(callback) })
    }
}

impl Agent {
    fn visits(&self) -> u32 {
        *self.0.lock().unwrap()
    }
}

async fn log_in(
    resource: &LoopbackServer,
    agent: &Agent,
) -> Result<rmcp::transport::auth::AuthorizationManager, LoginError> {
    let challenge = format!("Bearer resource_metadata=\"{}/.well-known/oauth-protected-resource/mcp\"", resource.base);
    let request =
        LoginRequest { challenge: Some(challenge), ..LoginRequest::new("test", resource.url("/mcp"), REDIRECT) };
    login(request, InMemoryCredentialStore::new(), InMemoryStateStore::new(), agent).await
}

fn failure<T>(result: Result<T, LoginError>) -> LoginError {
    match result {
        Ok(_) => panic!("the login succeeded"),
        Err(error) => error,
    }
}

/// The resource's own host is reached on another port: an authorization server on 127.0.0.1 next to a resource on
/// 127.0.0.1 completes the login.
#[tokio::test]
async fn an_authorization_server_on_the_resources_own_host_is_reached() {
    let authorization = server_at(Ipv4Addr::LOCALHOST, Names::default()).await;
    let names = Names { authorization_server: Some(authorization.base.clone()), ..Names::default() };
    let resource = server_at(Ipv4Addr::LOCALHOST, names).await;
    let agent = Agent::default();
    let manager = log_in(&resource, &agent).await.unwrap();
    assert_eq!(manager.get_access_token().await.unwrap(), TOKEN);
    assert!(authorization.request_lines().iter().any(|r| r == "POST /token"), "{:?}", authorization.request_lines());
}

/// Protected-resource metadata naming an authorization server on another internal host (127.0.0.2) is refused in
/// the guard's words, and that server sees no request at all.
#[tokio::test]
async fn an_authorization_server_on_another_internal_host_is_not_contacted() {
    let other = server_at(OTHER_HOST, Names::default()).await;
    let resource =
        server_at(Ipv4Addr::LOCALHOST, Names { authorization_server: Some(other.base.clone()), ..Names::default() })
            .await;
    let agent = Agent::default();
    let error = failure(log_in(&resource, &agent).await);
    assert!(other.requests().is_empty(), "{:?}", other.request_lines());
    assert!(matches!(error, LoginError::NetworkGuard(_)), "{error}");
    let message = error.to_string();
    assert!(message.contains("points to a loopback address (127.0.0.2)"), "{message}");
    assert!(message.contains("own host (127.0.0.1)"), "{message}");
    assert!(error.is_refusal());
    assert_eq!(agent.visits(), 0);
}

/// `localhost` is another host than the approved 127.0.0.1: an authorization server named by it is not contacted.
#[tokio::test]
async fn localhost_is_not_the_approved_127_0_0_1() {
    let authorization = server_at(Ipv4Addr::LOCALHOST, Names::default()).await;
    let named = format!("http://localhost:{}", authorization.addr.port());
    let resource =
        server_at(Ipv4Addr::LOCALHOST, Names { authorization_server: Some(named), ..Names::default() }).await;
    let error = failure(log_in(&resource, &Agent::default()).await);
    assert!(matches!(error, LoginError::NetworkGuard(_)), "{error}");
    assert!(authorization.requests().is_empty(), "{:?}", authorization.request_lines());
}

/// Token and registration endpoints on another internal host are refused as soon as the metadata is read: before
/// registration and before the person is sent anywhere; the other host sees nothing.
#[tokio::test]
async fn endpoints_on_another_internal_host_get_nothing() {
    for endpoint in ["token", "registration"] {
        let other = server_at(OTHER_HOST, Names::default()).await;
        let mut names = Names::default();
        match endpoint {
            "token" => names.token_endpoint = Some(other.url("/token")),
            _ => names.registration_endpoint = Some(other.url("/register")),
        }
        let resource = server_at(Ipv4Addr::LOCALHOST, names).await;
        let agent = Agent::default();
        let error = failure(log_in(&resource, &agent).await);
        assert!(other.requests().is_empty(), "{endpoint}: {:?}", other.request_lines());
        assert!(matches!(error, LoginError::NetworkGuard(_)), "{endpoint}: {error}");
        assert!(!resource.request_lines().iter().any(|r| r.starts_with("POST")), "{:?}", resource.request_lines());
        assert_eq!(agent.visits(), 0, "{endpoint}");
    }
}

/// A registration on the approved host that redirects to another internal host is refused at that hop: the client
/// metadata is not posted there.
#[tokio::test]
async fn a_registration_redirected_to_another_internal_host_is_refused() {
    let other = server_at(OTHER_HOST, Names::default()).await;
    let names = Names { registration_redirect: Some(other.url("/register")), ..Names::default() };
    let resource = server_at(Ipv4Addr::LOCALHOST, names).await;
    let error = failure(log_in(&resource, &Agent::default()).await);
    assert!(other.requests().is_empty(), "{:?}", other.request_lines());
    assert!(matches!(error, LoginError::Registration(_)), "{error}");
    assert!(error.to_string().contains("points to a loopback address"), "{error}");
    assert!(resource.request_lines().iter().any(|r| r == "POST /register"), "{:?}", resource.request_lines());
}

/// The adversarial catalogue's authorization servers, named by a resource on 127.0.0.1: the cloud metadata
/// address and name, and the other loopback host written as hex, as an integer and IPv4-mapped IPv6. Each is
/// refused in the guard's words and the server behind the loopback forms sees nothing. (rmcp's own check of
/// host names already drops the metadata and mapped forms; the hex and integer forms of 127.0.0.2 only the
/// guard refuses.)
#[tokio::test]
async fn catalogue_authorization_servers_are_refused_in_any_notation() {
    let other = server_at(OTHER_HOST, Names::default()).await;
    let port = other.addr.port();
    for named in [
        format!("http://0x7f000002:{port}"),
        format!("http://2130706434:{port}"),
        format!("http://[::ffff:127.0.0.2]:{port}"),
        "http://169.254.169.254".to_owned(),
        "http://metadata.google.internal".to_owned(),
    ] {
        let names = Names { authorization_server: Some(named.clone()), ..Names::default() };
        let resource = server_at(Ipv4Addr::LOCALHOST, names).await;
        let error = failure(log_in(&resource, &Agent::default()).await);
        assert!(matches!(error, LoginError::NetworkGuard(_)), "{named}: {error}");
        assert!(error.to_string().contains("which Plugboard does not reach"), "{named}: {error}");
    }
    assert!(other.requests().is_empty(), "{:?}", other.request_lines());
}
