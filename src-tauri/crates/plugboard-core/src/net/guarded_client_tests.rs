//! The guarded client against real servers on two loopback hosts: 127.0.0.1 stands for the approved server's host,
//! 127.0.0.2 for another host on this machine that a discovered URL names. Each refusal is checked to have sent
//! nothing to the server it refused.

use std::net::Ipv4Addr;

use super::*;
use crate::testing::{LoopbackServer, Reply};

const OTHER_HOST: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 2);

fn url(raw: &str) -> Url {
    Url::parse(raw).unwrap_or_else(|e| panic!("{raw}: {e}"))
}

/// A client whose approved host is that of `server` (the configured server URL).
fn client_for(server: &LoopbackServer) -> GuardedClient {
    GuardedClient::new(ApprovedHosts::of(&url(&server.base))).unwrap()
}

async fn ok_server(ip: Ipv4Addr) -> LoopbackServer {
    LoopbackServer::replying_at(ip, |_, _, _| Reply::json(serde_json::json!({"ok": true}))).await
}

/// The refusal inside a failed send.
fn refusal(result: Result<reqwest::Response, reqwest::Error>) -> GuardError {
    let error = result.expect_err("the guard should have refused");
    GuardError::found_in(&error).unwrap_or_else(|| panic!("not the guard's refusal: {error:?}")).clone()
}

/// The approved host is reached on any port: a second server on 127.0.0.1 (an authorization server next to the
/// resource) answers.
#[tokio::test]
async fn the_approved_host_is_reached_on_another_port() {
    let resource = ok_server(Ipv4Addr::LOCALHOST).await;
    let authorization = ok_server(Ipv4Addr::LOCALHOST).await;
    let client = client_for(&resource);
    let response = client.request(Method::GET, url(&authorization.url("/meta")), Redirects::Checked).unwrap();
    assert_eq!(response.send().await.unwrap().status(), 200);
    assert_eq!(authorization.request_lines(), ["GET /meta"]);
}

/// An IP-literal URL on another loopback host is refused before anything is sent, and the error names the URL
/// (without its query), the kind of address and the approved host.
#[tokio::test]
async fn an_ip_literal_on_another_internal_host_is_refused_before_sending() {
    let resource = ok_server(Ipv4Addr::LOCALHOST).await;
    let other = ok_server(OTHER_HOST).await;
    let target = url(&other.url("/token?secret=1"));
    let error = client_for(&resource).request(Method::POST, target, Redirects::Refused).expect_err("refused");
    let GuardError::ForbiddenAddress { host, kind, .. } = &error else { panic!("{error:?}") };
    assert_eq!((host.as_str(), *kind), ("127.0.0.2", AddressKind::Loopback));
    let message = error.to_string();
    assert!(message.starts_with(&format!("{}/token points to a loopback address", other.base)), "{message}");
    assert!(message.contains("(127.0.0.2)") && message.contains("own host (127.0.0.1)"), "{message}");
    assert!(!message.contains("secret"), "{message}");
    assert!(error.is_refusal());
    assert!(other.requests().is_empty());
}

/// A redirect from the approved host to another internal host is refused at that hop: the second server sees
/// nothing.
#[tokio::test]
async fn a_redirect_to_another_internal_host_is_refused() {
    let other = ok_server(OTHER_HOST).await;
    let target = other.url("/internal");
    let resource = LoopbackServer::replying(move |_, _, _| Reply::redirect(302, target.clone())).await;
    let request = client_for(&resource).request(Method::GET, url(&resource.url("/start")), Redirects::Checked);
    let error = refusal(request.unwrap().send().await);
    assert!(matches!(error, GuardError::ForbiddenAddress { kind: AddressKind::Loopback, .. }), "{error}");
    assert_eq!(resource.request_lines(), ["GET /start"]);
    assert!(other.requests().is_empty());
}

