//! What the person is asked, in the shape the window shows: every field is server text to render inert, and nothing
//! here can run (a sampling image is described, never decoded). It must never carry a server's HTML as markup.

// Sampling is deprecated by SEP-2577; servers of 2025-11-25 still ask for it.
#![allow(deprecated)]

use rmcp::model::{CreateMessageRequestParams, Role, SamplingMessageContentBlock};
use serde::Serialize;

use super::link::LinkToOpen;

/// One request waiting for the person.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct PendingRequest {
    /// Plugboard's id for the request (not the server's JSON-RPC id).
    pub id: u32,
    /// The server that asked.
    pub server: String,
    /// What it asks for (a tagged union on `kind`).
    pub ask: RequestKind,
}

/// What the server asks for.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
#[non_exhaustive]
pub enum RequestKind {
    /// A form (elicitation, form mode): `schema` is the requested JSON Schema as JSON text.
    Elicitation { message: String, schema: String },
    /// A message an LLM would write (sampling/createMessage); Plugboard has no LLM, so the person may write it.
    Sampling { messages: Vec<SamplingLine>, system_prompt: Option<String>, max_tokens: u32 },
    /// The folders the server may work in (roots/list).
    Roots,
    /// A page to open in the browser (elicitation, URL mode), vetted and split for display; never fetched by us.
    // Boxed: the parsed address would make every request as large as this one.
    OpenLink { message: String, link: Box<LinkToOpen> },
}

/// One message of a sampling request, as text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct SamplingLine {
    /// `user` or `assistant`.
    pub role: String,
    /// The text; images, audio and tool blocks are described in brackets, never shown.
    pub text: String,
}

impl RequestKind {
    /// The sampling request as the person sees it.
    pub fn sampling(params: &CreateMessageRequestParams) -> Self {
        let messages = params
            .messages
            .iter()
            .map(|message| SamplingLine {
                role: match message.role {
                    Role::User => "user".to_owned(),
                    Role::Assistant => "assistant".to_owned(),
                },
                text: message.content.iter().map(describe).collect::<Vec<_>>().join("\n"),
            })
            .collect();
        Self::Sampling { messages, system_prompt: params.system_prompt.clone(), max_tokens: params.max_tokens }
    }
}

fn describe(block: &SamplingMessageContentBlock) -> String {
    match block {
        SamplingMessageContentBlock::Text(text) => text.text.clone(),
        SamplingMessageContentBlock::Image(image) => {
            format!("[image: {}, {} bytes base64]", image.mime_type, image.data.len())
        }
        SamplingMessageContentBlock::Audio(audio) => {
            format!("[audio: {}, {} bytes base64]", audio.mime_type, audio.data.len())
        }
        SamplingMessageContentBlock::ToolUse(tool) => format!("[tool use: {}]", tool.name),
        SamplingMessageContentBlock::ToolResult(result) => format!("[tool result for {}]", result.tool_use_id),
        _ => "[content Plugboard cannot show]".to_owned(),
    }
}
