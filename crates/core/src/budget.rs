//! The shared budget-fitting algorithm of the bounded JSON payloads (contract 05 §8.1, §8.3, §8.4;
//! 04 §6.5): the fixed-point `used`, greedy admission, the final fit and the code-point prefix
//! search that cuts the echoed query or intent.
//!
//! It owns only the algorithm (and the search layout rule, [`pretty_if_fits`]). What an envelope
//! contains, how its items are sanitised, which marker replaces a cut echo and which public
//! error a refusal becomes belong to each payload (`skills::payload`, `search::payload`).
//!
//! **Promise:** a text returned by [`fit`] is never longer than the limit in UTF-16 units; its
//! `budget.used` equals its own serialised length exactly; and nothing is cut silently: every
//! dropped item or cut echo sets `truncated` (and is counted in [`FittedPayload`]). When that cannot be
//! kept the answer is an error, never an over-budget text.

use crate::text::{JsonLayout, JsonWriter, code_point_len, code_point_prefix, utf16_len};

/// Serialisations allowed before `used` must have settled (contract 05 §8.1).
pub const FIXED_POINT_ATTEMPTS: usize = 8;

/// A payload whose text depends on the admitted items, the echoed text, the truncation flag
/// and its own `budget.used`; everything else is fixed for one request.
pub trait Envelope {
    /// One admissible result item.
    type Item;

    /// The layout of one candidate, chosen before its fixed point and kept through it
    /// (contract 05 §8.2). Payloads are pretty unless they say otherwise.
    fn layout(&self, _items: &[Self::Item], _echo: &str, _truncated: bool) -> JsonLayout {
        JsonLayout::Pretty
    }

    /// Writes the payload text in `layout` with these values.
    fn write(
        &self,
        items: &[Self::Item],
        echo: &str,
        truncated: bool,
        used: usize,
        layout: JsonLayout,
    ) -> String;
}

/// The search layout rule (contract 05 §8.2): pretty when the pretty form of this candidate with
/// `used = limit` fits within `limit`, else compact. An [`Envelope::layout`] may return it.
pub fn pretty_if_fits<E: Envelope>(
    envelope: &E,
    items: &[E::Item],
    echo: &str,
    truncated: bool,
    limit: usize,
) -> JsonLayout {
    let pretty = envelope.write(items, echo, truncated, limit, JsonLayout::Pretty);
    if utf16_len(&pretty) <= limit {
        JsonLayout::Pretty
    } else {
        JsonLayout::Compact
    }
}

/// A text that fits, and what was given up to make it fit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FittedPayload {
    /// The payload text, at most the limit in UTF-16 units.
    pub text: String,
    /// Its UTF-16 length, which is also its `budget.used`.
    pub used: usize,
    /// How many of the offered items (a prefix of them) the text carries.
    pub admitted: usize,
    /// `budget.truncated`: an item was dropped or the echo was cut.
    pub truncated: bool,
    /// Whether the echo was cut to a prefix plus the marker.
    pub echo_cut: bool,
}

/// Why no text fits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum FitError {
    /// Even with no items and the echo reduced to the marker the text is longer than the limit.
    #[error("the limit is too small for the envelope")]
    TooSmall,
    /// `budget.used` did not settle within [`FIXED_POINT_ATTEMPTS`] serialisations.
    #[error(transparent)]
    Unstable(#[from] Unstable),
}

/// `budget.used` did not reach a fixed point (an internal failure, contract 05 §8.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("budget metadata did not reach a fixed point")]
pub struct Unstable;

