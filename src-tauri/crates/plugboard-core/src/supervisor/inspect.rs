//! Looking inside a ready server for its detail page: resources (listed, templates, read), prompts (listed, got
//! with arguments) and what it said about itself in `initialize`. Each request goes through the live session's
//! peer the way calls do (waiting within the server's timeout for a connecting one, failing `NotReady` for a
//! settled one), is cut off at the server's timeout, and classifies failures like calls; nothing is retried, since
//! these are the person's own looks, one click from being asked again. It never hands out rmcp types.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;

use rmcp::model::{
    GetPromptRequestParams, JsonObject, Prompt, ReadResourceRequestParams, Resource, ResourceContents,
    ResourceTemplate, ServerCapabilities,
};
use rmcp::service::RoleClient;
use rmcp::{Peer, ServiceError};
use serde::Serialize;

use super::call::{CallRoute, classify, wait_ready};
use super::{Supervisor, SupervisorError};

/// A resource the server lists.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ResourceInfo {
    pub uri: String,
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub mime_type: Option<String>,
    /// Its size in bytes, when the server says.
    pub size: Option<f64>,
}

/// A family of resources the server can make from an RFC 6570 URI template.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ResourceTemplateInfo {
    pub uri_template: String,
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub mime_type: Option<String>,
}

/// One part of a read resource: text, or base64 bytes with their decoded size.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum ResourceContent {
    Text { uri: String, mime_type: Option<String>, text: String },
    Blob { uri: String, mime_type: Option<String>, blob: String, size: u32 },
}

/// A prompt the server offers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct PromptInfo {
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub arguments: Vec<PromptArgumentInfo>,
}

/// One argument a prompt declares (prompt arguments are strings).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct PromptArgumentInfo {
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub required: bool,
}

/// What `prompts/get` returned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct PromptOutcome {
    pub description: Option<String>,
    pub messages: Vec<PromptMessageInfo>,
}

/// One message of a prompt: its role, and its MCP content block as JSON text (text, image, audio, resource…).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct PromptMessageInfo {
    /// `user` or `assistant`.
    pub role: String,
    pub content: String,
}

/// What the server said about itself in `initialize`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ServerInfo {
    pub protocol_version: String,
    pub name: Option<String>,
    pub title: Option<String>,
    pub version: Option<String>,
    pub description: Option<String>,
    pub website_url: Option<String>,
    /// What it offers, in words: "tools (announces list changes)", "resources (subscriptions)", "logging", …
    pub capabilities: Vec<String>,
    /// How to use it, as the server wrote it (server text: show it inert).
    pub instructions: Option<String>,
}

impl Supervisor {
    /// Every resource `server` lists, following pagination to the end.
    pub async fn resources(&self, server: &str) -> Result<Vec<ResourceInfo>, SupervisorError> {
        let listed = self.ask(server, |peer| async move { peer.list_all_resources().await }).await?;
        Ok(listed.iter().map(resource_info).collect())
    }

    /// Every resource template `server` lists, following pagination to the end.
    pub async fn resource_templates(&self, server: &str) -> Result<Vec<ResourceTemplateInfo>, SupervisorError> {
        let listed = self.ask(server, |peer| async move { peer.list_all_resource_templates().await }).await?;
        Ok(listed.iter().map(template_info).collect())
    }

    /// Reads the resource at `uri`.
    pub async fn read_resource(&self, server: &str, uri: &str) -> Result<Vec<ResourceContent>, SupervisorError> {
        let read = self.resource_in_rounds(server, ReadResourceRequestParams::new(uri)).await?;
        Ok(read.contents.iter().map(content).collect())
    }

    /// Every prompt `server` offers, following pagination to the end.
    pub async fn prompts(&self, server: &str) -> Result<Vec<PromptInfo>, SupervisorError> {
        let listed = self.ask(server, |peer| async move { peer.list_all_prompts().await }).await?;
        Ok(listed.iter().map(prompt_info).collect())
    }

    /// Gets the prompt `name` filled in with `arguments` (string values, as prompts take).
    pub async fn get_prompt(
        &self,
        server: &str,
        name: &str,
        arguments: BTreeMap<String, String>,
    ) -> Result<PromptOutcome, SupervisorError> {
        let mut params = GetPromptRequestParams::new(name);
        if !arguments.is_empty() {
            let object: JsonObject = arguments.into_iter().map(|(k, v)| (k, serde_json::Value::String(v))).collect();
            params.arguments = Some(object);
        }
        let got = self.prompt_in_rounds(server, params).await?;
        let messages = got
            .messages
            .iter()
            .map(|m| PromptMessageInfo {
                role: serde_json::to_value(&m.role)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default(),
                content: serde_json::to_string(&m.content).unwrap_or_else(|_| "{}".into()),
            })
            .collect();
        Ok(PromptOutcome { description: got.description, messages })
    }

    /// What `server` said about itself when it connected.
    pub async fn server_info(&self, server: &str) -> Result<ServerInfo, SupervisorError> {
        let (peer, _) = self.ready(server).await?;
        let info = peer.peer_info().ok_or_else(|| SupervisorError::Protocol {
            server: server.to_owned(),
            message: "the session has no initialize result".into(),
        })?;
        let implementation = info.server_info.as_ref();
        Ok(ServerInfo {
            protocol_version: info.protocol_version.to_string(),
            name: implementation.map(|i| i.name.clone()),
            title: implementation.and_then(|i| i.title.clone()),
            version: implementation.map(|i| i.version.clone()),
            description: implementation.and_then(|i| i.description.clone()),
            website_url: implementation.and_then(|i| i.website_url.clone()),
            capabilities: capability_words(&info.capabilities),
            instructions: info.instructions.clone(),
        })
    }

