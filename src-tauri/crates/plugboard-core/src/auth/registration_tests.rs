//! The registration order of the app's own login path (`login_server`, as the window and `plugboard login` run it):
//! a pre-registered client, else the client ID metadata document the `oauth` section names where the authorization
//! server accepts one, else dynamic registration; and the scopes it asks for, learned from the server's challenge.
//! Against a local resource-and-authorization server, the browser played by a task that follows the authorization
//! URL's redirect address.

use std::sync::{Arc, Mutex};

use serde_json::json;
use url::Url;

use super::{LoginContext, PendingFlows, login_server};
use crate::config::validate_server;
use crate::testing::{LoopbackServer, Reply, Request, client, memory_vault};

const METADATA_URL: &str = "https://plugboard.example/oauth/client.json";

/// A resource and its authorization server in one; `cimd` says whether it accepts client ID metadata documents.
async fn serve(cimd: bool) -> LoopbackServer {
    LoopbackServer::replying(move |method, path, base| match (method, path) {
        ("POST", "/mcp") => challenge(base, ""),
        _ => authorization(method, path, base, cimd),
    })
    .await
}

/// A 401 whose challenge names the resource metadata, and `scope` when not empty.
fn challenge(base: &str, scope: &str) -> Reply {
    let scope = if scope.is_empty() { String::new() } else { format!("scope=\"{scope}\", ") };
    let metadata = format!("{base}/.well-known/oauth-protected-resource/mcp");
    Reply {
        status: 401,
        headers: vec![("www-authenticate".into(), format!("Bearer {scope}resource_metadata=\"{metadata}\""))],
        body: String::new(),
    }
}

/// The resource's metadata and the authorization server's metadata, registration and token endpoints.
fn authorization(method: &str, path: &str, base: &str, cimd: bool) -> Reply {
    match (method, path) {
        ("GET", "/.well-known/oauth-protected-resource/mcp") => {
            Reply::json(json!({"resource": format!("{base}/mcp"), "authorization_servers": [base]}))
        }
        ("GET", "/.well-known/oauth-authorization-server") => Reply::json(json!({
            "issuer": base,
            "authorization_endpoint": format!("{base}/authorize"),
            "token_endpoint": format!("{base}/token"),
            "registration_endpoint": format!("{base}/register"),
            "response_types_supported": ["code"],
            "code_challenge_methods_supported": ["S256"],
            "client_id_metadata_document_supported": cimd,
        })),
        ("POST", "/register") => Reply {
            status: 201,
            ..Reply::json(json!({"client_id": "registered-client", "redirect_uris": ["http://127.0.0.1/callback"]}))
        },
        ("POST", "/token") => {
            Reply::json(json!({"access_token": "a-token", "token_type": "Bearer", "expires_in": 3600}))
        }
        _ => Reply::status(404),
    }
}

/// Logs in to `server` configured with `oauth` (JSON); returns the client id the authorization URL carried.
async fn client_id_used(server: &LoopbackServer, oauth: serde_json::Value) -> String {
    asked_for(server, oauth, "client_id").await.expect("client_id")
}

/// Logs in to `server` configured with `oauth` (JSON); returns the authorization URL's `parameter`.
async fn asked_for(server: &LoopbackServer, oauth: serde_json::Value, parameter: &str) -> Option<String> {
    let raw = serde_json::from_value(json!({"url": format!("{}/mcp", server.base), "oauth": oauth})).expect("entry");
    let config = validate_server("remote", &raw).expect("valid");
    let seen = Arc::new(Mutex::new(None::<Url>));
    let record = Arc::clone(&seen);
    // The browser: consents at once, so it goes straight to the redirect address with a code and the state.
    let open = move |url: &Url| {
        *record.lock().expect("record") = Some(url.clone());
        let pairs: std::collections::HashMap<_, _> = url.query_pairs().into_owned().collect();
        let mut callback = Url::parse(&pairs["redirect_uri"]).expect("redirect");
        callback.query_pairs_mut().append_pair("code", "a-code").append_pair("state", &pairs["state"]);
        tokio::spawn(async move { client().get(callback).send().await.map(drop) });
        Ok(())
    };
    let context = LoginContext {
        vault: memory_vault(),
        flows: Arc::new(PendingFlows::new()),
        http: client(),
        open: &open,
        timeout: std::time::Duration::from_secs(10),
    };
    login_server(&config, context).await.expect("logged in");
    let url = seen.lock().expect("seen").clone().expect("the browser was opened");
    url.query_pairs().find(|(key, _)| key == parameter).map(|(_, value)| value.into_owned())
}

/// Where the authorization server accepts one, the configured metadata document's URL is the client id and nothing
/// is registered; where it does not, dynamic registration is the fallback; a pre-registered client id comes first.
#[tokio::test]
async fn pre_registered_then_metadata_document_then_dynamic_registration() {
    let accepting = serve(true).await;
    assert_eq!(client_id_used(&accepting, json!({"clientMetadataUrl": METADATA_URL})).await, METADATA_URL);
    assert!(!accepting.request_lines().contains(&"POST /register".to_owned()), "{:?}", accepting.request_lines());

    let refusing = serve(false).await;
    assert_eq!(client_id_used(&refusing, json!({"clientMetadataUrl": METADATA_URL})).await, "registered-client");
    assert!(refusing.request_lines().contains(&"POST /register".to_owned()));

    let both = serve(true).await;
    let id = client_id_used(&both, json!({"clientId": "pre-registered", "clientMetadataUrl": METADATA_URL})).await;
    assert_eq!(id, "pre-registered");
    assert!(!both.request_lines().contains(&"POST /register".to_owned()));
}

/// A metadata document URL that is not https with a path is refused when the file is read, naming the key.
#[test]
fn a_metadata_document_url_must_be_https_with_a_path() {
    for bad in ["http://plugboard.example/client.json", "https://plugboard.example/", "not a url"] {
        let raw = serde_json::from_value(json!({"url": "https://a.example/mcp", "oauth": {"clientMetadataUrl": bad}}))
            .expect("entry");
        assert_eq!(validate_server("s", &raw).expect_err(bad).field, "oauth.clientMetadataUrl");
    }
}

/// A server that lets `initialize` through without a token and challenges everything else names its scopes only to
/// the other requests: the login learns them from `server/discover`, which every session now sends first, and asks
/// for them (it asked for none, the challenge unseen, before).
#[tokio::test]
async fn the_login_learns_the_scopes_a_server_names_past_initialize() {
    let server = LoopbackServer::replying_to(|request: &Request, base: &str| {
        let initialize = String::from_utf8_lossy(&request.body).contains("\"initialize\"");
        match (request.method.as_str(), request.path.as_str()) {
            ("POST", "/mcp") if initialize => Reply::json(json!({"jsonrpc": "2.0", "id": 0, "result": {}})),
            ("POST", "/mcp") => challenge(base, "files:read"),
            (method, path) => authorization(method, path, base, false),
        }
    })
    .await;
    let scope = asked_for(&server, json!({"clientId": "pre-registered"}), "scope").await;
    assert_eq!(scope.as_deref(), Some("files:read"));
}
