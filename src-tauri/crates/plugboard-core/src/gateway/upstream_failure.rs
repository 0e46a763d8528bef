//! What a client (and the model behind it) reads when a call could not reach its tool: which server, what went
//! wrong, and what the person can do about it. Written as a tool result with `isError`, because clients show a
//! tool's own text to the model but hide JSON-RPC errors behind a generic message.

use rmcp::model::{CallToolResult, ContentBlock};

use crate::supervisor::{ServerStatus, SupervisorError};

/// The `isError` result for a call to `tool` of `server` that failed before or outside the tool.
pub fn failed_call(server: &str, tool: &str, error: &SupervisorError) -> CallToolResult {
    let text = format!("Plugboard could not run {tool} on the server {server}: {error}. {}", what_to_do(server, error));
    CallToolResult::error(vec![ContentBlock::text(text)])
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
}
