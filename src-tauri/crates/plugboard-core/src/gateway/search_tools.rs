//! Search mode's three tools, which a search profile lists instead of its tools: `find_tools(query, limit?)`,
//! `describe_tool(name)` and `call_tool(name, arguments)`. Finding and describing are answered here from the
//! catalog and its index; a `call_tool` is handed back to the handler, which runs it exactly as a direct call. It
//! must never describe, find or hand back a name the catalog does not offer.

use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject, Tool, ToolAnnotations};
use serde::Deserialize;
use serde_json::json;

use super::catalog::Catalog;
use super::search::ToolSearch;

pub const FIND_TOOLS: &str = "find_tools";
pub const DESCRIBE_TOOL: &str = "describe_tool";
pub const CALL_TOOL: &str = "call_tool";

/// How many matches `find_tools` answers when the client asks for no number, and at most.
const DEFAULT_LIMIT: usize = 10;
const MAX_LIMIT: usize = 50;

/// The three tools as `tools/list` answers them in search mode.
pub fn definitions() -> Vec<Tool> {
    let schema = |value: serde_json::Value| Arc::new(value.as_object().cloned().unwrap_or_default());
    let looks = || ToolAnnotations::new().read_only(true).destructive(false).open_world(false);
    vec![
        Tool::new(
            FIND_TOOLS,
            "Searches the tools Plugboard offers by words of their names, descriptions and parameters; answers the \
             best matches, each with its name and one line of description. Then describe_tool a match for its \
             parameters and call it with call_tool.",
            schema(json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "Words of what the tool should do, e.g. \"create issue\""},
                    "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT,
                              "description": format!("How many matches at most (default {DEFAULT_LIMIT})")}
                },
                "required": ["query"]
            })),
        )
        .with_annotations(looks()),
        Tool::new(
            DESCRIBE_TOOL,
            "The full definition of one tool found with find_tools: its description, input schema (the arguments \
             call_tool passes on) and annotations.",
            schema(json!({
                "type": "object",
                "properties": {"name": {"type": "string", "description": "The tool's name as find_tools gave it"}},
                "required": ["name"]
            })),
        )
        .with_annotations(looks()),
        Tool::new(
            CALL_TOOL,
            "Calls a tool found with find_tools with its arguments (as its input schema from describe_tool says) and \
             answers that tool's own result.",
            schema(json!({
                "type": "object",
                "properties": {
                    "name": {"type": "string", "description": "The tool's name as find_tools gave it"},
                    "arguments": {"type": "object", "description": "The tool's arguments"}
                },
                "required": ["name"]
            })),
        ),
    ]
}

/// What a search-mode call comes to.
pub enum SearchCall {
    /// `find_tools` or `describe_tool`: answered.
    Answered(CallToolResult),
    /// `call_tool`: the handler runs this call of a catalog tool as a direct call.
    Run { name: String, arguments: JsonObject },
}

#[derive(Deserialize)]
struct FindArgs {
    query: String,
    limit: Option<usize>,
}

#[derive(Deserialize)]
struct NameArgs {
    name: String,
}

#[derive(Deserialize)]
struct CallArgs {
    name: String,
    #[serde(default)]
    arguments: JsonObject,
}

/// Answers `request` to one of the three tools over `catalog`.
pub fn answer(
    search: &ToolSearch,
    catalog: &Arc<Catalog>,
    request: CallToolRequestParams,
) -> Result<SearchCall, ErrorData> {
    let arguments = serde_json::Value::Object(request.arguments.unwrap_or_default());
    match request.name.as_ref() {
        FIND_TOOLS => {
            let FindArgs { query, limit } = parse(FIND_TOOLS, arguments)?;
            let limit = limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT);
            let index = search.index(catalog).map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
            let found = index.find(&query, limit).map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
            Ok(SearchCall::Answered(CallToolResult::structured(json!({ "tools": found }))))
        }
        DESCRIBE_TOOL => {
            let NameArgs { name } = parse(DESCRIBE_TOOL, arguments)?;
            let tool = catalog.tools().iter().find(|t| t.name == name).ok_or_else(|| not_offered(&name))?;
            let described = serde_json::to_value(tool).map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
            Ok(SearchCall::Answered(CallToolResult::structured(described)))
        }
        CALL_TOOL => {
            let CallArgs { name, arguments } = parse(CALL_TOOL, arguments)?;
            // Checked here as well as by the handler's route lookup: only a catalog tool is ever handed back.
            catalog.route(&name).ok_or_else(|| not_offered(&name))?;
            Ok(SearchCall::Run { name, arguments })
        }
        other => Err(ErrorData::invalid_params(
            format!(
                "Plugboard offers no tool named {other:?} here: this profile is in search mode, so find tools with \
                 {FIND_TOOLS} and call them with {CALL_TOOL}"
            ),
            None,
        )),
    }
}

fn parse<T: serde::de::DeserializeOwned>(tool: &str, arguments: serde_json::Value) -> Result<T, ErrorData> {
    serde_json::from_value(arguments)
        .map_err(|e| ErrorData::invalid_params(format!("{tool}'s arguments do not fit its input schema: {e}"), None))
}

/// The same words as a direct call of an unknown name, with the search-mode way on.
fn not_offered(name: &str) -> ErrorData {
    ErrorData::invalid_params(format!("Plugboard offers no tool named {name:?}; find it with {FIND_TOOLS}"), None)
}
