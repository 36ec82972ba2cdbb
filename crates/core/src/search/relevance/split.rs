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

/// The class of each byte for the ASCII walk of [`for_each_token`]: an ASCII letter or digit
/// continues a token, another ASCII byte separates tokens, and a byte that is not ASCII starts
/// a character the general path classifies (§5.1).
const ASCII_ALNUM: u8 = 1;
const ASCII_SEPARATOR: u8 = 2;
const CLASS: [u8; 256] = {
    let mut table = [0; 256];
    let mut byte = 0;
    while byte < 128 {
        table[byte] = if (byte as u8).is_ascii_alphanumeric() {
            ASCII_ALNUM
        } else {
            ASCII_SEPARATOR
        };
        byte += 1;
    }
    table
};

/// Calls `each(start, token)` for every token of folded text, in order: maximal runs of
/// alphanumeric characters, each ideographic or pictographic character alone (§5.1).
///
/// ASCII bytes, most of prose, are walked with one table lookup each and never decoded; only a
/// byte that is not ASCII is decoded and its character classified. The tests hold it to the
/// character-by-character definition on random text.
pub(crate) fn for_each_token<'t>(text: &'t str, mut each: impl FnMut(usize, &'t str)) {
    let bytes = text.as_bytes();
    let class = |at: usize| CLASS[usize::from(bytes[at])];
    let mut at = 0;
    'text: while at < bytes.len() {
        // Between tokens: pass over ASCII separators.
        while at < bytes.len() && class(at) == ASCII_SEPARATOR {
            at += 1;
        }
        // The run of alphanumeric characters that starts here, if any, ends at `at`.
        let from = at;
        while at < bytes.len() {
            while at < bytes.len() && class(at) == ASCII_ALNUM {
                at += 1;
            }
            if at == bytes.len() || class(at) == ASCII_SEPARATOR {
                break;
            }
            let c = text[at..].chars().next().unwrap_or(' ');
            let width = c.len_utf8();
            if c.is_alphanumeric() && !is_ideographic(c) {
                at += width;
                continue;
            }
            if from < at {
                each(from, &text[from..at]);
            }
            if is_ideographic(c) {
                each(at, &text[at..at + width]);
            }
            at += width;
            continue 'text;
        }
        if from < at {
            each(from, &text[from..at]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The tokens of §5.1 character by character, as they are defined.
    fn tokens_by_definition(text: &str) -> Vec<(usize, &str)> {
        let mut tokens = Vec::new();
        let mut start: Option<usize> = None;
        for (at, c) in text.char_indices() {
            if is_ideographic(c) {
                if let Some(from) = start.take() {
                    tokens.push((from, &text[from..at]));
                }
                tokens.push((at, &text[at..at + c.len_utf8()]));
            } else if c.is_alphanumeric() {
                start.get_or_insert(at);
            } else if let Some(from) = start.take() {
                tokens.push((from, &text[from..at]));
            }
        }
        if let Some(from) = start {
            tokens.push((from, &text[from..]));
        }
        tokens
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1024))]

        /// The ASCII walk gives the tokens and offsets of the definition on any text, mixed
        /// ASCII and other scripts included.
        #[test]
        fn tokens_equal_their_definition(
            text in proptest::collection::vec(
                prop_oneof![
                    any::<char>().prop_map(String::from),
                    "[a-zA-Z0-9]{1,6}",
                    "[ .,:#_\\-]{1,2}",
                    // The neighbours of the letter and digit ranges of the class table.
                    "[/:@\\[`{\u{0}\u{7f}0-9AZaz]{1,9}",
                    proptest::sample::select(vec!["é", "ß", "東", "🎉", "—", "\u{301}", "٣", "ǅ", "x", "\n", "→"]).prop_map(str::to_owned),
                ],
                0..40,
            )
        ) {
            let text: String = text.concat();
            let mut tokens = Vec::new();
            for_each_token(&text, |at, token| tokens.push((at, token)));
            prop_assert_eq!(tokens, tokens_by_definition(&text));
        }
    }

    #[test]
    fn tokens_split_on_punctuation_and_keep_ideographs_apart() {
        let mut tokens = Vec::new();
        for_each_token("epipe-4712, c++ 東京x", |_, token| tokens.push(token));
        assert_eq!(tokens, ["epipe", "4712", "c", "東", "京", "x"]);
        assert!(is_ideographic_token("🎉") && !is_ideographic_token("東京"));
    }
}