    /// The live session's peer and the server's timeout (waiting for a connecting server like a call does).
    pub(super) async fn ready(&self, server: &str) -> Result<(Peer<RoleClient>, std::time::Duration), SupervisorError> {
        let route: Arc<CallRoute> = self.with_handle(server, |h| Arc::clone(&h.route))?;
        let (_, live) = match route.ready_peer() {
            Some(ready) => ready,
            None => wait_ready(server, &route).await?,
        };
        Ok((live.peer, route.timeout))
    }

    /// Sends one request (possibly several pages) through the ready peer, cut off at the server's timeout; rmcp
    /// tells the server it was cancelled when the future is dropped.
    pub(super) async fn ask<T, F, Fut>(&self, server: &str, request: F) -> Result<T, SupervisorError>
    where
        F: FnOnce(Peer<RoleClient>) -> Fut,
        Fut: Future<Output = Result<T, ServiceError>>,
    {
        let (peer, timeout) = self.ready(server).await?;
        match tokio::time::timeout(timeout, request(peer)).await {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(error)) => Err(classify(server, error).settled(server)),
            Err(_) => Err(SupervisorError::Timeout { server: server.to_owned(), after: timeout }),
        }
    }
}

fn resource_info(r: &Resource) -> ResourceInfo {
    // Sizes are shown, never computed with: f64 is exact far past any real file.
    let size = r.size.map(|s| s as f64);
    ResourceInfo {
        uri: r.uri.clone(),
        name: r.name.clone(),
        title: r.title.clone(),
        description: r.description.clone(),
        mime_type: r.mime_type.clone(),
        size,
    }
}

fn template_info(t: &ResourceTemplate) -> ResourceTemplateInfo {
    ResourceTemplateInfo {
        uri_template: t.uri_template.clone(),
        name: t.name.clone(),
        title: t.title.clone(),
        description: t.description.clone(),
        mime_type: t.mime_type.clone(),
    }
}

fn content(c: &ResourceContents) -> ResourceContent {
    match c {
        ResourceContents::TextResourceContents { uri, mime_type, text, .. } => {
            ResourceContent::Text { uri: uri.clone(), mime_type: mime_type.clone(), text: text.clone() }
        }
        ResourceContents::BlobResourceContents { uri, mime_type, blob, .. } => ResourceContent::Blob {
            uri: uri.clone(),
            mime_type: mime_type.clone(),
            blob: blob.clone(),
            size: base64_size(blob),
        },
        // A kind of content this version of Plugboard does not know: shown as its JSON.
        other => ResourceContent::Text {
            uri: String::new(),
            mime_type: Some("application/json".into()),
            text: serde_json::to_string(other).unwrap_or_default(),
        },
    }
}

/// The number of bytes `blob` decodes to, without decoding it.
fn base64_size(blob: &str) -> u32 {
    let digits = blob.bytes().filter(|b| !b.is_ascii_whitespace() && *b != b'=').count();
    u32::try_from(digits * 3 / 4).unwrap_or(u32::MAX)
}

fn prompt_info(p: &Prompt) -> PromptInfo {
    let arguments = p
        .arguments
        .iter()
        .flatten()
        .map(|a| PromptArgumentInfo {
            name: a.name.clone(),
            title: a.title.clone(),
            description: a.description.clone(),
            required: a.required.unwrap_or(false),
        })
        .collect();
    PromptInfo { name: p.name.clone(), title: p.title.clone(), description: p.description.clone(), arguments }
}

/// The server's capabilities in words, in a fixed order.
fn capability_words(c: &ServerCapabilities) -> Vec<String> {
    let with = |name: &str, notes: &[(Option<bool>, &str)]| {
        let notes: Vec<&str> = notes.iter().filter(|(on, _)| *on == Some(true)).map(|(_, note)| *note).collect();
        if notes.is_empty() { name.to_owned() } else { format!("{name} ({})", notes.join(", ")) }
    };
    let mut words = Vec::new();
    if let Some(tools) = &c.tools {
        words.push(with("tools", &[(tools.list_changed, "announces list changes")]));
    }
    if let Some(resources) = &c.resources {
        words.push(with(
            "resources",
            &[(resources.subscribe, "subscriptions"), (resources.list_changed, "announces list changes")],
        ));
    }
    if let Some(prompts) = &c.prompts {
        words.push(with("prompts", &[(prompts.list_changed, "announces list changes")]));
    }
    if c.logging.is_some() {
        words.push("logging".to_owned());
    }
    if c.completions.is_some() {
        words.push("completions".to_owned());
    }
    for key in c.extensions.iter().flat_map(|e| e.keys()) {
        words.push(format!("extension {key}"));
    }
    for key in c.experimental.iter().flat_map(|e| e.keys()) {
        words.push(format!("experimental {key}"));
    }
    words
}

#[cfg(test)]
mod tests {
    use super::base64_size;

    /// A blob's size is the decoded byte count, padding and line breaks not counted.
    #[test]
    fn blob_size_counts_decoded_bytes() {
        assert_eq!(base64_size("aGVsbG8="), 5);
        assert_eq!(base64_size("aGVs\nbG8h"), 6);
        assert_eq!(base64_size(""), 0);
    }
}
