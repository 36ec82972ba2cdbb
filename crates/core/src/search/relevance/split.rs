//! The split filter of the analyzer (contract 03 §5.1): what a token of folded text is —
//! maximal runs of alphanumeric characters, and each ideographic or pictographic character
//! alone. It owns only the token boundaries (and what is built on them alone: the count of a
//! text's tokens, and the cut of a text into stretches at those boundaries); it never changes
//! a token's text.

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

/// How many tokens [`for_each_token`] finds in `text`, without making them: what a stretch of
/// text in which no token can match still contributes, its positions (§9.1: phrase, span and
/// title length count tokens). Linear; ASCII is taken [`BLOCK`] bytes at a time, in loops
/// without branches the compiler turns into vector instructions: a token starts at each letter
/// or digit whose preceding byte is not one. The tests hold it to the count of
/// [`for_each_token`] on random text.
pub(crate) fn count_tokens(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut count = 0;
    // Whether the character before `at` continues a token.
    let mut in_run = false;
    let mut at = 0;
    while at < bytes.len() {
        // A block is taken with the byte before it, when that is ASCII too: each byte is then
        // compared with its predecessor in the block. The last block of the text is padded
        // with zero bytes, which separate.
        let block = if at == 0 {
            None
        } else if let Some(window) = bytes.get(at - 1..at + BLOCK) {
            ascii_block_starts(window)
        } else {
            let mut padded = [0_u8; BLOCK + 1];
            let rest = &bytes[at - 1..];
            padded[..rest.len()].copy_from_slice(rest);
            ascii_block_starts(&padded)
        };
        if let Some(starts) = block {
            count += starts;
            at += BLOCK;
            in_run = bytes
                .get(at - 1)
                .is_some_and(|&byte| CLASS[usize::from(byte)] == ASCII_ALNUM);
            continue;
        }
        let byte = bytes[at];
        if byte.is_ascii() {
            let continues = CLASS[usize::from(byte)] == ASCII_ALNUM;
            count += usize::from(continues && !in_run);
            in_run = continues;
            at += 1;
            continue;
        }
        let c = text[at..].chars().next().unwrap_or(' ');
        if is_ideographic(c) {
            count += 1;
            in_run = false;
        } else if c.is_alphanumeric() {
            count += usize::from(!in_run);
            in_run = true;
        } else {
            in_run = false;
        }
        at += c.len_utf8();
    }
    count
}

/// The bytes [`count_tokens`] takes at once.
const BLOCK: usize = 64;

/// How many tokens start in the last [`BLOCK`] bytes of `window` (`BLOCK + 1` bytes), when all
/// of them are ASCII (`None` when one is not): the letters and digits whose preceding byte is
/// none. Written without branches, over whole vectors, for the compiler to turn into vector
/// instructions.
fn ascii_block_starts(window: &[u8]) -> Option<usize> {
    let window: &[u8; BLOCK + 1] = window.try_into().ok()?;
    // Each byte is classified once; then each is compared with the one before it.
    let mut alnum = [0_u8; BLOCK + 1];
    let mut high = 0_u8;
    for (flag, &byte) in alnum.iter_mut().zip(window) {
        high |= byte;
        *flag = u8::from((byte | 0x20).wrapping_sub(b'a') < 26 || byte.wrapping_sub(b'0') < 10);
    }
    // At most every other byte starts a token: 32 fit in a byte.
    let mut starts = 0_u8;
    for (&flag, &before) in alnum[1..].iter().zip(&alnum[..BLOCK]) {
        starts += flag & !before;
    }
    high.is_ascii().then_some(usize::from(starts))
}

/// Whether `needle` may mark where [`for_each_stretch`] tokenises: non-empty, and no ASCII byte
/// of it separates tokens, so no occurrence of it spans a cut.
pub(super) fn is_needle(needle: &str) -> bool {
    !needle.is_empty()
        && needle
            .bytes()
            .all(|byte| CLASS[usize::from(byte)] != ASCII_SEPARATOR)
}

/// Cuts `text` into consecutive stretches and calls `each(stretch, tokenise)` for each, in
/// order: `tokenise` for the stretch around each of `marks` (ascending byte offsets, each the
/// start of an occurrence of an [`is_needle`] text), from just after the ASCII separator before
/// it to the first one after its first byte, so that the token starting at the mark, if any,
/// lies whole in it; the stretches between are not to be tokenised. Cuts fall only next to an
/// ASCII separator, which no token holds, so the tokens of the stretches are exactly the tokens
/// of `text` (§5.1). Linear: a byte is looked at by at most one backward and one forward search.
pub(crate) fn for_each_stretch<'t>(
    text: &'t str,
    mut marks: impl FnMut() -> Option<usize>,
    mut each: impl FnMut(&'t str, bool),
) {
    let bytes = text.as_bytes();
    let separates = |byte: &u8| CLASS[usize::from(*byte)] == ASCII_SEPARATOR;
    // Everything before `done` has been handed out.
    let mut done = 0;
    while let Some(mark) = marks() {
        if mark < done || mark >= bytes.len() {
            // Inside the last tokenised stretch already.
            continue;
        }
        let from = bytes[done..mark]
            .iter()
            .rposition(separates)
            .map_or(done, |at| done + at + 1);
        let to = bytes[mark + 1..]
            .iter()
            .position(separates)
            .map_or(bytes.len(), |at| mark + 1 + at);
        if done < from {
            each(&text[done..from], false);
        }
        each(&text[from..to], true);
        done = to;
    }
    if done < bytes.len() {
        each(&text[done..], false);
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

        /// The count equals the number of tokens [`for_each_token`] makes, on the same mixes
        /// and on ASCII of every byte value (the word-at-a-time range test's neighbours).
        #[test]
        fn token_count_equals_the_tokens(
            text in proptest::collection::vec(
                prop_oneof![
                    any::<char>().prop_map(String::from),
                    "[a-zA-Z0-9]{1,12}",
                    "[ .,:#_\\-]{1,3}",
                    "[\u{0}-\u{7f}]{1,17}",
                    // Runs longer than the ASCII blocks, of prose and of every byte value.
                    "[a-z0-9 ]{60,140}",
                    "[\u{0}-\u{7f}]{60,140}",
                    "[/:@\\[`{\u{0}\u{7f}0-9AZaz]{1,9}",
                    proptest::sample::select(vec!["é", "ß", "東", "🎉", "—", "\u{301}", "٣", "ǅ", "x", "\n", "→"]).prop_map(str::to_owned),
                ],
                0..40,
            )
        ) {
            let text: String = text.concat();
            let mut tokens = 0;
            for_each_token(&text, |_, _| tokens += 1);
            prop_assert_eq!(count_tokens(&text), tokens);
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
