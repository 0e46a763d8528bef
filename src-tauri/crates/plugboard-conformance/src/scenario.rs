//! What each client scenario of the conformance suite expects the client to do, as pure data: the calls it makes of
//! the tools the supervisor kept (the schema one hands a listed tool's input schema back as it was received; the
//! 2026-07-28 ones call what the context names, or every tool kept), and for the auth ones the grant the scenario
//! sets up. It must never connect or call anything itself; an unknown name is an error rather than a silent pass.

use anyhow::bail;
use plugboard_core::supervisor::ToolInfo;
use rmcp::model::JsonObject;
use serde_json::{Value, json};

use crate::context::ScenarioContext;

/// A client scenario of the suite this binary knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scenario {
    /// Handshake (protocol version, client info), then list the (empty) tools.
    Initialize,
    /// Call `add_numbers` with two numbers.
    ToolsCall,
    /// Call the tool that sends a form with defaults (SEP-1034); the person's stand-in accepts it as the window shows
    /// it, pre-filled with the defaults.
    ElicitationDefaults,
    /// Call the tool whose SSE stream closes with `retry: 500`; rmcp reconnects with `Last-Event-ID`.
    SseRetry,
    /// Hand the input schema of the listed `json_schema_2020_12_tool` back to `json_schema_echo` as received, so the
    /// suite sees whether listing it kept every JSON Schema 2020-12 keyword (`$schema`, `$defs`, `$anchor`, …).
    SchemaPreservation,
    /// List the tools and call none: the suite checks what every request carried (2026-07-28's `_meta` and version
    /// header, a retry after a refused version), or that a network `$ref` in a schema was never fetched.
    ListOnly,
    /// Make exactly the calls of the context's `toolCalls` (the `Mcp-Param-*` headers' values and encodings).
    ContextCalls,
    /// Call every tool the supervisor kept, each with a value for every required property: a tool whose `x-mcp-header`
    /// annotations are invalid must have been dropped at listing, so it is never called.
    EveryKeptTool,
    /// Call the multi-round-trip tools in turn: the supervisor's round loop hands each `input_required` round to the
    /// person (the stand-in answers) and sends the call again with the server's `requestState` unchanged, as a new
    /// request.
    RequestState,
    /// An `auth/*` scenario: log in with this grant when challenged, list the tools, call `test-tool` if listed.
    Auth(Grant),
}

/// How an auth scenario gets its token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grant {
    /// Authorization code with PKCE through a user agent (`auth::login`); pre-registered when the scenario's
    /// context carries a client id.
    AuthorizationCode,
    /// Client credentials, a JWT or a secret, whichever the context carries: through the app's `oauth.grant`
    /// (`machine.rs`).
    ClientCredentials,
    /// Workload identity federation with the context's workload JWT: through the app's `oauth.grant` (`machine.rs`).
    WorkloadIdentity,
    /// Enterprise-managed authorization (cross-app access) with an enterprise ID token: through the app's
    /// `oauth.grant` (`machine.rs`).
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
    // SEP-1932: the token bound to a key (RFC 9449), with and without the servers' nonces.
    "dpop",
    "dpop-nonce",
];

/// The tool whose input schema the schema scenario's server checks, and the tool that takes it back.
const SCHEMA_FOCAL_TOOL: &str = "json_schema_2020_12_tool";
const SCHEMA_ECHO_TOOL: &str = "json_schema_echo";

/// The tool an auth scenario's server offers once the client is logged in.
const AUTH_TOOL: &str = "test-tool";

/// The multi-round-trip tools of `sep-2322-client-request-state`, in the order they are called.
const REQUEST_STATE_TOOLS: &[&str] =
    &["test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_unrelated", "test_mrtr_no_result_type"];

