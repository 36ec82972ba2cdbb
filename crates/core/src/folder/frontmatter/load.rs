//! The YAML loader behind [`super::parse_yaml`]: pulls `saphyr-parser`'s event stream one event
//! at a time and builds [`YamlValue`]s on an explicit stack, with the bounds of
//! `docs/security.md` (contract 01 §3.7, §5).
//!
//! It owns three rules: nesting deeper than [`MAX_DEPTH`] collections is refused before any
//! deeper value is built; a mapping's duplicate keys are found with a hash of each key (linear
//! expected time); anchors and aliases copy values only within a budget proportional to the
//! text. It never recurses on the native stack per nesting level of the *text*: the only
//! recursive walks (hashing, comparing, cloning and dropping values) are over values already
//! bounded by [`MAX_DEPTH`].

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::{BuildHasher, Hash, Hasher, RandomState};

use saphyr::{Marker, Scalar};
use saphyr_parser::{Event, Input, Parser};

use super::{YamlError, YamlMapping, YamlValue};

/// Collections nested deeper than this make the document invalid ([`YamlError::TooDeep`]):
/// the workspace's one nesting limit, [`crate::text::MAX_NESTING`].
pub const MAX_DEPTH: usize = crate::text::MAX_NESTING;

/// What one built node costs against the alias budget, in bytes: about the size of a
/// [`YamlValue`] and its slot in a parent.
const NODE_COST: usize = 48;

/// The alias budget is this many bytes plus [`ALIAS_BUDGET_PER_BYTE`] per byte of the text.
const ALIAS_BUDGET_BASE: usize = 1 << 20;
const ALIAS_BUDGET_PER_BYTE: usize = 4;

/// A collection being built.
enum Frame {
    Sequence {
        items: Vec<YamlValue>,
        anchor: usize,
        cost: usize,
    },
    Mapping {
        entries: Vec<(YamlValue, YamlValue)>,
        /// A key waiting for its value, with where it started.
        key: Option<(YamlValue, Marker)>,
        /// Key hash → index of the first entry with that hash.
        seen: HashMap<u64, usize>,
        anchor: usize,
        cost: usize,
    },
}

struct Loader {
    stack: Vec<Frame>,
    root: Option<YamlValue>,
    /// Anchor id → the anchored value and its cost.
    anchors: HashMap<usize, (YamlValue, usize)>,
    /// Bytes that anchors and aliases may still copy.
    budget: usize,
    hasher: RandomState,
}

/// What [`load`] found, with the work it took.
pub(super) struct Loaded {
    /// The first document (`Null` when there is none), or why the text was refused.
    pub(super) outcome: Result<YamlValue, YamlError>,
    /// Parse events pulled from the parser (at most `max_events + 1`).
    pub(super) events: usize,
    /// The built value's cost in the alias budget's units (what keeping it costs, roughly in
    /// bytes); 0 when refused.
    pub(super) cost: usize,
}

/// Loads every document of `text`, pulling at most `max_events` parse events: one more makes
/// the text [`YamlError::Work`] (contract 01 §5.7 item 5). Returns the first document, or
/// `Null` when there is none.
pub(super) fn load(text: &str, max_events: usize) -> Loaded {
    let mut events = 0usize;
    let mut copied = 0usize;
    let outcome = load_counted(text, max_events, &mut events, &mut copied);
    // Every node comes from one event or from an alias copy, and every string from the text
    // or from a copy, so this bounds what the value holds.
    let cost = match &outcome {
        Ok(_) => events
            .saturating_mul(NODE_COST)
            .saturating_add(text.len())
            .saturating_add(copied),
        Err(_) => 0,
    };
    Loaded {
        outcome,
        events,
        cost,
    }
}

fn load_counted(
    text: &str,
    max_events: usize,
    events: &mut usize,
    copied: &mut usize,
) -> Result<YamlValue, YamlError> {
    let mut parser = Parser::new_from_iter(text.chars());
    let alias_budget =
        ALIAS_BUDGET_BASE.saturating_add(text.len().saturating_mul(ALIAS_BUDGET_PER_BYTE));
    let mut loader = Loader {
        stack: Vec::new(),
        root: None,
        anchors: HashMap::new(),
        budget: alias_budget,
        hasher: RandomState::new(),
    };
    let result = build(&mut parser, &mut loader, max_events, events);
    *copied = alias_budget - loader.budget;
    result
}

