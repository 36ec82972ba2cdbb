//! One test per normalisation and ranking rule of contract 03 §5.1, §6.1 and §9.1.

use super::*;
use crate::search::hit::MatchKind;
use proptest::prelude::*;

/// Which terms (by bit) the folded form of `text` holds for `query`.
fn terms_in(query: &str, text: &str) -> u64 {
    let model = AnalysedQuery::new(&query.to_lowercase());
    model.facts(&fold_accents(&text.to_lowercase())).terms
}

fn kind(query: &str, text: &str) -> Option<MatchKind> {
    let model = AnalysedQuery::new(&query.to_lowercase());
    kind_of(
        &model.facts(&fold_accents(&text.to_lowercase())),
        model.term_count(),
    )
}

/// Scores documents given as `(title, body)` in one corpus, all the same age.
fn scores(query: &str, documents: &[(&str, &str)]) -> Vec<f64> {
    let model = AnalysedQuery::new(query);
    let mut stats = model.stats();
    let features: Vec<Features> = documents
        .iter()
        .map(|(title, body)| {
            let mut collector = model.collector();
            collector.piece(&fold_accents(&title.to_lowercase()), Field::Title);
            collector.piece(&fold_accents(&body.to_lowercase()), Field::Body);
            collector.add_length(title.len() + body.len());
            let features = collector.finish();
            stats.add(
                DocClass::Markdown,
                (title.len() + body.len()) as u64,
                Some(&features),
            );
            features
        })
        .collect();
    features
        .iter()
        .map(|features| model.score(features, &stats, DocClass::Markdown, f64::NAN))
        .collect()
}

#[test]
fn accents_fold_both_ways() {
    assert_eq!(terms_in("jurgen muller", "Notes from Jürgen Müller"), 0b11);
    assert_eq!(terms_in("Jürgen", "jurgen"), 0b1);
    assert_eq!(terms_in("strasse", "Hauptstraße"), 0);
    assert_eq!(terms_in("strasse", "Straße 5"), 0b1);
    assert_eq!(fold_accents("caffè\nnaïve"), "caffe\nnaive");
}

#[test]
fn snowball_stems_in_english_and_italian() {
    assert_eq!(terms_in("deployments", "we deploy on friday"), 0b1);
    assert_eq!(terms_in("rotate", "key rotation policy"), 0b1);
    assert_eq!(terms_in("fatture", "la fattura di marzo"), 0b1);
    assert_eq!(kind("deployments", "we deploy"), Some(MatchKind::Inflected));
    assert_eq!(terms_in("rotate", "rotten apples"), 0);
}

#[test]
fn stop_words_are_ignored_unless_alone() {
    let model = AnalysedQuery::new("how do i rotate the api keys");
    assert_eq!(model.term_count(), 3);
    // Only stop words: they are the query.
    assert_eq!(AnalysedQuery::new("the of").term_count(), 2);
    assert_eq!(terms_in("remodeling the kitchen", "kitchen remodel"), 0b11);
}

#[test]
fn short_terms_never_match_inside_words() {
    assert_eq!(terms_in("i", "Chickpea curry"), 0);
    // Nor as prefixes (`short.rs`): `ab` is not `about`, `d` is not `data`.
    assert_eq!(terms_in("ab test", "about the rest"), 0);
    assert_eq!(kind("ab", "about"), None);
    assert_eq!(terms_in("vitamin d", "vitamin data"), 0b1);
    assert_eq!(kind("ab", "the ab split"), Some(MatchKind::Phrase));
    assert_eq!(terms_in("ran", "Random notes"), 0);
    // Ideographs are tokens of their own.
    assert_eq!(kind("会議", "今日の会議"), Some(MatchKind::Phrase));
}

#[test]
fn prefix_matches_earn_no_title_weight() {
    let scores = scores(
        "kube",
        &[("Kubernetes cluster", "x"), ("Notes", "kube config")],
    );
    assert!(scores[1] > scores[0], "{scores:?}");
}

#[test]
fn phrase_then_proximity_then_scattered() {
    let filler = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod";
    let near = format!("{filler} api and the key {filler}");
    let phrase = format!("{filler} api key {filler}");
    let far = format!("api {filler} {filler} key");
    let documents = [
        ("a", far.as_str()),
        ("b", near.as_str()),
        ("c", phrase.as_str()),
    ];
    let scores = scores("api key", &documents);
    assert!(scores[2] > scores[1], "{scores:?}");
    assert!(scores[1] > scores[0], "{scores:?}");
    assert_eq!(kind("api key", "the api key"), Some(MatchKind::Phrase));
    assert_eq!(kind("api key", "key of the api"), Some(MatchKind::Terms));
    assert_eq!(kind("api key", "api"), Some(MatchKind::Partial));
}

