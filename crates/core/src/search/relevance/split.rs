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

/// The high bit of each byte of a word of eight text bytes.
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Eight copies of `byte`.
const fn splat(byte: u8) -> u64 {
    (byte as u64) * 0x0101_0101_0101_0101
}

/// The high bit of each byte of `word` (eight ASCII bytes) that lies in `lo..=hi`: each byte's
/// sums stay below 0x100, so no carry crosses into the next byte.
const fn in_range(word: u64, lo: u8, hi: u8) -> u64 {
    (word + splat(0x80 - lo)) & !(word + splat(0x7f - hi)) & HIGH
}

/// The high bit of each ASCII letter or digit of `word` (eight ASCII bytes). `| 0x20` maps the
/// capitals, and only them, onto the small letters.
const fn ascii_alnum(word: u64) -> u64 {
    in_range(word, b'0', b'9') | in_range(word | splat(0x20), b'a', b'z')
}

/// Calls `each(start, token)` for every token of folded text, in order: maximal runs of
/// alphanumeric characters, each ideographic or pictographic character alone (§5.1).
///
/// ASCII, most of prose, is read eight bytes at a time: one word's letters and digits are
/// found at once and only the token boundaries are visited. A byte that is not ASCII is decoded
/// and its character classified. The tests hold it to the character-by-character definition
/// on random text.
pub(crate) fn for_each_token<'t>(text: &'t str, mut each: impl FnMut(usize, &'t str)) {
    let bytes = text.as_bytes();
    // Where the current run of alphanumeric characters started, if one is open.
    let mut start: Option<usize> = None;
    let mut at = 0;
    while at < bytes.len() {
        if let Some(chunk) = bytes
            .get(at..at + 8)
            .and_then(|chunk| <[u8; 8]>::try_from(chunk).ok())
        {
            let word = u64::from_le_bytes(chunk);
            // The bytes before the first one that is not ASCII (all eight when there is none).
            let ascii = ((word & HIGH).trailing_zeros() / 8) as usize;
            // Bytes from the first that is not ASCII on are cleared to ASCII (so no sum
            // carries) and their bits never read.
            let alnum = ascii_alnum(word & !HIGH);
            let limit = ascii * 8;
            // Visit each boundary among the ASCII bytes: the next alphanumeric byte when no
            // run is open, the next other byte when one is.
            let mut from_bit = 0;
            while from_bit < limit {
                let wanted = if start.is_some() {
                    !alnum & HIGH
                } else {
                    alnum
                };
                let pending = wanted & (u64::MAX << from_bit);
                let bit = pending.trailing_zeros() as usize;
                if bit >= limit {
                    break;
                }
                let here = at + bit / 8;
                match start.take() {
                    Some(from) => each(from, &text[from..here]),
                    None => start = Some(here),
                }
                from_bit = bit + 1;
            }
            at += ascii;
            if ascii == 8 {
                continue;
            }
        } else if bytes[at].is_ascii() {
            // The last few bytes, one at a time.
            if bytes[at].is_ascii_alphanumeric() {
                start.get_or_insert(at);
            } else if let Some(from) = start.take() {
                each(from, &text[from..at]);
            }
            at += 1;
            continue;
        }
        // A character that is not ASCII starts at `at`.
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
                    // The neighbours of the letter and digit ranges the word test checks.
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
