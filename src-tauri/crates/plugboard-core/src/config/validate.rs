//! Raw entry → validated `ServerConfig`, with errors that name the server, the field and the reason.

use std::collections::BTreeMap;
use std::time::Duration;

use super::model::{
    Auth, DEFAULT_TIMEOUT, EnterpriseManaged, Grant, HttpMode, HttpSpec, IdentityProviderSettings, MAX_TIMEOUT,
    OAuthSettings, Origin, Redirect, ServerConfig, ServerName, StdioSpec, ToolFilter, Transport, WorkloadToken,
};
use super::other_keys::other_keys;
use super::raw::{RawOAuth, RawServer};

/// Why one entry is not usable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("server {server:?}: {field}: {message}")]
pub struct EntryError {
    pub server: String,
    /// The field as written in the file (`url`, `oauth.redirect`, `mcpServers` for the name itself).
    pub field: String,
    pub message: String,
}

/// Validates one entry of `mcpServers`.
pub fn validate_server(name: &str, raw: &RawServer) -> Result<ServerConfig, EntryError> {
    let fail = |field: &str, message: String| EntryError { server: name.to_owned(), field: field.into(), message };
    let server_name = ServerName::parse(name).map_err(|e| fail("name", e.to_string()))?;
    let transport = transport(raw).map_err(|(f, m)| fail(f, m))?;
    let auth = auth(raw, &transport).map_err(|(f, m)| fail(f, m))?;
    let other = other_keys(raw).map_err(|(f, m)| fail(&f, m))?;
    let timeout = match (raw.timeout_ms.map(Duration::from_millis), other.timeout) {
        (None, None) => DEFAULT_TIMEOUT,
        (Some(Duration::ZERO), _) => return Err(fail("timeoutMs", "must be more than 0".into())),
        (Some(timeout), _) | (None, Some(timeout)) if timeout > MAX_TIMEOUT => {
            let field = if raw.timeout_ms.is_some() { "timeoutMs" } else { "timeout" };
            return Err(fail(field, format!("must be at most {} ms (one hour)", MAX_TIMEOUT.as_millis())));
        }
        (Some(timeout), _) | (None, Some(timeout)) => timeout,
    };
    let tools = raw.tools.as_deref().or(other.tools.as_deref());
    let mut auto_approve = raw.auto_approve.clone().unwrap_or_default();
    auto_approve.extend(other.auto_approve);
    Ok(ServerConfig {
        name: server_name,
        transport,
        auth,
        tools: tool_filter(tools).map_err(|m| fail("tools", m.to_owned()))?,
        auto_approve,
        enabled: raw.enabled.or(other.enabled).unwrap_or(true),
        required: raw.required.unwrap_or(false),
        read_only: raw.read_only.unwrap_or(false),
        timeout,
        origin: raw.origin.as_ref().map(|o| Origin { client: o.client.clone(), path: o.path.clone() }),
    })
}

