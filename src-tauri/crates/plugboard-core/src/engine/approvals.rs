//! The person's approvals, for every front end: what each server would run (or where its secrets would go), the
//! ones still waiting, and recording a decision, which starts an approved server at once. A decision applies only
//! to the definition the person was shown (by its digest), never to one that changed in the meantime.

use super::{Engine, EngineError, blocking};
use crate::config::model::ServerConfig;
use crate::supervisor::{ServerStatus, Supervisor, SupervisorError};
use crate::trust::{ApprovalRequest, Approvals, Decision, LaunchDefinition, current_decision, gate};

impl Engine {
    /// What approving `name` means, with what was decided before.
    pub async fn approval_request(&self, name: &str) -> Result<ApprovalRequest, EngineError> {
        let config = self.config(name)?;
        let approvals = self.approvals.clone();
        blocking(move || request_for(&approvals, &config)).await?
    }

    /// Every enabled server whose current definition is not approved: never asked, changed, or refused (what the
    /// window's dialog offers; a disabled server asks when it is turned on).
    pub async fn pending_approvals(&self) -> Result<Vec<ApprovalRequest>, EngineError> {
        self.unapproved(|config| config.enabled).await
    }

    /// Every configured server whose current definition is not approved, turned on or not (`approve --all`).
    pub async fn unapproved_servers(&self) -> Result<Vec<ApprovalRequest>, EngineError> {
        self.unapproved(|_| true).await
    }

    async fn unapproved(&self, among: fn(&ServerConfig) -> bool) -> Result<Vec<ApprovalRequest>, EngineError> {
        let configs: Vec<ServerConfig> = self.registry.configs().into_iter().filter(among).collect();
        let approvals = self.approvals.clone();
        blocking(move || {
            let mut pending = Vec::new();
            for config in &configs {
                let request = request_for(&approvals, config)?;
                if request.decision != Some(Decision::Approved) {
                    pending.push(request);
                }
            }
            Ok::<_, EngineError>(pending)
        })
        .await?
    }

    /// Records `decision` on `name`'s definition as shown (`digest`); an approved server starts now, a refused one
    /// stops and stays off.
    pub async fn decide(&self, name: &str, digest: &str, decision: Decision) -> Result<(), EngineError> {
        let config = self.config(name)?;
        let (approvals, shown, owned) = (self.approvals.clone(), digest.to_owned(), name.to_owned());
        blocking(move || {
            let definition = LaunchDefinition::of(&config);
            if definition.digest().as_str() != shown {
                return Err(EngineError::ApprovalOutdated { name: owned });
            }
            Ok(approvals.record(&definition, decision)?)
        })
        .await??;
        // Either way the server starts over: approved it runs, refused it settles in NeedsApproval (refused) and
        // whatever ran before stops.
        let started = self.supervisor.restart(name).await;
        // A front end that runs no servers (a CLI command) has nothing to start: the decision is what it wanted.
        match started {
            Ok(()) | Err(SupervisorError::NotFound { .. }) => Ok(()),
            Err(other) => Err(other.into()),
        }
    }
}

/// After the approvals changed (perhaps in another process): a server waiting for approval that now has it starts,
/// and a running one whose definition is no longer approved (refused elsewhere) stops.
pub(super) async fn apply_decisions(supervisor: &Supervisor, approvals: &Approvals) {
    let statuses = supervisor.statuses();
    let configs: Vec<(String, ServerStatus, ServerConfig)> = statuses
        .into_iter()
        .filter_map(|(name, status)| supervisor.config(&name).ok().map(|config| (name, status, config)))
        .collect();
    let approvals = approvals.clone();
    let verdicts = tokio::task::spawn_blocking(move || {
        configs.into_iter().map(|(name, status, config)| (name, status, gate(&approvals, &config).is_ok())).collect()
    })
    .await
    .unwrap_or_else(|_| Vec::new());
    for (name, status, approved) in verdicts {
        let waiting = matches!(status, ServerStatus::NeedsApproval { .. });
        let running = !waiting && !matches!(status, ServerStatus::Disabled | ServerStatus::Stopped);
        let outcome = match (approved, waiting, running) {
            (true, true, _) => supervisor.connect(&name).await,
            (false, _, true) => supervisor.restart(&name).await,
            _ => Ok(()),
        };
        if let Err(e) = outcome {
            tracing::warn!("{name}: cannot apply the approval: {e}");
        }
    }
}

fn request_for(approvals: &Approvals, config: &ServerConfig) -> Result<ApprovalRequest, EngineError> {
    let (definition, digest, decision) = current_decision(approvals, config)?;
    Ok(ApprovalRequest::new(&definition, &digest, decision))
}