#[test]
fn exact_title_beats_a_passing_mention() {
    let body = "several paragraphs about other things and one pod eviction mention";
    let scores = scores(
        "pod eviction",
        &[
            ("Car service", body),
            ("Notes on pod eviction", "drain the node first"),
        ],
    );
    assert!(scores[1] > scores[0] * 1.1, "{scores:?}");
}

#[test]
fn recency_is_bounded() {
    assert_eq!(recency_of(f64::NAN).1, 1.0);
    assert!((recency_of(0.0).1 - 1.08).abs() < 1e-12);
    assert!(recency_of(-5.0).1 <= 1.08);
    assert!(recency_of(3650.0 * 86_400_000.0).1 < 1.0001);
}

#[test]
fn a_typo_keeps_the_note_matching_the_other_terms() {
    let scores = scores(
        "kubernets pod eviction",
        &[
            ("Pod eviction", "why pods get evicted"),
            ("Groceries", "milk"),
        ],
    );
    assert!(scores[0] > 0.0 && scores[1] == 0.0, "{scores:?}");
}

#[test]
fn questions_find_the_note() {
    let scores = scores(
        "how do I rotate the api keys",
        &[
            ("Chickpea curry", "how I cook it: the recipe I use"),
            ("API key rotation", "rotate keys every 90 days"),
        ],
    );
    assert!(scores[1] > scores[0], "{scores:?}");
}

#[test]
fn punctuation_and_emoji_queries_match_as_phrases() {
    assert_eq!(kind("🎉", "party 🎉"), Some(MatchKind::Phrase));
    assert_eq!(
        kind("EPIPE-4712", "saw EPIPE-4712 twice"),
        Some(MatchKind::Phrase)
    );
}

#[test]
fn joined_words_match_whole_and_by_their_parts() {
    // A piece matches the joined word only where all its parts occur in a row.
    let query = "controlled-peregrine-benchmark-needle";
    assert_eq!(terms_in(query, "common-benchmark-marker-needle"), 0);
    assert_eq!(
        terms_in(query, "x controlled-peregrine-benchmark-needle y"),
        0b1
    );
    assert_eq!(
        terms_in(query, "controlled peregrine benchmark needle"),
        0b1
    );
    assert_eq!(terms_in("会議", "会 and 議"), 0);
    assert_eq!(
        kind("non-invasive", "a non-invasive test"),
        Some(MatchKind::Phrase)
    );
    // Its parts are terms of their own (`joined.rs`), matched like any term, by stem too…
    let model = AnalysedQuery::new("non-invasive");
    let mut parts = Vec::new();
    for token in ["invasive", "invasiveness", "non", "evasive"] {
        model.match_weights(token, |term, weight| parts.push((token, term, weight)));
    }
    assert_eq!(
        parts,
        [("invasive", 1, 0.5), ("invasiveness", 1, 0.5 * 0.85)]
    );
    // …but never a match of their own: a piece or a document that holds only parts is none.
    assert_eq!(kind("non-invasive", "invasive"), None);
    assert_eq!(scores("non-invasive", &[("a", "an invasive test")]), [0.0]);
}

#[test]
fn a_joined_identifier_ranks_its_exact_form_first() {
    let ranked = scores(
        "il-10 levels",
        &[
            ("a", "il 6 rose while 10 samples showed levels"),
            ("b", "il-10 levels rose"),
            ("c", "nothing here"),
        ],
    );
    assert!(ranked[1] > ranked[0] && ranked[0] > 0.0, "{ranked:?}");
    // A note holding the joined form earns the word whole: another mention of a part adds
    // nothing (the benchmark's controlled identifiers keep their order, contract 07 §2).
    let ranked = scores(
        "il-10",
        &[
            ("a", "il-10 and il"),
            ("b", "il-10 and xx"),
            ("c", "nothing"),
        ],
    );
    assert_eq!(ranked[0], ranked[1], "{ranked:?}");
    // A note that says "invasive" gets credit for `non-invasive` beside the other terms.
    let ranked = scores(
        "non-invasive test",
        &[("a", "an invasive test"), ("b", "the other test")],
    );
    assert!(ranked[0] > ranked[1] && ranked[1] > 0.0, "{ranked:?}");
}