/// One tool call a scenario makes.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    pub tool: String,
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
            "request-metadata" | "json-schema-ref-no-deref" => Self::ListOnly,
            "http-custom-headers" => Self::ContextCalls,
            "http-invalid-tool-headers" => Self::EveryKeptTool,
            "sep-2322-client-request-state" => Self::RequestState,
            "auth/client-credentials-jwt" | "auth/client-credentials-basic" => Self::Auth(Grant::ClientCredentials),
            "auth/enterprise-managed-authorization" => Self::Auth(Grant::CrossApp),
            "auth/wif-jwt-bearer" => Self::Auth(Grant::WorkloadIdentity),
            other => match other.strip_prefix("auth/") {
                Some(auth) if AUTHORIZATION_CODE_SCENARIOS.contains(&auth) => Self::Auth(Grant::AuthorizationCode),
                _ => bail!("scenario `{other}` is not supported by this client"),
            },
        })
    }

    /// The tool calls the scenario's server waits for, in order, given the tools the supervisor kept and the
    /// scenario's context (auth scenarios call `test-tool` only when it is listed).
    pub fn calls(self, listed: &[ToolInfo], context: &ScenarioContext) -> Vec<Call> {
        let one = |tool: &str, arguments: Value| vec![call(tool, arguments)];
        match self {
            Self::Initialize | Self::ListOnly => Vec::new(),
            Self::ToolsCall => one("add_numbers", json!({"a": 5, "b": 3})),
            Self::ElicitationDefaults => one("test_client_elicitation_defaults", json!({})),
            Self::SseRetry => one("test_reconnection", json!({})),
            Self::SchemaPreservation => match listed.iter().find(|t| t.name == SCHEMA_FOCAL_TOOL) {
                Some(focal) => one(SCHEMA_ECHO_TOOL, json!({"schema": schema_of(focal)})),
                None => Vec::new(),
            },
            Self::ContextCalls => context_calls(context),
            Self::EveryKeptTool => listed.iter().map(|t| call(&t.name, required_values(t))).collect(),
            Self::RequestState => REQUEST_STATE_TOOLS.iter().map(|tool| call(tool, json!({}))).collect(),
            Self::Auth(_) if listed.iter().any(|t| t.name == AUTH_TOOL) => one(AUTH_TOOL, json!({})),
            Self::Auth(_) => Vec::new(),
        }
    }
}

fn call(tool: &str, arguments: Value) -> Call {
    let arguments = match arguments {
        Value::Object(arguments) => arguments,
        _ => JsonObject::new(),
    };
    Call { tool: tool.to_owned(), arguments }
}

/// The context's `toolCalls`: `[{"name": …, "arguments": {…}}, …]`.
fn context_calls(context: &ScenarioContext) -> Vec<Call> {
    let Some(Value::Array(calls)) = context.value("toolCalls") else { return Vec::new() };
    calls
        .iter()
        .filter_map(|c| Some(call(c.get("name")?.as_str()?, c.get("arguments").cloned().unwrap_or(json!({})))))
        .collect()
}

/// `tool`'s input schema as listed (the supervisor keeps it as JSON text).
fn schema_of(tool: &ToolInfo) -> Value {
    serde_json::from_str(&tool.input_schema).unwrap_or_else(|_| json!({}))
}

