//! Turning a validated server config into a live MCP session: the person's approval of its launch definition (or
//! origin) is checked first, then `${…}` references are expanded here (at connect time only), then the transport is
//! picked. It must never spawn a program or send a secret for a definition that is not approved. Injectable, so the
//! supervisor can be driven by a test connector.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::Arc;

use futures::future::BoxFuture;

use crate::auth;
use crate::config::model::{Auth, HttpMode, HttpSpec, ServerConfig, StdioSpec, Transport};
use crate::config::references::{ReferenceError, expand};
use crate::net::{check_server_url, pooled_http_client};
use crate::person::PersonRequests;
use crate::secrets::{
    KeychainWatch, LogScrub, RecordingReferences, ResolvedSecrets, Sensitive, ServerReferences, UNHEARD_RETRY, Vault,
};
use crate::transport::{
    Answerer, DownstreamLink, McpSession, PersonLink, RemoteLogin, RemoteOptions, RemoteSpec, StdioLaunch,
    TransportError, connect_remote, connect_stdio_answered,
};
use crate::trust::{Approvals, Unapproved};

use super::era_memory::EraMemory;
use super::scrub::Scrub;

/// A session and what the person should know about how it was made.
pub struct Connected {
    pub session: McpSession,
    pub warnings: Vec<String>,
    /// The secret values the session was made with (for redaction; never shown).
    pub secrets: ResolvedSecrets,
    /// The pins of the approved definition the session was made under: its listings are checked against them.
    pub pinning: Option<crate::trust::Pinning>,
}

/// Why a connection attempt failed, and whether retrying by itself can help.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConnectError {
    /// A `${secret:…}` is missing or a reference is malformed: the person must fix it.
    #[error("{0}")]
    Reference(ReferenceError),
    /// The keychain holding the server's secrets (or its login) is locked: it connects once it is unlocked.
    #[error("{message}")]
    KeychainLocked { message: String },
    /// The server wants credentials; `hint` says how to provide them.
    #[error("{hint}")]
    AuthRequired { hint: String },
    /// The person has not approved what this server runs (or where its secrets go): nothing was started or sent.
    #[error(transparent)]
    Unapproved(#[from] Unapproved),
    /// Anything else; `transient` says whether to retry.
    #[error("{message}")]
    Transport { message: String, transient: bool, stderr_tail: Option<String> },
}

impl ConnectError {
    pub fn is_transient(&self) -> bool {
        matches!(self, Self::Transport { transient: true, .. })
    }
}

impl From<ReferenceError> for ConnectError {
    fn from(e: ReferenceError) -> Self {
        match e {
            locked @ ReferenceError::KeychainLocked { .. } => Self::KeychainLocked { message: locked.to_string() },
            other => Self::Reference(other),
        }
    }
}

/// What a server waiting for the keychain waits on (`Sync`, as the actor holding it is shared across awaits).
pub type KeychainUnlocked = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + Sync + 'static>>;

/// Makes sessions; the supervisor owns one and calls it for every (re)connect.
pub trait Connector: Send + Sync + 'static {
    fn connect<'a>(&'a self, config: &'a ServerConfig) -> BoxFuture<'a, Result<Connected, ConnectError>>;

    /// Resolves when a connection that failed on a locked keychain is worth trying again (by default, after a
    /// slow timer: a connector that can hear the keychain says so sooner).
    fn keychain_unlocked(&self) -> KeychainUnlocked {
        Box::pin(tokio::time::sleep(UNHEARD_RETRY))
    }

    /// The window's person for `server`'s requests outside a session (the pages a failed call needs opened); none
    /// by default.
    fn person_link(&self, _server: &str) -> Option<PersonLink> {
        None
    }
}

/// The real connector: env and keychain for references, one pooled HTTP client for every remote server.
pub struct LiveConnector {
    vault: Arc<Vault>,
    /// Checked before every spawn and every connection.
    approvals: Approvals,
    /// Built at the first remote server: loading the TLS roots costs a process that runs only local servers (a
    /// client's `serve --stdio`) time and memory it does not need.
    http: std::sync::OnceLock<reqwest::Client>,
    /// Where servers' requests for a person go; `None` (CLI, `serve`) declines them.
    person: Option<Arc<PersonRequests>>,
    /// The gateway's client, which answers them instead (`serve`).
    client: Option<DownstreamLink>,
    /// The transport a probed URL turned out to speak, so reconnects skip the probe.
    probed: std::sync::Mutex<HashMap<String, HttpMode>>,
    /// The servers that turned out to be of the earlier era, so reconnects and later processes open with
    /// `initialize` at once.
    eras: EraMemory,
    /// Hears the keychain being unlocked, for servers waiting on it.
    keychain: KeychainWatch,
    /// Learns each value expanded, for the log writer to take out of every line.
    log_scrub: LogScrub,
}

