//! Query normalisation, the four match tiers and inflection stems (contract 03 §5–§7).
//!
//! Everything here works on text that the caller has already lowercased (the "haystack" `h`
//! of §6): matching never lowercases on its own, so a file is lowercased once and every line,
//! title and path check reuses slices of that one lowercase copy. Only query terms are ever
//! stemmed; documents are not.
//!
//! This module must stay pure: no I/O, no allocation per haystack beyond what a match needs, and
//! no pass over a haystack whose cost grows with the number of query terms.

use std::collections::HashMap;

use aho_corasick::{AhoCorasick, Input, MatchKind as AcMatchKind};
use memchr::memmem::Finder;

use crate::search::hit::MatchKind;
use crate::search::relevance::AnalysedQuery;
use crate::search::unicode::{is_caseless, is_letter, is_letter_or_number};
use crate::search::window::SnippetForm;
use crate::text::{is_js_space, js_trim, utf16_len};

/// The outcome of `match(text, query)` when it matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Match {
    pub(crate) kind: MatchKind,
    pub(crate) score: u32,
}

/// The set of byte values occurring in a text: a query-independent profile of a haystack that
/// rules a needle out without a scan, since a needle with a byte the haystack lacks cannot occur
/// in it. The server's cache keeps one beside each lowercase text (contract 03 §19.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct ByteSet([u64; 4]);

impl ByteSet {
    /// The bytes of `bytes`.
    pub(crate) fn of(bytes: &[u8]) -> ByteSet {
        let mut seen = [false; 256];
        for &byte in bytes {
            seen[usize::from(byte)] = true;
        }
        let mut words = [0_u64; 4];
        for (value, present) in seen.iter().enumerate() {
            if *present {
                words[value / 64] |= 1 << (value % 64);
            }
        }
        ByteSet(words)
    }

    /// Whether every byte of `needle` is in `self`.
    pub(crate) fn covers(&self, needle: &ByteSet) -> bool {
        self.0
            .iter()
            .zip(&needle.0)
            .all(|(have, need)| need & !have == 0)
    }
}

/// One query term, in query order (duplicates kept, §5).
#[derive(Debug)]
pub(crate) struct Term {
    /// The index of this term's text among the query's distinct terms.
    distinct: usize,
}

/// The distinct terms of a query and the searchers that scan a haystack once for all of them.
///
/// Matching costs one pass per haystack whatever the number of terms (contract 03 §19 rule 6): each
/// distinct term is counted once and weighted by how often the query repeats it, counting stops at
/// the score caps of §6, and all terms are found by one Aho-Corasick automaton. Token hits (§9.2)
/// and inflection hits (§7) are likewise one pass each over the haystack.
#[derive(Debug)]
struct Distinct {
    texts: Vec<String>,
    /// How many query terms have each distinct text.
    multiplicity: Vec<u32>,
    /// All distinct texts, pattern `i` being `texts[i]`; `None` when there are no terms or
    /// the automaton cannot be built (then `finders` count term by term).
    automaton: Option<AhoCorasick>,
    finders: Vec<Finder<'static>>,
    /// The bytes of each distinct text.
    bytes: Vec<ByteSet>,
    max_len: usize,
    /// The inflection stems, when every distinct term has one (otherwise nothing is inflected).
    stems: Option<Stems>,
}

/// A byte trie of the inflection stems, walked from each word start (§7).
#[derive(Debug)]
struct Stems {
    nodes: Vec<StemNode>,
    /// The longest stem, searched first: a haystack without it has no inflection match.
    longest: Finder<'static>,
    /// The bytes of the longest stem.
    longest_bytes: ByteSet,
    /// First bytes of the stems.
    first: [bool; 256],
}

#[derive(Debug, Default)]
struct StemNode {
    edges: Vec<(u8, usize)>,
    /// Distinct terms whose stem ends at this node.
    ends: Vec<usize>,
}

/// Reports of already saturated terms tolerated before the automaton is rebuilt without them.
/// Each rebuild drops at least one term, so a haystack costs at most `terms × REBUILD_AFTER`
/// wasted reports on top of one pass.
const REBUILD_AFTER: u32 = 256;

