//! The lexical relevance model of contract 03 §9: how query and document text are normalised
//! for matching (§5.1), which document tokens a query term matches (§6.1), the per-document
//! features one tokenisation pass collects, the request-wide statistics, and the one BM25F
//! score that orders Markdown files, memory entries and sessions on a single scale (§9.1),
//! which reports its parts to a trace as it adds them (`explain.rs`, §9.5), so an explanation
//! and the ranking can never compute two different scores.
//!
//! Matching never changes what is displayed: the normalised forms live only inside this
//! module. Pure and bounded: one pass per haystack, work linear in its length and in the number
//! of distinct query terms (at most [`MAX_TERMS`]), no I/O, no clock (the age is an input).

use std::borrow::Cow;

use std::iter::Peekable;

use aho_corasick::{AhoCorasick, MatchKind, packed};

pub(crate) mod explain;
mod fold;
mod joined;
mod lower;
mod short;
mod split;
mod stem;
mod stop_words;
mod token_cache;

use explain::{Bonus, Explanation, Lengths, TermPart, Trace};
pub(crate) use fold::fold_accents;
pub(crate) use lower::{lowercase, lowercase_into};
pub(crate) use split::for_each_token;
use split::{count_tokens, for_each_stretch, is_ideographic_token, is_needle};
use stem::Stemmers;
pub(crate) use stop_words::is_stop_word;
use token_cache::{Starts, TokenAnalysis, TokenCache};

/// At most this many distinct terms of a query take part in relevance (a 500-code-point query
/// could hold 250); later ones are ignored, which keeps per-token work bounded.
pub(crate) const MAX_TERMS: usize = 32;

// A token's analysis keeps one bit per term in a `u32` (`token_cache.rs`).
const _: () = assert!(MAX_TERMS <= 32);

/// The document fields of §9.1, in the order of [`Bm25fParams::field_weights`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Field {
    Title = 0,
    Heading = 1,
    Path = 2,
    Description = 3,
    Body = 4,
}

const FIELDS: usize = 5;

impl Field {
    /// The field of a memory entry's flattened leaf (§9.1): `summary` is its description, a
    /// `title` or `name` its title, the items of a top-level `tags` array its headings (labels
    /// the author chose for what the entry is about, as a heading names what a section is
    /// about), every other value body.
    pub(crate) fn of_entry_key(name: &str) -> Field {
        match name {
            "summary" => Field::Description,
            "title" | "name" => Field::Title,
            _ if is_tag_item(name) => Field::Heading,
            _ => Field::Body,
        }
    }
}

/// `tags[<digits>]`: one item of a top-level `tags` array.
fn is_tag_item(name: &str) -> bool {
    name.strip_prefix("tags[")
        .and_then(|rest| rest.strip_suffix(']'))
        .is_some_and(|index| !index.is_empty() && index.bytes().all(|b| b.is_ascii_digit()))
}

/// Every constant of the BM25F score of contract 03 §9.1–§9.3, named, with why it has its value
/// and what it is measured to do. One home: the score reads them from [`PARAMS`] and nowhere
/// else.
///
/// "Measured" is one ablation row each of docs/benchmark.md ("Ranking parameters"): the quality
/// folder (`dotaios-bench quality --seed 22 --anchor 2026-12-02`), `search_aios` at its
/// defaults, with that one constant changed; today's values give nDCG@10 0.8674, MRR@10 0.9952,
/// R@10 0.7809 (BM25 + Snowball 0.8550 / 0.9794 / 0.7789 in the same runs).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bm25fParams {
    /// Term-frequency saturation: the Lucene/Okapi default, under which the fifth occurrence of
    /// a term adds little. Measured: 2.0 gives nDCG@10 0.8671 (MRR 0.9929), 0.8 gives 0.8654.
    pub(crate) k1: f64,
    /// Length-normalisation strength per field, in [`Field`] order. Body: the Okapi default
    /// 0.75, so a long note's body occurrence weighs less than a short note's (length against
    /// its class's average, §9.2); measured: 0 gives nDCG@10 0.8560, MRR 0.9881. Title: 0.5,
    /// against the average title length in tokens of the class's matched documents (§9.1), so
    /// a long title full of query words does not outweigh the note that answers (issue 36
    /// cause 4, seen on a public collection); measured here: 0 → 0.86736, 0.25 → 0.86735,
    /// 0.5 → 0.86736, 0.75 → 0.86727, 1.0 → 0.8670: the largest value that does not regress.
    /// Headings, paths and descriptions are short and are not length-normalised (0).
    pub(crate) b: [f64; FIELDS],
    /// How much one occurrence in each field weighs against one in the body, in [`Field`]
    /// order (title, heading, path, description, body): the words an author chose to name a
    /// note outweigh a passing mention. Measured, each set to 1: title 0.8680 (R@10 0.7829;
    /// its cover bonus below already rewards a title), heading 0.8567, path 0.8673,
    /// description 0.8604; all four at 1: 0.8464.
    pub(crate) field_weights: [f64; FIELDS],
    /// Added, times the query terms' summed idf, when the terms occur in order next to each
    /// other (one gap allowed): a phrase match is stronger evidence than scattered terms.
    /// Measured: 0 gives nDCG@10 0.8687 (11 queries change; phrase-shaped queries lose,
    /// `rotating api keys` 1.000 → 0.988, others gain).
    pub(crate) phrase_bonus: f64,
    /// Added, times the summed idf, when every term occurs within a window of fewer than
    /// `proximity_span × terms` tokens but not as a phrase. Measured: 0 gives 0.8671.
    pub(crate) proximity_bonus: f64,
    /// The window of the proximity bonus, in tokens per query term. Measured: 2 gives 0.8676.
    pub(crate) proximity_span: usize,
    /// Added, times the summed idf, when the title holds every query term exactly or by stem.
    /// Measured: 0 gives nDCG@10 0.8629 (29 queries change, `pod eviction` 1.000 → 0.979).
    pub(crate) title_cover_bonus: f64,
    /// The recency prior (§9.3): at most this fraction more for a document of today, so it
    /// only reorders near-equal matches. Measured: 0 gives nDCG@10 0.8693 but MRR@10 0.9917
    /// (a first answer drops): the gold labels of the quality folder do not prefer new notes.
    pub(crate) recency_boost: f64,
    /// The recency prior's half-life, in days. Measured: 30 gives nDCG@10 0.8673.
    pub(crate) recency_half_life_days: f64,
}