impl LiveConnector {
    /// A connector for a process without a person: requests for one are declined. It runs only what
    /// `approvals` holds as approved.
    pub fn new(vault: Arc<Vault>, approvals: Approvals) -> Self {
        let http = std::sync::OnceLock::new();
        let (probed, keychain, log_scrub) = (std::sync::Mutex::default(), KeychainWatch::new(), LogScrub::default());
        let eras = EraMemory::kept_in(approvals.path().with_file_name("eras.json"));
        Self { vault, approvals, http, person: None, client: None, probed, eras, keychain, log_scrub }
    }

    /// A connector whose sessions hand servers' elicitation, sampling and roots requests to `person` (the window).
    pub fn with_person(vault: Arc<Vault>, approvals: Approvals, person: Arc<PersonRequests>) -> Self {
        Self { person: Some(person), ..Self::new(vault, approvals) }
    }

    /// A connector whose sessions relay servers' requests for a person to the gateway's client.
    pub fn with_client(vault: Arc<Vault>, approvals: Approvals, client: DownstreamLink) -> Self {
        Self { client: Some(client), ..Self::new(vault, approvals) }
    }

    /// The same connector, teaching `log_scrub` every value it expands.
    pub fn scrubbing_logs(self, log_scrub: LogScrub) -> Self {
        Self { log_scrub, ..self }
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
            let (resolved, secrets, digest) = approve_then_resolve(config, &self.vault, &self.approvals).await?;
            // Before anything is sent: the HTTP client's and rmcp's own log lines quote the expanded URL.
            self.log_scrub.learn(config.name.as_str(), &secrets);
            let pins = self.approvals.tool_pins();
            // The server's first listing is reviewed against the pins: they are read while it starts.
            let ahead = pins.clone();
            drop(tokio::task::spawn_blocking(move || ahead.read_ahead()));
            let pinning = Some(crate::trust::Pinning { pins, digest });
            let answerer = self.answerer(config.name.as_str());
            match resolved {
                Resolved::Stdio(launch, warnings) => {
                    let key = EraMemory::stdio_key(config.name.as_str(), &launch);
                    let opening = self.eras.opening(&key);
                    let connected = connect_stdio_answered(config.name.as_str(), &launch, answerer, opening).await;
                    let session = self.eras.learn(&key, opening, connected).map_err(|e| {
                        Scrub::new(config, None, &secrets).error(ConnectError::Transport {
                            transient: e.is_transient(),
                            message: e.to_string(),
                            stderr_tail: e.stderr_tail().map(str::to_owned),
                        })
                    })?;
                    Ok(Connected { session, warnings, secrets, pinning })
                }
                Resolved::Http { url, headers, mode, warnings, login } => {
                    let server = config.name.as_str();
                    let http = self.http.get_or_init(pooled_http_client).clone();
                    let opening = self.eras.opening(&url);
                    let mut options = RemoteOptions::new(http.clone(), answerer).opening(opening);
                    let with_login = matches!(login, Login::Configured | Login::Stored);
                    // A login speaks Streamable HTTP only, so there is no probe to remember.
                    let machine = match &config.auth {
                        Auth::OAuth(settings) if auth::is_machine_grant(settings) => Some(settings),
                        _ => None,
                    };
                    let asked = if with_login {
                        options = match machine {
                            Some(settings) => {
                                options.with_login(Box::pin(machine_login(&self.vault, server, &url, settings)))
                            }
                            None => options.with_login(Box::pin(stored_login(&self.vault, server, &url))),
                        };
                        mode
                    } else {
                        self.remembered(&url, mode)
                    };
                    let spec = RemoteSpec { url: url.clone(), headers, mode: asked };
                    let remote = match self.eras.learn(&url, opening, connect_remote(spec, options).await) {
                        Ok(remote) => remote,
                        Err(TransportError::AuthRequired { .. }) if machine.is_some() => {
                            let error = refused_machine_token(&self.vault, server).await;
                            return Err(Scrub::new(config, Some(&url), &secrets).error(error));
                        }
                        Err(e) => {
                            let error = remote_error(e, config, &url, &login, &http).await;
                            return Err(Scrub::new(config, Some(&url), &secrets).error(error));
                        }
                    };
                    if mode == HttpMode::Probe && !with_login {
                        self.remember(&url, remote.spoke);
                    }
                    Ok(Connected { session: remote.session, warnings, secrets, pinning })
                }
            }
        })
    }

    fn keychain_unlocked(&self) -> KeychainUnlocked {
        let keychain = self.keychain.clone();
        Box::pin(async move { keychain.unlocked().await })
    }

    fn person_link(&self, server: &str) -> Option<PersonLink> {
        self.person.as_ref().map(|broker| PersonLink::new(Arc::clone(broker), server))
    }
}