/// A redirect to `localhost` is refused at the hop although it is this machine like the approved `127.0.0.1`:
/// hosts compare as written, and `localhost` is known to be loopback without asking DNS.
#[tokio::test]
async fn a_redirect_to_localhost_is_another_host() {
    let other = ok_server(Ipv4Addr::LOCALHOST).await;
    let target = format!("http://localhost:{}/internal", other.addr.port());
    let resource = LoopbackServer::replying(move |_, _, _| Reply::redirect(307, target.clone())).await;
    let request = client_for(&resource).request(Method::GET, url(&resource.url("/start")), Redirects::Checked);
    let error = refusal(request.unwrap().send().await);
    let GuardError::ForbiddenAddress { host, kind, .. } = &error else { panic!("{error:?}") };
    assert_eq!((host.as_str(), *kind), ("localhost", AddressKind::Loopback));
    assert!(other.requests().is_empty());
}

/// The resolver hook checks what the system resolver answered: `localhost` resolves to loopback, which is refused
/// unless `localhost` is the approved host, and then allowed.
#[tokio::test]
async fn the_resolver_hook_checks_the_system_resolvers_answer() {
    let resolve = |approved: &str| {
        let resolver =
            GuardedResolver { approved: Arc::new(ApprovedHosts::of(&url(approved))), lookup: Arc::new(SystemLookup) };
        resolver.resolve("localhost".parse().unwrap())
    };
    let Err(error) = resolve("http://127.0.0.1/mcp").await else { panic!("localhost was allowed") };
    let refusal = GuardError::found_in(error.as_ref()).unwrap_or_else(|| panic!("{error}"));
    assert!(matches!(refusal, GuardError::ForbiddenName { kind: AddressKind::Loopback, .. }), "{refusal}");
    assert!(refusal.to_string().starts_with("localhost resolves to a loopback address"), "{refusal}");
    let Ok(addresses) = resolve("http://localhost:3000/mcp").await else { panic!("the approved name was refused") };
    assert!(addresses.into_iter().all(|a| a.ip().is_loopback()));
}