/// The one parameter set of the score (contract 03 §9.1–§9.3).
pub(crate) const PARAMS: Bm25fParams = Bm25fParams {
    k1: 1.2,
    b: [0.5, 0.0, 0.0, 0.0, 0.75],
    field_weights: [3.0, 1.5, 2.0, 2.0, 1.0],
    phrase_bonus: 0.6,
    proximity_bonus: 0.3,
    proximity_span: 3,
    title_cover_bonus: 0.5,
    recency_boost: 0.08,
    recency_half_life_days: 60.0,
};

/// The kinds of document whose lengths are averaged apart for length normalisation (§9.2):
/// a memory entry of a few words and a note of pages are not held to one average.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DocClass {
    /// A Markdown file (a note, a context file, a skill, a project file).
    Markdown = 0,
    /// One JSONL memory entry (an event or a signal).
    MemoryEntry = 1,
    /// One saved session (its index entry and body).
    Session = 2,
}

/// How many [`DocClass`]es there are.
const CLASSES: usize = 3;

/// How a document token matched a query term (§6.1), with its weight in the term frequency.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Quality {
    /// The token starts with the term but is a longer word: counts as body, never in a title or
    /// heading (§6.1 rule 4).
    Prefix,
    /// Same Snowball stem (English or Italian) after folding.
    Stem,
    /// The same folded token.
    Exact,
}

impl Quality {
    fn weight(self) -> f64 {
        match self {
            Quality::Exact => 1.0,
            Quality::Stem => 0.85,
            Quality::Prefix => 0.4,
        }
    }
}

/// One distinct query term after normalisation.
#[derive(Debug)]
struct QueryTerm {
    text: String,
    /// Short terms (one or two characters) match whole tokens only (`short.rs`, §6.1).
    short: bool,
    /// What the term weighs in the score: 1 for a query term, [`joined::PART_WEIGHT`] for a
    /// part term of a joined word (§5.1).
    weight: f64,
    /// For a part term, bit `j` for each joined query term `j` it is a part of: a document
    /// that holds one of them earns the word whole, not through this part (`joined.rs`).
    owners: u64,
    english: String,
    italian: String,
    /// Every token whose stem can equal one of the term's stems starts with this.
    gate: String,
    /// For a query word that joins several tokens (`EPIPE-4712`, `会議`), its tokens: such a
    /// term matches only where they occur exactly and consecutively (§5.1).
    parts: Vec<String>,
}

/// The query side of the model: distinct normalised terms, their order for phrase detection,
/// and the automaton that rules a document out in one scan.
#[derive(Debug)]
pub(crate) struct AnalysedQuery {
    /// The query terms, then the part terms of its joined words (§5.1).
    terms: Vec<QueryTerm>,
    /// How many of `terms` are query terms; the rest are part terms.
    query_terms: usize,
    /// The query's terms in order (distinct indices, consecutive repeats collapsed).
    sequence: Vec<usize>,
    /// The gates of the query terms, to rule out a document without tokenising it.
    gates: Option<AhoCorasick>,
    /// Every text a token that matches a term or is a part starts with (each single-token
    /// term's text and gate, each part), to find the few stretches of a document worth
    /// tokenising ([`LineNeedles`]); `None` when some needle could hold a separator, and every
    /// token is then tokenised.
    needles: Option<Needles>,
    stemmers: Stemmers,
    /// Tokens of more characters than this are not stemmed: see [`STEM_MARGIN`].
    stem_reach: usize,
    /// The first two bytes a token can start with and still match a term or be a joined
    /// term's part (`token_cache::Starts`).
    starts: Starts,
    /// The distinct parts of all joined terms; a token is at most one of them.
    parts: Vec<String>,
    /// Per term, its parts as indices into `parts` (empty for a single-token term).
    part_ids: Vec<Vec<u32>>,
    /// The joined terms, in term order.
    joined: Vec<usize>,
    /// Per term, the steps of `sequence` that are that term, in order.
    steps: Vec<Vec<usize>>,
}

/// How many characters longer than every term a token may be and still stem to one of the
/// terms' stems, with room to spare: a Snowball English or Italian stem keeps all of its word
/// but suffixes of a few dozen characters at most (and adds at most one), so a longer token
/// cannot match by stem, and stemming it (a 4 MiB run of one letter is one token) is work with
/// no possible result.
const STEM_MARGIN: usize = 256;

/// Match facts of one piece of text (a line, a field value): which terms it holds and how.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct LineFacts {
    /// Bit `i`: term `i` matched somewhere in the piece.
    pub(crate) terms: u64,
    /// Bit `i`: term `i` matched as the exact token.
    pub(crate) exact: u64,
    /// The query's terms occur in order, next to each other (one gap allowed).
    pub(crate) phrase: bool,
}

/// The wire kind of a piece of text (§8.2): `phrase` when the terms occur in order together,
/// `terms` when all occur, `partial` when some do, `inflected` when every hit is a stem or
/// prefix match; `None` when no term matched.
pub(crate) fn kind_of(
    facts: &LineFacts,
    term_count: usize,
) -> Option<crate::search::hit::MatchKind> {
    use crate::search::hit::MatchKind;
    if facts.terms == 0 {
        return None;
    }
    if facts.exact == 0 {
        return Some(MatchKind::Inflected);
    }
    let all = all_bits(term_count);
    if facts.phrase || (term_count == 1 && facts.terms & all == all) {
        return Some(MatchKind::Phrase);
    }
    if term_count >= 2 && facts.terms & all == all {
        return Some(MatchKind::Terms);
    }
    Some(MatchKind::Partial)
}

fn all_bits(count: usize) -> u64 {
    if count >= 64 {
        u64::MAX
    } else {
        (1_u64 << count) - 1
    }
}