fn build<T: Input>(
    parser: &mut Parser<'_, T>,
    loader: &mut Loader,
    max_events: usize,
    events: &mut usize,
) -> Result<YamlValue, YamlError> {
    let mut documents = 0usize;
    // The first refusal of the builder. The rest of the stream is still scanned (without
    // building), because a syntax error anywhere in the text takes precedence, as it did
    // when the whole stream was loaded first.
    let mut refused: Option<YamlError> = None;
    while let Some(next) = parser.next_event() {
        *events += 1;
        if *events > max_events {
            return Err(YamlError::Work);
        }
        let (event, span) = next.map_err(|error| syntax(error.marker()))?;
        match event {
            Event::Nothing | Event::StreamStart | Event::StreamEnd | Event::DocumentEnd => {}
            Event::DocumentStart(_) => documents += 1,
            // Only the first document is built; a second one is refused below anyway.
            _ if documents > 1 || refused.is_some() => {}
            event => {
                if let Err(error) = loader.on_event(event, span.start) {
                    // Too deep is refused at once: nothing deeper is ever looked at.
                    if error == YamlError::TooDeep {
                        return Err(error);
                    }
                    refused = Some(error);
                }
            }
        }
    }
    if let Some(error) = refused {
        return Err(error);
    }
    match documents {
        0 => Ok(YamlValue::Null),
        1 => loader.root.take().ok_or(YamlError::BadValue),
        _ => Err(YamlError::MultipleDocuments),
    }
}

fn syntax(marker: &Marker) -> YamlError {
    YamlError::Syntax {
        line: marker.line(),
        column: marker.col() + 1,
    }
}

impl Loader {
    fn on_event(&mut self, event: Event<'_>, start: Marker) -> Result<(), YamlError> {
        match event {
            // Collection tags carry no meaning for readers (core-schema `!!seq`/`!!map`, or an
            // application tag, which JavaScript's `yaml` resolves to plain data).
            Event::SequenceStart(anchor, _) => self.open(Frame::Sequence {
                items: Vec::new(),
                anchor,
                cost: NODE_COST,
            }),
            Event::MappingStart(anchor, _) => self.open(Frame::Mapping {
                entries: Vec::new(),
                key: None,
                seen: HashMap::new(),
                anchor,
                cost: NODE_COST,
            }),
            Event::SequenceEnd | Event::MappingEnd => {
                let (value, anchor, cost) = match self.stack.pop() {
                    Some(Frame::Sequence {
                        items,
                        anchor,
                        cost,
                    }) => (YamlValue::Sequence(items), anchor, cost),
                    Some(Frame::Mapping {
                        entries,
                        anchor,
                        cost,
                        ..
                    }) => (YamlValue::Mapping(YamlMapping { entries }), anchor, cost),
                    // The parser balances its events.
                    None => return Err(YamlError::BadValue),
                };
                self.complete(value, anchor, cost, start)
            }
            Event::Scalar(text, style, anchor, tag) => {
                // An application tag (`!thing 5`) resolves the scalar as if untagged; a core
                // tag (`!!int abc`) must fit or the node is unresolvable.
                let tag = tag.filter(|tag| tag.is_yaml_core_schema());
                let scalar = Scalar::parse_from_cow_and_metadata(text, style, tag.as_ref())
                    .ok_or(YamlError::BadValue)?;
                let value = match scalar {
                    Scalar::Null => YamlValue::Null,
                    Scalar::Boolean(value) => YamlValue::Bool(value),
                    Scalar::Integer(value) => YamlValue::Int(value),
                    Scalar::FloatingPoint(value) => YamlValue::Float(value.into_inner()),
                    Scalar::String(text) => YamlValue::String(text.into_owned()),
                };
                let cost = NODE_COST + value.as_str().map_or(0, str::len);
                self.complete(value, anchor, cost, start)
            }
            Event::Alias(id) => {
                let (value, cost) = self.anchors.get(&id).ok_or(YamlError::BadValue)?;
                let cost = *cost;
                self.budget = self
                    .budget
                    .checked_sub(cost)
                    .ok_or(YamlError::AliasBudget)?;
                let value = value.clone();
                self.complete(value, 0, cost, start)
            }
            Event::Nothing
            | Event::StreamStart
            | Event::StreamEnd
            | Event::DocumentStart(_)
            | Event::DocumentEnd => Ok(()),
        }
    }

