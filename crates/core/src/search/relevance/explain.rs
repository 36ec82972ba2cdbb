//! Why a result scored what it scored (contract 03 §9.5): the value `dotaios search --explain`
//! prints. It owns only the record of one score's parts and their sum; the parts are reported
//! by the one score function ([`AnalysedQuery::score`](super::AnalysedQuery::score) runs the
//! same code with a [`Trace`] that records nothing), so an explanation can never describe a
//! second formula. It must never compute a part itself.

use serde_json::{Map, Value};

use super::{DocClass, FIELDS, Field};

/// What the score reports while it computes, one call per part, in the order it adds them.
/// The no-op implementation for `()` is what ranking uses.
pub(crate) trait Trace {
    /// The document's lengths and the length normalisation of each field (§9.1).
    fn document(&mut self, _lengths: &Lengths) {}
    /// One term's share, skipped ones included.
    fn term(&mut self, _term: TermPart<'_>) {}
    /// One bonus added to the sum, times the query terms' summed idf (§9.1).
    fn bonus(&mut self, _bonus: Bonus, _factor: f64, _idf_sum: f64, _amount: f64) {}
    /// The recency factor the sum is multiplied by and the whole days it counted (§9.3).
    fn recency(&mut self, _days: Option<f64>, _factor: f64) {}
    /// The document matched no query term, so it scores 0 (§9.1).
    fn unmatched(&mut self) {}
}

impl Trace for () {}

/// The lengths one document's normalisation is computed from (§9.1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Lengths {
    /// The body length in bytes, and the power of two it is rounded to.
    pub(crate) body: u64,
    pub(crate) body_class: f64,
    /// The average body length of the document's class.
    pub(crate) body_average: f64,
    /// The title length in tokens, and the average over the class's matched documents.
    pub(crate) title: u64,
    pub(crate) title_average: f64,
    /// Per field, what its weighted frequency is divided by.
    pub(crate) norms: [f64; FIELDS],
}

/// One term's share as the score computed it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TermPart<'a> {
    pub(crate) text: &'a str,
    /// A part term of a joined query word (§5.1).
    pub(crate) part: bool,
    /// A part term that earns nothing because its joined word occurs (§9.1).
    pub(crate) skipped: bool,
    pub(crate) weight: f64,
    pub(crate) idf: f64,
    pub(crate) df: u64,
    /// Per field, the summed quality weights of its hits (§6.1).
    pub(crate) tf: [f64; FIELDS],
    /// Per field, its weight and what its weighted frequency is divided by.
    pub(crate) weights: [f64; FIELDS],
    pub(crate) norms: [f64; FIELDS],
    /// `tf'`: the fields' weighted, normalised frequencies summed.
    pub(crate) combined: f64,
    /// `tf' × (k1 + 1) / (tf' + k1)`.
    pub(crate) saturation: f64,
    /// What the term added to the sum.
    pub(crate) contribution: f64,
}

/// The bonuses of §9.1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bonus {
    Phrase,
    Proximity,
    TitleCover,
}

impl Bonus {
    fn as_str(self) -> &'static str {
        match self {
            Bonus::Phrase => "phrase",
            Bonus::Proximity => "proximity",
            Bonus::TitleCover => "title cover",
        }
    }
}

impl Field {
    const ALL: [Field; FIELDS] = [
        Field::Title,
        Field::Heading,
        Field::Path,
        Field::Description,
        Field::Body,
    ];

    fn as_str(self) -> &'static str {
        match self {
            Field::Title => "title",
            Field::Heading => "heading",
            Field::Path => "path",
            Field::Description => "description",
            Field::Body => "body",
        }
    }
}

impl DocClass {
    fn as_str(self) -> &'static str {
        match self {
            DocClass::Markdown => "markdown",
            DocClass::MemoryEntry => "memory entry",
            DocClass::Session => "session",
        }
    }
}

