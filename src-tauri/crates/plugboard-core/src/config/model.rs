//! The validated server model: what Plugboard runs, as opposed to what the file says (`raw`).
//! Values may still hold `${…}` references; they are expanded at connect time only, never written back.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

/// The timeout of a request when the entry sets none.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// The longest per-request timeout an entry may ask for.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(3600);
/// The longest server name accepted (names become keychain keys and tool-name prefixes).
pub const MAX_NAME_LEN: usize = 128;

/// Why a text is not a server name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidServerName {
    #[error("a server name cannot be empty")]
    Empty,
    #[error("a server name has at most {MAX_NAME_LEN} characters")]
    TooLong,
    #[error("{0:?} is not allowed in a server name: use letters, digits, '-', '_' or '.'")]
    Character(char),
}

/// A server's name: 1 to 128 of `A-Z a-z 0-9 _ - .`, unique in the file.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ServerName(String);

impl ServerName {
    /// Checks `name` against the rules above; the error says which rule it broke.
    pub fn parse(name: &str) -> Result<Self, InvalidServerName> {
        if name.is_empty() {
            return Err(InvalidServerName::Empty);
        }
        if name.chars().count() > MAX_NAME_LEN {
            return Err(InvalidServerName::TooLong);
        }
        if let Some(bad) = name.chars().find(|c| !is_name_char(*c)) {
            return Err(InvalidServerName::Character(bad));
        }
        Ok(Self(name.to_owned()))
    }

    /// Turns any text into a valid name (for imported entries): other characters become '-', runs collapse.
    pub fn sanitize(name: &str) -> Self {
        let mut out = String::new();
        for c in name.trim().chars() {
            let c = if is_name_char(c) { c } else { '-' };
            if !(c == '-' && out.ends_with('-')) {
                out.push(c);
            }
        }
        let trimmed: String = out.trim_matches('-').chars().take(MAX_NAME_LEN).collect();
        Self(if trimmed.is_empty() { "server".to_owned() } else { trimmed })
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ServerName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A character allowed in a server (or profile) name.
pub(crate) fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')
}

/// One server, validated.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerConfig {
    pub name: ServerName,
    pub transport: Transport,
    pub auth: Auth,
    pub tools: ToolFilter,
    /// Tools the source client ran without asking (kept for the person to review, never applied silently).
    pub auto_approve: Vec<String>,
    pub enabled: bool,
    pub required: bool,
    pub read_only: bool,
    pub timeout: Duration,
    pub origin: Option<Origin>,
}

impl ServerConfig {
    /// A server with every option at its default: enabled, all tools, no auth, the default timeout.
    pub fn new(name: ServerName, transport: Transport) -> Self {
        Self {
            name,
            transport,
            auth: Auth::None,
            tools: ToolFilter::All,
            auto_approve: Vec::new(),
            enabled: true,
            required: false,
            read_only: false,
            timeout: DEFAULT_TIMEOUT,
            origin: None,
        }
    }
}

/// How the server is reached.
#[derive(Debug, Clone, PartialEq)]
pub enum Transport {
    Stdio(StdioSpec),
    Http(HttpSpec),
}

/// A local server process: argv, never a shell line.
#[derive(Debug, Clone, PartialEq)]
pub struct StdioSpec {
    pub command: String,
    pub args: Vec<String>,
    pub env: BTreeMap<String, String>,
    pub cwd: Option<String>,
}

/// A remote server.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpSpec {
    pub url: String,
    pub headers: BTreeMap<String, String>,
    pub mode: HttpMode,
}

/// Which HTTP transport a remote server speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HttpMode {
    StreamableHttp,
    Sse,
    /// Unknown: Streamable HTTP first, SSE when the initialize POST answers 400/404/405.
    Probe,
}

/// How Plugboard authenticates to the server.
#[derive(Debug, Clone, PartialEq)]
pub enum Auth {
    None,
    /// Static headers (typically `Authorization` with a `${secret:…}` reference).
    Headers,
    /// `Authorization: Bearer $VAR` whenever the variable is set; its recovery is "set the variable", never a login.
    BearerEnv {
        var: String,
    },
    OAuth(OAuthSettings),
}

/// OAuth options of a remote server.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OAuthSettings {
    pub scopes: Option<String>,
    pub client_id: Option<String>,
    /// The pre-registered client's secret as written: a `${secret:NAME}` reference, expanded only at login.
    pub client_secret: Option<String>,
    /// The https URL of Plugboard's client ID metadata document, tried before dynamic registration.
    pub client_metadata_url: Option<String>,
    pub redirect: Redirect,
    /// The person chose to log in although the authorization server does not advertise S256 PKCE; shown in the UI.
    pub allow_missing_pkce_metadata: bool,
    /// `"dpop": false`: a browser login asks for a bearer token even where the authorization server offers DPoP.
    pub bearer_only: bool,
    /// How the tokens are got (`"grant"`).
    pub grant: Grant,
}

/// How Plugboard gets its tokens for a server with an `oauth` section.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Grant {
    /// A person logs in in the browser (authorization code with PKCE): `plugboard login` or the Log in button.
    #[default]
    AuthorizationCode,
    /// `"client_credentials"` (SEP-1046): Plugboard itself is the client, with `clientId` and either `clientSecret`
    /// or `privateKey` (a PEM key, as a `${secret:…}` reference) signing a JWT with `signingAlgorithm`. No person: a
    /// token is fetched whenever the server connects without a live one.
    ClientCredentials { private_key: Option<String>, signing_algorithm: Option<String> },
    /// `"workload_identity"` (SEP-1933): the workload's own JWT, exchanged with the JWT-bearer grant (RFC 7523) at
    /// every connect without a live token. No person either.
    WorkloadIdentity(WorkloadToken),
    /// `"enterprise_managed"` (SEP-990, cross-app access): the person's ID token from their enterprise identity
    /// provider is exchanged there for an ID-JAG, and the ID-JAG at the server's authorization server for a token,
    /// with `clientId` and `clientSecret`. No browser.
    EnterpriseManaged(EnterpriseManaged),
}

/// Where an `enterprise_managed` grant's ID token comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnterpriseManaged {
    pub identity_provider: IdentityProviderSettings,
    /// The person's ID token as written: a `${env:…}` or `${secret:…}` reference, expanded at each exchange.
    pub id_token: String,
}

/// The enterprise identity provider and Plugboard's registration with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdentityProviderSettings {
    pub issuer: String,
    pub token_endpoint: String,
    pub client_id: String,
    /// A `${secret:…}` reference, for a confidential registration.
    pub client_secret: Option<String>,
}

/// Where a workload's JWT is read, at each exchange (such tokens are short-lived and rotated by their platform).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorkloadToken {
    /// `"assertion"`: a `${env:…}` or `${secret:…}` reference.
    Reference(String),
    /// `"assertionFile"`: a file the platform keeps current (a Kubernetes projected token, say).
    File(std::path::PathBuf),
}

/// Where the authorization server sends the browser back to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Redirect {
    /// `http://127.0.0.1:<port>/callback`, the spec-compliant default for dynamic registration.
    #[default]
    Loopback,
    /// `plugboard://oauth/callback`, for pre-registered clients that allow a private-use scheme.
    DeepLink,
}

/// Which tools of the server are exposed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolFilter {
    All,
    /// Exactly these (raw or namespaced names); empty means none.
    Only(Vec<String>),
}

/// The client and file an entry was imported from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    pub client: String,
    pub path: String,
}
