//! The `tools/list` result (contract 05 §5): exactly three tools with hand-written input schemas
//! and the read-only annotations (D3b).
//!
//! **Invariant:** these objects are contract. Member order is the order written here (the
//! workspace enables `serde_json/preserve_order`); there is no `$schema`, `format`, `$ref`,
//! `outputSchema` or array-valued `type`, and the search `budget` minimum is
//! [`SEARCH_BUDGET_MIN`].

use serde_json::{Value, json};

/// The search budget floor (contract 05 §8.6); core's search payload owns it and its test
/// re-derives it.
pub(crate) use dotaios_core::search::SEARCH_BUDGET_MIN;

/// The working-context `project` pattern: one non-space character, no `Cc` character.
const CONTEXT_PROJECT_PATTERN: &str = r"^(?=.*\S)[^\u0000-\u001F\u007F-\u009F]*$";

/// The canonical selector pattern: no whitespace, no `Cc`, no `/`, no `\`.
const SELECTOR_PATTERN: &str = r"^[^\s\u0000-\u001F\u007F-\u009F/\\]+$";

/// A closed object schema (`additionalProperties: false`) with these properties, then the
/// `required` names when there are any.
fn input_schema(properties: Value, required: &[&str]) -> Value {
    let mut schema = json!({
        "type": "object",
        "additionalProperties": false,
        "properties": properties,
    });
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    schema
}

/// A `project` property: 1 to 200 code points matching `pattern`.
fn project_schema(pattern: &str, description: &str) -> Value {
    json!({
        "type": "string",
        "minLength": 1,
        "maxLength": 200,
        "pattern": pattern,
        "description": description,
    })
}

fn memory_schema() -> Value {
    json!({
        "type": "string",
        "enum": ["shared", "project", "off"],
        "default": "shared",
        "description": "Shared uses personal continuity, project requires a project selector, and off performs no DotAIOS read, search, save, or capture.",
    })
}

fn annotations() -> Value {
    json!({
        "readOnlyHint": true,
        "destructiveHint": false,
        "idempotentHint": true,
        "openWorldHint": false,
    })
}

fn read_working_context() -> Value {
    json!({
        "name": "read_working_context",
        "title": "Read Working Context",
        "description": "Read the same bounded, project-filtered working-context projection produced by dotaios brief --compact plus fixed operational compatibility state beside it. This tool has no write side effects.",
        "inputSchema": input_schema(
            json!({
                "memory": memory_schema(),
                "project": project_schema(
                    CONTEXT_PROJECT_PATTERN,
                    "Optional project slug or stable id. Opaque identifiers without Unicode control characters are accepted within the 200-code-point bound.",
                ),
                "limit": {"type": "integer", "minimum": 1, "maximum": 10, "default": 3},
                "budget": {
                    "type": "integer",
                    "minimum": 256,
                    "maximum": 32000,
                    "default": 6000,
                    "description": "Character budget for canonical Markdown; bounded operational metadata is separate.",
                },
            }),
            &[],
        ),
        "annotations": annotations(),
    })
}

fn search_aios() -> Value {
    json!({
        "name": "search_aios",
        "title": "Search AIOS",
        "description": "Search bounded local results across memory, sessions, context, projects, vault, skills, references, and plugins.",
        "inputSchema": input_schema(
            json!({
                "memory": memory_schema(),
                "query": {"type": "string", "minLength": 1, "maxLength": 500},
                "scope": {
                    "type": "string",
                    "enum": dotaios_core::search::ScopeRequest::NAMES,
                    "default": "all",
                },
                "project": project_schema(
                    SELECTOR_PATTERN,
                    "Optional canonical project slug or stable id. Required for project-only scope.",
                ),
                "limit": {"type": "integer", "minimum": 1, "maximum": 20, "default": 10},
                "budget": {
                    "type": "integer",
                    "minimum": SEARCH_BUDGET_MIN,
                    "maximum": 32000,
                    "default": 6000,
                    "description": "Character budget for the complete serialized search response, including full omission metadata.",
                },
            }),
            &["query"],
        ),
        "annotations": annotations(),
    })
}

fn resolve_skill() -> Value {
    json!({
        "name": "resolve_skill",
        "title": "Resolve Workflow",
        "description": "Match a user request to one of the installed DotAIOS workflows before hand-rolling the work.",
        "inputSchema": input_schema(
            json!({
                "memory": memory_schema(),
                "project": project_schema(
                    SELECTOR_PATTERN,
                    "Required only when memory is project. Skills remain capabilities rather than memory.",
                ),
                "intent": {"type": "string", "minLength": 1, "maxLength": 500},
                "limit": {"type": "integer", "minimum": 1, "maximum": 10, "default": 1},
                "budget": {"type": "integer", "minimum": 256, "maximum": 32000, "default": 6000},
            }),
            &["intent"],
        ),
        "annotations": annotations(),
    })
}

/// The three tools, in their fixed order.
pub(crate) fn tools() -> Value {
    Value::Array(vec![read_working_context(), search_aios(), resolve_skill()])
}

#[cfg(test)]
mod tests {
    use super::*;
    use dotaios_core::text::to_json_compact;

    #[test]
    fn exact_wire_text_of_the_patterns() {
        let text = to_json_compact(&tools());
        assert!(text.contains(r#""pattern":"^(?=.*\\S)[^\\u0000-\\u001F\\u007F-\\u009F]*$""#));
        assert!(text.contains(r#""pattern":"^[^\\s\\u0000-\\u001F\\u007F-\\u009F/\\\\]+$""#));
        assert!(!text.contains("$schema") && !text.contains("outputSchema"));
    }

    #[test]
    fn shapes_and_orders() {
        let tools = tools();
        let tools = tools.as_array().unwrap();
        let names: Vec<&str> = tools
            .iter()
            .map(|tool| tool["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            ["read_working_context", "search_aios", "resolve_skill"]
        );
        let orders = [
            vec!["memory", "project", "limit", "budget"],
            vec!["memory", "query", "scope", "project", "limit", "budget"],
            vec!["memory", "project", "intent", "limit", "budget"],
        ];
        for (tool, order) in tools.iter().zip(orders) {
            let members: Vec<&String> = tool.as_object().unwrap().keys().collect();
            assert_eq!(
                members,
                ["name", "title", "description", "inputSchema", "annotations"]
            );
            let properties: Vec<&String> = tool["inputSchema"]["properties"]
                .as_object()
                .unwrap()
                .keys()
                .collect();
            assert_eq!(properties, order);
            assert_eq!(tool["inputSchema"]["properties"]["memory"], memory_schema());
        }
        assert!(tools[0]["inputSchema"].get("required").is_none());
        assert_eq!(
            tools[1]["inputSchema"]["properties"]["budget"]["minimum"],
            3530
        );
    }
}