impl Distinct {
    fn new(terms: &[&str]) -> (Distinct, Vec<usize>) {
        let mut texts: Vec<String> = Vec::new();
        let mut multiplicity: Vec<u32> = Vec::new();
        let mut index_of: HashMap<&str, usize> = HashMap::new();
        let mut order = Vec::with_capacity(terms.len());
        for &term in terms {
            let index = *index_of.entry(term).or_insert_with(|| {
                texts.push(term.to_owned());
                multiplicity.push(0);
                texts.len() - 1
            });
            multiplicity[index] += 1;
            order.push(index);
        }
        let automaton = build_automaton(texts.iter().map(String::as_str));
        let finders = texts
            .iter()
            .map(|text| Finder::new(text.as_bytes()).into_owned())
            .collect();
        let stems = Stems::new(&texts);
        let distinct = Distinct {
            max_len: texts.iter().map(String::len).max().unwrap_or(0),
            bytes: texts
                .iter()
                .map(|text| ByteSet::of(text.as_bytes()))
                .collect(),
            texts,
            multiplicity,
            automaton,
            finders,
            stems,
        };
        (distinct, order)
    }

    fn len(&self) -> usize {
        self.texts.len()
    }

    /// Non-overlapping occurrences (§6 `occ`) of every distinct term in `haystack`, each
    /// counted up to `cap`, in one pass that stops once every term has reached the cap.
    fn count(&self, haystack: &[u8], cap: u32) -> Vec<u32> {
        let terms = self.len();
        let mut counts = vec![0_u32; terms];
        let Some(full) = &self.automaton else {
            for (count, finder) in counts.iter_mut().zip(&self.finders) {
                *count = count_non_overlapping(finder, haystack, cap);
            }
            return counts;
        };
        // Where each term's next counted occurrence may start: occurrences arrive in order of
        // their end, which for one term is the order of their start, so counting greedily
        // here is the left-to-right scan of §6.
        let mut resume = vec![0_usize; terms];
        let mut unsaturated = terms;
        let mut rebuilt: Option<(AhoCorasick, Vec<usize>)> = None;
        let mut from = 0;
        loop {
            let (automaton, ids) = match &rebuilt {
                Some((automaton, ids)) => (automaton, Some(ids.as_slice())),
                None => (full, None),
            };
            let mut wasted = 0_u32;
            let mut restart = None;
            for found in automaton.find_overlapping_iter(Input::new(haystack).range(from..)) {
                let pattern = found.pattern().as_usize();
                let index = ids.map_or(pattern, |ids| ids[pattern]);
                if counts[index] >= cap {
                    wasted += 1;
                    if wasted == REBUILD_AFTER {
                        let remaining: Vec<usize> =
                            (0..terms).filter(|&index| counts[index] < cap).collect();
                        if let Some(next) =
                            build_automaton(remaining.iter().map(|&index| &*self.texts[index]))
                        {
                            // Every occurrence ending after this one starts at or after
                            // `end + 1 - max_len`; occurrences seen again are skipped by
                            // `resume`, so rescanning that overlap changes no count.
                            restart = Some((
                                (found.end() + 1).saturating_sub(self.max_len),
                                next,
                                remaining,
                            ));
                            break;
                        }
                    }
                    continue;
                }
                if found.start() >= resume[index] {
                    counts[index] += 1;
                    resume[index] = found.end();
                    if counts[index] == cap {
                        unsaturated -= 1;
                        if unsaturated == 0 {
                            return counts;
                        }
                    }
                }
            }
            match restart {
                Some((start, automaton, ids)) => {
                    from = start;
                    rebuilt = Some((automaton, ids));
                }
                None => return counts,
            }
        }
    }

