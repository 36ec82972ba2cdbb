//! `dotaios search --explain` (contract 03 §9.5): each result's score, part by part, as text
//! after the results or as the `explain` array of `--json`. It only formats the explanations
//! core computed with the score itself; it never computes a part of a score.

use dotaios_core::search::{Explanation, SearchHit, SearchOutcome, TermExplanation};
use serde_json::{Map, Value};

/// The text form: one block per result, in the relevance order.
pub(super) fn text(outcome: &SearchOutcome) -> String {
    let mut text = String::from("\nWhy each result ranked where it did:\n");
    for (rank, ((scope, hit), explanation)) in
        outcome.ranked().zip(&outcome.explanations).enumerate()
    {
        text.push_str(&format!(
            "\n#{} {} ({}) score {}\n",
            rank + 1,
            name(hit),
            scope.as_str(),
            fixed(explanation.score)
        ));
        block(&mut text, explanation);
    }
    text
}

/// The lines of one explanation, each indented by two spaces.
fn block(text: &mut String, explanation: &Explanation) {
    for term in &explanation.terms {
        term_line(text, term);
    }
    for bonus in &explanation.bonuses {
        text.push_str(&format!(
            "  + {} bonus {} × Σidf {} = {}\n",
            bonus.name,
            fixed(bonus.factor),
            fixed(bonus.idf_sum),
            fixed(bonus.amount)
        ));
    }
    let age = explanation
        .age_days
        .map_or("age unknown".to_owned(), |days| format!("{days} days old"));
    text.push_str(&format!(
        "  prior: {}, {} bytes (counted as {}, class average {}), title {} tokens (class average {}); {age}: recency × {}\n",
        explanation.class,
        explanation.length,
        fixed(explanation.length_class),
        fixed(explanation.average_length),
        explanation.title_length,
        fixed(explanation.average_title_length),
        fixed(explanation.recency)
    ));
    if !explanation.matched {
        text.push_str("  no query term matched: score 0\n");
    }
    text.push_str(&format!(
        "  = (Σ terms + Σ bonuses) × recency = {}\n",
        fixed(explanation.total())
    ));
}

fn term_line(text: &mut String, term: &TermExplanation) {
    let kind = if term.kind == "part" {
        " (part of a joined word)"
    } else {
        ""
    };
    if term.skipped {
        text.push_str(&format!(
            "  term \"{}\"{kind}: 0, its joined word occurs\n",
            term.term
        ));
        return;
    }
    let fields: Vec<String> = term
        .fields
        .iter()
        .map(|field| {
            format!(
                "{} tf {} × w {} ÷ norm {}",
                field.field,
                fixed(field.tf),
                fixed(field.weight),
                fixed(field.norm)
            )
        })
        .collect();
    text.push_str(&format!(
        "  term \"{}\"{kind}: {}; tf' {} → saturation {} × idf {} (df {}) × weight {} = {}\n",
        term.term,
        fields.join(", "),
        fixed(term.tf),
        fixed(term.saturation),
        fixed(term.idf),
        term.df,
        fixed(term.weight),
        fixed(term.contribution)
    ));
}

/// The `explain` array of `--json`: per result, in the relevance order, its rank, scope and
/// name, and the explanation.
pub(super) fn json(outcome: &SearchOutcome) -> Value {
    let items = outcome
        .ranked()
        .zip(&outcome.explanations)
        .enumerate()
        .map(|(rank, ((scope, hit), explanation))| {
            let mut item = Map::new();
            item.insert("rank".into(), Value::from(rank + 1));
            item.insert("scope".into(), Value::from(scope.as_str()));
            item.insert("result".into(), Value::from(name(hit)));
            if let Value::Object(parts) = explanation.to_value() {
                item.extend(parts);
            }
            Value::Object(item)
        })
        .collect();
    Value::Array(items)
}

/// How a result is named: a note by its file, anything else by its source.
fn name(hit: &SearchHit) -> &str {
    match hit {
        SearchHit::Markdown(hit) => &hit.file,
        other => other.source(),
    }
}

/// Four decimals: enough to tell parts apart, short enough to read.
fn fixed(value: f64) -> String {
    format!("{value:.4}")
}
