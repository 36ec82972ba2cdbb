//! Name rules of the corpus walk (contract 03 §4.1–§4.3, §4.6): the skip rule for hidden and
//! secret-like names, the eligibility predicates, and the collation order in which a
//! directory's entries are visited.
//!
//! The rules look at raw name bytes, so a name that is not UTF-8 is judged like any other;
//! the engine then skips and reports such a name only when it would recurse into it or accept
//! it (`search::error::unreadable_name`), and ignores it otherwise.

use std::cmp::Ordering;

use dotaios_contained::DirEntry;

use crate::text::collate;

/// Which eligibility predicate a listing uses (§4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Eligibility {
    /// Names ending in `.md`, ASCII case-insensitively.
    Markdown,
    /// Paths ending in `.md` (case-sensitive), or the name `manifest.json`.
    Plugins,
    /// Names ending in `.jsonl`, ASCII case-insensitively (`memory/signals`).
    Signals,
}

impl Eligibility {
    pub(crate) fn accepts(self, name: &[u8]) -> bool {
        match self {
            Eligibility::Markdown => ends_with_ignore_ascii_case(name, b".md"),
            Eligibility::Plugins => name.ends_with(b".md") || name == b"manifest.json",
            Eligibility::Signals => ends_with_ignore_ascii_case(name, b".jsonl"),
        }
    }
}

/// The skip rule of §4.2: hidden names, `node_modules` and secret-like names.
pub(crate) fn is_skipped(name: &[u8]) -> bool {
    name.first() == Some(&b'.')
        || name == b"node_modules"
        || starts_with_word_ignore_ascii_case(name, b"credentials")
        || starts_with_word_ignore_ascii_case(name, b"token")
        || ends_with_ignore_ascii_case(name, b".pem")
        || ends_with_ignore_ascii_case(name, b".key")
}

/// `^word(\.|$)`, ASCII case-insensitively.
fn starts_with_word_ignore_ascii_case(name: &[u8], word: &[u8]) -> bool {
    name.len() >= word.len()
        && name[..word.len()].eq_ignore_ascii_case(word)
        && (name.len() == word.len() || name[word.len()] == b'.')
}

fn ends_with_ignore_ascii_case(name: &[u8], suffix: &[u8]) -> bool {
    name.len() >= suffix.len() && name[name.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
}

/// Sorts a listing into visiting order: collation order of the names, ties (names the
/// collator considers equal) in byte order so that the order is total.
pub(crate) fn order_entries(entries: &mut Vec<DirEntry>) {
    sort_by_bytes(entries);
    if let Some(order) = collation_order(entries) {
        apply_order(entries, &order);
    }
}

/// The first step of [`order_entries`]: byte order of the names.
pub(crate) fn sort_by_bytes(entries: &mut [DirEntry]) {
    entries.sort_unstable_by(|a, b| a.name.as_encoded_bytes().cmp(b.name.as_encoded_bytes()));
}

/// The visiting order of a listing sorted by [`sort_by_bytes`]: `None` when that already is
/// collation order, else the indices of its entries in visiting order. It depends on the
/// names alone, so the server's cache may keep it for a listing of the same names.
///
/// Most listings are already in collation order once sorted by bytes (plain ASCII names with
/// a shared shape), and checking neighbours costs one comparison per entry instead of a full
/// collation sort, so that is tried first. The sort of indices is stable, as a sort of the
/// entries themselves would be.
pub(crate) fn collation_order(byte_sorted: &[DirEntry]) -> Option<Vec<u32>> {
    let in_order = byte_sorted
        .windows(2)
        .all(|pair| compare_names(&pair[0], &pair[1]) != Ordering::Greater);
    if in_order {
        return None;
    }
    let mut order: Vec<u32> = (0..byte_sorted.len() as u32).collect();
    order.sort_by(|&a, &b| compare_names(&byte_sorted[a as usize], &byte_sorted[b as usize]));
    Some(order)
}

/// Rearranges a byte-sorted listing into the order [`collation_order`] gave.
pub(crate) fn apply_order(entries: &mut Vec<DirEntry>, order: &[u32]) {
    let mut slots: Vec<Option<DirEntry>> = std::mem::take(entries).into_iter().map(Some).collect();
    entries.extend(
        order
            .iter()
            .filter_map(|&index| slots.get_mut(index as usize).and_then(Option::take)),
    );
}

fn compare_names(a: &DirEntry, b: &DirEntry) -> Ordering {
    // Almost every name is UTF-8: `to_str` validates it without the lossy decoder's chunking.
    let collated = match (a.name.to_str(), b.name.to_str()) {
        (Some(text_a), Some(text_b)) => collate(text_a, text_b),
        _ => collate(&a.name.to_string_lossy(), &b.name.to_string_lossy()),
    };
    collated.then_with(|| a.name.as_encoded_bytes().cmp(b.name.as_encoded_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use dotaios_contained::EntryKind;

    #[test]
    fn skip_rule_examples_from_the_spec() {
        for skipped in [
            ".git",
            ".obsidian",
            ".env",
            ".env.local",
            "node_modules",
            "credentials.md",
            "Credentials",
            "Token.md",
            "token",
            "server.PEM",
            "x.KEY",
            "TOKEN.txt",
        ] {
            assert!(is_skipped(skipped.as_bytes()), "{skipped}");
        }
        for kept in [
            "tokens.md",
            "my-credentials.md",
            "credentialsx.md",
            "node_modules2",
            "a.pem.md",
            "notes",
            // "ci" is ASCII case-insensitive (§4.2): the Kelvin sign U+212A, which Unicode
            // lowercases to `k`, is not `k`.
            "to\u{212A}en.md",
            "x.\u{212A}EY",
        ] {
            assert!(!is_skipped(kept.as_bytes()), "{kept}");
        }
    }

    #[test]
    fn eligibility() {
        assert!(Eligibility::Markdown.accepts(b"NOTE.MD"));
        assert!(Eligibility::Markdown.accepts(b"a.Md"));
        assert!(!Eligibility::Markdown.accepts(b"a.markdown"));
        assert!(!Eligibility::Markdown.accepts(b"md"));
        assert!(Eligibility::Plugins.accepts(b"x.md"));
        assert!(!Eligibility::Plugins.accepts(b"NOTE.MD"));
        assert!(Eligibility::Plugins.accepts(b"manifest.json"));
        assert!(!Eligibility::Plugins.accepts(b"Manifest.json"));
        assert!(Eligibility::Signals.accepts(b"2026-08-13.JSONL"));
        assert!(!Eligibility::Signals.accepts(b"a.json"));
    }

    fn entry(name: &str) -> DirEntry {
        DirEntry {
            name: name.into(),
            kind: EntryKind::File,
        }
    }

    #[test]
    fn entries_follow_collation_order() {
        let mut entries: Vec<DirEntry> = ["b.md", "B.md", "a.md", "_x.md", "10.md", "2.md", "á.md"]
            .into_iter()
            .map(entry)
            .collect();
        order_entries(&mut entries);
        let names: Vec<String> = entries
            .iter()
            .map(|e| e.name.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            ["_x.md", "10.md", "2.md", "a.md", "á.md", "b.md", "B.md"]
        );

        let mut plain: Vec<DirEntry> = ["note-00017.md", "note-00003.md", "branch-01"]
            .into_iter()
            .map(entry)
            .collect();
        order_entries(&mut plain);
        let names: Vec<String> = plain
            .iter()
            .map(|e| e.name.to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["branch-01", "note-00003.md", "note-00017.md"]);
    }
}