/// What one document contributes to the request statistics and, when it matched, the features
/// its score is computed from.
#[derive(Debug, Clone, Default)]
pub(crate) struct Features {
    /// Weighted term frequency per distinct term and field (prefix matches counted in the body).
    tf: Vec<[f64; FIELDS]>,
    /// Bytes of the document's text, for length normalisation.
    pub(crate) length: u64,
    /// Tokens of the document's title pieces, for the title's length normalisation.
    title_length: u32,
    /// The terms occur in order, next to each other, somewhere.
    phrase: bool,
    /// The smallest window (in tokens) holding every term, when all occur.
    span: Option<u32>,
    /// Every term matched the title (exactly or by stem).
    title_covers: bool,
}

impl Features {
    /// For each distinct term, whether the document holds it (its document frequency share).
    pub(crate) fn holds(&self, term: usize) -> bool {
        self.tf
            .get(term)
            .is_some_and(|fields| fields.iter().any(|&tf| tf > 0.0))
    }
}

/// Collects [`Features`] over the pieces of one document, in document order.
#[derive(Debug)]
pub(crate) struct Collector<'a> {
    model: &'a AnalysedQuery,
    features: Features,
    position: u32,
    last_seen: Vec<Option<u32>>,
    title_terms: u64,
    /// How many terms `last_seen` holds.
    seen: usize,
    /// Whether some joined term's progress in `scratch` may be non-zero.
    advancing: bool,
    /// The per-piece buffers, kept between pieces: a note of millions of one-character lines
    /// is millions of pieces, and three allocations each were most of its cost.
    scratch: PieceScratch,
    /// Each distinct token's analysis, computed once per document.
    cache: TokenCache,
}

/// What [`Collector::piece`] fills for every piece, sized once per document: a note of
/// millions of one-character lines is millions of pieces.
#[derive(Debug, Default)]
struct PieceScratch {
    /// Per step of the query sequence, the position where the phrase chain reached it; an entry
    /// before the current piece's first position is stale, as if cleared.
    chain: Vec<Option<u32>>,
    /// How many parts of each joined term the tokens just read complete.
    progress: Vec<usize>,
}

impl AnalysedQuery {
    /// Normalises the phrase of §5 (already trimmed, lowercased, whitespace-collapsed).
    pub(crate) fn new(phrase: &str) -> AnalysedQuery {
        let stemmers = Stemmers::new();
        // Each space-separated query word gives one term: its token, or, when it joins several
        // tokens, all of them as one compound term (§5.1).
        let mut words: Vec<Vec<String>> = Vec::new();
        for word in phrase.split(' ') {
            let folded = fold_accents(word);
            let mut tokens: Vec<String> = Vec::new();
            for_each_token(&folded, |_, token| tokens.push(token.to_owned()));
            if tokens.len() >= 3 && tokens.iter().all(|token| is_ideographic_token(token)) {
                // A run of ideographs is a phrase of words written without spaces: each pair
                // of neighbouring characters is a term (§5.1), so a document that holds the
                // run's words apart still matches, and the whole run ranks as a phrase.
                for pair in tokens.windows(2) {
                    words.push(pair.to_vec());
                }
            } else if !tokens.is_empty() {
                words.push(tokens);
            }
        }
        let is_stop = |word: &Vec<String>| word.len() == 1 && is_stop_word(&word[0]);
        // Stop words are ignored unless the query has nothing else (§5.1).
        let content: Vec<Vec<String>> = words
            .iter()
            .filter(|word| !is_stop(word))
            .cloned()
            .collect();
        let kept = if content.is_empty() { words } else { content };
        let mut terms: Vec<QueryTerm> = Vec::new();
        let mut sequence: Vec<usize> = Vec::new();
        for word in kept {
            let text = word.join(" ");
            let index = match terms.iter().position(|term| term.text == text) {
                Some(index) => index,
                None if terms.len() < MAX_TERMS => {
                    terms.push(QueryTerm::new(word, &stemmers));
                    terms.len() - 1
                }
                None => continue,
            };
            if sequence.last() != Some(&index) {
                sequence.push(index);
            }
        }
        // Each joined word's meaningful parts are terms of their own, after every query term
        // and within the same bound (`joined.rs`, §5.1); they take no part in phrases.
        let query_terms = terms.len();
        for joined in 0..query_terms {
            let parts = terms[joined].parts.clone();
            for part in joined::part_terms(&parts) {
                match terms.iter().position(|term| term.text == part) {
                    Some(known) if known >= query_terms => terms[known].owners |= 1 << joined,
                    Some(_) => {}
                    None if terms.len() < MAX_TERMS => {
                        let mut term = QueryTerm::new(vec![part.to_owned()], &stemmers);
                        term.weight = joined::PART_WEIGHT;
                        term.owners = 1 << joined;
                        terms.push(term);
                    }
                    None => {}
                }
            }
        }
        let gates = if terms.is_empty() {
            None
        } else {
            // Query terms only: a document that holds none is no result, whatever parts it
            // holds (§5.1), so it is never tokenised for them.
            AhoCorasick::new(terms[..query_terms].iter().map(|term| term.gate.as_str())).ok()
        };
        let needles = needles_of(&terms);
        let stem_reach = terms
            .iter()
            .map(|term| term.text.chars().count())
            .max()
            .unwrap_or(0)
            + STEM_MARGIN;
        let mut starts = Starts::none();
        let mut parts: Vec<String> = Vec::new();
        let mut part_ids = Vec::with_capacity(terms.len());
        let mut joined = Vec::new();
        for (index, term) in terms.iter().enumerate() {
            let mut ids = Vec::with_capacity(term.parts.len());
            if term.parts.is_empty() {
                // `match_token`: the token is the text, or starts with the gate and with the
                // first byte of the text or the gate.
                starts.allow_equal(&term.text);
                starts.allow_prefix(&term.gate, &term.text);
            } else {
                joined.push(index);
                for part in &term.parts {
                    starts.allow_equal(part);
                    let id = match parts.iter().position(|known| known == part) {
                        Some(id) => id,
                        None => {
                            parts.push(part.clone());
                            parts.len() - 1
                        }
                    };
                    ids.push(u32::try_from(id).unwrap_or(TokenAnalysis::NO_PART - 1));
                }
            }
            part_ids.push(ids);
        }
        let mut steps = vec![Vec::new(); terms.len()];
        for (step, &term) in sequence.iter().enumerate() {
            steps[term].push(step);
        }
        AnalysedQuery {
            terms,
            query_terms,
            sequence,
            gates,
            needles,
            stemmers,
            stem_reach,
            starts,
            parts,
            part_ids,
            joined,
            steps,
        }
    }

