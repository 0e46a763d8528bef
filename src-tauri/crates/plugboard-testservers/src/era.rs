//! Which protocol era the test server speaks (`--era`), and how it announces its list changes in each: unasked
//! notifications in a session of the earlier era, on the client's `subscriptions/listen` stream in 2026-07-28. It
//! must never announce a change on a stream that did not ask for that list.

use rmcp::model::{ErrorData, InitializeRequestParams, InitializeResult, ProtocolVersion, SubscriptionFilter};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{Peer, RoleServer};
use tokio::sync::broadcast;

/// The eras a test server can speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Era {
    /// `initialize` only; `server/discover` is an unknown method, as it is to every server written before 2026-07-28.
    Legacy,
    /// 2026-07-28 only: `initialize` is refused, naming the version it speaks.
    Modern,
    /// Both, as rmcp serves by default.
    Dual,
    /// Only a version newer than any Plugboard speaks ([`FUTURE_VERSION`]): `server/discover` and `initialize` are
    /// both refused with 2026-07-28's unsupported-version error, naming it.
    Future,
}

/// The one version an `--era future` server speaks.
pub const FUTURE_VERSION: &str = "2099-01-01";

fn version(text: &str) -> Option<ProtocolVersion> {
    // rmcp makes versions only by deserializing them.
    serde_json::from_value(serde_json::Value::from(text)).ok()
}

/// A list that changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Tools,
    Resources,
    Prompts,
}

/// Announces list changes the way the client's era hears them.
#[derive(Clone)]
pub struct Announcer {
    era: Era,
    /// The one version an older server speaks (`--legacy-version`).
    legacy_version: Option<ProtocolVersion>,
    streams: broadcast::Sender<Change>,
}

impl Announcer {
    /// `legacy_version` is a version string; one rmcp cannot read is ignored.
    pub fn new(era: Era, legacy_version: Option<&str>) -> Self {
        let legacy_version = legacy_version.and_then(version);
        Self { era, legacy_version, streams: broadcast::channel(64).0 }
    }

    /// Sends `change` unasked to a client of the earlier era, and on every open stream to one of 2026-07-28.
    pub async fn announce(&self, peer: &Peer<RoleServer>, change: Change) -> Result<(), ErrorData> {
        let legacy_session = peer.peer_info().is_some();
        if !legacy_session {
            // Nobody listening is no error: the change is still made.
            let _ = self.streams.send(change);
            return Ok(());
        }
        let sent = match change {
            Change::Tools => peer.notify_tool_list_changed().await,
            Change::Resources => peer.notify_resource_list_changed().await,
            Change::Prompts => peer.notify_prompt_list_changed().await,
        };
        sent.map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }

    pub fn supported_versions(&self) -> Vec<ProtocolVersion> {
        match (self.era, &self.legacy_version) {
            (Era::Modern, _) => vec![ProtocolVersion::V_2026_07_28],
            (Era::Future, _) => version(FUTURE_VERSION).into_iter().collect(),
            // rmcp answers `initialize` with a version it supports, so an older server supports only its own.
            (Era::Legacy, Some(version)) => vec![version.clone()],
            (Era::Legacy | Era::Dual, _) => ProtocolVersion::KNOWN_VERSIONS.to_vec(),
        }
    }

    /// `server/discover`: refused as an unknown method by a legacy server, as a version it does not speak by a
    /// future one.
    pub fn discover_refused(&self) -> Option<ErrorData> {
        match self.era {
            Era::Legacy => Some(ErrorData::method_not_found::<rmcp::model::DiscoverRequestMethod>()),
            Era::Future => {
                Some(ErrorData::unsupported_protocol_version(ProtocolVersion::V_2026_07_28, &self.supported_versions()))
            }
            Era::Modern | Era::Dual => None,
        }
    }

    /// `initialize`: refused by a modern-only server, with what it speaks.
    pub fn answer_initialize(
        &self,
        request: &InitializeRequestParams,
        context: &RequestContext<RoleServer>,
        negotiated: Result<InitializeResult, ErrorData>,
    ) -> Result<InitializeResult, ErrorData> {
        if self.era == Era::Future {
            return Err(ErrorData::unsupported_protocol_version(
                request.protocol_version.clone(),
                &self.supported_versions(),
            ));
        }
        if self.era == Era::Modern {
            return Err(ErrorData::invalid_request(
                "this server speaks MCP 2026-07-28 only (server/discover); initialize is not supported",
                None,
            ));
        }
        context.peer.set_peer_info(request.clone());
        negotiated
    }

    /// Serves one `subscriptions/listen` stream until the client ends it.
    pub async fn follow(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let mut changes = self.streams.subscribe();
        let accepted = context.accepted().clone();
        let sink = context.sink();
        loop {
            let change = tokio::select! {
                () = context.cancelled() => return Ok(()),
                change = changes.recv() => match change {
                    Ok(change) => change,
                    Err(broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(broadcast::error::RecvError::Closed) => return Ok(()),
                },
            };
            let sent = match change {
                Change::Tools if accepted.tools_list_changed == Some(true) => sink.notify_tool_list_changed().await,
                Change::Resources if accepted.resources_list_changed == Some(true) => {
                    sink.notify_resource_list_changed().await
                }
                Change::Prompts if accepted.prompts_list_changed == Some(true) => {
                    sink.notify_prompt_list_changed().await
                }
                _ => Ok(()),
            };
            if sent.is_err() {
                return Ok(());
            }
        }
    }
}

/// The lists a stream may follow: the three the server changes.
pub fn accepted(requested: &SubscriptionFilter) -> SubscriptionFilter {
    let ours =
        SubscriptionFilter::builder().tools_list_changed().resources_list_changed().prompts_list_changed().build();
    ours.intersection(requested)
}