/// Why one result scored what it did: every part of its score (contract 03 §9.5).
#[derive(Debug, Clone, PartialEq)]
pub struct Explanation {
    /// The score the result was ranked by.
    pub score: f64,
    /// Its statistics class (§9.2): `markdown`, `memory entry` or `session`.
    pub class: &'static str,
    /// The body length in bytes.
    pub length: u64,
    /// The power of two the body length counts as (§9.1).
    pub length_class: f64,
    /// The average body length of the class (§9.2).
    pub average_length: f64,
    /// The title length in tokens.
    pub title_length: u64,
    /// The class's average title length, over its matched documents.
    pub average_title_length: f64,
    /// Each term's share, query terms first, then part terms (§5.1).
    pub terms: Vec<TermExplanation>,
    /// The bonuses, in the order they were added.
    pub bonuses: Vec<BonusExplanation>,
    /// The document's age in whole days, when known.
    pub age_days: Option<f64>,
    /// The recency factor the sum was multiplied by (§9.3).
    pub recency: f64,
    /// Whether some query term matched; a result that matched none scores 0.
    pub matched: bool,
}

/// One term's share of a score.
#[derive(Debug, Clone, PartialEq)]
pub struct TermExplanation {
    /// The normalised term (a joined word's tokens separated by a space).
    pub term: String,
    /// `query` or, for a part of a joined query word, `part`.
    pub kind: &'static str,
    /// A part term that earns nothing because the document holds its joined word.
    pub skipped: bool,
    /// Its weight `w_t` (§9.1).
    pub weight: f64,
    /// Its idf (§9.2).
    pub idf: f64,
    /// Its document frequency: the request's documents it matched.
    pub df: u64,
    /// The fields it matched in.
    pub fields: Vec<FieldExplanation>,
    /// `tf'`: the fields' weighted, normalised frequencies summed.
    pub tf: f64,
    /// `tf' × (k1 + 1) / (tf' + k1)`.
    pub saturation: f64,
    /// What it added to the sum: `weight × idf × saturation`.
    pub contribution: f64,
}

/// A term's frequency in one field: `tf × weight / norm` is its share of `tf'`.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldExplanation {
    /// `title`, `heading`, `path`, `description` or `body`.
    pub field: &'static str,
    /// The summed quality weights of the term's hits in the field (§6.1).
    pub tf: f64,
    /// The field's weight.
    pub weight: f64,
    /// Its length normalisation `1 − b + b × len / avglen` (1 when not normalised).
    pub norm: f64,
}

/// One bonus: `factor × idf_sum`.
#[derive(Debug, Clone, PartialEq)]
pub struct BonusExplanation {
    /// `phrase`, `proximity` or `title cover`.
    pub name: &'static str,
    /// Its parameter.
    pub factor: f64,
    /// The query terms' summed idf.
    pub idf_sum: f64,
    /// What it added: `factor × idf_sum`.
    pub amount: f64,
}

impl Explanation {
    pub(crate) fn new(class: DocClass) -> Explanation {
        Explanation {
            score: 0.0,
            class: class.as_str(),
            length: 0,
            length_class: 0.0,
            average_length: 0.0,
            title_length: 0,
            average_title_length: 0.0,
            terms: Vec::new(),
            bonuses: Vec::new(),
            age_days: None,
            recency: 1.0,
            matched: true,
        }
    }

    /// The sum of the explained parts, added in the score's order: the terms' contributions,
    /// then the bonuses, times the recency factor; 0 when no query term matched.
    pub fn total(&self) -> f64 {
        if !self.matched {
            return 0.0;
        }
        let mut sum = 0.0;
        for term in self.terms.iter().filter(|term| !term.skipped) {
            if term.tf > 0.0 {
                sum += term.contribution;
            }
        }
        if sum == 0.0 {
            return 0.0;
        }
        for bonus in &self.bonuses {
            sum += bonus.amount;
        }
        sum * self.recency
    }

