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
    json_within(text, usize::MAX).is_ok()
}

/// Which bound of [`json_within`] a text passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonBound {
    /// An array or object opens deeper than [`MAX_NESTING`] levels.
    Depth,
    /// The text holds more than the caller's number of items.
    Items,
}

/// Whether the JSON `text` stays within [`MAX_NESTING`] levels and holds at most `max_items`
/// items, in the same one linear pass as [`json_nesting_ok`]. An item is the text's value, an
/// opening bracket or a comma outside strings: for valid JSON that is at least one per value
/// (array element, member value, container) and per member, so a parser building the text
/// builds at most `max_items` values. Nothing is built; the text need not be valid JSON.
pub fn json_within(text: &str, max_items: usize) -> Result<(), JsonBound> {
    let mut depth = 0usize;
    let mut items = 1usize;
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
                    return Err(JsonBound::Depth);
                }
                items += 1;
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b',' => items += 1,
            _ => continue,
        }
        if items > max_items {
            return Err(JsonBound::Items);
        }
    }
    Ok(())
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

    #[test]
    fn counts_items_outside_strings() {
        // The value, each opening bracket, each comma.
        assert_eq!(json_within("1", 1), Ok(()));
        assert_eq!(json_within("[1,2]", 3), Ok(()));
        assert_eq!(json_within("[1,2]", 2), Err(JsonBound::Items));
        assert_eq!(json_within(r#"{"a":1,"b":[2]}"#, 4), Ok(()));
        assert_eq!(json_within(r#"{"a":1,"b":[2]}"#, 3), Err(JsonBound::Items));
        // Commas and brackets in strings are text.
        assert_eq!(json_within(r#"{"a":",,,[[{"}"#, 2), Ok(()));
        let array = format!("[{}0]", "0,".repeat(2_000_000));
        assert_eq!(json_within(&array, 10_000), Err(JsonBound::Items));
        // Whichever bound the scan passes first is the one reported.
        assert_eq!(json_within(&"[".repeat(65), 10), Err(JsonBound::Items));
        assert_eq!(json_within(&"[".repeat(65), 100), Err(JsonBound::Depth));
    }
}
