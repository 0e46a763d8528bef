//! What each client scenario of the conformance suite expects the client to do. The basic ones connect and make a
//! call (the schema one hands a listed tool's input schema back as it was received); the auth ones log in through
//! Plugboard's core with the grant the scenario sets up. An unknown name is an error rather than a silent pass.

use anyhow::bail;
use rmcp::model::{JsonObject, Tool};
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
    /// Hand the input schema of the listed `json_schema_2020_12_tool` back to `json_schema_echo` as received, so the
    /// suite sees whether listing it kept every JSON Schema 2020-12 keyword (`$schema`, `$defs`, `$anchor`, …).
    SchemaPreservation,
    /// An `auth/*` scenario: log in with this grant when challenged, list the tools, call `test-tool` if listed.
    Auth(Grant),
}

/// How an auth scenario gets its token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grant {
    /// Authorization code with PKCE through a user agent (`auth::login`); pre-registered when the scenario's
    /// context carries a client id.
    AuthorizationCode,
    /// Client credentials (`auth::login_client_credentials`): a JWT or a secret, whichever the context carries.
    ClientCredentials,
    /// Enterprise-managed authorization (cross-app access) with an enterprise ID token (`auth::login_cross_app`).
    CrossApp,
}

/// The `auth/*` scenarios of the authorization-code grant.
const AUTHORIZATION_CODE_SCENARIOS: &[&str] = &[
    "metadata-default",
    "metadata-var1",
    "metadata-var2",
    "metadata-var3",
    "basic-cimd",
    "scope-from-www-authenticate",
    "scope-from-scopes-supported",
    "scope-omitted-when-undefined",
    "scope-step-up",
    "scope-retry-limit",
    "token-endpoint-auth-basic",
    "token-endpoint-auth-post",
    "token-endpoint-auth-none",
    "pre-registration",
    "2025-03-26-oauth-metadata-backcompat",
    "2025-03-26-oauth-endpoint-fallback",
    "resource-mismatch",
    "offline-access-scope",
    "offline-access-not-supported",
    // 2026-07-28's login checks, which the 2025-11-25 client already makes: RFC 9207's `iss` in the authorization
    // response, the metadata's issuer against the URL it came from, and a new authorization server for the resource.
    "iss-supported",
    "iss-not-advertised",
    "iss-supported-missing",
    "iss-wrong-issuer",
    "iss-unexpected",
    "iss-normalized",
    "metadata-issuer-mismatch",
    "authorization-server-migration",
];

/// The tool whose input schema the schema scenario's server checks, and the tool that takes it back.
const SCHEMA_FOCAL_TOOL: &str = "json_schema_2020_12_tool";
const SCHEMA_ECHO_TOOL: &str = "json_schema_echo";

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
            "json-schema-2020-12-preservation" => Self::SchemaPreservation,
            "auth/client-credentials-jwt" | "auth/client-credentials-basic" => Self::Auth(Grant::ClientCredentials),
            "auth/enterprise-managed-authorization" => Self::Auth(Grant::CrossApp),
            other => match other.strip_prefix("auth/") {
                Some(auth) if AUTHORIZATION_CODE_SCENARIOS.contains(&auth) => Self::Auth(Grant::AuthorizationCode),
                _ => bail!("scenario `{other}` is not supported by this client"),
            },
        })
    }

    /// The tool call the scenario's server waits for, given the tools it `listed`, if any (auth scenarios call
    /// `test-tool` when it is listed).
    pub fn call(self, listed: &[Tool]) -> Option<Call> {
        let (tool, arguments) = match self {
            Self::Initialize => return None,
            Self::ToolsCall => ("add_numbers", json!({"a": 5, "b": 3})),
            Self::ElicitationDefaults => ("test_client_elicitation_defaults", json!({})),
            Self::SseRetry => ("test_reconnection", json!({})),
            Self::SchemaPreservation => {
                let focal = listed.iter().find(|t| t.name == SCHEMA_FOCAL_TOOL)?;
                (SCHEMA_ECHO_TOOL, json!({"schema": focal.input_schema.as_ref()}))
            }
            Self::Auth(_) => ("test-tool", json!({})),
        };
        let serde_json::Value::Object(arguments) = arguments else { return None };
        Some(Call { tool, arguments })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every client scenario of the suite this binary runs is known, and an unknown one is refused instead of
    /// passing vacuously.
    #[test]
    fn scenario_names() {
        let basic = [
            "initialize",
            "tools_call",
            "elicitation-sep1034-client-defaults",
            "sse-retry",
            "json-schema-2020-12-preservation",
        ];
        let auth = AUTHORIZATION_CODE_SCENARIOS.iter().map(|s| format!("auth/{s}")).chain(
            ["auth/client-credentials-jwt", "auth/client-credentials-basic", "auth/enterprise-managed-authorization"]
                .map(String::from),
        );
        let all: Vec<String> = basic.iter().map(|s| (*s).to_owned()).chain(auth).collect();
        assert_eq!(all.len(), 35);
        for name in &all {
            assert!(Scenario::named(name).is_ok(), "{name}");
        }
        assert_eq!(Scenario::named("auth/client-credentials-jwt").ok(), Some(Scenario::Auth(Grant::ClientCredentials)));
        assert_eq!(Scenario::named("auth/pre-registration").ok(), Some(Scenario::Auth(Grant::AuthorizationCode)));
        assert!(Scenario::named("auth/not-a-scenario").is_err());
        assert!(Scenario::named("metadata-default").is_err());
    }

    /// `add_numbers` gets numeric arguments; initialize calls nothing; auth scenarios call `test-tool`.
    #[test]
    fn calls() {
        assert_eq!(Scenario::Initialize.call(&[]), None);
        let call = Scenario::ToolsCall.call(&[]);
        assert_eq!(
            call.map(|c| (c.tool, serde_json::Value::Object(c.arguments))),
            Some(("add_numbers", json!({"a": 5, "b": 3})))
        );
        assert_eq!(Scenario::Auth(Grant::CrossApp).call(&[]).map(|c| c.tool), Some("test-tool"));
    }

    /// The schema scenario hands back the focal tool's input schema exactly as listed, `$`-keywords and all; with
    /// the tool missing it calls nothing (and the suite's check fails).
    #[test]
    fn the_schema_goes_back_as_listed() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": {"address": {"$anchor": "addr", "type": "object"}},
            "properties": {"home": {"$ref": "#/$defs/address"}},
            "additionalProperties": false
        });
        let serde_json::Value::Object(object) = schema.clone() else { unreachable!() };
        let listed = [Tool::new(SCHEMA_FOCAL_TOOL, "focal", std::sync::Arc::new(object))];
        let call = Scenario::SchemaPreservation.call(&listed).expect("the focal tool is listed");
        assert_eq!(call.tool, SCHEMA_ECHO_TOOL);
        assert_eq!(serde_json::Value::Object(call.arguments), json!({"schema": schema}));
        assert_eq!(Scenario::SchemaPreservation.call(&[]), None);
    }
}