#[test]
fn ideograph_runs_match_as_neighbouring_pairs() {
    // 微信广告 has the terms 微信, 信广, 广告: a note that writes 微信 and 广告 apart matches
    // two of them, and the note holding the whole run ranks as a phrase above it.
    assert_eq!(terms_in("微信广告", "微信上的广告"), 0b101);
    assert_eq!(kind("微信广告", "新的微信广告"), Some(MatchKind::Phrase));
    let scores = scores(
        "微信广告",
        &[
            ("计划", "微信上的广告"),
            ("计划", "我们的微信广告预算"),
            ("天气", "今天下雨"),
        ],
    );
    assert!(scores[1] > scores[0] && scores[0] > 0.0, "{scores:?}");
    // Two ideographs stay one joined term; a mixed word stays joined too.
    assert_eq!(terms_in("会議", "会 and 議"), 0);
    assert_eq!(terms_in("iphone用", "iphone 用"), 0b1);
}

#[test]
fn entry_tags_weigh_as_headings() {
    assert_eq!(Field::of_entry_key("tags[0]"), Field::Heading);
    assert_eq!(Field::of_entry_key("tags[12]"), Field::Heading);
    assert_eq!(Field::of_entry_key("summary"), Field::Description);
    assert_eq!(Field::of_entry_key("name"), Field::Title);
    for body in [
        "tags",
        "tags[]",
        "tags[x]",
        "meta.tags[0]",
        "tags[0].name",
        "type",
    ] {
        assert_eq!(Field::of_entry_key(body), Field::Body, "{body}");
    }
}

/// Title length normalisation (contract 03 §9.1, `Bm25fParams::b`): of two notes of one
/// length that hold the query word once in the title and once in the body, the one whose title
/// says little else ranks first; without it they tie, and a long title full of query words
/// outweighs the note that answers (issue 36).
#[test]
fn a_title_weighs_less_the_longer_it_is() {
    let short_title = "Harbour";
    let long_title = "Harbour tide ferry pier dock quay berth schedule";
    let filler = |count: usize| format!("harbour {}", "x".repeat(count));
    let short_body = filler(10 + long_title.len() - short_title.len());
    let long_body = filler(10);
    let found = scores(
        "harbour",
        &[(short_title, &short_body), (long_title, &long_body)],
    );
    assert!(found[0] > found[1], "{found:?}");
}

#[test]
fn an_entry_tag_naming_the_query_covers_it_like_a_title() {
    // Two memory entries of the same length; only the first carries the query as its tag.
    let model = AnalysedQuery::new("on-call handbook");
    let mut stats = model.stats();
    let entry = |tag: &str, summary: &str| {
        let mut collector = model.collector();
        collector.piece(&fold_accents(summary), Field::Description);
        let facts = collector.piece(&fold_accents(tag), Field::of_entry_key("tags[0]"));
        collector.cover(&facts);
        collector.add_length(tag.len() + summary.len());
        collector.finish()
    };
    let tagged = entry("on-call handbook", "pages are acknowledged in five minutes");
    let mentioned = entry("groceries", "the on-call handbook sits next to the milk");
    for features in [&tagged, &mentioned] {
        stats.add(DocClass::MemoryEntry, 40, Some(features));
    }
    assert!(tagged.title_covers && !mentioned.title_covers);
    let tagged = model.score(&tagged, &stats, DocClass::MemoryEntry, f64::NAN);
    let mentioned = model.score(&mentioned, &stats, DocClass::MemoryEntry, f64::NAN);
    assert!(tagged > mentioned, "{tagged} {mentioned}");
}