/// The fitted text of `envelope` for a prefix of `items` within `limit` units (contract 05 §8.3
/// steps 2–5). `echo` is the query or intent as received; as a last resort it is cut to its
/// longest code-point prefix that fits followed by `marker`.
pub fn fit<E: Envelope>(
    envelope: &E,
    items: &[E::Item],
    echo: &str,
    marker: &str,
    limit: usize,
) -> Result<FittedPayload, FitError> {
    let fitted = |text: String, admitted: usize, truncated: bool, echo_cut: bool| FittedPayload {
        used: utf16_len(&text),
        text,
        admitted,
        truncated,
        echo_cut,
    };

    // Greedy admission: the first item that does not fit stops admission for good, so a
    // smaller later item never overtakes a better-ranked one.
    let mut truncated = false;
    let mut admitted = 0;
    while admitted < items.len() {
        let text = candidate(envelope, &items[..=admitted], echo, false)?;
        if utf16_len(&text) > limit {
            truncated = true;
            break;
        }
        admitted += 1;
    }

    // Final fit: the flag itself changes the length, so drop from the end until it fits.
    let mut text = candidate(envelope, &items[..admitted], echo, truncated)?;
    while utf16_len(&text) > limit && admitted > 0 {
        admitted -= 1;
        truncated = true;
        text = candidate(envelope, &items[..admitted], echo, truncated)?;
    }
    if utf16_len(&text) <= limit {
        return Ok(fitted(text, admitted, truncated, false));
    }

    // Echo cut (no item is left): the probe order of contract 05 §8.3 is kept exactly, because the
    // length is not monotonic in the prefix when a layout choice flips.
    let (mut low, mut high) = (0_usize, code_point_len(echo));
    let mut best = None;
    while low <= high {
        let keep = low + (high - low) / 2;
        let cut = format!("{}{marker}", code_point_prefix(echo, keep));
        let text = candidate(envelope, &[], &cut, true)?;
        if utf16_len(&text) <= limit {
            best = Some(text);
            low = keep + 1;
        } else if keep == 0 {
            break;
        } else {
            high = keep - 1;
        }
    }
    match best {
        Some(text) => Ok(fitted(text, 0, true, true)),
        None => Err(FitError::TooSmall),
    }
}

/// One candidate text: the layout chosen first, then `used` solved by fixed point.
pub(crate) fn candidate<E: Envelope>(
    envelope: &E,
    items: &[E::Item],
    echo: &str,
    truncated: bool,
) -> Result<String, Unstable> {
    let layout = envelope.layout(items, echo, truncated);
    fixed_point(|used| envelope.write(items, echo, truncated, used, layout))
}

/// Writes the `"budget": {"limit", "used", "truncated"}` member every fitted envelope carries
/// (contract 05 §7.4, §7.5), so the member [`fit`] solves for is spelled in one place.
pub fn write_member(writer: &mut JsonWriter, limit: usize, used: usize, truncated: bool) {
    write_hinted_member(writer, limit, used, truncated, None);
}

/// [`write_member`] with a last `hint` member when there is one (`resolve_skill` in the
/// structured eras, contract 05 §7.5.1).
pub fn write_hinted_member(
    writer: &mut JsonWriter,
    limit: usize,
    used: usize,
    truncated: bool,
    hint: Option<&str>,
) {
    writer.name("budget");
    writer.begin_object();
    writer.name("limit");
    writer.number(limit as f64);
    writer.name("used");
    writer.number(used as f64);
    writer.name("truncated");
    writer.bool(truncated);
    if let Some(hint) = hint {
        writer.name("hint");
        writer.str(hint);
    }
    writer.end_object();
}