    /// Whether every distinct term's inflection stem starts a word somewhere in the haystack
    /// (§7). The trie is walked from each word start only; a walk consumes letters, and no
    /// word starts inside a run of letters, so the walks never overlap and the pass is linear.
    fn all_inflected(&self, lower: &str, profile: Option<&ByteSet>) -> bool {
        let Some(stems) = &self.stems else {
            return false;
        };
        if profile.is_some_and(|profile| !profile.covers(&stems.longest_bytes)) {
            return false;
        }
        if stems.longest.find(lower.as_bytes()).is_none() {
            return false;
        }
        let bytes = lower.as_bytes();
        let mut found = vec![false; self.len()];
        let mut missing = self.len();
        let mut preceded_by_word = false;
        for (start, c) in lower.char_indices() {
            if !preceded_by_word && stems.first[usize::from(bytes[start])] {
                let mut node = 0;
                for &byte in &bytes[start..] {
                    let Some(&(_, next)) = stems.nodes[node]
                        .edges
                        .iter()
                        .find(|(edge, _)| *edge == byte)
                    else {
                        break;
                    };
                    node = next;
                    for &index in &stems.nodes[node].ends {
                        if !found[index] {
                            found[index] = true;
                            missing -= 1;
                            if missing == 0 {
                                return true;
                            }
                        }
                    }
                }
            }
            preceded_by_word = is_letter_or_number(c);
        }
        false
    }
}

impl Stems {
    fn new(texts: &[String]) -> Option<Stems> {
        if texts.is_empty() {
            return None;
        }
        let stems: Vec<String> = texts
            .iter()
            .map(|text| inflection_stem(text))
            .collect::<Option<_>>()?;
        let mut nodes = vec![StemNode::default()];
        let mut first = [false; 256];
        for (index, stem) in stems.iter().enumerate() {
            let mut node = 0;
            for &byte in stem.as_bytes() {
                node = match nodes[node].edges.iter().find(|(edge, _)| *edge == byte) {
                    Some(&(_, next)) => next,
                    None => {
                        nodes.push(StemNode::default());
                        let next = nodes.len() - 1;
                        nodes[node].edges.push((byte, next));
                        next
                    }
                };
            }
            nodes[node].ends.push(index);
            first[usize::from(stem.as_bytes()[0])] = true;
        }
        let longest = stems.iter().max_by_key(|stem| stem.len())?;
        Some(Stems {
            longest: Finder::new(longest.as_bytes()).into_owned(),
            longest_bytes: ByteSet::of(longest.as_bytes()),
            nodes,
            first,
        })
    }
}

fn build_automaton<'a>(patterns: impl Iterator<Item = &'a str>) -> Option<AhoCorasick> {
    let patterns: Vec<&str> = patterns.collect();
    if patterns.is_empty() {
        return None;
    }
    AhoCorasick::builder()
        .match_kind(AcMatchKind::Standard)
        .build(patterns)
        .ok()
}

