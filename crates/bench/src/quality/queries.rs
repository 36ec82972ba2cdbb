//! The query set and its gold (contract 07 §7.3): every topic query is judged by the labels
//! the generator wrote on the documents of that topic, every known-item query by the one
//! document that carries the item. The gold is a function of the corpus alone and is written
//! out before any system runs; nothing here reads a result.

use serde_json::{Value, json};

use super::corpus::{Corpus, Label};
use super::topics::{ITEM_KIND, ITEMS, Kind, TOPICS};

/// One query with its graded gold documents.
#[derive(Debug, Clone)]
pub(crate) struct Query {
    pub(crate) id: String,
    pub(crate) kind: Kind,
    pub(crate) text: &'static str,
    /// Document id → grade (2 = about it, 1 = partly about it), best grade first, then id.
    pub(crate) gold: Vec<(String, u8)>,
}

impl Query {
    pub(crate) fn grade(&self, id: &str) -> u8 {
        self.gold
            .iter()
            .find(|(gold, _)| gold == id)
            .map_or(0, |(_, grade)| *grade)
    }
}

/// Every topic's queries in topic order, then the known items.
pub(crate) fn build(corpus: &Corpus) -> Vec<Query> {
    let mut targets: Vec<(Kind, &'static str, Label)> = Vec::new();
    for (index, topic) in TOPICS.iter().enumerate() {
        for (kind, text) in topic.queries {
            targets.push((*kind, text, Label::Topic(index)));
        }
    }
    for (index, item) in ITEMS.iter().enumerate() {
        targets.push((ITEM_KIND, item.query, Label::Item(index)));
    }
    targets
        .into_iter()
        .enumerate()
        .map(|(number, (kind, text, label))| {
            let mut gold: Vec<(String, u8)> = corpus
                .docs
                .iter()
                .filter_map(|doc| {
                    doc.labels
                        .iter()
                        .filter(|(of, _)| *of == label)
                        .map(|(_, grade)| *grade)
                        .max()
                        .map(|grade| (doc.id.clone(), grade))
                })
                .collect();
            gold.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            Query {
                id: format!("q{:03}", number + 1),
                kind,
                text,
                gold,
            }
        })
        .collect()
}

/// The gold file written beside the folder before any system runs.
pub(crate) fn to_value(queries: &[Query]) -> Value {
    Value::from(
        queries
            .iter()
            .map(|query| {
                json!({
                    "id": query.id,
                    "kind": query.kind.name(),
                    "query": query.text,
                    "gold": query.gold.iter().map(|(id, grade)| json!({"doc": id, "grade": grade})).collect::<Vec<_>>(),
                })
            })
            .collect::<Vec<_>>(),
    )
}
