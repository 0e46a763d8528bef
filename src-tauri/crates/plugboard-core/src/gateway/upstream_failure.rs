//! What a client (and the model behind it) reads when a call could not reach its tool: which server, what went
//! wrong, and what the person can do about it. Written as a tool result with `isError`, because clients show a
//! tool's own text to the model but hide JSON-RPC errors behind a generic message. The one exception: pages a server
//! needs opened (`-32042`) go to a client that declared URL mode as that error, so it can show them itself; only
//! pages whose address passed Plugboard's link check are passed on.

use rmcp::model::{CallToolResult, ClientCapabilities, ContentBlock, ErrorData};

use crate::supervisor::{ServerStatus, SupervisorError};

/// The `isError` result for a call to `tool` of `server` that failed before or outside the tool.
pub fn failed_call(server: &str, tool: &str, error: &SupervisorError) -> CallToolResult {
    let text = format!("Plugboard could not run {tool} on the server {server}: {error}. {}", what_to_do(server, error));
    CallToolResult::error(vec![ContentBlock::text(text)])
}

/// The `-32042` error for a client that takes pages to open (`elicitation.url`), listing the vetted pages of
/// `error`; `None` for any other failure or client, or when no page is fit to pass on.
pub fn pages_required(client: Option<&ClientCapabilities>, error: &SupervisorError) -> Option<ErrorData> {
    let SupervisorError::PagesToOpen { pages, .. } = error else { return None };
    client?.elicitation.as_ref()?.url.as_ref()?;
    let listed: Vec<serde_json::Value> = pages
        .iter()
        .filter_map(|page| {
            let (Ok(link), Some(id)) = (&page.address, &page.elicitation_id) else { return None };
            Some(serde_json::json!({ "mode": "url", "elicitationId": id, "url": link.url, "message": page.message }))
        })
        .collect();
    if listed.is_empty() {
        return None;
    }
    let message = "This request requires the person to open a page first.";
    let data = serde_json::json!({ "elicitations": listed });
    Some(ErrorData::new(crate::supervisor::URL_ELICITATION_REQUIRED, message, Some(data)))
}

fn what_to_do(server: &str, error: &SupervisorError) -> String {
    match error {
        SupervisorError::AuthRequired { .. }
        | SupervisorError::NotReady { status: ServerStatus::NeedsLogin { .. }, .. } => {
            format!("Log in to {server} in Plugboard (its page has Log in), or run `plugboard login {server}`.")
        }
        SupervisorError::NotReady { status: ServerStatus::NeedsApproval { .. }, .. } => {
            format!("Approve {server} in Plugboard (its page shows what it runs), or run `plugboard approve {server}`.")
        }
        SupervisorError::NotReady { status: ServerStatus::KeychainLocked { .. }, .. } => {
            format!("Ask the person to unlock their OS keychain; {server} then connects by itself.")
        }
        SupervisorError::NotReady { status: ServerStatus::Disabled, .. } => {
            format!("Turn {server} on in Plugboard, or run `plugboard enable {server}`.")
        }
        SupervisorError::NotReady { .. } | SupervisorError::Connection { .. } => {
            format!(
                "Open Plugboard to see why {server} is not connected (its page has Diagnose), or run `plugboard doctor {server}`."
            )
        }
        SupervisorError::Interrupted { tool, .. } => {
            format!("Do not simply call {tool} again: first check whether it already did what was asked.")
        }
        SupervisorError::Timeout { .. } => {
            format!("The server took too long; try again, or raise timeoutMs for {server} in Plugboard.")
        }
        SupervisorError::Withheld { .. } => {
            format!("Ask the person to review {server}'s changed tools in Plugboard (or `plugboard approve {server}`).")
        }
        SupervisorError::SecretRefused { owner, .. } => format!(
            "Do not pass one server's secrets to another: call {server} without it. If {server} needs a credential, \
             the person gives it its own in Plugboard; {owner}'s secret stays with {owner}."
        ),
        SupervisorError::PagesToOpen { .. } => {
            "Ask the person to open the page in their browser (check its address first), then call again.".to_owned()
        }
        SupervisorError::UnknownTool { .. } | SupervisorError::NotFound { .. } => {
            "The person's curated tools changed; list the tools again.".to_owned()
        }
        _ => "Try again; if it keeps failing, open Plugboard to see the server's log.".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(result: &CallToolResult) -> String {
        serde_json::to_value(result).expect("json")["content"][0]["text"].as_str().unwrap_or_default().to_owned()
    }

    /// A failure names the server and the tool, is an isError result, and says how to fix it.
    #[test]
    fn failures_name_the_server_and_what_to_do() {
        let login = failed_call(
            "linear",
            "search",
            &SupervisorError::AuthRequired { server: "linear".into(), hint: "it needs a login".into() },
        );
        assert_eq!(login.is_error, Some(true));
        let said = text(&login);
        assert!(said.contains("search on the server linear") && said.contains("plugboard login linear"), "{said}");

        let down = failed_call(
            "files",
            "read",
            &SupervisorError::NotReady {
                server: "files".into(),
                status: ServerStatus::Failed { error: "npx was not found".into(), stderr_tail: None },
            },
        );
        let said = text(&down);
        assert!(said.contains("npx was not found") && said.contains("plugboard doctor files"), "{said}");
    }

    /// Pages go as `-32042` only to a client that declared URL mode, and only those whose address passed the link
    /// check and that carry the server's id; otherwise the failure stays a result for the person to read.
    #[test]
    fn pages_go_as_an_error_only_to_a_url_client() {
        let page = |url: &str, id: Option<&str>| crate::supervisor::PageToOpen {
            message: "Connect first.".into(),
            address: crate::person::vet_link(url),
            elicitation_id: id.map(str::to_owned),
        };
        let error = SupervisorError::PagesToOpen {
            server: "files".into(),
            pages: vec![
                page("https://accounts.example.com/connect", Some("e1")),
                page("https://google.com@evil.example/", Some("e2")),
                page("https://accounts.example.com/other", None),
            ],
        };
        let capabilities = |elicitation: serde_json::Value| -> ClientCapabilities {
            serde_json::from_value(serde_json::json!({ "elicitation": elicitation })).expect("capabilities")
        };
        let url_client = capabilities(serde_json::json!({ "form": {}, "url": {} }));
        let relayed = pages_required(Some(&url_client), &error).expect("relayed");
        assert_eq!(relayed.code.0, -32042);
        assert_eq!(
            relayed.data.expect("data")["elicitations"],
            serde_json::json!([{ "mode": "url", "elicitationId": "e1", "url": "https://accounts.example.com/connect",
                                 "message": "Connect first." }])
        );
        assert!(pages_required(Some(&capabilities(serde_json::json!({ "form": {} }))), &error).is_none());
        assert!(pages_required(None, &error).is_none());
        let other = SupervisorError::Cancelled { server: "files".into() };
        assert!(pages_required(Some(&url_client), &other).is_none());
    }
}