    /// `facts` with the part terms' bits cleared: a part term is evidence for its joined word,
    /// never a match of its own (§5.1), so what a piece matched, and whether a document or entry
    /// is a result at all, is decided by the query terms alone.
    fn query_facts(&self, mut facts: LineFacts) -> LineFacts {
        let query = all_bits(self.query_terms);
        facts.terms &= query;
        facts.exact &= query;
        facts
    }

    /// The number of distinct query terms (part terms not counted): what a piece's kind
    /// (§6.1) and a skill's coverage (contract 04 §3) count.
    pub(crate) fn term_count(&self) -> usize {
        self.query_terms
    }

    /// Empty request statistics for this query's terms, part terms included (§9.2).
    pub(crate) fn stats(&self) -> Stats {
        Stats::new(self.terms.len())
    }

    /// The gate of each query term (not the part terms), the texts [`Self::may_match`] looks
    /// for; empty when it rules every document out.
    pub(crate) fn gates(&self) -> impl Iterator<Item = &str> {
        let terms = if self.gates.is_some() {
            &self.terms[..self.query_terms]
        } else {
            &[]
        };
        terms.iter().map(|term| term.gate.as_str())
    }

    /// Whether folded text can hold a match at all: a matching token contains its query
    /// term's gate, and part terms alone are no match (§5.1).
    pub(crate) fn may_match(&self, folded: &str) -> bool {
        self.gates
            .as_ref()
            .is_some_and(|gates| gates.is_match(folded.as_bytes()))
    }

    /// The needles' occurrences in one folded text, for [`Collector::line`] to take line by
    /// line. One scan of the text, as it is consumed.
    pub(crate) fn line_needles<'a>(&'a self, folded: &'a str) -> LineNeedles<'a> {
        LineNeedles {
            found: self.needles.as_ref().map(|needles| needles.find(folded)),
            line_start: 0,
            sampled: 0,
            taken: 0,
        }
    }