/// A hostile DNS server for the tests: each name answers the addresses given, any other name nothing.
struct FixedLookup(Vec<(&'static str, Vec<IpAddr>)>);

impl Resolve for FixedLookup {
    fn resolve(&self, name: Name) -> Resolving {
        let found = self.0.iter().find(|(n, _)| *n == name.as_str()).map(|(_, ips)| ips.clone()).unwrap_or_default();
        Box::pin(async move {
            Ok(Box::new(found.into_iter().map(|ip| SocketAddr::new(ip, 0)).collect::<Vec<_>>().into_iter()) as Addrs)
        })
    }
}

/// Through reqwest, the resolver hook decides where a name connects: `as.example` resolving to 127.0.0.2 (what
/// a rebinding DNS answer or a name pointed at an internal address looks like) is refused and that server sees
/// nothing, while the approved name `mcp.example` resolving to the same kind of address is reached.
#[tokio::test]
async fn names_are_judged_by_the_address_they_resolve_to() {
    let other = ok_server(OTHER_HOST).await;
    let own = ok_server(Ipv4Addr::LOCALHOST).await;
    let lookup = FixedLookup(vec![
        ("as.example", vec![IpAddr::V4(OTHER_HOST)]),
        ("mcp.example", vec![IpAddr::V4(Ipv4Addr::LOCALHOST)]),
    ]);
    let client =
        GuardedClient::with_lookup(ApprovedHosts::of(&url("https://mcp.example/mcp")), Arc::new(lookup)).unwrap();
    let refused = url(&format!("http://as.example:{}/.well-known/oauth-authorization-server", other.addr.port()));
    let error = refusal(client.request(Method::GET, refused, Redirects::Checked).unwrap().send().await);
    assert!(
        error
            .to_string()
            .starts_with("as.example resolves to a loopback address (127.0.0.2), which Plugboard does not"),
        "{error}"
    );
    assert!(other.requests().is_empty(), "{:?}", other.request_lines());
    let approved = url(&format!("http://mcp.example:{}/token", own.addr.port()));
    let response = client.request(Method::GET, approved, Redirects::Checked).unwrap().send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(own.request_lines(), ["GET /token"]);
}

/// Redirects stop after [`MAX_REDIRECTS`] hops even on the approved host.
#[tokio::test]
async fn redirects_are_capped() {
    let server = LoopbackServer::replying(|_, path, _| {
        let hop: u32 = path.trim_start_matches("/hop/").parse().unwrap_or(0);
        Reply::redirect(302, format!("/hop/{}", hop + 1))
    })
    .await;
    let request = client_for(&server).request(Method::GET, url(&server.url("/hop/0")), Redirects::Checked);
    let error = refusal(request.unwrap().send().await);
    assert!(matches!(error, GuardError::TooManyRedirects { max: MAX_REDIRECTS, .. }), "{error}");
    assert_eq!(server.requests().len(), MAX_REDIRECTS + 1);
}

/// A request that must not follow redirects gets the redirect itself, and its target sees nothing.
#[tokio::test]
async fn refused_redirects_are_returned_not_followed() {
    let other = ok_server(Ipv4Addr::LOCALHOST).await;
    let target = other.url("/elsewhere");
    let server = LoopbackServer::replying(move |_, _, _| Reply::redirect(307, target.clone())).await;
    let request = client_for(&server).request(Method::POST, url(&server.url("/revoke")), Redirects::Refused);
    assert_eq!(request.unwrap().send().await.unwrap().status(), 307);
    assert!(other.requests().is_empty());
}

/// With no approved host, even 127.0.0.1 is refused; other schemes are refused outright.
#[tokio::test]
async fn without_an_approved_host_nothing_internal_is_reached() {
    let server = ok_server(Ipv4Addr::LOCALHOST).await;
    let client = GuardedClient::new(ApprovedHosts::none()).unwrap();
    let error = client.request(Method::GET, url(&server.url("/")), Redirects::Checked).expect_err("refused");
    assert!(error.to_string().contains("own host (none)"), "{error}");
    let error = client.request(Method::GET, url("file:///etc/passwd"), Redirects::Checked).expect_err("refused");
    assert!(matches!(error, GuardError::Scheme { .. }), "{error}");
    assert!(server.requests().is_empty());
}

/// What the resolver hook keeps of a DNS answer: a rebinding answer mixing a public and a private address keeps
/// the public one only; a name answering only internal or metadata addresses is refused naming the first; the
/// approved name keeps its internal addresses but never the metadata endpoint.
#[test]
fn the_resolver_keeps_only_allowed_answers() {
    let addr = |s: &str| SocketAddr::new(s.parse().unwrap(), 0);
    let approved = ApprovedHosts::of(&url("https://mcp.corp/mcp"));
    let mixed = allowed_answers(&approved, "as.example", vec![addr("10.0.0.5"), addr("93.184.215.14")]).unwrap();
    assert_eq!(mixed, [addr("93.184.215.14")]);
    let error = allowed_answers(&approved, "as.example", vec![addr("169.254.169.254"), addr("10.0.0.5")]);
    let error = error.expect_err("refused");
    assert!(matches!(error, GuardError::ForbiddenName { kind: AddressKind::CloudMetadata, .. }), "{error}");
    assert!(error.to_string().contains("as.example resolves to a cloud metadata endpoint (169.254.169.254)"));
    let own = allowed_answers(&approved, "MCP.corp", vec![addr("10.0.0.5"), addr("169.254.169.254")]).unwrap();
    assert_eq!(own, [addr("10.0.0.5")]);
    let rebound = allowed_answers(&approved, "mcp.corp", vec![addr("fd00:ec2::254")]);
    assert!(matches!(rebound, Err(GuardError::ForbiddenName { .. })));
}
