//! The `tools/list` results (contract 05 §5): exactly three tools with hand-written input schemas
//! and the read-only annotations (D3b), in two editions. [`tools`] is the reference era's list,
//! byte for byte; [`structured_tools`] is the structured eras' list (§5.1), with teaching
//! descriptions for every tool and property and an `outputSchema` per tool that every payload
//! variant of that tool satisfies.
//!
//! **Invariant:** these objects are contract. Member order is the order written here (the
//! workspace enables `serde_json/preserve_order`); there is no `$schema`, `format`, `$ref` or
//! array-valued `type`, no bare boolean schema and no schema without a validation keyword (the
//! portability rules real clients lint for), and the reference list has no `outputSchema`.
//! Every bound, default and scope name is `dotaios_core::request`'s, the same constants the
//! validator (`args.rs`) checks, so both editions and the validator accept exactly the same
//! arguments.

use dotaios_core::request::{
    Bounds, Budget, Limit, MAX_SELECTOR_CODE_POINTS, MAX_TEXT_CODE_POINTS,
};
use dotaios_core::search::ScopeRequest;
use serde_json::{Value, json};

use super::Tool;

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
        "maxLength": MAX_SELECTOR_CODE_POINTS,
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
        "name": Tool::ReadWorkingContext.name(),
        "title": "Read Working Context",
        "description": "Read the same bounded, project-filtered working-context projection produced by dotaios brief --compact plus fixed operational compatibility state beside it. This tool has no write side effects.",
        "inputSchema": input_schema(
            json!({
                "memory": memory_schema(),
                "project": project_schema(
                    CONTEXT_PROJECT_PATTERN,
                    "Optional project slug or stable id. Opaque identifiers without Unicode control characters are accepted within the 200-code-point bound.",
                ),
                "limit": bounded(Limit::CONTEXT_TOOL),
                "budget": described(
                    bounded(Budget::TOOL),
                    "Character budget for canonical Markdown; bounded operational metadata is separate.",
                ),
            }),
            &[],
        ),
        "annotations": annotations(),
    })
}

fn search_aios() -> Value {
    json!({
        "name": Tool::SearchAios.name(),
        "title": "Search AIOS",
        "description": "Search bounded local results across memory, sessions, context, projects, vault, skills, references, and plugins.",
        "inputSchema": input_schema(
            json!({
                "memory": memory_schema(),
                "query": text(MAX_TEXT_CODE_POINTS),
                "scope": {
                    "type": "string",
                    "enum": ScopeRequest::NAMES,
                    "default": ScopeRequest::All.as_str(),
                },
                "project": project_schema(
                    SELECTOR_PATTERN,
                    "Optional canonical project slug or stable id. Required for project-only scope.",
                ),
                "limit": bounded(Limit::SEARCH_TOOL),
                "budget": described(
                    bounded(Budget::SEARCH_TOOL),
                    "Character budget for the complete serialized search response, including full omission metadata.",
                ),
            }),
            &["query"],
        ),
        "annotations": annotations(),
    })
}

