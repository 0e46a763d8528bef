//! The connection doctor: walks every step of connecting one server (config, references, program or network,
//! handshake) and says which step failed and what to do. It only reads and connects; it never changes anything.

mod docker;
mod references;
mod remote;
mod stdio;

use std::sync::Arc;

use serde::Serialize;

use crate::config::model::Transport;
use crate::config::raw::RawServer;
use crate::config::validate_server;
use crate::secrets::Vault;

/// How one step went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "outcome", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum StepOutcome {
    Passed {
        detail: String,
    },
    /// Worked, with something the person should know.
    Warning {
        detail: String,
    },
    Failed {
        detail: String,
        what_to_do: String,
    },
    /// Not run because an earlier step failed.
    Skipped,
}

/// One step of the walk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Step {
    pub name: String,
    #[serde(flatten)]
    pub outcome: StepOutcome,
}

impl Step {
    fn passed(name: &str, detail: impl Into<String>) -> Self {
        Self { name: name.to_owned(), outcome: StepOutcome::Passed { detail: detail.into() } }
    }
    fn warning(name: &str, detail: impl Into<String>) -> Self {
        Self { name: name.to_owned(), outcome: StepOutcome::Warning { detail: detail.into() } }
    }
    fn failed(name: &str, detail: impl Into<String>, what_to_do: impl Into<String>) -> Self {
        Self {
            name: name.to_owned(),
            outcome: StepOutcome::Failed { detail: detail.into(), what_to_do: what_to_do.into() },
        }
    }
    fn skipped(name: &str) -> Self {
        Self { name: name.to_owned(), outcome: StepOutcome::Skipped }
    }
    pub fn is_failed(&self) -> bool {
        matches!(self.outcome, StepOutcome::Failed { .. })
    }
}

/// Walks every step for the server `name` with entry `raw`; stops at the first failure (later steps `Skipped`).
pub async fn diagnose(name: &str, raw: &RawServer, vault: Arc<Vault>) -> Vec<Step> {
    let config = match validate_server(name, raw) {
        Ok(config) => config,
        Err(e) => {
            return vec![Step::failed(
                "config",
                format!("{}: {}", e.field, e.message),
                "fix that field in servers.json",
            )];
        }
    };
    let mut steps = vec![Step::passed("config", describe(&config.transport))];
    let resolved = references::check(&config, &vault);
    let failed = resolved.iter().any(Step::is_failed);
    steps.extend(resolved);
    let remaining: &[&str] = match &config.transport {
        Transport::Stdio(_) => &stdio::STEPS,
        Transport::Http(_) => &remote::STEPS,
    };
    if failed {
        steps.extend(remaining.iter().map(|s| Step::skipped(s)));
        return steps;
    }
    let walked = match &config.transport {
        Transport::Stdio(_) => stdio::walk(&config, vault).await,
        Transport::Http(http) => remote::walk(&config, http, vault).await,
    };
    steps.extend(walked);
    steps
}

fn describe(transport: &Transport) -> String {
    match transport {
        Transport::Stdio(s) => format!("a local server: {} {}", s.command, s.args.join(" ")),
        Transport::Http(h) => format!("a remote server ({:?}): {}", h.mode, h.url),
    }
}

/// Fills the steps after `done` with `Skipped`.
fn skip_rest(steps: &mut Vec<Step>, all: &[&str]) {
    let done = steps.len();
    steps.extend(all.iter().skip(done).map(|s| Step::skipped(s)));
}
