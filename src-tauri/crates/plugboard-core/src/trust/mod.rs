//! Nothing runs, and no secret leaves, before the person approved it: a stdio server's launch definition and a
//! remote server's origin are approved by digest (`definition.rs`), the decisions kept in the data dir
//! (`decisions.rs`), with advice on what deserves a second look (`flags.rs`). The connector asks [`gate`] at the
//! point of spawning or connecting, so no front end can skip it. What an approved server then says to a model is
//! pinned (`pins.rs`, `subject.rs`) and checked for what a person cannot see (`hidden_text.rs`, `shadowing.rs`).
//! Nothing here may approve on its own: only [`Approvals::record`] and [`ToolPins::approve_pending`], called for a
//! person's decision, do.

mod decisions;
mod definition;
mod flags;
mod hidden_text;
mod lazy_entry;
mod pins;
mod shadowing;
mod store;
mod subject;

use serde::Serialize;

pub use decisions::{Approvals, Decision, TrustError};
pub use definition::{DefinitionDigest, LaunchDefinition};
pub use flags::{ReviewFlag, review_flags};
pub use hidden_text::hidden_content;
pub use pins::{PendingPin, PinChange, PinReview, Pinning, ServerPins, ToolPins};
pub use shadowing::{OtherServer, shadowing};
pub use subject::{Listing, Pin, PinKind, Subject};

use crate::config::model::ServerConfig;

/// What the person is asked to approve for one server, as every front end shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ApprovalRequest {
    pub server: String,
    /// The digest of what is shown: a decision names it, so it never applies to a definition changed since.
    pub digest: String,
    /// `true` for a program to run, `false` for a remote server's origin.
    pub launches: bool,
    /// The exact command line, or the origin.
    pub summary: String,
    /// Environment variables (or headers) by name, with the references they draw on; never a literal value.
    pub env: Vec<String>,
    pub cwd: Option<String>,
    pub flags: Vec<ReviewFlag>,
    /// What was decided before (`None`: never asked, or the definition changed since).
    pub decision: Option<Decision>,
}

impl ApprovalRequest {
    /// The request for `definition` (whose digest is `digest`), with the decision on record.
    pub fn new(definition: &LaunchDefinition, digest: &DefinitionDigest, decision: Option<Decision>) -> Self {
        let path_dirs: Vec<_> =
            std::env::var_os("PATH").map(|p| std::env::split_paths(&p).collect()).unwrap_or_default();
        let home = dirs::home_dir();
        let (launches, cwd) = match definition {
            LaunchDefinition::Stdio { cwd, .. } => (true, cwd.clone()),
            LaunchDefinition::Remote { .. } => (false, None),
        };
        Self {
            server: definition.server().to_owned(),
            digest: digest.to_string(),
            launches,
            summary: definition.summary(),
            env: definition.env_shown(),
            cwd,
            flags: review_flags(definition, &path_dirs, home.as_deref()),
            decision,
        }
    }
}

/// Why a server may not start yet.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Unapproved {
    /// Never approved, or changed since it was.
    #[error("awaiting approval of {what}: approve it in Plugboard or run `plugboard approve {server}`")]
    Pending { server: String, what: String },
    /// The person said no to exactly this definition.
    #[error("refused ({what}): it stays off until its definition changes or you run `plugboard approve {server}`")]
    Refused { server: String, what: String },
    /// The decisions could not be read: nothing is approved.
    #[error("{0}")]
    Unreadable(String),
}

/// `config`'s definition as it is now, its digest, and what the person decided about exactly that.
pub fn current_decision(
    approvals: &Approvals,
    config: &ServerConfig,
) -> Result<(LaunchDefinition, DefinitionDigest, Option<Decision>), TrustError> {
    let definition = LaunchDefinition::of(config);
    let digest = definition.digest();
    let decision = approvals.decision(&digest)?;
    Ok((definition, digest, decision))
}

/// The approved definition's digest when the person approved exactly this definition of `config` (its tools are
/// pinned under it).
pub fn gate(approvals: &Approvals, config: &ServerConfig) -> Result<DefinitionDigest, Unapproved> {
    let (definition, digest, decision) =
        current_decision(approvals, config).map_err(|e| Unapproved::Unreadable(e.to_string()))?;
    let server = config.name.as_str().to_owned();
    let what = match &definition {
        LaunchDefinition::Stdio { .. } => format!("the command {}", definition.summary()),
        LaunchDefinition::Remote { origin, .. } => format!("the origin {origin}"),
    };
    match decision {
        Some(Decision::Approved) => Ok(digest),
        Some(Decision::Refused) => Err(Unapproved::Refused { server, what }),
        None => Err(Unapproved::Pending { server, what }),
    }
}
