//! The one nesting limit for every parser of untrusted text (frontmatter YAML, the folder's
//! JSON and JSONL, the adapter's request JSON) and the pre-check that enforces it for JSON
//! before `serde_json`, whose reader recurses once per level, sees the text
//! (`docs/security.md`).
//!
//! Nothing here parses: the check only counts brackets outside strings, in one linear pass
//! without recursion, so it is safe on any text and any stack.

/// Arrays, objects, sequences or mappings nested deeper than this make a document invalid.
/// Real frontmatter nests two or three levels, a JSON-RPC request or a JSONL entry a handful;
/// 64 leaves room for anything hand-written while every recursive walk over a parsed value
/// (conversion, serialisation, comparison, drop) stays within a few tens of kilobytes of
/// stack, even in a debug build on a 256 KiB thread.
pub const MAX_NESTING: usize = 64;

/// Whether no array or object of the JSON `text` opens deeper than [`MAX_NESTING`] levels.
/// Brackets inside strings do not count; the text need not be valid JSON (an invalid text
/// that passes is then refused by the parser).
pub fn json_nesting_ok(text: &str) -> bool {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for &byte in text.as_bytes() {
        if in_string {
            if escaped {
                escaped = false;
            } else if byte == b'\\' {
                escaped = true;
            } else if byte == b'"' {
                in_string = false;
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return false;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_brackets_outside_strings() {
        let nested = |depth: usize| format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        assert!(json_nesting_ok(&nested(MAX_NESTING)));
        assert!(!json_nesting_ok(&nested(MAX_NESTING + 1)));
        assert!(!json_nesting_ok(&"{\"a\":".repeat(1_000_000)));
        // Closing brings the depth back: siblings never add up.
        assert!(json_nesting_ok(&format!(
            "[{}]",
            vec![nested(MAX_NESTING - 1); 100].join(",")
        )));
        // Brackets in strings, also after escaped quotes and backslashes, are text.
        let in_string = format!(r#"{{"a":"{}\"\\{}"}}"#, "[".repeat(500), "{".repeat(500));
        assert!(json_nesting_ok(&in_string));
        assert!(json_nesting_ok(""));
        assert!(json_nesting_ok("]]]]"));
    }
}
