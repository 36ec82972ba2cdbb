//! The split filter of the analyzer (contract 03 §5.1): what a token of folded text is —
//! maximal runs of alphanumeric characters, and each ideographic or pictographic character
//! alone. It owns only the token boundaries; it never changes a token's text.

/// Scripts written without spaces, and pictographic symbols (arrows, dingbats, emoji): each of
/// these characters is a token of its own (§5.1).
fn is_ideographic(c: char) -> bool {
    matches!(c as u32,
        0x2190..=0x2BFF
            | 0x3040..=0x30FF
            | 0x3400..=0x4DBF
            | 0x4E00..=0x9FFF
            | 0xF900..=0xFAFF
            | 0x1F000..=0x1FAFF
            | 0x20000..=0x2FFFF)
}

/// Whether a token is one ideographic or pictographic character (see [`for_each_token`]).
pub(super) fn is_ideographic_token(token: &str) -> bool {
    let mut chars = token.chars();
    chars.next().is_some_and(is_ideographic) && chars.next().is_none()
}

/// Calls `each(start, token)` for every token of folded text, in order: maximal runs of
/// alphanumeric characters, each ideographic or pictographic character alone (§5.1).
pub(crate) fn for_each_token<'t>(text: &'t str, mut each: impl FnMut(usize, &'t str)) {
    let bytes = text.as_bytes();
    let mut start: Option<usize> = None;
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        if byte.is_ascii() {
            if byte.is_ascii_alphanumeric() {
                start.get_or_insert(at);
            } else if let Some(from) = start.take() {
                each(from, &text[from..at]);
            }
            at += 1;
            continue;
        }
        let c = text[at..].chars().next().unwrap_or(' ');
        let width = c.len_utf8();
        if is_ideographic(c) {
            if let Some(from) = start.take() {
                each(from, &text[from..at]);
            }
            each(at, &text[at..at + width]);
        } else if c.is_alphanumeric() {
            start.get_or_insert(at);
        } else if let Some(from) = start.take() {
            each(from, &text[from..at]);
        }
        at += width;
    }
    if let Some(from) = start {
        each(from, &text[from..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_split_on_punctuation_and_keep_ideographs_apart() {
        let mut tokens = Vec::new();
        for_each_token("epipe-4712, c++ 東京x", |_, token| tokens.push(token));
        assert_eq!(tokens, ["epipe", "4712", "c", "東", "京", "x"]);
        assert!(is_ideographic_token("🎉") && !is_ideographic_token("東京"));
    }
}
