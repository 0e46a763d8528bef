//! Turning a validated server config into a live MCP session: `${…}` references are expanded here (at connect
//! time only), then the transport is picked. Injectable, so the supervisor can be driven by a test connector.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::Arc;

use futures::future::BoxFuture;
use rmcp::ServiceExt;

use crate::auth;
use crate::config::model::{Auth, HttpMode, HttpSpec, ServerConfig, StdioSpec, Transport};
use crate::config::references::{ReferenceError, expand};
use crate::net::{check_server_url, pooled_http_client};
use crate::person::PersonRequests;
use crate::secrets::{RecordingReferences, ResolvedSecrets, Sensitive, ServerReferences, Vault};
use crate::transport::{
    Answerer, DownstreamLink, McpSession, PersonLink, StdioLaunch, client_handler, connect_stdio_answered,
    serve_streamable_http,
};

/// A session and what the person should know about how it was made.
pub struct Connected {
    pub session: McpSession,
    pub warnings: Vec<String>,
    /// The secret values the session was made with (for redaction; never shown).
    pub secrets: ResolvedSecrets,
}

/// Why a connection attempt failed, and whether retrying by itself can help.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConnectError {
    /// A `${secret:…}` is missing or a reference is malformed: the person must fix it.
    #[error("{0}")]
    Reference(#[from] ReferenceError),
    /// The server wants credentials; `hint` says how to provide them.
    #[error("{hint}")]
    AuthRequired { hint: String },
    /// Anything else; `transient` says whether to retry.
    #[error("{message}")]
    Transport { message: String, transient: bool, stderr_tail: Option<String> },
}

impl ConnectError {
    pub fn is_transient(&self) -> bool {
        matches!(self, Self::Transport { transient: true, .. })
    }
}

/// Makes sessions; the supervisor owns one and calls it for every (re)connect.
pub trait Connector: Send + Sync + 'static {
    fn connect<'a>(&'a self, config: &'a ServerConfig) -> BoxFuture<'a, Result<Connected, ConnectError>>;
}

/// The real connector: env and keychain for references, one pooled HTTP client for every remote server.
pub struct LiveConnector {
    vault: Arc<Vault>,
    http: reqwest::Client,
    /// Where servers' requests for a person go; `None` (CLI, `serve`) declines them.
    person: Option<Arc<PersonRequests>>,
    /// The gateway's client, which answers them instead (`serve`).
    client: Option<DownstreamLink>,
    /// The transport a probed URL turned out to speak, so reconnects skip the probe.
    probed: std::sync::Mutex<HashMap<String, HttpMode>>,
}

impl LiveConnector {
    /// A connector for a process without a person: requests for one are declined.
    pub fn new(vault: Arc<Vault>) -> Self {
        Self { vault, http: pooled_http_client(), person: None, client: None, probed: std::sync::Mutex::default() }
    }

    /// A connector whose sessions hand servers' elicitation, sampling and roots requests to `person` (the window).
    pub fn with_person(vault: Arc<Vault>, person: Arc<PersonRequests>) -> Self {
        Self { person: Some(person), ..Self::new(vault) }
    }

    /// A connector whose sessions relay servers' requests for a person to the gateway's client.
    pub fn with_client(vault: Arc<Vault>, client: DownstreamLink) -> Self {
        Self { client: Some(client), ..Self::new(vault) }
    }

    fn answerer(&self, server: &str) -> Answerer {
        match (&self.person, &self.client) {
            (Some(broker), _) => Answerer::Person(PersonLink::new(Arc::clone(broker), server)),
            (None, Some(client)) => Answerer::Client(client.clone()),
            (None, None) => Answerer::default(),
        }
    }

    fn remembered(&self, url: &str, mode: HttpMode) -> HttpMode {
        if mode != HttpMode::Probe {
            return mode;
        }
        self.probed.lock().map(|known| known.get(url).copied().unwrap_or(mode)).unwrap_or(mode)
    }

    fn remember(&self, url: &str, mode: HttpMode) {
        if let Ok(mut known) = self.probed.lock() {
            known.insert(url.to_owned(), mode);
        }
    }
}