type FieldError = (&'static str, String);

fn transport(raw: &RawServer) -> Result<Transport, FieldError> {
    let mode = match raw.kind.as_deref() {
        None => None,
        Some("stdio") => Some(None),
        Some("http" | "streamable-http" | "streamableHttp") => Some(Some(HttpMode::StreamableHttp)),
        Some("sse") => Some(Some(HttpMode::Sse)),
        Some(other) => {
            return Err(("type", format!("{other:?} is not a transport: use \"stdio\", \"http\" or \"sse\"")));
        }
    };
    match (&raw.command, &raw.url, mode) {
        (Some(_), Some(_), _) => Err(("command", "has both \"command\" and \"url\": keep one".into())),
        (Some(command), None, None | Some(None)) => {
            if command.trim().is_empty() {
                return Err(("command", "cannot be empty".into()));
            }
            check_keys("env", raw.env.as_ref())?;
            Ok(Transport::Stdio(StdioSpec {
                command: command.clone(),
                args: raw.args.clone().unwrap_or_default(),
                env: raw.env.clone().unwrap_or_default(),
                cwd: raw.cwd.clone(),
            }))
        }
        (Some(_), None, Some(Some(_))) => Err(("type", "a remote transport needs \"url\", not \"command\"".into())),
        (None, Some(url), None | Some(Some(_))) => {
            check_url(url)?;
            check_keys("headers", raw.headers.as_ref())?;
            Ok(Transport::Http(HttpSpec {
                url: url.clone(),
                headers: raw.headers.clone().unwrap_or_default(),
                mode: mode.flatten().unwrap_or(HttpMode::Probe),
            }))
        }
        (None, Some(_), Some(None)) => Err(("type", "\"stdio\" needs \"command\", not \"url\"".into())),
        (None, None, _) => {
            Err(("command", "needs either \"command\" (a local server) or \"url\" (a remote one)".into()))
        }
    }
}

fn check_url(url: &str) -> Result<(), FieldError> {
    // A reference may stand for the scheme or host; its value is checked when it is expanded at connect time.
    if url.contains("${") {
        return Ok(());
    }
    // The same guard the engine applies at connect time (net::check_server_url), so the file is refused early.
    crate::net::check_server_url("url", url).map(drop).map_err(|refused| ("url", refused.problem()))
}

fn check_keys(field: &'static str, map: Option<&BTreeMap<String, String>>) -> Result<(), FieldError> {
    match map {
        Some(map) if map.keys().any(|k| k.trim().is_empty()) => Err((field, "has an empty name".into())),
        _ => Ok(()),
    }
}

fn auth(raw: &RawServer, transport: &Transport) -> Result<Auth, FieldError> {
    let remote = matches!(transport, Transport::Http(_));
    // `"oauth": false` asks for no login, as if the key were not there.
    let oauth = raw.oauth.as_ref().filter(|oauth| !oauth.is_off());
    match (oauth, &raw.bearer_token_env_var) {
        (Some(_), Some(_)) => Err(("oauth", "\"oauth\" and \"bearerTokenEnvVar\" exclude each other: keep one".into())),
        (Some(_), None) if !remote => Err(("oauth", "only a remote server (with \"url\") can log in".into())),
        (None, Some(_)) if !remote => {
            Err(("bearerTokenEnvVar", "only a remote server (with \"url\") takes a token".into()))
        }
        (Some(oauth), None) => {
            let redirect = match oauth.redirect.as_deref() {
                None | Some("loopback") => Redirect::Loopback,
                Some("deep-link") => Redirect::DeepLink,
                Some(other) => return Err(("oauth.redirect", format!("{other:?}: use \"loopback\" or \"deep-link\""))),
            };
            if let Some(url) = &oauth.client_metadata_url {
                check_metadata_document_url(url).map_err(|m| ("oauth.clientMetadataUrl", m))?;
            }
            Ok(Auth::OAuth(OAuthSettings {
                scopes: oauth.scopes.clone(),
                client_id: oauth.client_id.clone(),
                client_secret: oauth.client_secret.clone(),
                client_metadata_url: oauth.client_metadata_url.clone(),
                redirect,
                allow_missing_pkce_metadata: oauth.allow_missing_pkce_metadata.unwrap_or(false),
                bearer_only: oauth.dpop == Some(false),
                grant: grant(oauth)?,
            }))
        }
        (None, Some(var)) if var.trim().is_empty() => Err(("bearerTokenEnvVar", "cannot be empty".into())),
        (None, Some(var)) => Ok(Auth::BearerEnv { var: var.clone() }),
        (None, None) => match transport {
            Transport::Http(http) if !http.headers.is_empty() => Ok(Auth::Headers),
            _ => Ok(Auth::None),
        },
    }
}

/// The grants an `oauth` section may name.
const GRANTS: [&str; 4] = ["authorization_code", "client_credentials", "workload_identity", "enterprise_managed"];

/// The `grant` of an `oauth` section and the keys it needs. Keys of another grant are refused rather than ignored,
/// and a secret is only ever a reference: a key or a token written into servers.json would sit on disk in plain text.
fn grant(oauth: &RawOAuth) -> Result<Grant, FieldError> {
    let name = oauth.grant.as_deref().unwrap_or("authorization_code");
    if !GRANTS.contains(&name) {
        let listed = GRANTS.map(|g| format!("\"{g}\"")).join(", ");
        return Err(("oauth.grant", format!("{name:?}: use one of {listed}")));
    }
    // The keys that belong to one grant each.
    let owned = [
        ("oauth.privateKey", oauth.private_key.is_some(), "client_credentials"),
        ("oauth.signingAlgorithm", oauth.signing_algorithm.is_some(), "client_credentials"),
        ("oauth.assertion", oauth.assertion.is_some(), "workload_identity"),
        ("oauth.assertionFile", oauth.assertion_file.is_some(), "workload_identity"),
        ("oauth.identityProvider", oauth.identity_provider.is_some(), "enterprise_managed"),
        ("oauth.idToken", oauth.id_token.is_some(), "enterprise_managed"),
    ];
    if let Some((key, _, owner)) = owned.iter().find(|(_, present, owner)| *present && *owner != name) {
        return Err((key, format!("applies to \"grant\": \"{owner}\" only")));
    }
    match name {
        "client_credentials" => client_credentials(oauth),
        "workload_identity" => workload_identity(oauth),
        "enterprise_managed" => enterprise_managed(oauth),
        _ => Ok(Grant::AuthorizationCode),
    }
}

/// A written secret must be a reference.
fn reference(key: &'static str, value: &str) -> Result<(), FieldError> {
    if value.contains("${") {
        Ok(())
    } else {
        Err((key, "write it as a ${secret:NAME} or ${env:VAR} reference".into()))
    }
}

fn client_credentials(oauth: &RawOAuth) -> Result<Grant, FieldError> {
    if oauth.client_id.is_none() {
        return Err(("oauth.clientId", "client_credentials needs the client id registered for Plugboard".into()));
    }
    match (&oauth.client_secret, &oauth.private_key) {
        (Some(_), Some(_)) => {
            return Err(("oauth.privateKey", "\"clientSecret\" and \"privateKey\" exclude each other".into()));
        }
        (None, None) => {
            return Err(("oauth.clientSecret", "client_credentials needs \"clientSecret\" or \"privateKey\"".into()));
        }
        (_, Some(key)) => reference("oauth.privateKey", key)?,
        (Some(_), None) => {}
    }
    if let Some(algorithm) = &oauth.signing_algorithm
        && !SIGNING_ALGORITHMS.contains(&algorithm.as_str())
    {
        return Err(("oauth.signingAlgorithm", format!("use one of {}", SIGNING_ALGORITHMS.join(", "))));
    }
    Ok(Grant::ClientCredentials {
        private_key: oauth.private_key.clone(),
        signing_algorithm: oauth.signing_algorithm.clone(),
    })
}

fn workload_identity(oauth: &RawOAuth) -> Result<Grant, FieldError> {
    let token = match (&oauth.assertion, &oauth.assertion_file) {
        (Some(written), None) => {
            reference("oauth.assertion", written)?;
            WorkloadToken::Reference(written.clone())
        }
        (None, Some(file)) => WorkloadToken::File(file.into()),
        (Some(_), Some(_)) => {
            return Err(("oauth.assertionFile", "\"assertion\" and \"assertionFile\" exclude each other".into()));
        }
        (None, None) => {
            return Err(("oauth.assertion", "workload_identity needs \"assertion\" or \"assertionFile\"".into()));
        }
    };
    Ok(Grant::WorkloadIdentity(token))
}

/// The identity provider's issuer, token endpoint and client id, and the person's ID token as a reference. Plugboard's
/// client at the server's authorization server is `clientId` with `clientSecret` (or the one in the keychain).
fn enterprise_managed(oauth: &RawOAuth) -> Result<Grant, FieldError> {
    if oauth.client_id.is_none() {
        return Err(("oauth.clientId", "enterprise_managed needs the client id registered for Plugboard".into()));
    }
    let Some(provider) = &oauth.identity_provider else {
        return Err((
            "oauth.identityProvider",
            "enterprise_managed needs the identity provider that issues the ID token".into(),
        ));
    };
    let required = |key: &'static str, value: &Option<String>| {
        value.clone().filter(|v| !v.trim().is_empty()).ok_or((key, "the identity provider needs it".to_owned()))
    };
    let issuer = required("oauth.identityProvider.issuer", &provider.issuer)?;
    let token_endpoint = required("oauth.identityProvider.tokenEndpoint", &provider.token_endpoint)?;
    let client_id = required("oauth.identityProvider.clientId", &provider.client_id)?;
    if let Some(secret) = &provider.client_secret {
        reference("oauth.identityProvider.clientSecret", secret)?;
    }
    if let Some(key) = provider.other.keys().next() {
        return Err(("oauth.identityProvider", format!("{key:?} is not a key of the identity provider")));
    }
    let Some(id_token) = &oauth.id_token else {
        return Err((
            "oauth.idToken",
            "enterprise_managed needs the person's ID token from the identity provider".into(),
        ));
    };
    reference("oauth.idToken", id_token)?;
    Ok(Grant::EnterpriseManaged(EnterpriseManaged {
        identity_provider: IdentityProviderSettings {
            issuer,
            token_endpoint,
            client_id,
            client_secret: provider.client_secret.clone(),
        },
        id_token: id_token.clone(),
    }))
}