/// The cached collector against the plain one of `oracle.rs`: every piece's facts and the
/// document's features (term frequencies to the bit, phrase, span, title cover) must be equal.
/// The same pieces, without line breaks, as the lines of one text fed through
/// [`Collector::line`] (only the stretches around needles tokenised), must be equal too.
fn assert_same_as_oracle(query: &str, pieces: &[(&str, Field)]) {
    let model = AnalysedQuery::new(query);
    let mut collector = model.collector();
    let mut facts = Vec::new();
    let mut length = 0;
    for &(text, field) in pieces {
        facts.push(collector.piece(text, field));
        length += text.len();
    }
    collector.add_length(length);
    assert_features_equal(&model, query, pieces, length, facts, collector.finish());

    let lines: Vec<(String, Field)> = pieces
        .iter()
        .map(|&(text, field)| (text.replace('\n', " "), field))
        .collect();
    let text = lines
        .iter()
        .map(|(line, _)| line.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let lines: Vec<(&str, Field)> = lines
        .iter()
        .map(|(line, field)| (line.as_str(), *field))
        .collect();
    let mut needles = model.line_needles(&text);
    let mut collector = model.collector();
    let facts = lines
        .iter()
        .map(|&(line, field)| collector.line(&mut needles, line, field))
        .collect();
    collector.add_length(length);
    assert_features_equal(&model, query, &lines, length, facts, collector.finish());
}

/// `facts` and `features` of `pieces` are the oracle's.
fn assert_features_equal(
    model: &AnalysedQuery,
    query: &str,
    pieces: &[(&str, Field)],
    length: usize,
    facts: Vec<LineFacts>,
    features: Features,
) {
    let (expected_facts, expected) = oracle::collect(model, pieces, length);
    assert_eq!(facts, expected_facts, "{query:?} over {pieces:?}");
    assert_eq!(features.tf, expected.tf, "{query:?} over {pieces:?}");
    assert_eq!(
        (
            features.length,
            features.phrase,
            features.span,
            features.title_covers,
            features.title_length
        ),
        (
            expected.length,
            expected.phrase,
            expected.span,
            expected.title_covers,
            expected.title_length
        ),
        "{query:?} over {pieces:?}"
    );
}

/// Words that make the query terms hit: inflections, prefixes, joined words, accents, CJK
/// runs, emoji, combining marks and Italian.
const PROSE_WORDS: [&str; 40] = [
    "run",
    "runs",
    "running",
    "runner",
    "connect",
    "connected",
    "connections",
    "nation",
    "nationally",
    "the",
    "a",
    "x",
    "xx",
    "xxx",
    "ab",
    "about",
    "epipe",
    "4712",
    "epipe-4712",
    "café",
    "cafe\u{301}",
    "naïve",
    "straße",
    "会議",
    "会",
    "議",
    "東京オフィス",
    "微信",
    "广告",
    "微信广告",
    "🎉",
    "🚀",
    "✨",
    "🎉🚀✨",
    "fattura",
    "fatture",
    "deploy",
    "deployments",
    "e\u{301}\u{308}",
    "\u{301}",
];

fn prose_text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            4 => prop::sample::select(&PROSE_WORDS[..]).prop_map(str::to_owned),
            1 => "[ \\n.,:#-]{1,3}",
            1 => "\\PC{1,6}",
            1 => "[a-z]{1,12}",
            1 => "[\u{4e00}-\u{4e20}\u{3040}-\u{3050}]{1,6}",
            1 => "[\u{1f300}-\u{1f310}\u{2190}-\u{2195}]{1,4}",
            1 => "[a-e][\u{300}-\u{36f}]{1,3}",
        ],
        0..60,
    )
    .prop_map(|words| words.join(" "))
}

fn prose_query() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::collection::vec(prop::sample::select(&PROSE_WORDS[..]), 1..6)
            .prop_map(|words| words.join(" ")),
        1 => "\\PC{1,12}",
        1 => prop::collection::vec("[a-z]{1,4}", 1..40).prop_map(|words| words.join(" ")),
    ]
}