impl Connector for LiveConnector {
    fn connect<'a>(&'a self, config: &'a ServerConfig) -> BoxFuture<'a, Result<Connected, ConnectError>> {
        Box::pin(async move {
            let (resolved, secrets) = resolve(config, &self.vault).await?;
            let answerer = self.answerer(config.name.as_str());
            match resolved {
                Resolved::Stdio(launch, warnings) => {
                    let session =
                        connect_stdio_answered(config.name.as_str(), &launch, answerer).await.map_err(|e| {
                            ConnectError::Transport {
                                transient: e.is_transient(),
                                message: e.to_string(),
                                stderr_tail: e.stderr_tail().map(str::to_owned),
                            }
                        })?;
                    Ok(Connected { session, warnings, secrets })
                }
                Resolved::Http { url, headers, mode, warnings } if matches!(config.auth, Auth::OAuth(_)) => {
                    let session = connect_oauth(self, config.name.as_str(), &url, headers, mode, answerer).await?;
                    Ok(Connected { session, warnings, secrets })
                }
                Resolved::Http { url, headers, mode, warnings } => {
                    let asked = self.remembered(&url, mode);
                    let (session, spoke) = connect_http(self.http.clone(), &url, headers, asked, answerer).await?;
                    if mode == HttpMode::Probe {
                        self.remember(&url, spoke);
                    }
                    Ok(Connected { session, warnings, secrets })
                }
            }
        })
    }
}

enum Resolved {
    Stdio(StdioLaunch, Vec<String>),
    Http { url: String, headers: Vec<(String, Sensitive<String>)>, mode: HttpMode, warnings: Vec<String> },
}

/// Expands every reference of `config`; keychain reads block, so this runs on the blocking pool.
async fn resolve(config: &ServerConfig, vault: &Arc<Vault>) -> Result<(Resolved, ResolvedSecrets), ConnectError> {
    let config = config.clone();
    let vault = Arc::clone(vault);
    tokio::task::spawn_blocking(move || resolve_now(&config, &vault)).await.map_err(|e| ConnectError::Transport {
        message: e.to_string(),
        transient: false,
        stderr_tail: None,
    })?
}

fn resolve_now(config: &ServerConfig, vault: &Vault) -> Result<(Resolved, ResolvedSecrets), ConnectError> {
    let source = RecordingReferences::new(ServerReferences { server: config.name.as_str(), vault });
    let resolved = resolve_with(config, &source)?;
    Ok((resolved, source.into_resolved()))
}

fn resolve_with(config: &ServerConfig, source: &RecordingReferences<'_>) -> Result<Resolved, ConnectError> {
    let mut warnings = Vec::new();
    let mut text = |value: &str, field: &str| -> Result<Sensitive<String>, ConnectError> {
        let expanded = expand(value, source)?;
        for var in expanded.unset {
            warnings.push(format!("{field}: the environment variable {var} is not set, so it expanded empty"));
        }
        Ok(expanded.value)
    };
    match &config.transport {
        Transport::Stdio(StdioSpec { command, args, env, cwd }) => {
            let program = text(command, "command")?.expose().clone();
            let args = args.iter().map(|a| text(a, "args").map(|v| v.expose().clone())).collect::<Result<_, _>>()?;
            let env: BTreeMap<String, String> = env
                .iter()
                .map(|(k, v)| text(v, &format!("env.{k}")).map(|v| (k.clone(), v.expose().clone())))
                .collect::<Result<_, _>>()?;
            let cwd = cwd.as_deref().map(|c| text(c, "cwd").map(|v| PathBuf::from(v.expose()))).transpose()?;
            let launch = StdioLaunch { program: PathBuf::from(program), args, env, cwd };
            Ok(Resolved::Stdio(launch, warnings))
        }
        Transport::Http(HttpSpec { url, headers, mode }) => {
            let url = text(url, "url")?.expose().clone();
            check_server_url("url", &url)?;
            let mut resolved: Vec<(String, Sensitive<String>)> = headers
                .iter()
                .map(|(k, v)| text(v, &format!("headers.{k}")).map(|v| (k.clone(), v)))
                .collect::<Result<_, _>>()?;
            if let Auth::BearerEnv { var } = &config.auth {
                match std::env::var(var) {
                    Ok(token) if !token.is_empty() => {
                        resolved.push(("Authorization".into(), Sensitive::new(format!("Bearer {token}"))));
                    }
                    _ => {
                        return Err(ConnectError::AuthRequired {
                            hint: format!("set the environment variable {var} to the server's token"),
                        });
                    }
                }
            }
            Ok(Resolved::Http { url, headers: resolved, mode: *mode, warnings })
        }
    }
}

