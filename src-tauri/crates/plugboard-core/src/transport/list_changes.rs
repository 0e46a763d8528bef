//! How a 2026-07-28 session hears that a server's lists changed: that era has no unasked notifications, so one
//! `subscriptions/listen` stream per session asks for the list changes the server's capabilities offer, and what
//! arrives on it becomes the same notices a session of the earlier era gets unasked (`handler.rs`). The stream
//! lives as long as the session's owner listens; it must never outlive the session, nor pass on anything but the
//! three list changes.

use rmcp::model::{ServerNotification, SubscriptionFilter};
use rmcp::service::{Peer, RoleClient};
use tokio::task::AbortHandle;

use super::handler::{PlugboardClient, ServerNotice};

/// The open stream; dropping it ends it.
pub(super) struct ListChanges(AbortHandle);

impl Drop for ListChanges {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl ListChanges {
    /// Opens the stream for the lists the server says change (`listChanged` in its capabilities); `None` when it
    /// offers none.
    pub(super) fn follow(peer: Peer<RoleClient>, handler: PlugboardClient) -> Option<Self> {
        let filter = offered(&peer)?;
        let task = tokio::spawn(async move {
            // A server that refuses the stream leaves the session as it is, without change notices: the
            // tools the window shows are still the server's, fetched at connect.
            let Ok(mut subscription) = peer.listen(filter).await else { return };
            // A change between the lists fetched at connect and the stream's acknowledgment was sent to nobody: the
            // lists the stream follows are fetched once more now that nothing can be missed, past rmcp's response
            // cache, which would otherwise answer with the lists fetched at connect for as long as their ttl.
            peer.clear_response_cache().await;
            for notice in followed(subscription.acknowledged()) {
                handler.notify(notice);
            }
            while let Ok(Some(notification)) = subscription.next().await {
                if let Some(notice) = notice_of(&notification) {
                    handler.notify(notice);
                }
            }
        });
        Some(Self(task.abort_handle()))
    }
}

fn offered(peer: &Peer<RoleClient>) -> Option<SubscriptionFilter> {
    let info = peer.peer_info()?;
    let capabilities = &info.capabilities;
    let changes = |list_changed: Option<bool>| list_changed == Some(true);
    let mut filter = SubscriptionFilter::builder();
    let mut any = false;
    if capabilities.tools.as_ref().is_some_and(|tools| changes(tools.list_changed)) {
        filter = filter.tools_list_changed();
        any = true;
    }
    if capabilities.prompts.as_ref().is_some_and(|prompts| changes(prompts.list_changed)) {
        filter = filter.prompts_list_changed();
        any = true;
    }
    if capabilities.resources.as_ref().is_some_and(|resources| changes(resources.list_changed)) {
        filter = filter.resources_list_changed();
        any = true;
    }
    any.then(|| filter.build())
}

/// The notices that refetch the lists `filter` follows.
fn followed(filter: &SubscriptionFilter) -> Vec<ServerNotice> {
    let on = |flag: Option<bool>| flag == Some(true);
    let mut notices = Vec::new();
    if on(filter.tools_list_changed) {
        notices.push(ServerNotice::ToolsChanged);
    }
    if on(filter.prompts_list_changed) {
        notices.push(ServerNotice::PromptsChanged);
    }
    if on(filter.resources_list_changed) {
        notices.push(ServerNotice::ResourcesChanged);
    }
    notices
}

fn notice_of(notification: &ServerNotification) -> Option<ServerNotice> {
    match notification {
        ServerNotification::ToolListChangedNotification(_) => Some(ServerNotice::ToolsChanged),
        ServerNotification::PromptListChangedNotification(_) => Some(ServerNotice::PromptsChanged),
        ServerNotification::ResourceListChangedNotification(_) => Some(ServerNotice::ResourcesChanged),
        _ => None,
    }
}