enum Resolved {
    Stdio(StdioLaunch, Vec<String>),
    Http { url: String, headers: Vec<(String, Sensitive<String>)>, mode: HttpMode, warnings: Vec<String>, login: Login },
}

/// How a remote server logs in.
enum Login {
    /// It has an `oauth` section: connecting needs its stored login.
    Configured,
    /// A URL server with no credentials of its own that logged in before (it answered 401 with a challenge).
    Stored,
    /// A URL server with no credentials of its own and no stored login: a 401 with a challenge makes it an OAuth
    /// server that needs a login.
    Offered,
    /// As `Offered`, but the keychain that would hold its login is locked (said only if the server wants one).
    Locked(String),
    /// Headers or a bearer token variable: never a login.
    Never,
}

/// Checks the person's approval of `config`, then expands every reference; both read files or the keychain, so
/// this runs on the blocking pool. No secret is read for a definition that is not approved.
async fn approve_then_resolve(
    config: &ServerConfig,
    vault: &Arc<Vault>,
    approvals: &Approvals,
) -> Result<(Resolved, ResolvedSecrets, crate::trust::DefinitionDigest), ConnectError> {
    let config = config.clone();
    let vault = Arc::clone(vault);
    let approvals = approvals.clone();
    let checked = move || {
        let digest = crate::trust::gate(&approvals, &config)?;
        let (mut resolved, secrets) = resolve_now(&config, &vault)?;
        if let Resolved::Http { url, login, .. } = &mut resolved {
            *login = login_of(&config, &vault, url)?;
        }
        Ok((resolved, secrets, digest))
    };
    tokio::task::spawn_blocking(checked).await.map_err(|e| ConnectError::Transport {
        message: e.to_string(),
        transient: false,
        stderr_tail: None,
    })?
}

fn resolve_now(config: &ServerConfig, vault: &Vault) -> Result<(Resolved, ResolvedSecrets), ConnectError> {
    let source = RecordingReferences::new(ServerReferences { server: config.name.as_str(), vault });
    let resolved = resolve_with(config, &source);
    let secrets = source.into_resolved();
    // A refused URL is quoted in its refusal, expanded.
    let resolved = resolved.map_err(|e| Scrub::new(config, None, &secrets).error(e))?;
    Ok((resolved, secrets))
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
            Ok(Resolved::Http { url, headers: resolved, mode: *mode, warnings, login: Login::Never })
        }
    }
}

/// How the remote server `config` (at the expanded `url`) logs in. For a server with an `oauth` section the
/// keychain must be readable: a locked one is said as such (the server then waits for the unlock), where the login's
/// own read would only say that the store failed. Any other failure is left to that read, which says it in context.
fn login_of(config: &ServerConfig, vault: &Arc<Vault>, url: &str) -> Result<Login, ConnectError> {
    let server = config.name.as_str();
    match &config.auth {
        Auth::OAuth(_) => match vault.get(server, auth::store::CREDENTIALS_SECRET) {
            Err(locked @ crate::secrets::VaultError::Locked { .. }) => {
                Err(ConnectError::KeychainLocked { message: format!("its login could not be read: {locked}") })
            }
            _ => Ok(Login::Configured),
        },
        Auth::None => match auth::VaultCredentialStore::new(Arc::clone(vault), server, url).load_now() {
            Ok(Some(_)) => Ok(Login::Stored),
            Ok(None) => Ok(Login::Offered),
            Err(unreadable) => Ok(Login::Locked(format!("its login could not be read: {unreadable}"))),
        },
        Auth::Headers | Auth::BearerEnv { .. } => Ok(Login::Never),
    }
}