    /// The explanation as the JSON of `dotaios search --explain --json`.
    pub fn to_value(&self) -> Value {
        let mut object = Map::new();
        object.insert("score".into(), number(self.score));
        object.insert("total".into(), number(self.total()));
        object.insert("class".into(), Value::from(self.class));
        object.insert("length".into(), Value::from(self.length));
        object.insert("lengthClass".into(), number(self.length_class));
        object.insert("averageLength".into(), number(self.average_length));
        object.insert("titleLength".into(), Value::from(self.title_length));
        object.insert(
            "averageTitleLength".into(),
            number(self.average_title_length),
        );
        let terms = self.terms.iter().map(TermExplanation::to_value).collect();
        object.insert("terms".into(), Value::Array(terms));
        let bonuses = self
            .bonuses
            .iter()
            .map(|bonus| {
                let mut item = Map::new();
                item.insert("name".into(), Value::from(bonus.name));
                item.insert("factor".into(), number(bonus.factor));
                item.insert("idfSum".into(), number(bonus.idf_sum));
                item.insert("amount".into(), number(bonus.amount));
                Value::Object(item)
            })
            .collect();
        object.insert("bonuses".into(), Value::Array(bonuses));
        object.insert("ageDays".into(), self.age_days.map_or(Value::Null, number));
        object.insert("recency".into(), number(self.recency));
        object.insert("matched".into(), Value::from(self.matched));
        Value::Object(object)
    }
}

impl TermExplanation {
    fn to_value(&self) -> Value {
        let mut object = Map::new();
        object.insert("term".into(), Value::from(self.term.as_str()));
        object.insert("kind".into(), Value::from(self.kind));
        object.insert("skipped".into(), Value::from(self.skipped));
        object.insert("weight".into(), number(self.weight));
        object.insert("idf".into(), number(self.idf));
        object.insert("df".into(), Value::from(self.df));
        let fields = self
            .fields
            .iter()
            .map(|field| {
                let mut item = Map::new();
                item.insert("field".into(), Value::from(field.field));
                item.insert("tf".into(), number(field.tf));
                item.insert("weight".into(), number(field.weight));
                item.insert("norm".into(), number(field.norm));
                Value::Object(item)
            })
            .collect();
        object.insert("fields".into(), Value::Array(fields));
        object.insert("tf".into(), number(self.tf));
        object.insert("saturation".into(), number(self.saturation));
        object.insert("contribution".into(), number(self.contribution));
        Value::Object(object)
    }
}

/// A finite number as JSON (every part of a score is finite; anything else is `null`).
fn number(value: f64) -> Value {
    serde_json::Number::from_f64(value).map_or(Value::Null, Value::Number)
}

/// The recording [`Trace`]: fills an [`Explanation`].
impl Trace for Explanation {
    fn document(&mut self, lengths: &Lengths) {
        self.length = lengths.body;
        self.length_class = lengths.body_class;
        self.average_length = lengths.body_average;
        self.title_length = lengths.title;
        self.average_title_length = lengths.title_average;
    }

    fn term(&mut self, term: TermPart<'_>) {
        let fields = Field::ALL
            .iter()
            .zip(term.tf)
            .filter(|(_, tf)| *tf > 0.0)
            .map(|(&field, tf)| FieldExplanation {
                field: field.as_str(),
                tf,
                weight: term.weights[field as usize],
                norm: term.norms[field as usize],
            })
            .collect();
        self.terms.push(TermExplanation {
            term: term.text.to_owned(),
            kind: if term.part { "part" } else { "query" },
            skipped: term.skipped,
            weight: term.weight,
            idf: term.idf,
            df: term.df,
            fields,
            tf: term.combined,
            saturation: term.saturation,
            contribution: term.contribution,
        });
    }

    fn bonus(&mut self, bonus: Bonus, factor: f64, idf_sum: f64, amount: f64) {
        self.bonuses.push(BonusExplanation {
            name: bonus.as_str(),
            factor,
            idf_sum,
            amount,
        });
    }

    fn recency(&mut self, days: Option<f64>, factor: f64) {
        self.age_days = days;
        self.recency = factor;
    }

    fn unmatched(&mut self) {
        self.matched = false;
    }
}