    /// A collector for one document.
    pub(crate) fn collector(&self) -> Collector<'_> {
        Collector {
            model: self,
            features: Features {
                tf: vec![[0.0; FIELDS]; self.terms.len()],
                ..Features::default()
            },
            position: 0,
            last_seen: vec![None; self.terms.len()],
            title_terms: 0,
            seen: 0,
            advancing: false,
            scratch: PieceScratch {
                chain: vec![None; self.sequence.len()],
                progress: vec![0; self.terms.len()],
            },
            cache: TokenCache::default(),
        }
    }

    /// What `token` (folded, non-empty) matches: [`AnalysedQuery::match_token`]'s hits and which
    /// joined-term part it is. The one definition the token cache remembers.
    fn analyse_token(&self, token: &str) -> TokenAnalysis {
        let mut analysis = TokenAnalysis::NONE;
        self.match_token(token, |term, quality| {
            let bit = 1_u32 << term;
            match quality {
                Quality::Exact => analysis.exact |= bit,
                Quality::Stem => analysis.stem |= bit,
                Quality::Prefix => analysis.prefix |= bit,
            }
        });
        if let Some(id) = self.parts.iter().position(|part| part == token) {
            analysis.part = u32::try_from(id).unwrap_or(TokenAnalysis::NO_PART - 1);
        }
        analysis
    }

    /// How `token` (folded) matches each term: calls `each(term, quality)` per matching term.
    fn match_token(&self, token: &str, mut each: impl FnMut(usize, Quality)) {
        // Each stem is made when first needed: a token whose English stem is a term's needs no
        // Italian one for that term.
        let mut english: Option<Cow<'_, str>> = None;
        let mut italian: Option<Cow<'_, str>> = None;
        let stemmable = token.len() <= self.stem_reach || token.chars().count() <= self.stem_reach;
        for (index, term) in self.terms.iter().enumerate() {
            if !term.parts.is_empty() {
                continue;
            }
            if token.as_bytes().first() != term.text.as_bytes().first()
                && token.as_bytes().first() != term.gate.as_bytes().first()
            {
                continue;
            }
            if token == term.text {
                each(index, Quality::Exact);
                continue;
            }
            if term.short {
                continue;
            }
            if !token.starts_with(term.gate.as_str()) {
                continue;
            }
            let stemmed = stemmable
                && (*english.get_or_insert_with(|| self.stemmers.english.stem(token))
                    == term.english
                    || *italian.get_or_insert_with(|| self.stemmers.italian.stem(token))
                        == term.italian);
            if stemmed {
                each(index, Quality::Stem);
            } else if term.text.chars().count() >= 4 && token.starts_with(term.text.as_str()) {
                each(index, Quality::Prefix);
            }
        }
    }

    /// The byte offset, in `folded`, of the first token that matches a term or is a part of a
    /// joined term: where a snippet window is centred (§8.2). One scan of `folded`.
    pub(crate) fn first_match(&self, folded: &str) -> Option<usize> {
        let mut found = None;
        for_each_token(folded, |start, token| {
            if found.is_some() {
                return;
            }
            let mut hit = self.parts.iter().any(|part| part == token);
            if !hit {
                self.match_token(token, |_, _| hit = true);
            }
            if hit {
                found = Some(start);
            }
        });
        found
    }

    /// Calls `each(term, weight)` for every term `token` (one folded token of
    /// [`for_each_token`]) matches, with the weight of how it matched (§6.1: exact 1, same stem
    /// 0.85, prefix 0.4) times the term's own (a part term's is lower, §5.1). The one matching
    /// rule skill routing shares with search (contract 04 §2): a skill's words meet an
    /// intent's exactly as a document's meet a query's.
    pub(crate) fn match_weights(&self, token: &str, mut each: impl FnMut(usize, f64)) {
        self.match_token(token, |term, quality| {
            each(term, quality.weight() * self.terms[term].weight)
        });
    }

    /// The match facts of one piece of folded text, without feeding a document.
    pub(crate) fn facts(&self, folded: &str) -> LineFacts {
        let mut collector = self.collector();
        collector.piece(folded, Field::Body)
    }

    /// The score of one document (§9.1) from its features, the request statistics and the
    /// recency prior of its age in milliseconds (`NaN` when unknown).
    pub(crate) fn score(
        &self,
        features: &Features,
        stats: &Stats,
        class: DocClass,
        age_ms: f64,
    ) -> f64 {
        self.score_traced(features, stats, class, age_ms, &mut ())
    }

    /// Every part of [`AnalysedQuery::score`] for one document, which was ranked by `score`
    /// (§9.5): the same computation, recorded.
    pub(crate) fn explain(
        &self,
        features: &Features,
        stats: &Stats,
        class: DocClass,
        age_ms: f64,
        score: f64,
    ) -> Explanation {
        let mut explanation = Explanation::new(class);
        self.score_traced(features, stats, class, age_ms, &mut explanation);
        explanation.score = score;
        explanation
    }

    /// The one score of §9.1, reporting each part to `trace` as it is added.
    fn score_traced(
        &self,
        features: &Features,
        stats: &Stats,
        class: DocClass,
        age_ms: f64,
        trace: &mut impl Trace,
    ) -> f64 {
        let p = PARAMS;
        let lengths = self.lengths(features, stats, class);
        trace.document(&lengths);
        let norms = lengths.norms;
        let mut score = 0.0;
        let mut idf_total = 0.0;
        let mut matched = false;
        // The query terms the document holds: a part term earns nothing where its joined word
        // itself occurs (`joined.rs`).
        let held = features
            .tf
            .iter()
            .take(self.query_terms)
            .enumerate()
            .filter(|(_, fields)| fields.iter().any(|&tf| tf > 0.0))
            .fold(0_u64, |held, (term, _)| held | 1 << term);
        for (term, fields) in features.tf.iter().enumerate() {
            let skipped = self.terms[term].owners & held != 0;
            let idf = stats.idf(term);
            let mut tf = 0.0;
            let mut contribution = 0.0;
            if !skipped {
                // The bonuses below are for the query's own terms; a part term only adds its
                // weighted share of evidence (§5.1).
                if term < self.query_terms {
                    idf_total += idf;
                }
                // A field the term did not match adds nothing; skipping it also keeps a norm of
                // 0 (b = 1 and an empty title) from making the sum NaN.
                for (field, &value) in fields.iter().enumerate() {
                    if value > 0.0 {
                        tf += value * p.field_weights[field] / norms[field];
                    }
                }
                if tf > 0.0 {
                    contribution = self.terms[term].weight * idf * tf * (p.k1 + 1.0) / (tf + p.k1);
                    score += contribution;
                    matched |= term < self.query_terms;
                }
            }
            if tf > 0.0 || skipped {
                trace.term(TermPart {
                    text: &self.terms[term].text,
                    part: term >= self.query_terms,
                    skipped,
                    weight: self.terms[term].weight,
                    idf,
                    df: stats.frequency.get(term).copied().unwrap_or(0),
                    tf: *fields,
                    weights: p.field_weights,
                    norms,
                    combined: tf,
                    saturation: tf * (p.k1 + 1.0) / (tf + p.k1),
                    contribution,
                });
            }
        }
        // Part terms alone are no match (§5.1).
        if !matched || score == 0.0 {
            trace.unmatched();
            return 0.0;
        }
        // Phrase, then proximity, then the title holding every term (§9.1).
        let terms = self.query_terms;
        let mut bonus = |kind: Bonus, factor: f64| {
            let amount = factor * idf_total;
            trace.bonus(kind, factor, idf_total, amount);
            score += amount;
        };
        if terms >= 2 {
            if features.phrase {
                bonus(Bonus::Phrase, p.phrase_bonus);
            } else if let Some(span) = features.span
                && (span as usize) < p.proximity_span * terms
            {
                bonus(Bonus::Proximity, p.proximity_bonus);
            }
        }
        if features.title_covers {
            bonus(Bonus::TitleCover, p.title_cover_bonus);
        }
        let (days, factor) = recency_of(age_ms);
        trace.recency(days, factor);
        score * factor
    }

    /// The lengths of one document and each field's normalisation `1 − b + b × len / avglen`
    /// (§9.1); a field with `b` = 0 is divided by exactly 1.
    fn lengths(&self, features: &Features, stats: &Stats, class: DocClass) -> Lengths {
        let p = PARAMS;
        let body_class = length_class(features.length);
        let body_average = stats.average_length(class);
        let title_average = stats.average_title_length(class);
        let mut norms = [1.0; FIELDS];
        for (field, norm) in norms.iter_mut().enumerate() {
            let b = p.b[field];
            if b == 0.0 {
                continue;
            }
            let ratio = if field == Field::Title as usize {
                features.title_length as f64 / title_average.max(1.0)
            } else {
                body_class / body_average.max(1.0)
            };
            *norm = 1.0 - b + b * ratio;
        }
        Lengths {
            body: features.length,
            body_class,
            body_average,
            title: u64::from(features.title_length),
            title_average,
            norms,
        }
    }
}

/// A document length rounded to its nearest power of two (§9.1): length normalisation tells a
/// short note from a long one, not two notes a few hundred bytes apart.
fn length_class(length: u64) -> f64 {
    if length == 0 {
        return 0.0;
    }
    2f64.powf((length as f64).log2().round())
}

/// The recency prior of §9.3: at most +8 % for today, fading with a 60-day half-life; unknown
/// or future ages get none. Bounded, so it only reorders near-equal matches. Returns the whole
/// days of the age (none when unknown) and the factor.
fn recency_of(age_ms: f64) -> (Option<f64>, f64) {
    if !age_ms.is_finite() {
        return (None, 1.0);
    }
    let days = (age_ms / 86_400_000.0).max(0.0).floor();
    let factor = 1.0 + PARAMS.recency_boost * 2f64.powf(-days / PARAMS.recency_half_life_days);
    (Some(days), factor)
}