/// A value of its type for each required property of `tool`'s input schema.
fn required_values(tool: &ToolInfo) -> Value {
    let schema = schema_of(tool);
    let properties = schema.get("properties").and_then(Value::as_object);
    let required = schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str);
    let values = required.map(|name| {
        let kind = properties.and_then(|p| p.get(name)).and_then(|p| p.get("type")).and_then(Value::as_str);
        let value = match kind {
            Some("integer" | "number") => json!(1),
            Some("boolean") => json!(true),
            Some("object") => json!({}),
            Some("array") => json!([]),
            _ => json!("test"),
        };
        (name.to_owned(), value)
    });
    Value::Object(values.collect())
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
            "request-metadata",
            "json-schema-ref-no-deref",
            "http-custom-headers",
            "http-invalid-tool-headers",
            "sep-2322-client-request-state",
        ];
        let auth = AUTHORIZATION_CODE_SCENARIOS.iter().map(|s| format!("auth/{s}")).chain(
            [
                "auth/client-credentials-jwt",
                "auth/client-credentials-basic",
                "auth/enterprise-managed-authorization",
                "auth/wif-jwt-bearer",
            ]
            .map(String::from),
        );
        let all: Vec<String> = basic.iter().map(|s| (*s).to_owned()).chain(auth).collect();
        assert_eq!(all.len(), 43);
        for name in &all {
            assert!(Scenario::named(name).is_ok(), "{name}");
        }
        assert_eq!(Scenario::named("auth/client-credentials-jwt").ok(), Some(Scenario::Auth(Grant::ClientCredentials)));
        assert_eq!(Scenario::named("auth/pre-registration").ok(), Some(Scenario::Auth(Grant::AuthorizationCode)));
        // DPoP is a browser login whose token the app binds to a key, not a grant of its own.
        assert_eq!(Scenario::named("auth/dpop-nonce").ok(), Some(Scenario::Auth(Grant::AuthorizationCode)));
        assert!(Scenario::named("auth/not-a-scenario").is_err());
        assert!(Scenario::named("metadata-default").is_err());
    }

    fn tools_of(calls: Vec<Call>) -> Vec<String> {
        calls.into_iter().map(|c| c.tool).collect()
    }

    /// A tool as the supervisor lists it, with `schema` as its input schema.
    fn listed(name: &str, schema: &Value) -> ToolInfo {
        ToolInfo {
            name: name.to_owned(),
            exposed_name: format!("mcp__s__{name}"),
            title: None,
            description: None,
            allowed: true,
            withheld: None,
            hidden_content: Vec::new(),
            input_schema: schema.to_string(),
        }
    }

    /// `add_numbers` gets numeric arguments; initialize calls nothing; auth scenarios call `test-tool` only when it
    /// is listed.
    #[test]
    fn calls() {
        let none = ScenarioContext::empty();
        assert_eq!(Scenario::Initialize.calls(&[], &none), []);
        let call = Scenario::ToolsCall.calls(&[], &none).pop().expect("one call");
        assert_eq!((call.tool.as_str(), Value::Object(call.arguments)), ("add_numbers", json!({"a": 5, "b": 3})));
        let test_tool = [listed(AUTH_TOOL, &json!({"type": "object"}))];
        assert_eq!(tools_of(Scenario::Auth(Grant::CrossApp).calls(&test_tool, &none)), ["test-tool"]);
        assert_eq!(Scenario::Auth(Grant::CrossApp).calls(&[], &none), []);
        assert_eq!(tools_of(Scenario::RequestState.calls(&[], &none)), REQUEST_STATE_TOOLS);
    }

    /// The context's calls are made exactly as given, arguments and all; without a context, none.
    #[test]
    fn context_calls_are_made_as_given() {
        let context = ScenarioContext::parse(
            r#"{"toolCalls": [{"name": "a", "arguments": {"region": " us ", "n": 42}}, {"name": "b"}]}"#,
        )
        .expect("context");
        let calls = Scenario::ContextCalls.calls(&[], &context);
        assert_eq!(tools_of(calls.clone()), ["a", "b"]);
        assert_eq!(Value::Object(calls[0].arguments.clone()), json!({"region": " us ", "n": 42}));
        assert_eq!(Scenario::ContextCalls.calls(&[], &ScenarioContext::empty()), []);
    }

    /// Every kept tool is called with a value of its type for each required property.
    #[test]
    fn every_kept_tool_gets_its_required_values() {
        let schema = json!({
            "type": "object",
            "properties": {"region": {"type": "string"}, "n": {"type": "integer"}, "opt": {"type": "boolean"}},
            "required": ["region", "n"]
        });
        let calls = Scenario::EveryKeptTool.calls(&[listed("valid_tool", &schema)], &ScenarioContext::empty());
        assert_eq!(tools_of(calls.clone()), ["valid_tool"]);
        assert_eq!(Value::Object(calls[0].arguments.clone()), json!({"region": "test", "n": 1}));
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
        let focal = [listed(SCHEMA_FOCAL_TOOL, &schema)];
        let none = ScenarioContext::empty();
        let call = Scenario::SchemaPreservation.calls(&focal, &none).pop().expect("the focal tool is listed");
        assert_eq!(call.tool, SCHEMA_ECHO_TOOL);
        assert_eq!(Value::Object(call.arguments), json!({"schema": schema}));
        assert_eq!(Scenario::SchemaPreservation.calls(&[], &none), []);
    }
}