/// An OAuth server with the login stored in the keychain; without one it needs a login (never a browser from here:
/// connecting is non-interactive).
async fn connect_oauth(
    connector: &LiveConnector,
    server: &str,
    url: &str,
    headers: Vec<(String, Sensitive<String>)>,
    mode: HttpMode,
    answerer: Answerer,
) -> Result<McpSession, ConnectError> {
    if mode == HttpMode::Sse {
        return Err(ConnectError::Transport {
            message: "OAuth login is supported over Streamable HTTP only; this server is configured as legacy SSE"
                .into(),
            transient: false,
            stderr_tail: None,
        });
    }
    let needs_login = || ConnectError::AuthRequired { hint: auth::login_hint(server) };
    let store = auth::VaultCredentialStore::new(Arc::clone(&connector.vault), server, url);
    let mut manager = rmcp::transport::auth::AuthorizationManager::new(url)
        .await
        .map_err(|e| ConnectError::Transport { message: format!("{url}: {e}"), transient: false, stderr_tail: None })?;
    manager.set_credential_store(store);
    match manager.initialize_from_store().await {
        Ok(true) => {}
        Ok(false) => return Err(needs_login()),
        Err(rmcp::transport::auth::AuthError::CredentialStoreError(reason)) => {
            return Err(ConnectError::Transport {
                message: format!("the keychain could not be read: {reason}"),
                transient: true,
                stderr_tail: None,
            });
        }
        // Discovery failed (the authorization server is down or changed): retry later, like any unreachable host.
        Err(e) => {
            return Err(ConnectError::Transport {
                message: format!("{url}: could not reach its authorization server: {e}"),
                transient: true,
                stderr_tail: None,
            });
        }
    }
    let client = rmcp::transport::auth::AuthClient::new(connector.http.clone(), manager);
    match serve_streamable_http(client, url, header_map(headers)?, answerer).await {
        Ok(session) => Ok(session),
        Err(e) if e.auth_challenge().is_some() => Err(needs_login()),
        Err(e) => Err(initialize_error(url, &e)),
    }
}

fn header_map(
    headers: Vec<(String, Sensitive<String>)>,
) -> Result<HashMap<reqwest::header::HeaderName, reqwest::header::HeaderValue>, ConnectError> {
    let mut map = HashMap::new();
    for (name, value) in headers {
        let invalid = |what: &str| ConnectError::Transport {
            message: format!("the header {name:?} has an invalid {what}"),
            transient: false,
            stderr_tail: None,
        };
        let header_name = reqwest::header::HeaderName::from_bytes(name.as_bytes()).map_err(|_| invalid("name"))?;
        let mut header_value = reqwest::header::HeaderValue::from_str(value.expose()).map_err(|_| invalid("value"))?;
        header_value.set_sensitive(true);
        map.insert(header_name, header_value);
    }
    Ok(map)
}

async fn connect_http(
    client: reqwest::Client,
    url: &str,
    headers: Vec<(String, Sensitive<String>)>,
    mode: HttpMode,
    answerer: Answerer,
) -> Result<(McpSession, HttpMode), ConnectError> {
    let map = header_map(headers)?;
    let sse = |client, map, answerer| async move {
        connect_legacy_sse(client, url, map, answerer).await.map(|s| (s, HttpMode::Sse))
    };
    match mode {
        HttpMode::Sse => sse(client, map, answerer).await,
        HttpMode::StreamableHttp | HttpMode::Probe => {
            match serve_streamable_http(client.clone(), url, map.clone(), answerer.clone()).await {
                Ok(session) => Ok((session, HttpMode::StreamableHttp)),
                Err(e) if mode == HttpMode::Probe && falls_back_to_sse(&e) => sse(client, map, answerer).await,
                Err(e) => Err(initialize_error(url, &e)),
            }
        }
    }
}

/// The spec's backwards-compatibility rule is "a 400, 404 or 405 to the initialize POST means an older SSE server".
/// rmcp does not expose the status of a 4xx, so this falls back whenever the server answered and refused, and
/// never when it could not be reached or asked for credentials.
fn falls_back_to_sse(e: &rmcp::service::ClientInitializeError) -> bool {
    e.auth_challenge().is_none() && !unreachable(transport_cause(e))
}

/// rmcp links neither a transport failure during initialize nor its HTTP client's error as a `source()`: this
/// reaches the HTTP error itself when there is one.
fn transport_cause(e: &rmcp::service::ClientInitializeError) -> &(dyn std::error::Error + 'static) {
    use rmcp::transport::streamable_http_client::StreamableHttpError;
    let rmcp::service::ClientInitializeError::TransportError { error, .. } = e else {
        return e;
    };
    match error.error.downcast_ref::<StreamableHttpError<reqwest::Error>>() {
        Some(StreamableHttpError::Client(http)) => http,
        _ => error.error.as_ref(),
    }
}

/// Whether the error chain says the server could not be reached at all (refused, DNS, timeout).
fn unreachable(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(current) = source {
        if let Some(http) = current.downcast_ref::<reqwest::Error>()
            && (http.is_connect() || http.is_timeout())
        {
            return true;
        }
        source = current.source();
    }
    false
}

fn initialize_error(url: &str, e: &rmcp::service::ClientInitializeError) -> ConnectError {
    if e.auth_challenge().is_some() {
        // A 401 to a server not configured for OAuth: say what it wants and how to give it.
        return ConnectError::AuthRequired { hint: unconfigured_auth_hint(url) };
    }
    let cause = transport_cause(e);
    let message = if unreachable(cause) {
        unreachable_message(url, cause)
    } else {
        format!("{url} did not complete the MCP handshake: {}", root_cause(cause))
    };
    ConnectError::Transport { message, transient: true, stderr_tail: None }
}

