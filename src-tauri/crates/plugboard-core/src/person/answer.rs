//! Checking the person's answer before it goes to the server: form content against the requested schema's types,
//! and roots as absolute folders turned into `file://` URIs. It must never send a server content its schema rejects.

use std::path::Path;

use rmcp::model::JsonObject;
use serde_json::Value;

use super::PersonError;

/// The form content in `content` (JSON text) checked against `schema` (the requested schema, JSON text): an object
/// with only the schema's properties, each of its declared type (and enum, bounds), and every required one present.
pub fn check_form(schema: &str, content: &str) -> Result<JsonObject, PersonError> {
    form_content(schema, content).map_err(|message| PersonError::InvalidAnswer { message })
}

fn form_content(schema: &str, content: &str) -> Result<JsonObject, String> {
    let schema: Value = serde_json::from_str(schema).map_err(|e| format!("the requested schema is not JSON: {e}"))?;
    let content: Value = serde_json::from_str(content).map_err(|e| format!("the answer is not JSON: {e}"))?;
    let Value::Object(content) = content else {
        return Err("the answer must be a JSON object".to_owned());
    };
    let empty = JsonObject::new();
    let properties = schema.get("properties").and_then(Value::as_object).unwrap_or(&empty);
    for (name, value) in &content {
        let property = properties.get(name).ok_or_else(|| format!("{name}: the form has no such field"))?;
        check_value(property, value).map_err(|why| format!("{name}: {why}"))?;
    }
    let required = schema.get("required").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    for name in required.iter().filter_map(Value::as_str) {
        if !content.contains_key(name) {
            return Err(format!("{name}: this field is required"));
        }
    }
    Ok(content)
}

fn check_value(property: &Value, value: &Value) -> Result<(), String> {
    let kind = property.get("type").and_then(Value::as_str).unwrap_or_default();
    let fits = match kind {
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => value.is_i64() || value.is_u64(),
        "boolean" => value.is_boolean(),
        "array" => value.is_array(),
        // The spec allows only the kinds above; an unknown kind is the server's problem, not the person's.
        _ => true,
    };
    if !fits {
        return Err(format!("expected {}", article(kind)));
    }
    if let Some(allowed) = allowed_values(property)
        && !allowed.contains(value)
    {
        return Err("not one of the offered choices".to_owned());
    }
    if let (Some(items), Some(values)) = (property.get("items"), value.as_array()) {
        for item in values {
            check_value(items, item)?;
        }
    }
    check_bounds(property, value)
}

/// `enum`, or the `const`s of `oneOf`/`anyOf` (titled choices, SEP-1330).
fn allowed_values(property: &Value) -> Option<Vec<Value>> {
    if let Some(values) = property.get("enum").and_then(Value::as_array) {
        return Some(values.clone());
    }
    let options = property.get("oneOf").or_else(|| property.get("anyOf"))?.as_array()?;
    Some(options.iter().filter_map(|o| o.get("const").cloned()).collect())
}

fn check_bounds(property: &Value, value: &Value) -> Result<(), String> {
    let bound = |key: &str| property.get(key).and_then(Value::as_f64);
    if let Some(text) = value.as_str() {
        let chars = text.chars().count() as f64;
        if bound("minLength").is_some_and(|min| chars < min) {
            return Err(format!("at least {} characters", bound("minLength").unwrap_or_default()));
        }
        if bound("maxLength").is_some_and(|max| chars > max) {
            return Err(format!("at most {} characters", bound("maxLength").unwrap_or_default()));
        }
    }
    if let Some(number) = value.as_f64() {
        if bound("minimum").is_some_and(|min| number < min) {
            return Err(format!("at least {}", bound("minimum").unwrap_or_default()));
        }
        if bound("maximum").is_some_and(|max| number > max) {
            return Err(format!("at most {}", bound("maximum").unwrap_or_default()));
        }
    }
    Ok(())
}

fn article(kind: &str) -> String {
    match kind {
        "integer" => "an integer (a whole number)".to_owned(),
        "array" => "a list".to_owned(),
        other => format!("a {other}"),
    }
}

/// The folders the person entered as `file://` URIs: each must be an absolute path; blank lines are skipped.
pub fn roots_as_uris(folders: &[String]) -> Result<Vec<String>, PersonError> {
    folders
        .iter()
        .map(|folder| folder.trim())
        .filter(|folder| !folder.is_empty())
        .map(|folder| {
            let path = Path::new(folder);
            if !path.is_absolute() {
                return Err(format!("{folder}: not an absolute path"));
            }
            url::Url::from_file_path(path)
                .map(String::from)
                .map_err(|()| format!("{folder}: cannot be written as a file:// URI"))
        })
        .collect::<Result<_, String>>()
        .map_err(|message| PersonError::InvalidAnswer { message })
}