    fn open(&mut self, frame: Frame) -> Result<(), YamlError> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(YamlError::TooDeep);
        }
        self.stack.push(frame);
        Ok(())
    }

    /// A node is finished: remember it when anchored, then hand it to its parent.
    fn complete(
        &mut self,
        value: YamlValue,
        anchor: usize,
        cost: usize,
        start: Marker,
    ) -> Result<(), YamlError> {
        // Anchor ids start at 1; 0 means none.
        if anchor > 0 {
            self.budget = self
                .budget
                .checked_sub(cost)
                .ok_or(YamlError::AliasBudget)?;
            self.anchors.insert(anchor, (value.clone(), cost));
        }
        let Some(parent) = self.stack.last_mut() else {
            if self.root.is_none() {
                self.root = Some(value);
            }
            return Ok(());
        };
        match parent {
            Frame::Sequence {
                items, cost: total, ..
            } => {
                items.push(value);
                *total = total.saturating_add(cost);
            }
            Frame::Mapping {
                entries,
                key,
                seen,
                cost: total,
                ..
            } => {
                *total = total.saturating_add(cost);
                match key.take() {
                    None => *key = Some((value, start)),
                    Some((name, at)) => {
                        let hash = self.hasher.hash_one(KeyHash(&name));
                        let index = entries.len();
                        let repeated = match seen.entry(hash) {
                            Entry::Vacant(slot) => {
                                slot.insert(index);
                                false
                            }
                            // Equal hashes: compare for real. Only a true 64-bit collision
                            // (not something a document can aim for: the hasher is keyed)
                            // falls back to scanning the entries.
                            Entry::Occupied(first) => {
                                same_key(&entries[*first.get()].0, &name)
                                    || entries.iter().any(|(earlier, _)| same_key(earlier, &name))
                            }
                        };
                        if repeated {
                            return Err(YamlError::DuplicateKey {
                                line: at.line(),
                                column: at.col() + 1,
                            });
                        }
                        entries.push((name, value));
                    }
                }
            }
        }
        Ok(())
    }
}

/// Two keys are the same key when their values are equal once tags are dropped (so `a` and
/// `! a` collide, contract 01 §3.7), with YAML's float equality for keys: `.nan` equals `.nan` and
/// `-0.0` equals `0.0`. An integer and a float are different keys (`1` and `1.0`).
fn same_key(a: &YamlValue, b: &YamlValue) -> bool {
    match (a, b) {
        (YamlValue::Float(x), YamlValue::Float(y)) => x == y || (x.is_nan() && y.is_nan()),
        (YamlValue::Sequence(xs), YamlValue::Sequence(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same_key(x, y))
        }
        (YamlValue::Mapping(xs), YamlValue::Mapping(ys)) => {
            xs.len() == ys.len()
                && xs
                    .iter()
                    .zip(ys.iter())
                    .all(|((xk, xv), (yk, yv))| same_key(xk, yk) && same_key(xv, yv))
        }
        _ => a == b,
    }
}

/// Hashes a key consistently with [`same_key`].
struct KeyHash<'a>(&'a YamlValue);

impl Hash for KeyHash<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self.0 {
            YamlValue::Null => state.write_u8(0),
            YamlValue::Bool(value) => {
                state.write_u8(1);
                value.hash(state);
            }
            YamlValue::Int(value) => {
                state.write_u8(2);
                value.hash(state);
            }
            YamlValue::Float(value) => {
                state.write_u8(3);
                let canonical = if value.is_nan() {
                    f64::NAN
                } else if *value == 0.0 {
                    0.0
                } else {
                    *value
                };
                canonical.to_bits().hash(state);
            }
            YamlValue::String(text) => {
                state.write_u8(4);
                text.hash(state);
            }
            YamlValue::Sequence(items) => {
                state.write_u8(5);
                state.write_usize(items.len());
                for item in items {
                    KeyHash(item).hash(state);
                }
            }
            YamlValue::Mapping(mapping) => {
                state.write_u8(6);
                state.write_usize(mapping.len());
                for (key, value) in mapping.iter() {
                    KeyHash(key).hash(state);
                    KeyHash(value).hash(state);
                }
            }
        }
    }
}
