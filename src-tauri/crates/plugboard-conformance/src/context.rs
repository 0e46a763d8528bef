//! The scenario's `MCP_CONFORMANCE_CONTEXT`: what the suite hands a client beside the URL (client ids, secrets and
//! keys for the auth scenarios, the exact tool calls to make for others). It must never be printed: it holds secrets.

use anyhow::{Context, bail};

/// The parsed context, empty when the scenario sets none.
pub struct ScenarioContext(serde_json::Map<String, serde_json::Value>);

impl ScenarioContext {
    pub fn from_env() -> anyhow::Result<Self> {
        let Ok(raw) = std::env::var("MCP_CONFORMANCE_CONTEXT") else { return Ok(Self::empty()) };
        Self::parse(&raw)
    }

    pub fn parse(raw: &str) -> anyhow::Result<Self> {
        match serde_json::from_str(raw).context("MCP_CONFORMANCE_CONTEXT is not JSON")? {
            serde_json::Value::Object(map) => Ok(Self(map)),
            _ => bail!("MCP_CONFORMANCE_CONTEXT is not a JSON object"),
        }
    }

    pub fn empty() -> Self {
        Self(serde_json::Map::new())
    }

    /// A string entry.
    pub fn get(&self, key: &str) -> Option<String> {
        self.0.get(key).and_then(serde_json::Value::as_str).map(str::to_owned)
    }

    /// Any entry.
    pub fn value(&self, key: &str) -> Option<&serde_json::Value> {
        self.0.get(key)
    }
}
