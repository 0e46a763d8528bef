//! What each client scenario of the conformance suite expects the client to do after connecting. Only the
//! non-auth scenarios are here; an unknown name is an error rather than a silent pass.

use anyhow::bail;
use rmcp::model::JsonObject;
use serde_json::json;

/// A client scenario of the suite this binary knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scenario {
    /// Handshake (protocol version, client info), then list the (empty) tools.
    Initialize,
    /// Call `add_numbers` with two numbers.
    ToolsCall,
    /// Call the tool that sends a form with defaults (SEP-1034); the handler accepts with the defaults.
    ElicitationDefaults,
    /// Call the tool whose SSE stream closes with `retry: 500`; rmcp reconnects with `Last-Event-ID`.
    SseRetry,
}

/// One tool call a scenario makes.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    pub tool: &'static str,
    pub arguments: JsonObject,
}

impl Scenario {
    /// The scenario named by `MCP_CONFORMANCE_SCENARIO`.
    pub fn named(name: &str) -> anyhow::Result<Self> {
        Ok(match name {
            "initialize" => Self::Initialize,
            "tools_call" => Self::ToolsCall,
            "elicitation-sep1034-client-defaults" => Self::ElicitationDefaults,
            "sse-retry" => Self::SseRetry,
            other => bail!("scenario `{other}` is not supported by this client"),
        })
    }

    /// The tool call the scenario's server waits for, if any.
    pub fn call(self) -> Option<Call> {
        let (tool, arguments) = match self {
            Self::Initialize => return None,
            Self::ToolsCall => ("add_numbers", json!({"a": 5, "b": 3})),
            Self::ElicitationDefaults => ("test_client_elicitation_defaults", json!({})),
            Self::SseRetry => ("test_reconnection", json!({})),
        };
        let serde_json::Value::Object(arguments) = arguments else { return None };
        Some(Call { tool, arguments })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every scenario the CI runs is known, and an unknown one is refused instead of passing vacuously.
    #[test]
    fn scenario_names() {
        for name in ["initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"] {
            assert!(Scenario::named(name).is_ok(), "{name}");
        }
        assert!(Scenario::named("auth/metadata-default").is_err());
    }

    /// `add_numbers` gets numeric arguments; initialize calls nothing.
    #[test]
    fn calls() {
        assert_eq!(Scenario::Initialize.call(), None);
        let call = Scenario::ToolsCall.call();
        assert_eq!(
            call.map(|c| (c.tool, serde_json::Value::Object(c.arguments))),
            Some(("add_numbers", json!({"a": 5, "b": 3})))
        );
    }
}
