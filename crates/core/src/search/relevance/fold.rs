//! The fold filter of the analyzer (contract 03 §5.1): accent and compatibility folding of
//! already lowercased text, for documents and queries alike. It owns only that rule; it never
//! lowercases (`lower.rs`), splits (`split.rs`) or stems (`stem.rs`), and it never changes the
//! number of lines, so line numbers of folded text are the original's.

use std::borrow::Cow;

use unicode_normalization::char::{decompose_canonical, is_combining_mark};

use crate::search::unicode::{ascii_prefix_len, folds_to_itself};

/// Accent and compatibility folding of already lowercased text (§5.1): canonical decomposition
/// with combining marks removed, and the few letters that do not decompose spelled out
/// (`ß` → `ss`, `æ` → `ae`, `ø` → `o`, …). Line breaks map one to one, so line numbers of the
/// folded text are those of the original. Text in which no character changes (ASCII, most CJK
/// and emoji prose) is returned as it is; otherwise the unchanged runs between the characters
/// that fold are copied whole.
pub(crate) fn fold_accents(lower: &str) -> Cow<'_, str> {
    // The whole-text check is word-at-a-time; most notes are ASCII.
    if lower.is_ascii() {
        return Cow::Borrowed(lower);
    }
    let bytes = lower.as_bytes();
    let mut out: Option<String> = None;
    // The start of the run of unchanged text not yet copied into `out`.
    let mut run = 0;
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at].is_ascii() {
            // Skip the whole ASCII run at once.
            at += ascii_prefix_len(&bytes[at..]);
            continue;
        }
        let c = lower[at..].chars().next().unwrap_or('\0');
        let width = c.len_utf8();
        if !folds_to_itself(c) {
            let mut parts = FoldedChar::default();
            if fold_char(c, &mut parts) {
                let out = out.get_or_insert_with(|| String::with_capacity(lower.len()));
                out.push_str(&lower[run..at]);
                out.push_str(parts.as_str());
                run = at + width;
            }
        }
        at += width;
    }
    match out {
        None => Cow::Borrowed(lower),
        Some(mut out) => {
            out.push_str(&lower[run..]);
            Cow::Owned(out)
        }
    }
}

/// The folded form of one character: at most a canonical decomposition's few characters.
#[derive(Default)]
struct FoldedChar {
    bytes: [u8; 32],
    len: usize,
}

impl FoldedChar {
    fn push(&mut self, c: char) {
        let width = c.len_utf8();
        // A canonical decomposition has at most four characters of at most four bytes.
        if self.len + width <= self.bytes.len() {
            c.encode_utf8(&mut self.bytes[self.len..]);
            self.len += width;
        }
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or_default()
    }
}

/// Folds `c` (not ASCII) into `parts`; false when it folds to itself, and `parts` is then
/// unused.
fn fold_char(c: char, parts: &mut FoldedChar) -> bool {
    let spelled = match c {
        'ß' => "ss",
        'æ' => "ae",
        'œ' => "oe",
        'ø' => "o",
        'ł' => "l",
        'đ' | 'ð' => "d",
        'þ' => "th",
        'ı' => "i",
        _ => "",
    };
    if !spelled.is_empty() {
        spelled.chars().for_each(|part| parts.push(part));
        return true;
    }
    let mut same = true;
    let mut first = true;
    decompose_canonical(c, |part| {
        same &= first && part == c;
        first = false;
        if !is_combining_mark(part) {
            parts.push(part);
        }
    });
    !same || is_combining_mark(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The folding of §5.1 character by character, as it is defined: every non-ASCII character
    /// decomposed, combining marks dropped, the few undecomposable letters spelled out.
    fn fold_by_definition(lower: &str) -> String {
        use unicode_normalization::char::{decompose_canonical, is_combining_mark};
        let mut out = String::new();
        for c in lower.chars() {
            match c {
                'ß' => out.push_str("ss"),
                'æ' => out.push_str("ae"),
                'œ' => out.push_str("oe"),
                'ø' => out.push('o'),
                'ł' => out.push('l'),
                'đ' | 'ð' => out.push('d'),
                'þ' => out.push_str("th"),
                'ı' => out.push('i'),
                c if c.is_ascii() => out.push(c),
                _ => decompose_canonical(c, |part| {
                    if !is_combining_mark(part) {
                        out.push(part);
                    }
                }),
            }
        }
        out
    }

    #[test]
    fn folding_borrows_text_that_does_not_change() {
        for text in ["plain ascii", "東京オフィス会議", "🎉🚀 launch", "ok ✨ ✅"] {
            assert!(matches!(fold_accents(text), Cow::Borrowed(_)), "{text:?}");
        }
        for text in ["caffè", "ß", "\u{301}", "ok ✨ é", "が"] {
            assert!(matches!(fold_accents(text), Cow::Owned(_)), "{text:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// The run-copying fold equals the definition on any text, including every kind of
        /// character it treats specially.
        #[test]
        fn folding_equals_its_definition(
            text in proptest::collection::vec(
                prop_oneof![
                    any::<char>(),
                    proptest::sample::select(vec!['é', 'ß', 'æ', 'ı', 'が', '東', '🎉', '✨', '\u{301}', '한', 'ǅ', 'x', '\n']),
                ],
                0..40,
            )
        ) {
            let text: String = text.into_iter().collect();
            let folded = fold_accents(&text).into_owned();
            prop_assert_eq!(folded, fold_by_definition(&text));
        }
    }
}