/// The query normalisation of contract 03 §5, the one both the search and the CLI's
/// highlighting (§17.4) use: trimmed of JS whitespace, lowercased (Unicode default full
/// lowercase), and split at every run of JS whitespace. The terms keep their order and their
/// duplicates; the normalised phrase is them joined by one space.
pub fn query_terms(raw: &str) -> Vec<String> {
    js_trim(raw)
        .to_lowercase()
        .split(is_js_space)
        .filter(|piece| !piece.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A normalised query (§5): the phrase and its terms, duplicates kept.
#[derive(Debug)]
pub(crate) struct Query {
    pub(crate) phrase: String,
    phrase_finder: Finder<'static>,
    phrase_bytes: ByteSet,
    pub(crate) terms: Vec<Term>,
    distinct: Distinct,
    /// The normalised terms of the relevance model (§5.1), which decide candidates and order.
    pub(crate) analysed: AnalysedQuery,
    /// How Markdown snippets are shown (§8.2); the request's, lines unless it asks for windows.
    pub(crate) snippets: SnippetForm,
}

impl Query {
    /// The query of [`query_terms`]: its terms, and the phrase they make joined by one space.
    pub(crate) fn new(raw: &str) -> Query {
        let normalised = query_terms(raw);
        let phrase = normalised.join(" ");
        let pieces: Vec<&str> = normalised.iter().map(String::as_str).collect();
        let (distinct, order) = Distinct::new(&pieces);
        let terms = order
            .into_iter()
            .map(|distinct| Term { distinct })
            .collect();
        Query {
            analysed: AnalysedQuery::new(&phrase),
            phrase_finder: Finder::new(phrase.as_bytes()).into_owned(),
            phrase_bytes: ByteSet::of(phrase.as_bytes()),
            phrase,
            terms,
            distinct,
            snippets: SnippetForm::Lines,
        }
    }

    /// The same query, its Markdown snippets shown in `form` (§8.2).
    pub(crate) fn with_snippets(mut self, form: SnippetForm) -> Query {
        self.snippets = form;
        self
    }

    /// `match(text, query)` of §6, given `lower` = lowercase(text).
    pub(crate) fn match_lower(&self, lower: &str) -> Option<Match> {
        self.match_and_presence(lower).0
    }

    /// [`Query::match_lower`] and, per query term, whether it is a substring of `lower` (the
    /// `matchedTerms` of §9.1), from the same pass; see [`Query::match_and_presence_in`].
    pub(crate) fn match_and_presence(&self, lower: &str) -> (Option<Match>, Vec<bool>) {
        self.match_and_presence_in(lower, None)
    }

    /// [`Query::match_and_presence`] given, when known, the [`ByteSet`] of `lower`: a needle
    /// with a byte outside it is absent without a scan, so the outcome is the same. When no
    /// term occurs literally the presence is empty (no term is present), which allocates
    /// nothing for the common non-matching file.
    pub(crate) fn match_and_presence_in(
        &self,
        lower: &str,
        profile: Option<&ByteSet>,
    ) -> (Option<Match>, Vec<bool>) {
        let terms = self.terms.len();
        if self.phrase.is_empty() {
            return (None, vec![false; terms]);
        }
        let possible = |needle: &ByteSet| profile.is_none_or(|profile| profile.covers(needle));
        if possible(&self.phrase_bytes) && self.phrase_finder.find(lower.as_bytes()).is_some() {
            // Every term is a substring of the phrase, so all are present.
            let occurrences = count_non_overlapping(&self.phrase_finder, lower.as_bytes(), 6);
            let found = Match {
                kind: MatchKind::Phrase,
                score: 10 + (occurrences - 1).min(5),
            };
            return (Some(found), vec![true; terms]);
        }
        if terms >= 2 && self.distinct.bytes.iter().any(possible) {
            // A present term counts at least once, so capping each distinct count at 6 keeps
            // the saturated sum (≥ terms + 5) exact even when weighted by multiplicity.
            let counts = self.distinct.count(lower.as_bytes(), 6);
            let mut present = 0;
            let mut total = 0;
            for (count, multiplicity) in counts.iter().zip(&self.distinct.multiplicity) {
                if *count > 0 {
                    present += multiplicity;
                    total += count * multiplicity;
                }
            }
            let term_count = terms as u32;
            if present > 0 {
                let presence = self
                    .terms
                    .iter()
                    .map(|term| counts[term.distinct] > 0)
                    .collect();
                let found = if present == term_count {
                    Match {
                        kind: MatchKind::Terms,
                        score: 5 + (total - term_count).min(5),
                    }
                } else {
                    Match {
                        kind: MatchKind::Partial,
                        score: present,
                    }
                };
                return (Some(found), presence);
            }
        }
        // Here no term occurs literally: a multi-term query found none, and a single term is
        // the phrase, which is absent.
        let absent = Vec::new();
        if terms > 0 && self.distinct.all_inflected(lower, profile) {
            let found = Match {
                kind: MatchKind::Inflected,
                score: terms as u32,
            };
            return (Some(found), absent);
        }
        (None, absent)
    }

    /// The text of every query term, in order (tests only).
    #[cfg(test)]
    pub(crate) fn term_texts(&self) -> Vec<&str> {
        self.terms
            .iter()
            .map(|term| self.distinct.texts[term.distinct].as_str())
            .collect()
    }

    /// `match` on text that still needs lowercasing.
    pub(crate) fn match_text(&self, text: &str) -> Option<Match> {
        if self.phrase.is_empty() {
            return None;
        }
        self.match_lower(&lowercase(text))
    }
}

/// The suffixes of §7, in exactly the order the contract gives (not longest first; `ando` twice).
const SUFFIXES: [&str; 47] = [
    "azioni", "azione", "amento", "amenti", "endo", "ando", "arono", "erono", "irono", "iamo",
    "iate", "ando", "ata", "ate", "ati", "ato", "uta", "ute", "uti", "uto", "ita", "ite", "iti",
    "ito", "are", "ere", "ire", "arsi", "ersi", "irsi", "eremo", "eranno", "erebbe", "ization",
    "isation", "ations", "ation", "ings", "ing", "edly", "ed", "es", "s", "i", "e", "o", "a",
];

/// The inflection stem of a query term (contract 03 §7, where it is called `fold(term)`): the
/// stem that a hit must start with, or `None` when no suffix applies. Accent folding
/// is `relevance::fold_accents`.
pub(crate) fn inflection_stem(term: &str) -> Option<String> {
    let term = term.to_lowercase();
    let units = utf16_len(&term);
    if units < 5 || !term.chars().all(is_letter) {
        return None;
    }
    let suffix = SUFFIXES
        .iter()
        .find(|suffix| term.ends_with(*suffix) && units - suffix.len() >= 4)?;
    let mut stem = term[..term.len() - suffix.len()].to_owned();
    let stem_units = units - suffix.len();
    if stem_units > 4 {
        let mut tail = stem.chars().rev();
        if let (Some(last), Some(before)) = (tail.next(), tail.next()) {
            // Two equal UTF-16 units at the end: only possible for two equal BMP characters,
            // since a low surrogate never equals the unit before it in a valid pair.
            if last == before && (last as u32) < 0x1_0000 {
                stem.pop();
            }
        }
    }
    Some(stem)
}

/// The Unicode default full lowercase (with Final_Sigma), with an ASCII fast path.
pub(crate) fn lowercase(text: &str) -> String {
    if text.is_ascii() {
        text.to_ascii_lowercase()
    } else {
        text.to_lowercase()
    }
}

/// Lowercases `text` into `buffer`, reusing its allocation: [`lowercase`], character by
/// character, with characters of caseless blocks copied without a table lookup.
pub(crate) fn lowercase_into(text: &str, buffer: &mut String) {
    buffer.clear();
    if text.is_ascii() {
        buffer.push_str(text);
        buffer.make_ascii_lowercase();
    } else if text.contains('Σ') {
        // Only capital sigma lowercases by its context (Final_Sigma): the whole text's rule.
        buffer.push_str(&text.to_lowercase());
    } else {
        // Runs of characters that lowercase to themselves are copied whole.
        buffer.reserve(text.len());
        let bytes = text.as_bytes();
        let mut run = 0;
        let mut at = 0;
        while at < bytes.len() {
            let byte = bytes[at];
            if byte.is_ascii() {
                if byte.is_ascii_uppercase() {
                    buffer.push_str(&text[run..at]);
                    buffer.push(char::from(byte.to_ascii_lowercase()));
                    run = at + 1;
                }
                at += 1;
                continue;
            }
            let c = text[at..].chars().next().unwrap_or('\0');
            let width = c.len_utf8();
            if !is_caseless(c) {
                let lower = c.to_lowercase();
                if lower.len() != 1 || lower.clone().next() != Some(c) {
                    buffer.push_str(&text[run..at]);
                    buffer.extend(lower);
                    run = at + width;
                }
            }
            at += width;
        }
        buffer.push_str(&text[run..]);
    }
}

fn count_non_overlapping(finder: &Finder<'_>, haystack: &[u8], cap: u32) -> u32 {
    let needle_len = finder.needle().len().max(1);
    let mut count = 0;
    let mut from = 0;
    while count < cap {
        match finder.find(&haystack[from..]) {
            Some(found) => {
                count += 1;
                from += found + needle_len;
            }
            None => break,
        }
    }
    count
}

#[cfg(test)]
mod oracle;

#[cfg(test)]
mod tests {
    use super::oracle::OracleQuery;
    use super::*;
    use proptest::prelude::*;

    fn kind_score(query: &str, text: &str) -> Option<(&'static str, u32)> {
        Query::new(query)
            .match_text(text)
            .map(|found| (found.kind.as_str(), found.score))
    }

    #[test]
    fn normalisation_trims_lowercases_and_collapses() {
        let query = Query::new("\u{3000} Alpha\t\n  BETA \u{feff}");
        assert_eq!(query.phrase, "alpha beta");
        let terms = query.term_texts();
        assert_eq!(terms, ["alpha", "beta"]);
        assert_eq!(
            query_terms("\u{3000} Alpha\t\n  BETA \u{feff}"),
            ["alpha", "beta"]
        );
        // U+0085 is not JS whitespace: it stays inside the term.
        assert_eq!(Query::new("a\u{85}b").terms.len(), 1);
    }

    #[test]
    fn duplicates_are_kept_and_quotes_are_characters() {
        let query = Query::new("alpha alpha");
        assert_eq!(query.terms.len(), 2);
        let query = Query::new("\"launch c++ EPIPE-4712");
        let terms = query.term_texts();
        assert_eq!(terms, ["\"launch", "c++", "epipe-4712"]);
    }

    #[test]
    fn empty_phrase_matches_nothing() {
        assert_eq!(kind_score("", "anything"), None);
        assert_eq!(kind_score(" \t ", "  "), None);
    }

    #[test]
    fn phrase_scores_count_non_overlapping_occurrences() {
        assert_eq!(kind_score("ab", "xx ab"), Some(("phrase", 10)));
        assert_eq!(kind_score("aa", "aaaa"), Some(("phrase", 11)));
        assert_eq!(kind_score("aa", "aaa"), Some(("phrase", 10)));
        assert_eq!(kind_score("x", &"x".repeat(40)), Some(("phrase", 15)));
        assert_eq!(kind_score("Hello", "HELLO"), Some(("phrase", 10)));
    }

    #[test]
    fn whitespace_in_haystack_is_not_normalised() {
        assert_eq!(kind_score("alpha beta", "alpha  beta"), Some(("terms", 5)));
        assert_eq!(kind_score("alpha beta", "alpha\nbeta"), Some(("terms", 5)));
    }

    #[test]
    fn terms_and_partial_scores() {
        assert_eq!(
            kind_score("alpha beta", "beta alpha x beta y alpha"),
            Some(("terms", 7))
        );
        assert_eq!(
            kind_score("alpha beta", &"alpha beta ".repeat(9).replace(' ', "  ")),
            Some(("terms", 10))
        );
        assert_eq!(
            kind_score("alpha beta gamma", "gamma alpha"),
            Some(("partial", 2))
        );
        // Duplicated terms count again.
        assert_eq!(
            kind_score("alpha alpha beta", "alpha"),
            Some(("partial", 2))
        );
        assert_eq!(
            kind_score("alpha alpha", "alpha x alpha"),
            Some(("terms", 7))
        );
    }

    #[test]
    fn inflection_stem_examples_from_the_spec() {
        assert_eq!(inflection_stem("meetings").as_deref(), Some("meet"));
        assert_eq!(inflection_stem("fatture").as_deref(), Some("fattur"));
        assert_eq!(inflection_stem("preventivi").as_deref(), Some("preventiv"));
        assert_eq!(inflection_stem("programmare").as_deref(), Some("program"));
        assert_eq!(inflection_stem("emessa").as_deref(), Some("emes"));
        assert_eq!(inflection_stem("running").as_deref(), Some("runn"));
        for none in [
            "case",
            "sono",
            "the",
            "helicopter",
            "epipe-4712",
            "2026-08-11",
            "",
        ] {
            assert_eq!(inflection_stem(none), None, "{none}");
        }
    }

    #[test]
    fn inflection_stem_skips_suffixes_that_leave_a_short_stem() {
        // `ings` would leave `th`; `s` leaves `thing` (5 units) with no doubled ending.
        assert_eq!(inflection_stem("things").as_deref(), Some("thing"));
        // `ata` is listed before `a`: `parlata` → `parl`.
        assert_eq!(inflection_stem("parlata").as_deref(), Some("parl"));
    }

    #[test]
    fn inflection_hits_need_a_word_start() {
        assert_eq!(
            kind_score("programmare", "programma di lavoro"),
            Some(("inflected", 1))
        );
        assert_eq!(kind_score("programmare", "subprogramme"), None);
        assert_eq!(kind_score("case", "La casa"), None);
        assert_eq!(
            kind_score("meetings", "(meet) later"),
            Some(("inflected", 1))
        );
        assert_eq!(kind_score("meetings", "2meet"), None);
        assert_eq!(
            kind_score("meetings fatture", "meeting fattura"),
            Some(("inflected", 2))
        );
        // One literal term makes it partial, never inflected.
        assert_eq!(
            kind_score("meetings fattura", "meeting fattura"),
            Some(("partial", 1))
        );
    }

    #[test]
    fn unicode_queries_match() {
        assert_eq!(kind_score("東京", "会議は東京で"), Some(("phrase", 10)));
        assert_eq!(kind_score("CAFÉ", "un café"), Some(("phrase", 10)));
        assert_eq!(kind_score("🎉", "party 🎉🎉"), Some(("phrase", 11)));
        assert_eq!(
            kind_score("İstanbul", "i\u{307}stanbul"),
            Some(("phrase", 10))
        );
    }

    proptest! {
        #[test]
        fn never_panics_and_is_consistent(query in "\\PC{0,12}", text in "\\PC{0,60}") {
            let parsed = Query::new(&query);
            let found = parsed.match_text(&text);
            if let Some(found) = found {
                prop_assert!(!parsed.phrase.is_empty());
                if parsed.terms.len() == 1 {
                    prop_assert!(matches!(found.kind, MatchKind::Phrase | MatchKind::Inflected));
                }
            }
        }

        #[test]
        fn a_text_containing_the_phrase_matches_as_phrase(
            words in proptest::collection::vec("[a-zA-Zé東]{1,6}", 1..4),
            before in "\\PC{0,10}",
            after in "\\PC{0,10}",
        ) {
            let query = words.join(" ");
            let text = format!("{before}{query}{after}");
            let found = Query::new(&query).match_text(&text).unwrap();
            prop_assert_eq!(found.kind, MatchKind::Phrase);
        }
        /// Linear matching agrees with the term-by-term oracle on kind, score, presence,
        /// token hits and first lines, over small alphabets that make terms overlap and repeat.
        #[test]
        fn linear_matching_agrees_with_the_oracle(
            words in proptest::collection::vec(
                proptest::sample::select(&WORDS[..]),
                0..9,
            ),
            text in "(a|b|aa|ab| |\\n|-|_|x|é|meet|meeting|ing|fattura|fatture|2|\\.)*",
        ) {
            let raw = words.join(" ");
            assert_same(&raw, &text);
        }

        /// The lowercase of the search's file pass is the standard one, on any text.
        #[test]
        fn lowercase_into_is_the_standard_lowercase(
            text in "(\\PC|Σ|[Σσς]{1,3}|[a-zA-Z]{1,5}|[東京ーオフィス]{1,4}|[🎉🚀]|İ| ){0,40}",
        ) {
            let mut buffer = String::from("stale");
            lowercase_into(&text, &mut buffer);
            prop_assert_eq!(buffer, text.to_lowercase());
        }

        #[test]
        fn linear_matching_agrees_with_the_oracle_on_any_text(
            query in "\\PC{0,16}",
            text in "\\PC{0,80}",
        ) {
            assert_same(&query, &text);
        }
    }

    #[test]
    fn byte_sets_cover_exactly_their_bytes() {
        let text = ByteSet::of("meet é\n".as_bytes());
        assert!(text.covers(&ByteSet::of(b"teem")));
        assert!(text.covers(&ByteSet::of("é".as_bytes())));
        assert!(text.covers(&ByteSet::of(b"")));
        assert!(!text.covers(&ByteSet::of(b"meat")));
        assert!(!text.covers(&ByteSet::of(&[0xff])));
        assert!(!ByteSet::of(b"").covers(&ByteSet::of(b"\0")));
        // A profile that rules a needle out turns a would-be match into no scan at all, so it
        // must be the haystack's own: a stale one changes the answer.
        let query = Query::new("quay wall");
        let lower = "the quay";
        let found = query.match_and_presence(lower);
        assert_eq!(found.0.map(|found| found.kind), Some(MatchKind::Partial));
        assert_eq!(
            query.match_and_presence_in(lower, Some(&ByteSet::of(lower.as_bytes()))),
            found
        );
        let stale = ByteSet::of(b"the");
        assert_eq!(query.match_and_presence_in(lower, Some(&stale)).0, None);
    }

    /// Query words that overlap, repeat, have inflection stems and form tokens.
    const WORDS: [&str; 14] = [
        "a", "aa", "ab", "b", "ba", "aab", "ing", "meet", "meetings", "fatture", "é", "-", "x_",
        "aa-b",
    ];

    fn assert_same(raw: &str, text: &str) {
        let query = Query::new(raw);
        let terms = query.term_texts();
        let oracle = OracleQuery::new(&query.phrase, &terms);
        let lower = lowercase(text);
        let (found, presence) = query.match_and_presence(&lower);
        // The cached profile of the haystack only skips needles it rules out.
        let profile = ByteSet::of(lower.as_bytes());
        assert_eq!(
            query.match_and_presence_in(&lower, Some(&profile)),
            (found, presence.clone()),
            "{raw:?} in {text:?} with its profile"
        );
        let expected = oracle.match_lower(&lower);
        assert_eq!(
            found.map(|found| (found.kind, found.score)),
            expected,
            "{raw:?} in {text:?}"
        );
        if matches!(
            expected,
            Some((MatchKind::Terms | MatchKind::Partial | MatchKind::Phrase, _))
        ) {
            assert_eq!(presence, oracle.present(&lower), "{raw:?} in {text:?}");
        } else {
            assert!(
                presence.iter().all(|present| !present),
                "{raw:?} in {text:?}"
            );
        }
    }

    #[test]
    fn saturated_terms_are_dropped_without_changing_counts() {
        // Thirty overlapping terms over one long run: most saturate at once and are rebuilt
        // away; `b` never occurs and `a…a` (31) only at the very end.
        let mut words: Vec<String> = (1..=30).map(|len| "a".repeat(len)).collect();
        words.push("b".to_owned());
        let raw = words.join(" ");
        for text in [
            "a".repeat(20_000),
            format!("{}b", "a".repeat(20_000)),
            format!("b {}", "ab".repeat(5_000)),
        ] {
            assert_same(&raw, &text);
        }
        assert_same(&"a ".repeat(250), &"a".repeat(10_000));
        // A long term whose only occurrence straddles the point where the automaton is
        // rebuilt (after 256 wasted reports of the saturated `a`).
        let long = format!("{}b", "a".repeat(300));
        let query = Query::new(&format!("a {long}"));
        let text = format!("{}b", "a".repeat(400));
        assert_eq!(
            query.match_lower(&text).map(|found| found.kind),
            Some(MatchKind::Terms)
        );
        assert_same(&format!("a {long}"), &text);
    }

    #[test]
    fn inflection_walks_start_at_word_starts_only() {
        for (raw, text) in [
            ("meetings fatture", "xmeet fattura meet"),
            ("meetings fatture", "xmeet fattura"),
            ("meetings meetings", "é-meet"),
            ("programmare", "subprogramma"),
            ("programmare", "sub programma"),
        ] {
            assert_same(raw, text);
        }
    }
}
