//! A session's pins, for its actor: what the server offered — tools, and (when it declares them) prompts, resource
//! templates and its instructions — is compared with the pins of the definition the session was approved under, off
//! the async runtime (the pins are a file under a lock). What is withheld is kept for the actor's tool set; what is
//! approved is published for the relay, which passes on only prompts and templates whose definition is approved. It
//! must never release something the pins could not vouch for.

use std::collections::BTreeMap;
use std::sync::Arc;

use rmcp::model::{Prompt, ResourceTemplate};

use crate::transport::McpSession;
use crate::trust::{Listing, Pin, PinChange, PinKind, PinReview, Pinning, Subject};

/// What is approved of a server's session (each subject's pinned digest); `None` when the session is not pinned (a
/// test's connector), when everything passes.
pub(super) type ApprovedPins = Option<Arc<BTreeMap<Subject, String>>>;

/// Whether what is approved of `kind` differs between `before` and `after`.
pub(super) fn changed_kind(before: &ApprovedPins, after: &ApprovedPins, kind: PinKind) -> bool {
    let of_kind = |pins: &ApprovedPins| -> Option<Vec<(Subject, String)>> {
        let pins = pins.as_ref()?;
        Some(pins.iter().filter(|(s, _)| s.kind == kind).map(|(s, d)| (s.clone(), d.clone())).collect())
    };
    of_kind(before) != of_kind(after)
}

/// Whether `prompt` is offered as approved.
pub(super) fn prompt_approved(approved: &BTreeMap<Subject, String>, prompt: &Prompt) -> bool {
    let subject = Subject { kind: PinKind::Prompt, name: prompt.name.clone() };
    approved.get(&subject) == Some(&Pin::of_prompt(prompt).digest)
}

/// Whether `template` is offered as approved.
pub(super) fn template_approved(approved: &BTreeMap<Subject, String>, template: &ResourceTemplate) -> bool {
    let subject = Subject { kind: PinKind::ResourceTemplate, name: template.uri_template.clone() };
    approved.get(&subject) == Some(&Pin::of_resource_template(template).digest)
}

/// The pins a session's listings are checked against, what was last listed, and what of it is withheld.
#[derive(Default)]
pub(super) struct SessionPins {
    pinning: Option<Pinning>,
    listed: Listing,
    withheld: BTreeMap<Subject, PinChange>,
}

impl SessionPins {
    /// Starts over for a new session made under `pinning`; what was withheld is remembered, so a reconnect does
    /// not announce the same withheld change again.
    pub fn renew(&mut self, pinning: Option<Pinning>) {
        self.pinning = pinning;
        self.listed = Listing::default();
    }

    /// The withheld tools, by raw name.
    pub fn withheld_tools(&self) -> BTreeMap<String, PinChange> {
        let tools = self.withheld.iter().filter(|(s, _)| s.kind == PinKind::Tool);
        tools.map(|(subject, change)| (subject.name.clone(), *change)).collect()
    }

    /// What else is withheld (prompts, resource templates, instructions), as a person reads each.
    pub fn withheld_besides_tools(&self) -> Vec<String> {
        self.withheld.keys().filter(|s| s.kind != PinKind::Tool).map(ToString::to_string).collect()
    }

    /// Takes `listing` in (each kind it covers replaces what was listed of that kind) and checks everything listed
    /// against the pins. Returns what is approved now and the sentences for the server's log: trouble with the
    /// pins, and a notice when what is withheld changed (once per change, not at every listing).
    pub async fn review(&mut self, server: &str, listing: Listing) -> (ApprovedPins, Vec<String>) {
        self.listed.merge(listing);
        let Some(pinning) = self.pinning.clone() else { return (None, Vec::new()) };
        let (server_name, listed) = (server.to_owned(), std::mem::take(&mut self.listed));
        let subjects: Vec<Subject> = listed.subjects().cloned().collect();
        let reviewed = tokio::task::spawn_blocking(move || {
            let outcome = pinning.review(&server_name, &listed);
            (outcome, listed)
        })
        .await;
        let mut said = Vec::new();
        let review = match reviewed {
            Ok(((review, trouble), listed)) => {
                self.listed = listed;
                said.extend(trouble);
                review
            }
            // The listing went with the task: nothing of it is vouched for until the next one.
            Err(error) => {
                said.push(format!("everything is withheld: the pins could not be checked ({error})"));
                let withheld = subjects.into_iter().map(|s| (s, PinChange::Changed)).collect();
                PinReview { withheld, ..PinReview::default() }
            }
        };
        if review.withheld != self.withheld
            && let Some(notice) = review.notice(server)
        {
            said.push(notice);
        }
        self.withheld = review.withheld;
        (Some(Arc::new(review.approved)), said)
    }

    /// Checks what was last listed again (the pins changed: a person approved something).
    pub async fn review_again(&mut self, server: &str) -> (ApprovedPins, Vec<String>) {
        self.review(server, Listing::default()).await
    }
}

/// What the server offers besides its tools, for the pins: its instructions, and its prompts and resource templates
/// when it declares them (each within `timeout`). A kind that cannot be listed is left out of the listing (and
/// said), so nothing of it is pinned on trust; its things stay new until listed and approved.
pub(super) async fn extras(
    session: &McpSession,
    timeout: std::time::Duration,
    wanted: &[PinKind],
) -> (Listing, Vec<String>) {
    let peer = session.peer();
    let info = peer.peer_info();
    let capabilities = info.as_ref().map(|i| &i.capabilities);
    let mut listing = Listing::default();
    let mut said = Vec::new();
    if wanted.contains(&PinKind::Instructions) {
        listing = listing.instructions(info.as_ref().and_then(|i| i.instructions.as_deref()));
    }
    if wanted.contains(&PinKind::Prompt) {
        let declared = capabilities.is_some_and(|c| c.prompts.is_some());
        match listed(declared, timeout, "prompts", peer.list_all_prompts()).await {
            Ok(prompts) => listing = listing.prompts(&prompts),
            Err(message) => said.push(message),
        }
    }
    if wanted.contains(&PinKind::ResourceTemplate) {
        let declared = capabilities.is_some_and(|c| c.resources.is_some());
        match listed(declared, timeout, "resource templates", peer.list_all_resource_templates()).await {
            Ok(templates) => listing = listing.resource_templates(&templates),
            Err(message) => said.push(message),
        }
    }
    (listing, said)
}

/// What `request` lists within `timeout` (nothing when the server does not declare the capability), or why not.
async fn listed<T>(
    declared: bool,
    timeout: std::time::Duration,
    what: &str,
    request: impl std::future::Future<Output = Result<Vec<T>, rmcp::ServiceError>>,
) -> Result<Vec<T>, String> {
    if !declared {
        return Ok(Vec::new());
    }
    match tokio::time::timeout(timeout, request).await {
        Ok(Ok(items)) => Ok(items),
        Ok(Err(e)) => Err(format!("its {what} could not be listed for pinning: {e}")),
        Err(_) => Err(format!("its {what} could not be listed for pinning in time")),
    }
}
