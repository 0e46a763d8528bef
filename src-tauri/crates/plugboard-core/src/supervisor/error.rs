//! Why a supervisor operation failed, and which failures are worth retrying.

use super::ServerStatus;

/// A failed request to the supervisor.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SupervisorError {
    #[error("there is no server named {server:?}")]
    NotFound { server: String },
    /// The server is not ready for calls; its status says why.
    #[error("{server} is not ready ({}): {}", status.label(), describe(status))]
    NotReady { server: String, status: ServerStatus },
    /// The tool is not offered, or not allowed by the server's allowlist.
    #[error("{server} has no tool {tool:?} (allowed: {available})")]
    UnknownTool { server: String, tool: String, available: String },
    /// The tool is new or changed since the person approved the server: nobody may call it until they approve it.
    #[error(
        "{server}: the tool {tool:?} is withheld: it is new or changed since {server} was approved. Review it in \
         Plugboard or with `plugboard approve {server}`"
    )]
    Withheld { server: String, tool: String },
    /// The request did not finish in time; `notifications/cancelled` was sent.
    #[error("{server}: the call did not finish within {} s and was cancelled", seconds(after))]
    Timeout { server: String, after: std::time::Duration },
    /// The person cancelled the call.
    #[error("{server}: the call was cancelled")]
    Cancelled { server: String },
    /// The server answered with a JSON-RPC error (never retried).
    #[error("{server}: {message}")]
    Protocol { server: String, message: String },
    /// The connection broke and the one retry failed too (or the request never reached the server).
    #[error("{server}: the connection failed: {message}")]
    Connection { server: String, message: String },
    /// The connection broke while the call was out, so the server may have run it; it was not repeated because the
    /// server does not mark the tool read-only or idempotent. Never transient: trying again may run it twice.
    #[error(
        "{server}: the connection broke during the call to {tool} ({message}); it may have run. Plugboard did not \
         repeat it, because {server} does not mark {tool} as safe to repeat: check whether it took effect before \
         calling it again"
    )]
    Interrupted { server: String, tool: String, message: String },
    /// The server refused the call for want of (more) authorization: `hint` says how to log in.
    #[error("{server}: {hint}")]
    AuthRequired { server: String, hint: String },
    /// The call's arguments carry the value of another server's secret (`secret`, its `${secret:NAME}`, of `owner`):
    /// Plugboard refused it before anything was sent. Never retried, and never the value.
    #[error(
        "{server}: Plugboard refused the call: its arguments carry the value of {secret}, a secret of the server \
         {owner}, which must not be sent to {server}"
    )]
    SecretRefused { server: String, secret: String, owner: String },
    /// The server needs the person to open one or more pages before this call can work (`-32042`, a URL
    /// elicitation required first). A window shows each to the person; call again once they are done.
    #[error("{server} needs you to open {} first, then call again: {}", pages_phrase(pages), list(pages))]
    PagesToOpen { server: String, pages: Vec<PageToOpen> },
    #[error("the supervisor has shut down")]
    ShutDown,
}

/// A page a server wants the person to open (its text, and the address as vetted by `person::vet_link`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageToOpen {
    /// Why, in the server's words (server text).
    pub message: String,
    /// The address, or why Plugboard will not offer it.
    pub address: Result<crate::person::LinkToOpen, crate::person::RefusedLink>,
    /// The server's id for the page, which its `notifications/elicitation/complete` names.
    pub elicitation_id: Option<String>,
}

fn pages_phrase(pages: &[PageToOpen]) -> String {
    if pages.len() == 1 { "a page".to_owned() } else { format!("{} pages", pages.len()) }
}

fn list(pages: &[PageToOpen]) -> String {
    let page = |page: &PageToOpen| match &page.address {
        Ok(link) => format!("{} ({})", page.message, link.url),
        Err(refused) => format!("{} (a link Plugboard will not open: {refused})", page.message),
    };
    pages.iter().map(page).collect::<Vec<_>>().join("; ")
}

impl SupervisorError {
    /// Whether trying the same request again later may succeed without the person changing anything.
    pub fn is_transient(&self) -> bool {
        matches!(self, Self::Connection { .. } | Self::Timeout { .. })
            || matches!(self, Self::NotReady { status, .. } if !status.is_settled())
    }
}

/// "0.8", "30", "2.5": seconds as a person writes them.
pub(super) fn seconds(duration: &std::time::Duration) -> String {
    let text = format!("{:.1}", duration.as_secs_f64());
    text.strip_suffix(".0").map_or(text.clone(), str::to_owned)
}

fn describe(status: &ServerStatus) -> String {
    match status {
        ServerStatus::NeedsLogin { hint }
        | ServerStatus::NeedsApproval { hint, .. }
        | ServerStatus::KeychainLocked { hint } => hint.clone(),
        ServerStatus::Failed { error, .. } => error.clone(),
        ServerStatus::Reconnecting { reason, .. } => reason.clone(),
        ServerStatus::Disabled => "turn it on with `plugboard enable`".into(),
        ServerStatus::Stopped => "connect it again".into(),
        ServerStatus::Connecting | ServerStatus::Ready { .. } => String::new(),
    }
}

/// A refused server URL is the person's to fix: never retried.
impl From<crate::net::UrlRefused> for super::ConnectError {
    fn from(refused: crate::net::UrlRefused) -> Self {
        Self::Transport { message: refused.to_string(), transient: false, stderr_tail: None }
    }
}