/// The JWT algorithms a `privateKey` may sign with (rmcp's).
pub const SIGNING_ALGORITHMS: [&str; 5] = ["ES256", "ES384", "RS256", "RS384", "RS512"];

/// A client ID metadata document is named by an https URL with a path (SEP-991): the URL itself is the client id.
fn check_metadata_document_url(url: &str) -> Result<(), String> {
    match url::Url::parse(url) {
        Ok(parsed) if parsed.scheme() == "https" && parsed.path() != "/" && parsed.fragment().is_none() => Ok(()),
        _ => Err("must be an https URL with a path (the client ID metadata document)".into()),
    }
}

/// An allowlist (or a profile's tool list) as written → the filter.
pub(super) fn tool_filter(tools: Option<&[String]>) -> Result<ToolFilter, &'static str> {
    match tools {
        None => Ok(ToolFilter::All),
        Some([only]) if only == "*" => Ok(ToolFilter::All),
        Some(names) if names.iter().any(|n| n.trim().is_empty()) => Err("a tool name cannot be empty"),
        Some(names) if names.iter().any(|n| n == "*") => Err("\"*\" means all tools and stands alone"),
        Some(names) => Ok(ToolFilter::Only(names.to_vec())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::raw::RawConfigFile;

    fn entry(json: &str) -> RawServer {
        serde_json::from_str(json).expect("raw entry")
    }

    fn error_field(json: &str) -> String {
        validate_server("s", &entry(json)).expect_err("invalid").field
    }

    /// Transports come from `command` / `url` / `type` as DESIGN.md says.
    #[test]
    fn transports() {
        let stdio = validate_server("a", &entry(r#"{"command":"npx","args":["-y","x"],"env":{"A":"1"}}"#)).expect("ok");
        assert!(matches!(stdio.transport, Transport::Stdio(ref s) if s.command == "npx" && s.args == ["-y", "x"]));
        for (kind, mode) in [
            (r#""http""#, HttpMode::StreamableHttp),
            (r#""streamable-http""#, HttpMode::StreamableHttp),
            (r#""streamableHttp""#, HttpMode::StreamableHttp),
            (r#""sse""#, HttpMode::Sse),
        ] {
            let json = format!(r#"{{"type":{kind},"url":"https://x.example/mcp"}}"#);
            let server = validate_server("a", &entry(&json)).expect("ok");
            assert!(matches!(server.transport, Transport::Http(ref h) if h.mode == mode), "{kind}");
        }
        let probe = validate_server("a", &entry(r#"{"url":"https://x.example/"}"#)).expect("ok");
        assert!(matches!(probe.transport, Transport::Http(ref h) if h.mode == HttpMode::Probe));
    }

    /// The machine grants read with the keys each needs; a secret written in plain text, a key of another grant or
    /// a missing key is refused, naming the key.
    #[test]
    fn oauth_grants() {
        let grant = |oauth: &str| {
            let json = format!(r#"{{"url":"https://a.example/mcp","oauth":{oauth}}}"#);
            match validate_server("s", &entry(&json)).map(|s| s.auth) {
                Ok(Auth::OAuth(settings)) => Ok(settings.grant),
                Ok(other) => panic!("{other:?}"),
                Err(e) => Err(e.field),
            }
        };
        assert_eq!(grant("{}"), Ok(Grant::AuthorizationCode));
        assert_eq!(
            grant(r#"{"grant":"client_credentials","clientId":"c","clientSecret":"${secret:s}"}"#),
            Ok(Grant::ClientCredentials { private_key: None, signing_algorithm: None })
        );
        assert_eq!(
            grant(
                r#"{"grant":"client_credentials","clientId":"c","privateKey":"${secret:k}","signingAlgorithm":"RS256"}"#
            ),
            Ok(Grant::ClientCredentials {
                private_key: Some("${secret:k}".into()),
                signing_algorithm: Some("RS256".into())
            })
        );
        assert_eq!(
            grant(r#"{"grant":"workload_identity","assertion":"${env:TOKEN}"}"#),
            Ok(Grant::WorkloadIdentity(WorkloadToken::Reference("${env:TOKEN}".into())))
        );
        assert_eq!(
            grant(r#"{"grant":"workload_identity","assertionFile":"/run/token"}"#),
            Ok(Grant::WorkloadIdentity(WorkloadToken::File("/run/token".into())))
        );
        assert_eq!(
            grant(
                r#"{"grant":"enterprise_managed","clientId":"c","clientSecret":"${secret:s}","idToken":"${env:ID}",
                    "identityProvider":{"issuer":"https://idp","tokenEndpoint":"https://idp/token","clientId":"p"}}"#
            ),
            Ok(Grant::EnterpriseManaged(EnterpriseManaged {
                identity_provider: IdentityProviderSettings {
                    issuer: "https://idp".into(),
                    token_endpoint: "https://idp/token".into(),
                    client_id: "p".into(),
                    client_secret: None,
                },
                id_token: "${env:ID}".into(),
            }))
        );
        for (oauth, field) in [
            (r#"{"grant":"password"}"#, "oauth.grant"),
            (r#"{"grant":"client_credentials","clientSecret":"${secret:s}"}"#, "oauth.clientId"),
            (r#"{"grant":"client_credentials","clientId":"c"}"#, "oauth.clientSecret"),
            (
                r#"{"grant":"client_credentials","clientId":"c","privateKey":"-----BEGIN PRIVATE KEY-----"}"#,
                "oauth.privateKey",
            ),
            (
                r#"{"grant":"client_credentials","clientId":"c","privateKey":"${secret:k}","signingAlgorithm":"HS256"}"#,
                "oauth.signingAlgorithm",
            ),
            (
                r#"{"grant":"client_credentials","clientId":"c","clientSecret":"${secret:s}","assertion":"${env:T}"}"#,
                "oauth.assertion",
            ),
            (r#"{"grant":"workload_identity","assertion":"eyJhbGciOi.eyJzdWIi.sig"}"#, "oauth.assertion"),
            (r#"{"grant":"workload_identity"}"#, "oauth.assertion"),
            (r#"{"grant":"workload_identity","assertion":"${env:T}","assertionFile":"/t"}"#, "oauth.assertionFile"),
            (
                r#"{"grant":"client_credentials","clientId":"c","clientSecret":"${secret:s}","idToken":"${env:T}"}"#,
                "oauth.idToken",
            ),
            (r#"{"grant":"enterprise_managed","clientId":"c","idToken":"${env:T}"}"#, "oauth.identityProvider"),
            (
                r#"{"grant":"enterprise_managed","clientId":"c","identityProvider":{"issuer":"https://idp","clientId":"p"},"idToken":"${env:T}"}"#,
                "oauth.identityProvider.tokenEndpoint",
            ),
            (
                r#"{"grant":"enterprise_managed","clientId":"c","identityProvider":{"issuer":"https://idp","tokenEndpoint":"https://idp/token","clientId":"p"},"idToken":"eyJhbGciOi.eyJzdWIi.sig"}"#,
                "oauth.idToken",
            ),
            (r#"{"privateKey":"${secret:k}"}"#, "oauth.privateKey"),
        ] {
            assert_eq!(grant(oauth), Err(field.to_owned()), "{oauth}");
        }
    }

    /// DPoP is used wherever the authorization server offers it unless the entry says `"dpop": false`.
    #[test]
    fn oauth_dpop_is_on_unless_refused() {
        let bearer_only = |oauth: &str| {
            let json = format!(r#"{{"url":"https://a.example/mcp","oauth":{oauth}}}"#);
            match validate_server("s", &entry(&json)).expect("valid").auth {
                Auth::OAuth(settings) => settings.bearer_only,
                other => panic!("{other:?}"),
            }
        };
        assert!(!bearer_only("{}"));
        assert!(!bearer_only(r#"{"dpop":true}"#));
        assert!(bearer_only(r#"{"dpop":false}"#));
    }

    /// Defaults: enabled, not required, not read-only, 30 s, all tools, no auth.
    #[test]
    fn defaults() {
        let s = validate_server("a", &entry(r#"{"command":"x"}"#)).expect("ok");
        assert!(s.enabled && !s.required && !s.read_only);
        assert_eq!((s.timeout, s.tools, s.auth), (DEFAULT_TIMEOUT, ToolFilter::All, Auth::None));
    }

    /// Each broken field is named in the error.
    #[test]
    fn errors_name_the_field() {
        assert_eq!(error_field(r#"{"command":"x","url":"https://a"}"#), "command");
        assert_eq!(error_field(r#"{}"#), "command");
        assert_eq!(error_field(r#"{"command":"  "}"#), "command");
        assert_eq!(error_field(r#"{"type":"websocket","url":"https://a"}"#), "type");
        assert_eq!(error_field(r#"{"type":"sse","command":"x"}"#), "type");
        assert_eq!(error_field(r#"{"type":"stdio","url":"https://a"}"#), "type");
        assert_eq!(error_field(r#"{"url":"javascript:alert(1)"}"#), "url");
        assert_eq!(error_field(r#"{"url":"file:///etc/passwd"}"#), "url");
        assert_eq!(error_field(r#"{"url":"not a url"}"#), "url");
        assert_eq!(error_field(r#"{"command":"x","timeoutMs":0}"#), "timeoutMs");
        assert_eq!(error_field(r#"{"command":"x","timeoutMs":99999999}"#), "timeoutMs");
        assert_eq!(error_field(r#"{"command":"x","tools":["a",""]}"#), "tools");
        assert_eq!(error_field(r#"{"command":"x","tools":["*","a"]}"#), "tools");
        assert_eq!(error_field(r#"{"command":"x","oauth":{}}"#), "oauth");
        assert_eq!(error_field(r#"{"url":"https://a","oauth":{},"bearerTokenEnvVar":"T"}"#), "oauth");
        assert_eq!(error_field(r#"{"url":"https://a","oauth":{"redirect":"email"}}"#), "oauth.redirect");
        assert_eq!(error_field(r#"{"command":"x","env":{"":"v"}}"#), "env");
        let bad_name = validate_server("my server", &entry(r#"{"command":"x"}"#)).expect_err("name");
        assert_eq!(bad_name.field, "name");
    }

    /// Allowlists: absent and ["*"] are all tools, [] is none, names are kept in order.
    #[test]
    fn tool_filters() {
        let tools = |json: &str| validate_server("a", &entry(json)).expect("ok").tools;
        assert_eq!(tools(r#"{"command":"x","tools":["*"]}"#), ToolFilter::All);
        assert_eq!(tools(r#"{"command":"x","tools":[]}"#), ToolFilter::Only(vec![]));
        assert_eq!(tools(r#"{"command":"x","tools":["b","a"]}"#), ToolFilter::Only(vec!["b".into(), "a".into()]));
    }

    /// Auth is OAuth, a bearer env var, static headers or none; references in URLs are accepted unexpanded.
    #[test]
    fn auth_kinds() {
        let auth = |json: &str| validate_server("a", &entry(json)).expect("ok").auth;
        assert!(matches!(
            auth(r#"{"url":"https://a","oauth":{"redirect":"deep-link"}}"#),
            Auth::OAuth(OAuthSettings { redirect: Redirect::DeepLink, .. })
        ));
        assert_eq!(auth(r#"{"url":"https://a","bearerTokenEnvVar":"TOKEN"}"#), Auth::BearerEnv { var: "TOKEN".into() });
        assert_eq!(auth(r#"{"url":"https://a","headers":{"Authorization":"Bearer ${secret:t}"}}"#), Auth::Headers);
        assert_eq!(auth(r#"{"url":"${env:BASE}/mcp"}"#), Auth::None);
    }

    /// Sanitising turns any imported name into a valid one.
    #[test]
    fn names_are_sanitized() {
        assert_eq!(ServerName::sanitize("My Server (prod)!").as_str(), "My-Server-prod");
        assert_eq!(ServerName::sanitize("ünïcode").as_str(), "n-code");
        assert_eq!(ServerName::sanitize("   ").as_str(), "server");
        assert_eq!(ServerName::sanitize(&"x".repeat(500)).as_str().len(), super::super::model::MAX_NAME_LEN);
        assert!(ServerName::parse(ServerName::sanitize("a/b\\c").as_str()).is_ok());
    }

    /// The example of DESIGN.md validates as written.
    #[test]
    fn design_example_validates() {
        let file: RawConfigFile = serde_json::from_str(
            r#"{ "mcpServers": {
            "linear":   { "type": "http", "url": "https://mcp.linear.app/mcp", "oauth": { "scopes": "read write" } },
            "files":    { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"],
                          "tools": ["read_file", "list_directory"] },
            "internal": { "type": "sse", "url": "https://tools.example/sse",
                          "headers": { "Authorization": "Bearer ${secret:internal-token}" }, "timeoutMs": 120000 } } }"#,
        )
        .expect("parse");
        for (name, raw) in &file.servers {
            validate_server(name, raw).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}
