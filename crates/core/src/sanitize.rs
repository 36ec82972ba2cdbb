//! The one sanitiser of result objects before they enter a tool payload (contract 05 §9):
//! path-named members and `__proto__` removed at any depth, arrays capped (search only),
//! strings capped by their member name. The search payload runs it over each raw result; the
//! skill payload runs its string rule ([`cap_string`]) over each match item's strings.
//!
//! **Invariant:** after [`sanitise`], no member named like a path (`path`, `source_path`,
//! `projectPath`, `readmePath`, `rootPath`, any ASCII case) exists at any depth, and no string
//! is longer than 800 UTF-16 units. String *values* are the user's own data and are not scanned.

use serde_json::{Map, Value};

use crate::text::clip_units;

/// Names removed at any depth, compared ASCII case-insensitively.
const PATH_NAMES: [&str; 5] = [
    "path",
    "source_path",
    "projectpath",
    "readmepath",
    "rootpath",
];

/// The marker appended to a cut string (12 units).
pub const CUT_MARKER: &str = "\n[truncated]";

/// Array elements kept by search sanitisation; skills keep all.
pub const SEARCH_ARRAY_CAP: usize = 5;

/// Sanitises `value` found under the member `key` (`""` for array elements and the top).
pub fn sanitise(value: &Value, key: &str, array_cap: Option<usize>) -> Value {
    match value {
        Value::Object(members) => Value::Object(sanitize_members(members, array_cap)),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .take(array_cap.unwrap_or(usize::MAX))
                .map(|item| sanitise(item, "", array_cap))
                .collect(),
        ),
        Value::String(text) => Value::String(cap_string(text, key)),
        Value::Null | Value::Bool(_) | Value::Number(_) => value.clone(),
    }
}

/// Sanitises an object's members, keeping their order.
pub fn sanitize_members(
    members: &Map<String, Value>,
    array_cap: Option<usize>,
) -> Map<String, Value> {
    members
        .iter()
        .filter(|(name, _)| !is_dropped(name))
        .map(|(name, member)| (name.clone(), sanitise(member, name, array_cap)))
        .collect()
}

fn is_dropped(name: &str) -> bool {
    name == "__proto__"
        || PATH_NAMES
            .iter()
            .any(|path| name.eq_ignore_ascii_case(path))
}

/// 800 units for `content` and `summary`, 300 for every other key; a longer string keeps its
/// longest whole-code-point prefix of at most `cap − 12` units plus the marker.
pub fn cap_string(text: &str, key: &str) -> String {
    let cap = if key == "content" || key == "summary" {
        800
    } else {
        300
    };
    clip_units(text, cap, CUT_MARKER).unwrap_or_else(|| text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::utf16_len;
    use serde_json::json;

    #[test]
    fn paths_and_proto_dropped_at_any_depth() {
        let raw = json!({"a": 1, "PATH": "/x", "nested": {"Source_Path": "/y", "readmePath": "z", "keep": [{"rootpath": 1, "b": 2}]}, "__proto__": {"x": 1}, "projectPath": "/p"});
        assert_eq!(
            sanitise(&raw, "", Some(5)),
            json!({"a": 1, "nested": {"keep": [{"b": 2}]}})
        );
    }

    #[test]
    fn arrays_capped_only_for_search() {
        let raw = json!({"list": [1, 2, 3, 4, 5, 6, 7]});
        assert_eq!(
            sanitise(&raw, "", Some(SEARCH_ARRAY_CAP))["list"],
            json!([1, 2, 3, 4, 5])
        );
        assert_eq!(
            sanitise(&raw, "", None)["list"].as_array().unwrap().len(),
            7
        );
    }

    #[test]
    fn strings_capped_by_key_without_splitting_pairs() {
        let long = "😀".repeat(401);
        let value = sanitise(
            &json!({"content": long, "title": long, "list": [long]}),
            "",
            Some(5),
        );
        let content = value["content"].as_str().unwrap();
        assert!(utf16_len(content) <= 800 && content.ends_with("\n[truncated]"));
        assert_eq!(utf16_len(content), 788 + 12);
        let title = value["title"].as_str().unwrap();
        assert_eq!(utf16_len(title), 288 + 12);
        let odd = sanitise(&json!(format!("a{}", "😀".repeat(200))), "", None);
        assert_eq!(
            utf16_len(odd.as_str().unwrap()),
            287 + 12,
            "the pair at unit 287 is left out whole"
        );
        assert_eq!(
            sanitise(&json!("x".repeat(300)), "", None),
            json!("x".repeat(300))
        );
        assert_eq!(
            sanitise(&json!({"summary": "y".repeat(800)}), "", None)["summary"],
            json!("y".repeat(800))
        );
    }
}