/// Why a server could not be reached, in words. A name that did not resolve starts with [`DNS_FAILURE_PREFIX`]:
/// many of them at once mean the machine is offline, which the Servers page says once instead of per server.
fn unreachable_message(url: &str, cause: &(dyn std::error::Error + 'static)) -> String {
    if is_dns_failure(cause) {
        let host =
            url::Url::parse(url).ok().and_then(|u| u.host_str().map(str::to_owned)).unwrap_or_else(|| url.to_owned());
        format!(
            "{DNS_FAILURE_PREFIX}{host}: {}. Check the address, or whether this computer is online; Plugboard retries by itself.",
            root_cause(cause)
        )
    } else {
        format!("cannot reach {url}: {}", root_cause(cause))
    }
}

/// How the message of a server whose host name did not resolve begins (the UI counts them; keep it in step with
/// `ui/src/features/servers/offline.ts`).
pub const DNS_FAILURE_PREFIX: &str = "Could not look up ";

/// Whether the error chain is a failed name lookup. reqwest has no typed DNS error; hyper's connector names it
/// "dns error" and the resolver's own error says it failed to look the address up.
fn is_dns_failure(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut source = Some(e);
    while let Some(current) = source {
        let text = current.to_string();
        if text == "dns error" || text.starts_with("failed to lookup address") {
            return true;
        }
        source = current.source();
    }
    false
}

/// What to do about a 401 from a server with no `oauth` section.
fn unconfigured_auth_hint(url: &str) -> String {
    format!(
        "{url} asks for credentials: add \"oauth\": {{}} to this server to log in, or give it headers / bearerTokenEnvVar"
    )
}

/// The innermost error's message: rmcp's outer layers name internal types, the innermost says what happened.
fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut current = e;
    while let Some(next) = current.source() {
        current = next;
    }
    current.to_string()
}

async fn connect_legacy_sse(
    client: reqwest::Client,
    url: &str,
    headers: HashMap<reqwest::header::HeaderName, reqwest::header::HeaderValue>,
    answerer: Answerer,
) -> Result<McpSession, ConnectError> {
    use crate::transport::sse_legacy::{LegacySseConfig, connect_legacy_sse as open_stream};
    let mut config = LegacySseConfig::new(url.to_owned());
    config.headers =
        headers.iter().filter_map(|(k, v)| v.to_str().ok().map(|v| (k.as_str().to_owned(), v.to_owned()))).collect();
    // Opening the stream here (not through `sse_legacy::connect`) keeps its error kinds: auth vs transient vs final.
    let transport = open_stream(client, config).await.map_err(|e| {
        if e.is_auth_required() {
            ConnectError::AuthRequired { hint: unconfigured_auth_hint(url) }
        } else {
            ConnectError::Transport { transient: e.is_transient(), message: format!("{url}: {e}"), stderr_tail: None }
        }
    })?;
    let (handler, notices) = client_handler(answerer);
    match handler.serve(transport).await {
        Ok(service) => Ok(McpSession::new(service, notices)),
        Err(e) => Err(initialize_error(url, &e)),
    }
}

#[cfg(test)]
mod unreachable_tests {
    use super::{DNS_FAILURE_PREFIX, unreachable_message};

    /// An error that says `text` and was caused by `source`, the way hyper wraps the resolver's error.
    #[derive(Debug)]
    struct Wrapped {
        text: &'static str,
        source: std::io::Error,
    }

    impl std::fmt::Display for Wrapped {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.text)
        }
    }

    impl std::error::Error for Wrapped {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.source)
        }
    }

    /// A name that did not resolve is said as such, naming the host and what to check, with the prefix the Servers
    /// page counts; a refused connection is not mistaken for one.
    #[test]
    fn a_failed_lookup_says_check_the_address_or_the_network() {
        let lookup = std::io::Error::other("failed to lookup address information: Name or service not known");
        let dns = Wrapped { text: "dns error", source: lookup };
        let text = unreachable_message("https://mcp.linear.app/mcp", &dns);
        assert!(text.starts_with(&format!("{DNS_FAILURE_PREFIX}mcp.linear.app: failed to lookup")), "{text}");
        assert!(text.contains("whether this computer is online"), "{text}");

        let refused = Wrapped { text: "tcp connect error", source: std::io::Error::other("Connection refused") };
        let text = unreachable_message("http://127.0.0.1:9/mcp", &refused);
        assert_eq!(text, "cannot reach http://127.0.0.1:9/mcp: Connection refused");
    }
}