/// Solves `used == len16(text(used))` starting from 0, in at most [`FIXED_POINT_ATTEMPTS`]
/// serialisations (contract 05 §8.1).
pub fn fixed_point(mut text: impl FnMut(usize) -> String) -> Result<String, Unstable> {
    let mut used = 0;
    for _ in 0..FIXED_POINT_ATTEMPTS {
        let candidate = text(used);
        let length = utf16_len(&candidate);
        if length == used {
            return Ok(candidate);
        }
        used = length;
    }
    Err(Unstable)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `{"echo":…,"items":[…],"budget":{"limit":L,"used":U,"truncated":T}}`, pretty, or
    /// pretty only when the pretty form with `used = limit` fits (the search rule).
    struct Toy {
        limit: usize,
        pretty_if_fits: bool,
    }

    impl Envelope for Toy {
        type Item = String;

        fn layout(&self, items: &[String], echo: &str, truncated: bool) -> JsonLayout {
            if self.pretty_if_fits {
                pretty_if_fits(self, items, echo, truncated, self.limit)
            } else {
                JsonLayout::Pretty
            }
        }

        fn write(
            &self,
            items: &[String],
            echo: &str,
            truncated: bool,
            used: usize,
            layout: JsonLayout,
        ) -> String {
            let mut writer = JsonWriter::new(layout);
            writer.begin_object();
            writer.name("echo");
            writer.str(echo);
            writer.name("items");
            writer.begin_array();
            for item in items {
                writer.str(item);
            }
            writer.end_array();
            write_member(&mut writer, self.limit, used, truncated);
            writer.end_object();
            writer.finish()
        }
    }

    fn run(
        items: &[&str],
        echo: &str,
        limit: usize,
        pretty_if_fits: bool,
    ) -> Result<FittedPayload, FitError> {
        let items: Vec<String> = items.iter().map(|item| item.to_string()).collect();
        let toy = Toy {
            limit,
            pretty_if_fits,
        };
        fit(&toy, &items, echo, "[cut]", limit)
    }

    fn used_of(text: &str) -> usize {
        let value: serde_json::Value = serde_json::from_str(text).unwrap();
        value["budget"]["used"].as_u64().unwrap() as usize
    }

    #[test]
    fn everything_fits() {
        let fitted = run(&["a", "b"], "q", 1000, false).unwrap();
        assert_eq!(used_of(&fitted.text), utf16_len(&fitted.text));
        assert_eq!(fitted.used, utf16_len(&fitted.text));
        assert!(fitted.text.contains("\"truncated\": false"));
        assert!(fitted.text.contains("\"b\""));
        assert_eq!(
            (fitted.admitted, fitted.truncated, fitted.echo_cut),
            (2, false, false)
        );
    }

    #[test]
    fn greedy_stops_at_the_first_misfit() {
        let big = "x".repeat(60);
        let fitted = run(&["a", &big, "b"], "q", 120, false).unwrap();
        let text = &fitted.text;
        assert!(utf16_len(text) <= 120);
        assert!(text.contains("\"a\"") && !text.contains("\"b\""), "{text}");
        assert!(text.contains("\"truncated\": true"));
        assert_eq!(used_of(text), utf16_len(text));
        assert_eq!((fitted.admitted, fitted.truncated), (1, true));
    }

    #[test]
    fn echo_cut_as_last_resort() {
        let echo = "😀".repeat(100);
        let fitted = run(&["a"], &echo, 120, false).unwrap();
        let text = &fitted.text;
        assert!(utf16_len(text) <= 120);
        assert!(text.contains("[cut]") && !text.contains("\"a\""));
        assert_eq!(used_of(text), utf16_len(text));
        assert_eq!(
            (fitted.admitted, fitted.truncated, fitted.echo_cut),
            (0, true, true)
        );
        assert_eq!(run(&[], "q", 20, false), Err(FitError::TooSmall));
    }

    #[test]
    fn layout_is_chosen_per_candidate() {
        let fitted = run(&["a", "b"], "q", 80, true).unwrap();
        assert!(!fitted.text.contains('\n'), "{}", fitted.text);
        let fitted = run(&["a", "b"], "q", 200, true).unwrap();
        assert!(fitted.text.contains('\n'));
    }

    #[test]
    fn fixed_point_gives_up_after_eight_attempts() {
        let mut calls = 0;
        let unstable = fixed_point(|used| {
            calls += 1;
            "x".repeat(used + 1)
        });
        assert_eq!(unstable, Err(Unstable));
        assert_eq!(calls, FIXED_POINT_ATTEMPTS);
        assert_eq!(fixed_point(|used| format!("{used:02}")).unwrap(), "02");
    }

    #[test]
    fn property_text_within_limit_used_exact_and_cuts_recorded() {
        use proptest::prelude::*;
        proptest!(ProptestConfig::with_cases(200), |(
            items in proptest::collection::vec("[a-z😀]{0,40}", 0..12),
            echo in "[a-z😀 ]{1,120}",
            limit in 60_usize..600,
            pretty_if_fits in any::<bool>(),
        )| {
            let refs: Vec<&str> = items.iter().map(String::as_str).collect();
            if let Ok(fitted) = run(&refs, &echo, limit, pretty_if_fits) {
                prop_assert!(utf16_len(&fitted.text) <= limit);
                prop_assert_eq!(used_of(&fitted.text), utf16_len(&fitted.text));
                prop_assert_eq!(fitted.used, utf16_len(&fitted.text));
                prop_assert!(fitted.admitted <= items.len());
                prop_assert_eq!(
                    fitted.truncated,
                    fitted.admitted < items.len() || fitted.echo_cut
                );
            }
        });
    }
}