fn any_field() -> impl Strategy<Value = Field> {
    prop::sample::select(vec![
        Field::Title,
        Field::Heading,
        Field::Path,
        Field::Description,
        Field::Body,
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The token cache, the two-byte rejection and the per-term bookkeeping give exactly the
    /// uncached result on random text, folded as search folds it and raw.
    #[test]
    fn cached_analysis_equals_the_uncached_one(
        query in prose_query(),
        lines in prop::collection::vec((prose_text(), any_field()), 1..6),
        repeat in 1_usize..40,
    ) {
        let query = fold_accents(&query.to_lowercase()).into_owned();
        let folded: Vec<(String, Field)> = lines
            .iter()
            .map(|(text, field)| (fold_accents(&text.to_lowercase()).into_owned(), *field))
            .collect();
        // Repeated so that tokens come back after the warm-up, from the memo.
        let mut pieces: Vec<(&str, Field)> = Vec::new();
        for _ in 0..repeat {
            pieces.extend(folded.iter().map(|(text, field)| (text.as_str(), *field)));
        }
        assert_same_as_oracle(&query, &pieces);
        let raw: Vec<(&str, Field)> = lines.iter().map(|(text, field)| (text.as_str(), *field)).collect();
        assert_same_as_oracle(&query, &raw);
    }

    /// Token by token, the memo answers what the direct analysis answers.
    #[test]
    fn the_memo_answers_as_the_analysis_does(
        query in prose_query(),
        text in prose_text(),
    ) {
        let model = AnalysedQuery::new(&fold_accents(&query.to_lowercase()));
        let folded = fold_accents(&text.to_lowercase()).into_owned();
        let mut cache = token_cache::TokenCache::default();
        for _ in 0..3 {
            for_each_token(&folded, |_, token| {
                assert_eq!(cache.analyse(&model, token), model.analyse_token(token), "{token:?}");
            });
        }
    }
}

/// A document of more distinct matching tokens than the memo holds: the memo stops growing
/// and the rest are analysed directly, with the same result.
#[test]
fn a_full_memo_analyses_the_rest_directly() {
    let words: Vec<String> = (0..6000).map(|index| format!("run{index}")).collect();
    let text = words.join(" ");
    let model = AnalysedQuery::new("run runs 4712");
    let mut cache = token_cache::TokenCache::default();
    for_each_token(&text, |_, token| {
        assert_eq!(cache.analyse(&model, token), model.analyse_token(token));
    });
    assert_eq!(cache.len(), 4096);
    assert_same_as_oracle("run runs 4712", &[(text.as_str(), Field::Body)]);
    // A long token is analysed directly.
    let long = format!("running{}", "g".repeat(100));
    assert_same_as_oracle("running", &[(long.as_str(), Field::Title)]);
}

/// A phrase chain starts afresh in every piece: the terms in order across a line break are
/// not a phrase, though the chain's slots are not cleared between pieces.
#[test]
fn phrases_never_continue_into_the_next_piece() {
    let model = AnalysedQuery::new("run connect");
    let mut collector = model.collector();
    let first = collector.piece("we run", Field::Body);
    let second = collector.piece("connect later", Field::Body);
    assert!(!first.phrase && !second.phrase);
    assert!(!collector.finish().phrase);
    assert_same_as_oracle(
        "run connect",
        &[("we run", Field::Body), ("connect later", Field::Body)],
    );
    assert_same_as_oracle(
        "会議資料",
        &[("今日の会", Field::Body), ("議資料", Field::Body)],
    );
    let joined = model.facts("we run connect");
    assert!(joined.phrase);
}

/// Notes whose needles are dense stop being taken by stretches once a sample shows it, and the
/// switch changes no fact or feature, wherever it falls (before the first hit, after it, in a
/// title); sparse needles keep the stretches to the end.
#[test]
fn dense_needles_switch_to_whole_lines_with_the_same_features() {
    let run = |query: &str, lines: &[(String, Field)]| {
        let pieces: Vec<(&str, Field)> = lines.iter().map(|(l, f)| (l.as_str(), *f)).collect();
        assert_same_as_oracle(query, &pieces);
        let text = lines
            .iter()
            .map(|(line, _)| line.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        let model = AnalysedQuery::new(query);
        let mut needles = model.line_needles(&text);
        let mut collector = model.collector();
        for (line, field) in lines {
            collector.line(&mut needles, line, *field);
        }
        needles.by_stretches()
    };
    // Dense: every other word a needle, with a hit only after the switch in one case.
    let dense: Vec<(String, Field)> = (0..800)
        .map(|index| {
            (
                format!("we run and connect nation {index} later"),
                Field::Body,
            )
        })
        .collect();
    assert!(!run("run connect", &dense));
    let mut late = vec![("national notes runner".to_owned(), Field::Title)];
    late.extend((0..1500).map(|index| (format!("note {index} ran connected"), Field::Body)));
    late.push(("we run connect today".to_owned(), Field::Body));
    assert!(!run("run connect", &late));
    assert!(!run("nation connect", &late));
    // Sparse: one needle in a long stretch of other words.
    let sparse: Vec<(String, Field)> = (0..800)
        .map(|index| {
            let word = if index % 50 == 0 { "connect" } else { "other" };
            (
                format!("{word} words about the weather and {index} things"),
                Field::Body,
            )
        })
        .collect();
    assert!(run("run connect", &sparse));
}

/// Only needles of three bytes or more mark stretches: a short term's occur in most words, and
/// such a query tokenises every token; a needle that could span a separator does the same.
#[test]
fn short_or_separated_needles_tokenise_every_token() {
    assert!(AnalysedQuery::new("next week").needles.is_some());
    assert!(AnalysedQuery::new("会議資料").needles.is_some());
    assert!(AnalysedQuery::new("e").needles.is_none());
    assert!(AnalysedQuery::new("next ab").needles.is_none());
    assert!(split::is_needle("epipe") && !split::is_needle("c++") && !split::is_needle(""));
}