/// Needles shorter than this leave every token to be tokenised: one or two bytes (a short
/// term, §6.1) occur in most words of prose, and the stretches around their occurrences, each
/// found by a search of its own, cost more than tokenising the whole text (a query `e` over the
/// 10,000 prose notes: 420 M instructions tokenising everything, 669 M by stretches).
const MIN_NEEDLE_BYTES: usize = 3;

/// Text taken by stretches after which [`Collector::line`] judges how dense the needles are.
/// A note shorter than this is taken by stretches whole.
const DENSE_SAMPLE_BYTES: usize = 16 * 1024;

/// Needles closer than one in this many bytes, on average, make the stretches of a line cover
/// most of it: the search that finds them then costs more than it spares, and the rest of the
/// note is tokenised whole, as [`Collector::piece`] does. Measured on 4 MiB notes (the `prose`
/// rows of `dotaios-bench extra`): emoji prose with a needle every 20 bytes or so cost 24 % more
/// instructions by stretches than whole, CJK prose 7.5 % more.
const DENSE_NEEDLE_SPACING: usize = 64;

/// The needles of [`AnalysedQuery::needles`]: a token matches a single-token term only if it is
/// the term's text or starts with its gate (`match_token`, §6.1), and is a part only if it is
/// that part (§5.1), so a token that starts at no needle's occurrence matches nothing.
/// `None` when a needle is shorter than [`MIN_NEEDLE_BYTES`] or holds an ASCII byte that is no
/// letter or digit: the stretches of [`split::for_each_stretch`] are cut at such bytes, and
/// assume that no needle spans one.
fn needles_of(terms: &[QueryTerm]) -> Option<Needles> {
    let mut needles: Vec<&str> = Vec::new();
    for term in terms {
        let own = [term.text.as_str(), term.gate.as_str()];
        let words: Vec<&str> = if term.parts.is_empty() {
            own.to_vec()
        } else {
            term.parts.iter().map(String::as_str).collect()
        };
        for needle in words {
            if !is_needle(needle) || needle.len() < MIN_NEEDLE_BYTES {
                return None;
            }
            if !needles.contains(&needle) {
                needles.push(needle);
            }
        }
    }
    // Leftmost matches, not every overlapping one, so that the SIMD searcher applies (the
    // automaton's own prefilter, on the first bytes of a few common letters, cost more than
    // the tokenising it saved): an occurrence hidden by an overlapping one starts inside it,
    // and a needle holds no separator, so the stretch tokenised for the first holds the
    // second's token too.
    let packed = packed::Config::new()
        .match_kind(packed::MatchKind::LeftmostLongest)
        .builder()
        .extend(&needles)
        .build();
    if let Some(searcher) = packed {
        return Some(Needles::Packed(searcher));
    }
    AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostLongest)
        .build(&needles)
        .ok()
        .map(Needles::Automaton)
}

/// The searcher of the needles: the SIMD one where the target has it, else the automaton.
#[derive(Debug)]
enum Needles {
    Packed(packed::Searcher),
    Automaton(AhoCorasick),
}

impl Needles {
    /// The starts of the leftmost occurrences in `folded`, in order.
    fn find<'a>(&'a self, folded: &'a str) -> Peekable<Box<dyn Iterator<Item = usize> + 'a>> {
        let starts: Box<dyn Iterator<Item = usize> + 'a> = match self {
            Needles::Packed(searcher) => Box::new(searcher.find_iter(folded).map(|at| at.start())),
            Needles::Automaton(automaton) => {
                Box::new(automaton.find_iter(folded).map(|at| at.start()))
            }
        };
        starts.peekable()
    }
}

/// Where the query's needles occur in one folded text, taken line by line, in order, by
/// [`Collector::line`]: the lines are the text's `'\n'`-separated pieces.
pub(crate) struct LineNeedles<'a> {
    /// The occurrences not yet taken; `None` once lines are tokenised whole (no needle, or
    /// [`LineNeedles::judge`] found them dense).
    found: Option<Peekable<Box<dyn Iterator<Item = usize> + 'a>>>,
    /// The byte offset of the next line in the text.
    line_start: usize,
    /// Bytes of the lines taken by stretches so far, and the occurrences taken in them.
    sampled: usize,
    taken: usize,
}

impl LineNeedles<'_> {
    /// The next occurrence's start before `end`, taken.
    fn next_before(&mut self, end: usize) -> Option<usize> {
        let found = self.found.as_mut()?;
        let at = found.next_if(|&at| at < end);
        self.taken += usize::from(at.is_some());
        at
    }

    /// Counts a line of `bytes` taken by stretches, and stops the search for needles once
    /// [`DENSE_SAMPLE_BYTES`] show them closer than [`DENSE_NEEDLE_SPACING`]: the rest of the
    /// note is tokenised whole. Either way gives the same facts and features, so where the
    /// switch falls changes no answer.
    fn judge(&mut self, bytes: usize) {
        self.sampled += bytes;
        if self.sampled >= DENSE_SAMPLE_BYTES
            && self.taken.saturating_mul(DENSE_NEEDLE_SPACING) > self.sampled
        {
            self.found = None;
        }
    }

    /// Whether lines are still taken by stretches (tests).
    #[cfg(test)]
    pub(crate) fn by_stretches(&self) -> bool {
        self.found.is_some()
    }
}

