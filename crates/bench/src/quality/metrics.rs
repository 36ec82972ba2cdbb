//! Ranking metrics of contract 07 §7.5, computed from a ranked list of document ids and a
//! query's graded gold: MRR@10, R@5, R@10, nDCG@10 (gain `2^grade − 1`, discount
//! `log2(rank + 1)`), whether the answer was empty, and the median of latencies.
//!
//! A document counts as relevant when its grade is at least 1. A repeated id counts once, at its
//! first rank. Pure arithmetic: no system, file or clock is touched here.

use std::collections::HashSet;

use super::queries::Query;

/// The scores of one answer to one query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Scores {
    pub(crate) mrr10: f64,
    pub(crate) recall5: f64,
    pub(crate) recall10: f64,
    pub(crate) ndcg10: f64,
    pub(crate) zero: bool,
}

/// The grades of `ranked` (first occurrence of each id) in order.
fn grades(query: &Query, ranked: &[String]) -> Vec<u8> {
    let mut seen = HashSet::new();
    ranked
        .iter()
        .filter(|id| seen.insert(id.as_str()))
        .map(|id| query.grade(id))
        .collect()
}

pub(crate) fn score(query: &Query, ranked: &[String]) -> Scores {
    let grades = grades(query, ranked);
    let relevant = query.gold.iter().filter(|(_, grade)| *grade >= 1).count();
    let mrr10 = grades
        .iter()
        .take(10)
        .position(|grade| *grade >= 1)
        .map_or(0.0, |rank| 1.0 / (rank + 1) as f64);
    let recall = |k: usize| {
        if relevant == 0 {
            return 0.0;
        }
        grades.iter().take(k).filter(|grade| **grade >= 1).count() as f64 / relevant as f64
    };
    let dcg = |grades: &mut dyn Iterator<Item = u8>| -> f64 {
        grades
            .take(10)
            .enumerate()
            .map(|(rank, grade)| (2f64.powi(i32::from(grade)) - 1.0) / ((rank + 2) as f64).log2())
            .sum()
    };
    let mut ideal: Vec<u8> = query.gold.iter().map(|(_, grade)| *grade).collect();
    ideal.sort_unstable_by(|a, b| b.cmp(a));
    let ideal = dcg(&mut ideal.into_iter());
    let ndcg10 = if ideal > 0.0 {
        dcg(&mut grades.iter().copied()) / ideal
    } else {
        0.0
    };
    Scores {
        mrr10,
        recall5: recall(5),
        recall10: recall(10),
        ndcg10,
        zero: ranked.is_empty(),
    }
}

/// Means of several answers' scores (the zero-result rate as a fraction).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Summary {
    pub(crate) queries: usize,
    pub(crate) mrr10: f64,
    pub(crate) recall5: f64,
    pub(crate) recall10: f64,
    pub(crate) ndcg10: f64,
    pub(crate) zero_rate: f64,
}

pub(crate) fn summarise<'a>(scores: impl IntoIterator<Item = &'a Scores>) -> Summary {
    let mut summary = Summary::default();
    for scores in scores {
        summary.queries += 1;
        summary.mrr10 += scores.mrr10;
        summary.recall5 += scores.recall5;
        summary.recall10 += scores.recall10;
        summary.ndcg10 += scores.ndcg10;
        summary.zero_rate += f64::from(u8::from(scores.zero));
    }
    if summary.queries > 0 {
        let n = summary.queries as f64;
        summary.mrr10 /= n;
        summary.recall5 /= n;
        summary.recall10 /= n;
        summary.ndcg10 /= n;
        summary.zero_rate /= n;
    }
    summary
}

/// The median in milliseconds of nanosecond samples (the lower middle for an even count).
pub(crate) fn median_ms(samples: &[u64]) -> Option<f64> {
    crate::report::percentile(samples, 0.5)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quality::topics::Kind;

    fn query(gold: &[(&str, u8)]) -> Query {
        Query {
            id: "q".into(),
            kind: Kind::Canonical,
            text: "x",
            gold: gold.iter().map(|(id, g)| ((*id).to_owned(), *g)).collect(),
        }
    }

    fn ranked(ids: &[&str]) -> Vec<String> {
        ids.iter().map(|id| (*id).to_owned()).collect()
    }

    #[test]
    fn a_hand_computed_example() {
        // Gold: a (2), b (1), c (1). Ranked: x, b, a, y, c.
        let q = query(&[("a", 2), ("b", 1), ("c", 1)]);
        let s = score(&q, &ranked(&["x", "b", "a", "y", "c"]));
        // The first relevant result is at rank 2.
        assert_eq!(s.mrr10, 0.5);
        // Top 5 hold all three; top 10 too.
        assert_eq!(s.recall5, 1.0);
        assert_eq!(s.recall10, 1.0);
        // DCG = 1/log2(3) + 3/log2(4) + 1/log2(6) = 0.63093 + 1.5 + 0.38685 = 2.51778;
        // IDCG = 3/log2(2) + 1/log2(3) + 1/log2(4) = 3 + 0.63093 + 0.5 = 4.13093.
        assert!(
            (s.ndcg10 - 2.517_782 / 4.130_930).abs() < 1e-5,
            "{}",
            s.ndcg10
        );
        assert!(!s.zero);
    }

    #[test]
    fn cut_offs_and_repeats() {
        let q = query(&[("a", 2), ("b", 2)]);
        // a at rank 6: outside R@5, inside R@10. A repeated id counts once, at its first rank,
        // so b is at rank 10, inside the cut-off.
        let s = score(
            &q,
            &ranked(&[
                "x1", "x2", "x3", "x4", "x5", "a", "a", "x6", "x7", "x8", "b",
            ]),
        );
        assert_eq!(s.recall5, 0.0);
        assert_eq!(s.recall10, 1.0);
        assert!((s.mrr10 - 1.0 / 6.0).abs() < 1e-12);
        // One more result before it puts b at rank 11.
        let s = score(
            &q,
            &ranked(&[
                "x1", "x2", "x3", "x4", "x5", "a", "a", "x6", "x7", "x8", "x9", "b",
            ]),
        );
        assert_eq!(s.recall10, 0.5);
        // Nothing relevant in the first ten: MRR@10 is 0 even with a later hit.
        let s = score(
            &q,
            &ranked(&[
                "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "a",
            ]),
        );
        assert_eq!(s.mrr10, 0.0);
        assert_eq!(s.ndcg10, 0.0);
        // A perfect answer.
        let s = score(&q, &ranked(&["b", "a"]));
        assert_eq!((s.mrr10, s.recall10), (1.0, 1.0));
        assert!((s.ndcg10 - 1.0).abs() < 1e-12);
        let empty = score(&q, &[]);
        assert!(empty.zero);
        assert_eq!(empty.mrr10, 0.0);
    }

    #[test]
    fn summaries_are_means() {
        let q = query(&[("a", 1)]);
        let hit = score(&q, &ranked(&["a"]));
        let miss = score(&q, &[]);
        let summary = summarise([&hit, &miss]);
        assert_eq!(summary.queries, 2);
        assert_eq!(summary.mrr10, 0.5);
        assert_eq!(summary.zero_rate, 0.5);
        assert_eq!(median_ms(&[3_000_000, 1_000_000, 2_000_000]), Some(2.0));
    }
}