/// The login stored in the keychain for an OAuth server; without one it needs a login (never a browser from here:
/// connecting is non-interactive). A DPoP-bound token comes with its key; without the key it needs a login again.
async fn stored_login(vault: &Arc<Vault>, server: &str, url: &str) -> Result<RemoteLogin, TransportError> {
    let store = auth::VaultCredentialStore::new(Arc::clone(vault), server, url);
    let dpop = {
        let (vault, server) = (Arc::clone(vault), server.to_owned());
        tokio::task::spawn_blocking(move || auth::dpop::Dpop::stored(&vault, &server)).await.map_err(|e| {
            TransportError::Remote { message: format!("the keychain task failed: {e}"), transient: true }
        })?
    };
    let dpop = match dpop {
        Ok(dpop) => dpop.map(Arc::new),
        // Replaced by the next login, whose token is bound to the new key.
        Err(auth::dpop::DpopKeyError::Damaged) => None,
        Err(e) => {
            return Err(TransportError::Remote {
                message: format!("the keychain could not be read: {e}"),
                transient: true,
            });
        }
    };
    let mut manager = auth::authorization_manager_with(url, dpop.clone())
        .await
        .map_err(|e| TransportError::Remote { message: format!("{url}: {e}"), transient: false })?;
    manager.set_credential_store(store);
    match manager.initialize_from_store().await {
        Ok(true) => {}
        Ok(false) => return Err(TransportError::AuthRequired { challenge: None }),
        Err(rmcp::transport::auth::AuthError::CredentialStoreError(reason)) => {
            return Err(TransportError::Remote {
                message: format!("the keychain could not be read: {reason}"),
                transient: true,
            });
        }
        // Discovery failed (the authorization server is down or changed): retry later, like any unreachable host.
        Err(e) => {
            return Err(TransportError::Remote {
                message: format!("{url}: could not reach its authorization server: {e}"),
                transient: true,
            });
        }
    }
    if !auth::flow::holds_dpop_token(&manager).await {
        return Ok(RemoteLogin::bearer(manager));
    }
    match dpop {
        Some(dpop) => {
            dpop.activate();
            Ok(RemoteLogin { manager, dpop: Some(dpop) })
        }
        None => Err(TransportError::AuthRequired { challenge: None }),
    }
}

/// The token of a server that logs in without a person (`oauth.grant`): the stored one while it lives, else a new
/// one from its grant, kept in the keychain.
async fn machine_login(
    vault: &Arc<Vault>,
    server: &str,
    url: &str,
    settings: &crate::config::model::OAuthSettings,
) -> Result<RemoteLogin, TransportError> {
    let live = {
        let (vault, server, url) = (Arc::clone(vault), server.to_owned(), url.to_owned());
        tokio::task::spawn_blocking(move || auth::has_live_token(&vault, &server, &url)).await.unwrap_or(false)
    };
    if live {
        return stored_login(vault, server, url).await;
    }
    auth::login_machine(server, url, settings, vault, None).await.map(RemoteLogin::bearer).map_err(|e| {
        TransportError::Remote {
            // An authorization server out of reach or a locked keychain may come back; a refused grant needs the person.
            transient: matches!(e, auth::LoginError::Discovery { .. } | auth::LoginError::Store(_)),
            message: format!("getting a token for {server}: {e}"),
        }
    })
}

/// A server that refused the token its grant got: the token is forgotten, so the next attempt (after the backoff)
/// fetches a new one rather than sending it again; no person is asked to log in.
async fn refused_machine_token(vault: &Arc<Vault>, server: &str) -> ConnectError {
    let (vault, name) = (Arc::clone(vault), server.to_owned());
    let forgotten = tokio::task::spawn_blocking(move || auth::logout(&vault, &name)).await;
    let message = match forgotten {
        Ok(Ok(_)) => format!("{server} refused its token: a new one is fetched at the next attempt"),
        Ok(Err(e)) => format!("{server} refused its token, which could not be forgotten: {e}"),
        Err(e) => format!("{server} refused its token, which could not be forgotten: {e}"),
    };
    ConnectError::Transport { message, transient: true, stderr_tail: None }
}

/// The transport's failure as the supervisor classifies it; wanting credentials says how to give them. A URL server
/// with no credentials of its own that wants some is an OAuth server when it sent a challenge or publishes
/// protected-resource metadata, and then needs a login like one configured so.
async fn remote_error(
    e: TransportError,
    config: &ServerConfig,
    url: &str,
    login: &Login,
    http: &reqwest::Client,
) -> ConnectError {
    let server = config.name.as_str();
    let TransportError::AuthRequired { challenge } = e else {
        return ConnectError::Transport { transient: e.is_transient(), message: e.to_string(), stderr_tail: None };
    };
    let asked = |challenge: &Option<String>| match challenge {
        Some(challenge) => auth::demanded_scopes::hint_after(server, challenge),
        None => auth::login_hint(server),
    };
    let hint = match (login, &config.auth) {
        (Login::Configured | Login::Stored, _) => asked(&challenge),
        (Login::Locked(message), _) => return ConnectError::KeychainLocked { message: message.clone() },
        (Login::Offered, _) if challenge.is_some() || auth::publishes_resource_metadata(http, url).await => {
            asked(&challenge)
        }
        (_, Auth::Headers) => format!("{url} refused the credentials in this server's headers: check them"),
        (_, Auth::BearerEnv { var }) => format!("{url} refused the token in the environment variable {var}"),
        _ => format!("{url} asks for credentials but offers no login: give this server headers or bearerTokenEnvVar"),
    };
    ConnectError::AuthRequired { hint }
}