impl QueryTerm {
    fn new(mut word: Vec<String>, stemmers: &Stemmers) -> QueryTerm {
        if word.len() > 1 {
            return QueryTerm {
                text: word.join(" "),
                short: false,
                weight: 1.0,
                owners: 0,
                english: String::new(),
                italian: String::new(),
                gate: word[0].clone(),
                parts: word,
            };
        }
        let text = word.pop().unwrap_or_default();
        let text = text.as_str();
        let short = short::is_short(text);
        let english = stemmers.english.stem(text).into_owned();
        let italian = stemmers.italian.stem(text).into_owned();
        let gate = if short {
            text.to_owned()
        } else {
            // A stem keeps its word's start except possibly its last character (`happy` →
            // `happi`), so a token with the same stem starts with the stem minus one character.
            let shortest = [text, english.as_str(), italian.as_str()]
                .into_iter()
                .min_by_key(|stem| stem.chars().count())
                .unwrap_or(text);
            let count = shortest.chars().count();
            let keep = count.saturating_sub(1).max(count.min(3));
            shortest.chars().take(keep).collect()
        };
        QueryTerm {
            text: text.to_owned(),
            short,
            weight: 1.0,
            owners: 0,
            english,
            italian,
            gate,
            parts: Vec::new(),
        }
    }
}

impl Collector<'_> {
    /// Feeds one piece of folded text that belongs to `field`, in document order, and returns
    /// its match facts. Pieces are separate for phrase detection only by their positions.
    pub(crate) fn piece(&mut self, folded: &str, field: Field) -> LineFacts {
        let piece_start = self.begin_piece();
        let mut facts = LineFacts::default();
        self.tokens(folded, field, piece_start, &mut facts);
        self.end_piece(field, piece_start, facts)
    }

    /// [`Collector::piece`] for the next line of the text `needles` was made for: only the
    /// stretches around a needle's occurrence are tokenised; in the rest no token can match
    /// or be a part (`needles_of`), so those tokens are only counted, for their positions,
    /// exactly as [`Collector::piece`] passes them over (§9.1). The tests hold the two to the
    /// same facts and features.
    pub(crate) fn line(
        &mut self,
        needles: &mut LineNeedles<'_>,
        folded: &str,
        field: Field,
    ) -> LineFacts {
        let line_start = needles.line_start;
        let line_end = line_start + folded.len();
        needles.line_start = line_end + 1;
        if needles.found.is_none() {
            return self.piece(folded, field);
        }
        let piece_start = self.begin_piece();
        let mut facts = LineFacts::default();
        let marks = || {
            needles
                .next_before(line_end)
                .map(|at| at.saturating_sub(line_start))
        };
        for_each_stretch(folded, marks, |stretch, tokenise| {
            if tokenise {
                self.tokens(stretch, field, piece_start, &mut facts);
            } else {
                self.pass_over(stretch, field);
            }
        });
        needles.judge(folded.len() + 1);
        self.end_piece(field, piece_start, facts)
    }

    /// Starts a piece: chains and joined terms start afresh in every piece. Returns its first
    /// position.
    fn begin_piece(&mut self) -> u32 {
        if std::mem::take(&mut self.advancing) {
            self.reset_joined();
        }
        self.position
    }

    /// Ends a piece that started at `piece_start`, with the facts its tokens gave.
    fn end_piece(&mut self, field: Field, piece_start: u32, facts: LineFacts) -> LineFacts {
        if field == Field::Title {
            self.features.title_length = self
                .features
                .title_length
                .saturating_add(self.position - piece_start);
        }
        self.model.query_facts(facts)
    }

    fn reset_joined(&mut self) {
        for &term in &self.model.joined {
            self.scratch.progress[term] = 0;
        }
    }

    /// Every token of `folded`, part of a piece that started at `piece_start`.
    #[inline(always)]
    fn tokens(&mut self, folded: &str, field: Field, piece_start: u32, facts: &mut LineFacts) {
        for_each_token(folded, |_, token| {
            // Most tokens of prose start no term, gate or part and no joined term is under
            // way: such a token only takes its position (`TokenCache::analyse` would answer
            // no match, and nothing in `token` would change). This stays small enough to be
            // inlined into the tokeniser's loop.
            if !self.advancing && !self.model.starts.may_start(token) {
                self.position += 1;
                return;
            }
            self.token(token, field, piece_start, facts);
        });
    }

    /// Tokens that match nothing and are no part: each takes its position, and the first
    /// ends any joined term under way, as [`Collector::token`] would.
    fn pass_over(&mut self, stretch: &str, field: Field) {
        // Before the document's first hit, no position has been kept: every later one is only
        // compared with a later one (phrase, span) or with its piece's start within the same
        // piece (a title's length, counted always), so leaving these tokens uncounted moves
        // every kept position by the same amount and changes no feature (§9.1).
        if self.seen == 0 && !self.advancing && field != Field::Title {
            return;
        }
        let count = count_tokens(stretch);
        if count == 0 {
            return;
        }
        self.position += u32::try_from(count).unwrap_or(u32::MAX);
        if std::mem::take(&mut self.advancing) {
            self.reset_joined();
        }
    }

    /// One token of a piece that started at position `piece_start`: its analysis, hits, joined
    /// terms' progress, phrase chain and span (§6.1, §9.1), adding to `facts`.
    #[inline(never)]
    fn token(&mut self, token: &str, field: Field, piece_start: u32, facts: &mut LineFacts) {
        // Disjoint borrows of the collector's parts, so that the hit closure below touches
        // each directly.
        let Collector {
            model,
            features,
            position,
            last_seen,
            title_terms,
            seen,
            advancing,
            scratch: PieceScratch { chain, progress },
            cache,
        } = self;
        let model: &AnalysedQuery = model;
        let term_count = model.terms.len();
        let chains = model.sequence.len() >= 2;
        let at = *position;
        *position += 1;
        let analysis = cache.analyse(model, token);
        if analysis.matched() == 0 && analysis.part == TokenAnalysis::NO_PART && !*advancing {
            // Most tokens of prose: no hit, and no joined term to reset; nothing below
            // would change.
            return;
        }
        // What one matched term contributes. Hits of one token are independent of their
        // order: a chain step links only to an earlier position.
        let mut hit = |term: usize, quality: Quality| {
            let bit = 1_u64 << (term % 64);
            facts.terms |= bit;
            if quality == Quality::Exact {
                facts.exact |= bit;
            }
            let target = if quality == Quality::Prefix {
                Field::Body
            } else {
                field
            };
            features.tf[term][target as usize] += quality.weight();
            if field == Field::Title && quality != Quality::Prefix {
                *title_terms |= bit;
            }
            if last_seen[term].replace(at).is_none() {
                *seen += 1;
            }
            for &step in &model.steps[term] {
                let linked = step == 0
                    || chain[step - 1]
                        .is_some_and(|end| end >= piece_start && at > end && at - end <= 2);
                if linked {
                    chain[step] = Some(at);
                }
            }
        };
        let mut any = false;
        // The single-token terms' hits.
        let mut matched = analysis.matched();
        while matched != 0 {
            let term = matched.trailing_zeros() as usize;
            let bit = 1_u32 << term;
            let quality = if analysis.exact & bit != 0 {
                Quality::Exact
            } else if analysis.stem & bit != 0 {
                Quality::Stem
            } else {
                Quality::Prefix
            };
            hit(term, quality);
            any = true;
            matched &= matched - 1;
        }
        // A token that is no part resets every joined term; skip that when all are reset.
        if analysis.part != TokenAnalysis::NO_PART || *advancing {
            *advancing = false;
            for &term in &model.joined {
                let ids = &model.part_ids[term];
                progress[term] = if ids[progress[term]] == analysis.part {
                    progress[term] + 1
                } else {
                    usize::from(ids[0] == analysis.part)
                };
                if progress[term] == ids.len() {
                    hit(term, Quality::Exact);
                    any = true;
                    progress[term] = 0;
                }
                *advancing |= progress[term] != 0;
            }
        }
        if !any {
            return;
        }
        if chains && chain.last().copied().flatten() == Some(at) {
            facts.phrase = true;
            features.phrase = true;
        }
        if *seen == term_count {
            let first = last_seen.iter().flatten().min().copied().unwrap_or(at);
            let span = at - first + 1;
            if features.span.is_none_or(|best| span < best) {
                features.span = Some(span);
            }
        }
    }

    /// Counts the terms a memory entry's label (a `tags` item, §9.1) matched towards the title
    /// cover: an entry has no title line, and its tags are what names its topic.
    pub(crate) fn cover(&mut self, facts: &LineFacts) {
        self.title_terms |= facts.terms;
    }

    /// Adds the bytes of a piece that counts towards the document length.
    pub(crate) fn add_length(&mut self, bytes: usize) {
        self.features.length += bytes as u64;
    }

    /// The document's features.
    pub(crate) fn finish(mut self) -> Features {
        // Every query term; part terms are no match of their own (§5.1).
        let all = all_bits(self.model.query_terms);
        self.features.title_covers = self.model.query_terms > 0 && self.title_terms & all == all;
        self.features
    }
}

