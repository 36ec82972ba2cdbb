//! The per-token collector that the token cache replaced, kept only as a test oracle: every
//! token is matched against every term afresh ([`AnalysedQuery::match_token`], no cache, no
//! two-byte rejection), joined terms compare part strings, and every hit walks the whole
//! query sequence. It defines what [`Collector::piece`] must compute (contract 03 §6.1, §9.1);
//! it never runs outside tests.

use super::*;

/// Features and per-piece facts of one document fed as `pieces`, computed the plain way.
pub(super) fn collect(
    model: &AnalysedQuery,
    pieces: &[(&str, Field)],
    length: usize,
) -> (Vec<LineFacts>, Features) {
    let mut features = Features {
        tf: vec![[0.0; FIELDS]; model.terms.len()],
        ..Features::default()
    };
    features.length = length as u64;
    let mut position = 0_u32;
    let mut last_seen: Vec<Option<u32>> = vec![None; model.terms.len()];
    let mut title_terms = 0_u64;
    let mut all_facts = Vec::new();
    for &(folded, field) in pieces {
        let piece_start = position;
        let mut facts = LineFacts::default();
        let mut piece_chain: Vec<Option<u32>> = vec![None; model.sequence.len()];
        let mut progress = vec![0_usize; model.terms.len()];
        let mut hits: Vec<(usize, Quality)> = Vec::new();
        for_each_token(folded, |_, token| {
            let here = position;
            position += 1;
            hits.clear();
            model.match_token(token, |term, quality| hits.push((term, quality)));
            for (term, query_term) in model.terms.iter().enumerate() {
                let parts = &query_term.parts;
                if parts.is_empty() {
                    continue;
                }
                progress[term] = if parts[progress[term]] == token {
                    progress[term] + 1
                } else {
                    usize::from(parts[0] == token)
                };
                if progress[term] == parts.len() {
                    hits.push((term, Quality::Exact));
                    progress[term] = 0;
                }
            }
            for &(term, quality) in &hits {
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
                    title_terms |= bit;
                }
                last_seen[term] = Some(here);
                for (step, &wanted) in model.sequence.iter().enumerate() {
                    if wanted != term {
                        continue;
                    }
                    let linked = step == 0
                        || piece_chain[step - 1].is_some_and(|end| here > end && here - end <= 2);
                    if linked {
                        piece_chain[step] = Some(here);
                    }
                }
            }
            if model.sequence.len() >= 2 && piece_chain.last().copied().flatten() == Some(here) {
                facts.phrase = true;
                features.phrase = true;
            }
            if !hits.is_empty() && last_seen.iter().all(Option::is_some) {
                let first = last_seen.iter().flatten().min().copied().unwrap_or(here);
                let span = here - first + 1;
                if features.span.is_none_or(|best| span < best) {
                    features.span = Some(span);
                }
            }
        });
        if field == Field::Title {
            features.title_length += position - piece_start;
        }
        let query = all_bits(model.query_terms);
        facts.terms &= query;
        facts.exact &= query;
        all_facts.push(facts);
    }
    let all = all_bits(model.query_terms);
    features.title_covers = model.query_terms > 0 && title_terms & all == all;
    (all_facts, features)
}