fn resolve_skill() -> Value {
    json!({
        "name": Tool::ResolveSkill.name(),
        "title": "Resolve Workflow",
        "description": "Match a user request to one of the installed DotAIOS workflows before hand-rolling the work.",
        "inputSchema": input_schema(
            json!({
                "memory": memory_schema(),
                "project": project_schema(
                    SELECTOR_PATTERN,
                    "Required only when memory is project. Skills remain capabilities rather than memory.",
                ),
                "intent": text(MAX_TEXT_CODE_POINTS),
                "limit": bounded(Limit::SKILL_TOOL),
                "budget": bounded(Budget::TOOL),
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

/// The structured eras' three tools (contract 05 §5.1): the same names, titles, bounds,
/// patterns and annotations, with descriptions that say when to use each tool and how, and an
/// `outputSchema` after `inputSchema`.
pub(crate) fn structured_tools() -> Value {
    Value::Array(vec![
        structured_tool(
            Tool::ReadWorkingContext.name(),
            "Read Working Context",
            "Read the user's working context from their local DotAIOS folder: identity, priorities, current projects and recent sessions, as bounded Markdown. Call it once when a task starts or when you need continuity. Read-only.",
            input_schema(
                json!({
                    "memory": structured_memory(),
                    "project": described(project_schema(CONTEXT_PROJECT_PATTERN, ""), "Project slug or id to focus on; implies project memory."),
                    "limit": described(bounded(Limit::CONTEXT_TOOL), "How many recent sessions to include."),
                    "budget": described(bounded(Budget::TOOL), "Most characters of Markdown to return."),
                }),
                &[],
            ),
            context_output(),
        ),
        structured_tool(
            Tool::SearchAios.name(),
            "Search AIOS",
            "Search the user's local DotAIOS folder: notes, memory, sessions, projects, decisions, skills, references and plugins. Use a few distinctive keywords, not a sentence. Set scope when you know where it lives. If budget.truncated is true, raise budget; omissions name what was too large to search. Read-only.",
            input_schema(
                json!({
                    "memory": structured_memory(),
                    "query": described(text(MAX_TEXT_CODE_POINTS), "A few distinctive keywords, e.g. launch checklist."),
                    "scope": {
                        "type": "string",
                        "enum": ScopeRequest::NAMES,
                        "default": ScopeRequest::All.as_str(),
                        "description": "Where to search; all covers everything but projects.",
                    },
                    "project": described(project_schema(SELECTOR_PATTERN, ""), "Project slug or id: search its sessions, memory and files. Needed for scope projects."),
                    "limit": described(bounded(Limit::SEARCH_TOOL), "Most results over all scopes."),
                    "budget": described(bounded(Budget::SEARCH_TOOL), "Most characters of the whole answer."),
                }),
                &["query"],
            ),
            search_output(),
        ),
        structured_tool(
            Tool::ResolveSkill.name(),
            "Resolve Workflow",
            "Find the installed workflow (skill) that fits a request before doing the work by hand. Describe the task in plain words, then follow the best match's instructions: its instructions member holds their start, the MCP resource at its uri (resources/read) all of them. If matches is empty and budget.truncated is true, raise budget (budget.hint names enough). Read-only.",
            input_schema(
                json!({
                    "memory": structured_memory(),
                    "project": described(project_schema(SELECTOR_PATTERN, ""), "Project slug or id; only with memory project."),
                    "intent": described(text(MAX_TEXT_CODE_POINTS), "What the user wants done, in plain words."),
                    "limit": described(bounded(Limit::SKILL_TOOL), "How many skills to return, best first."),
                    "budget": described(bounded(Budget::TOOL), "Most characters of the whole answer."),
                }),
                &["intent"],
            ),
            skill_output(),
        ),
    ])
}

fn structured_tool(
    name: &str,
    title: &str,
    description: &str,
    input: Value,
    output: Value,
) -> Value {
    json!({
        "name": name,
        "title": title,
        "description": description,
        "inputSchema": input,
        "outputSchema": output,
        "annotations": annotations(),
    })
}

fn structured_memory() -> Value {
    described(
        memory_schema(),
        "shared (default): the user's own memory. project: one project's (needs project). off: read nothing.",
    )
}

/// `schema` with its `description` replaced (or added, last).
fn described(mut schema: Value, description: &str) -> Value {
    schema["description"] = json!(description);
    schema
}

/// A bounded integer property (contract 05 §6.2): `bounds` as `minimum`, `maximum`, `default`.
fn bounded(bounds: Bounds) -> Value {
    json!({"type": "integer", "minimum": bounds.min, "maximum": bounds.max, "default": bounds.default})
}

/// A required string property of 1 to `max` code points.
fn text(max: usize) -> Value {
    json!({"type": "string", "minLength": 1, "maxLength": max})
}

/// The scopes whose results are Markdown hits (contract 03 §12.2; memory notes are Markdown too).
const MARKDOWN_SCOPES: [&str; 8] = [
    "context",
    "vault",
    "projects",
    "decisions",
    "skills",
    "references",
    "plugins",
    "memory",
];

// Output schemas (contract 05 §5.2). JSON Schema 2020-12 keywords that draft-07 validators
// read the same way (TypeScript SDK v1 validates with a draft-07 Ajv), no `$ref`.

fn string() -> Value {
    json!({"type": "string"})
}

fn integer() -> Value {
    json!({"type": "integer"})
}

fn boolean() -> Value {
    json!({"type": "boolean"})
}

/// A string or `null`, spelled portably (no array-valued `type`).
fn nullable_string() -> Value {
    json!({"anyOf": [{"type": "string"}, {"type": "null"}]})
}

/// An object with exactly these properties, `required` among them.
fn closed(properties: Value, required: &[&str]) -> Value {
    let mut schema = json!({"type": "object", "properties": properties});
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    schema["additionalProperties"] = json!(false);
    schema
}

fn memory_output() -> Value {
    json!({"enum": ["shared", "project", "off"]})
}

/// `budget` of the search and skill payloads: `used` is the whole text's length.
fn text_budget() -> Value {
    closed(
        json!({"limit": integer(), "used": integer(), "truncated": boolean()}),
        &["limit", "used", "truncated"],
    )
}

/// `budget` of the skill payload: [`text_budget`] plus the optional `hint` of an answer whose
/// budget holds no match (§7.5.1).
fn skill_budget() -> Value {
    closed(
        json!({"limit": integer(), "used": integer(), "truncated": boolean(), "hint": string()}),
        &["limit", "used", "truncated"],
    )
}

/// Every `read_working_context` payload (§7.2, §7.6): shared or project mode, and Off, which
/// has no `generated_at`, `budget` or `operational`. `coverage` is optional.
fn context_output() -> Value {
    let migration = closed(
        json!({
            "status": string(),
            "folder_schema_version": string(),
            "supported_schema_version": string(),
            "code": string(),
            "severity": string(),
            "action": {"anyOf": [
                closed(json!({"command": string(), "path_scope": string()}), &["command", "path_scope"]),
                {"type": "null"},
            ]},
        }),
        &["status", "severity", "action"],
    );
    closed(
        json!({
            "markdown": string(),
            "memory": memory_output(),
            "receipt": string(),
            "notice": nullable_string(),
            "complete": boolean(),
            "scope": closed(json!({"project": nullable_string()}), &["project"]),
            "generated_at": string(),
            "budget": closed(
                json!({"limit": integer(), "used": integer(), "remaining": integer(), "truncated": boolean()}),
                &["limit", "used", "remaining", "truncated"],
            ),
            "operational": closed(json!({"migration": migration}), &["migration"]),
            "coverage": {"type": "object"},
        }),
        &[
            "markdown", "memory", "receipt", "notice", "complete", "scope",
        ],
    )
}

/// Every `search_aios` payload (§7.4, §7.6). A result item is one of three shapes (§7.4.1): a
/// Markdown hit and a session hit are built by the adapter and closed (a session's `title`,
/// `agent`, `session_id` and `project` are copied from the user's index and may be any JSON
/// value, so only their names are fixed); a memory JSONL hit is open, because the record's own
/// fields are spread into it and may replace any member's value, so only its members' presence
/// is certain.
fn search_output() -> Value {
    let markdown_item = closed(
        json!({
            "scope": {"enum": MARKDOWN_SCOPES},
            "source": string(),
            "file": string(),
            "title": string(),
            "matches": {"type": "array", "items": closed(
                json!({"line": integer(), "lineEnd": integer(), "content": string(), "match": string(), "area": {"enum": ["description", "heading", "body"]}}),
                &["line", "lineEnd", "content", "match", "area"],
            )},
        }),
        &["scope", "source", "file", "title", "matches"],
    );
    let session_item = json!({
        "type": "object",
        "properties": {
            "scope": {"const": "sessions"},
            "source": string(),
            "file": string(),
            "date": string(),
            "matches": {"type": "array", "items": closed(
                json!({"line": integer(), "content": string(), "match": string(), "area": string()}),
                &["line", "content", "match", "area"],
            )},
        },
        "required": ["scope", "source", "file", "title", "matches"],
        "propertyNames": {"enum": ["scope", "source", "file", "title", "agent", "date", "session_id", "project", "matches"]},
    });
    let memory_item = json!({
        "type": "object",
        "required": ["scope", "source", "match", "matchedField", "matchedSnippet"],
        "additionalProperties": true,
    });
    let omission = closed(
        json!({
            "scope": string(),
            "reason": string(),
            "observed": closed(
                json!({"files": integer(), "bytes": integer(), "entries": integer()}),
                &["files", "bytes", "entries"],
            ),
            "inspection": string(),
            "recovery": closed(json!({"code": string(), "message": string()}), &["code", "message"]),
        }),
        &["scope", "reason", "observed", "inspection", "recovery"],
    );
    closed(
        json!({
            "query": string(),
            "scope": string(),
            "memory": memory_output(),
            "receipt": string(),
            "notice": nullable_string(),
            "scope_selection": closed(
                json!({"project": string(), "project_id": string(), "projects": {"const": "omitted"}}),
                &[],
            ),
            "results": {
                "type": "array",
                "items": {"anyOf": [markdown_item, session_item, memory_item]},
            },
            "complete": boolean(),
            "omissions": {"type": "array", "items": omission},
            "budget": text_budget(),
        }),
        &[
            "query",
            "scope",
            "memory",
            "receipt",
            "notice",
            "results",
            "complete",
            "omissions",
        ],
    )
}

/// Every `resolve_skill` payload (§7.5, §7.6); `confidence`, `ambiguous`, `uri` and
/// `instructions` (§7.7) are optional.
fn skill_output() -> Value {
    let item = closed(
        json!({
            "name": string(),
            "description": string(),
            "triggers": {"type": "array", "items": string()},
            "score": {"type": "number"},
            "reason": string(),
            "resource": string(),
            "uri": string(),
            "instructions": string(),
            "confidence": {"type": "number"},
            "ambiguous": boolean(),
        }),
        &[
            "name",
            "description",
            "triggers",
            "score",
            "reason",
            "resource",
        ],
    );
    closed(
        json!({
            "intent": string(),
            "matches": {"type": "array", "items": item},
            "memory": memory_output(),
            "receipt": string(),
            "notice": nullable_string(),
            "complete": boolean(),
            "budget": skill_budget(),
        }),
        &[
            "intent", "matches", "memory", "receipt", "notice", "complete", "budget",
        ],
    )
}

#[cfg(test)]
mod tests {
    /// The `project` description's bound is the one the schema and validator use.
    #[test]
    fn the_described_selector_bound_is_the_checked_one() {
        let described = tools()[0]["inputSchema"]["properties"]["project"]["description"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(
            described.contains(&format!(
                "within the {MAX_SELECTOR_CODE_POINTS}-code-point bound"
            )),
            "{described}"
        );
    }

    use super::*;
    use dotaios_core::text::to_json_compact;

    #[test]
    fn exact_wire_text_of_the_patterns() {
        let text = to_json_compact(&tools());
        assert!(text.contains(r#""pattern":"^(?=.*\\S)[^\\u0000-\\u001F\\u007F-\\u009F]*$""#));
        assert!(text.contains(r#""pattern":"^[^\\s\\u0000-\\u001F\\u007F-\\u009F/\\\\]+$""#));
        assert!(!text.contains("$schema") && !text.contains("outputSchema"));
    }

    /// §5.1: what a model reads of the structured list (every tool without its `outputSchema`,
    /// which clients validate with and hosts do not put in the prompt) stays under 4,500
    /// characters; the whole list, output schemas included, under 9,500.
    #[test]
    fn the_structured_list_stays_small() {
        let mut tools = structured_tools();
        let whole = to_json_compact(&tools).chars().count();
        for tool in tools.as_array_mut().unwrap() {
            tool.as_object_mut().unwrap().shift_remove("outputSchema");
        }
        let read = to_json_compact(&tools).chars().count();
        assert!(read < 4500, "{read}");
        assert!(whole < 9500, "{whole}");
    }

    /// §5.1: the structured list accepts exactly the arguments the reference list accepts, and
    /// describes every property.
    #[test]
    fn the_structured_list_keeps_every_bound() {
        let reference = tools();
        let structured = structured_tools();
        for (old, new) in reference
            .as_array()
            .unwrap()
            .iter()
            .zip(structured.as_array().unwrap())
        {
            let members: Vec<&String> = new.as_object().unwrap().keys().collect();
            assert_eq!(
                members,
                [
                    "name",
                    "title",
                    "description",
                    "inputSchema",
                    "outputSchema",
                    "annotations"
                ]
            );
            for member in ["name", "title", "annotations"] {
                assert_eq!(old[member], new[member]);
            }
            assert_eq!(new["outputSchema"]["type"], "object");
            let strip = |schema: &Value| {
                let mut schema = schema.clone();
                for property in schema["properties"].as_object_mut().unwrap().values_mut() {
                    property.as_object_mut().unwrap().remove("description");
                }
                schema
            };
            assert_eq!(strip(&old["inputSchema"]), strip(&new["inputSchema"]));
            for (name, property) in new["inputSchema"]["properties"].as_object().unwrap() {
                assert!(property["description"].is_string(), "{name}");
            }
        }
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
        // The list the CLI's reports and the call dispatch read is the schema's.
        assert_eq!(names, crate::TOOL_NAMES);
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