/// Request-wide statistics (§9.2): the number of documents, each distinct term's document
/// frequency, and the average length per document class, over every corpus searched, so
/// scores from different scopes are comparable.
#[derive(Debug, Clone)]
pub(crate) struct Stats {
    documents: u64,
    frequency: Vec<u64>,
    lengths: [(u64, u64); CLASSES],
    /// Per class, the matched documents and their summed title lengths in tokens: only a
    /// matched document is tokenised, so only its title length is known.
    titles: [(u64, u64); CLASSES],
}

impl Stats {
    pub(crate) fn new(terms: usize) -> Stats {
        Stats {
            documents: 0,
            frequency: vec![0; terms],
            lengths: [(0, 0); CLASSES],
            titles: [(0, 0); CLASSES],
        }
    }

    /// Counts one document of `class` with `length` bytes; `features` when it matched.
    pub(crate) fn add(&mut self, class: DocClass, length: u64, features: Option<&Features>) {
        self.documents += 1;
        self.lengths[class as usize].0 += 1;
        self.lengths[class as usize].1 += length;
        if let Some(features) = features {
            self.titles[class as usize].0 += 1;
            self.titles[class as usize].1 += u64::from(features.title_length);
            for (term, count) in self.frequency.iter_mut().enumerate() {
                if features.holds(term) {
                    *count += 1;
                }
            }
        }
    }

    fn idf(&self, term: usize) -> f64 {
        let n = self.documents as f64;
        let df = self.frequency.get(term).copied().unwrap_or(0) as f64;
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    }

    fn average_length(&self, class: DocClass) -> f64 {
        average(self.lengths[class as usize])
    }

    fn average_title_length(&self, class: DocClass) -> f64 {
        average(self.titles[class as usize])
    }
}

/// `total / count` of a `(count, total)` pair; 1 when empty.
fn average((count, total): (u64, u64)) -> f64 {
    if count == 0 {
        1.0
    } else {
        total as f64 / count as f64
    }
}

#[cfg(test)]
mod oracle;
#[cfg(test)]
mod tests;

/// The premise of [`STEM_MARGIN`]: both stemmers keep all but a few dozen characters of a long
/// token, however suffix-laden, so a token longer than a term by the margin never stems to it.
#[cfg(test)]
mod stem_margin_tests {
    use super::*;

    #[test]
    fn long_tokens_keep_all_but_a_few_dozen_characters_of_their_stem() {
        let stemmers = Stemmers::new();
        let suffixes = [
            "a",
            "s",
            "ational",
            "izationally",
            "fulnesses",
            "ements",
            "amento",
            "azione",
            "erebbero",
            "gliela",
            "issimamente",
            "y",
            "ing",
            "eedly",
            "'s'",
        ];
        for (index, suffix) in suffixes.iter().enumerate() {
            for repeats in [40, 97, 300] {
                let token = format!("{}{}", suffix.repeat(repeats), suffixes[index / 2]);
                let length = token.chars().count();
                for stem in [stemmers.english.stem(&token), stemmers.italian.stem(&token)] {
                    assert!(
                        stem.chars().count() + 64 >= length,
                        "{token:?} stems to {} characters",
                        stem.chars().count()
                    );
                }
            }
        }
        // Past the reach a token is not stemmed but still matches as a prefix; below it, it
        // matches by stem.
        let model = AnalysedQuery::new("national");
        let long = format!("national{}", "x".repeat(STEM_MARGIN + 1));
        assert!(long.chars().count() > model.stem_reach);
        assert_eq!(model.facts(&long).terms, 1);
        assert_eq!(model.facts(&long).exact, 0);
        assert_eq!(model.facts("nationally").terms, 1);
    }
}
