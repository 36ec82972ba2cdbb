//! The budget algorithms of the bounded tool payloads (spec 05 §8.1–§8.4): the fixed-point
//! `used`, the pretty-or-compact choice, greedy admission, the final fit and the code-point
//! prefix search that cuts the echoed query or intent.
//!
//! **Invariant:** a text returned by [`fit`] is at most `limit` UTF-16 units long and its
//! `budget.used` equals its own length exactly. Nothing is ever cut silently: every dropped item
//! or cut echo sets `truncated`.

use dotaios_core::text::{JsonLayout, code_point_len, code_point_prefix, utf16_len};

use crate::error::RpcError;

/// Attempts of the fixed-point iteration before giving up (§8.1).
const FIXED_POINT_ATTEMPTS: usize = 8;

/// A payload whose text depends on the admitted items, the echoed text, the truncation flag
/// and its own `budget.used`.
pub(crate) trait Envelope {
    /// One admissible result item.
    type Item;

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

/// How the layout of each candidate text is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layouts {
    /// Always pretty (the skill and working-context payloads, built by `dotaios-core`, are;
    /// the unit tests exercise the fitting with it).
    #[cfg(test)]
    Pretty,
    /// Pretty when the pretty form with `used = limit` fits, else compact (search, §8.2).
    PrettyIfFits,
}

/// The fitted text of `envelope` for `items` within `limit` (§8.3 / §8.4). `echo` is the
/// query or intent, cut with `marker` as a last resort; `too_small` is the error when even
/// that does not fit.
pub(crate) fn fit<E: Envelope>(
    envelope: &E,
    items: Vec<E::Item>,
    echo: &str,
    marker: &str,
    limit: usize,
    layouts: Layouts,
    too_small: impl FnOnce() -> RpcError,
) -> Result<String, RpcError> {
    let candidate = |items: &[E::Item], echo: &str, truncated: bool| {
        serialise(envelope, items, echo, truncated, limit, layouts)
    };
    let mut selected = Vec::with_capacity(items.len());
    let mut truncated = false;
    for item in items {
        selected.push(item);
        if utf16_len(&candidate(&selected, echo, false)?) > limit {
            selected.pop();
            truncated = true;
            break;
        }
    }
    let mut text = candidate(&selected, echo, truncated)?;
    while utf16_len(&text) > limit && !selected.is_empty() {
        selected.pop();
        truncated = true;
        text = candidate(&selected, echo, truncated)?;
    }
    if utf16_len(&text) > limit {
        // `selected` is empty here: cut the echoed text to the longest prefix that fits.
        let code_points = code_point_len(echo);
        let (mut low, mut high) = (0_usize, code_points);
        let mut best = None;
        while low <= high {
            let keep = (low + high) / 2;
            let cut = format!("{}{marker}", code_point_prefix(echo, keep));
            let probe = candidate(&selected, &cut, true)?;
            if utf16_len(&probe) <= limit {
                best = Some(probe);
                low = keep + 1;
            } else if keep == 0 {
                break;
            } else {
                high = keep - 1;
            }
        }
        if let Some(best) = best {
            text = best;
        }
    }
    if utf16_len(&text) > limit {
        return Err(too_small());
    }
    Ok(text)
}

/// One candidate text: the layout chosen first, then `used` solved by fixed point (§8.1).
fn serialise<E: Envelope>(
    envelope: &E,
    items: &[E::Item],
    echo: &str,
    truncated: bool,
    limit: usize,
    layouts: Layouts,
) -> Result<String, RpcError> {
    let layout = match layouts {
        #[cfg(test)]
        Layouts::Pretty => JsonLayout::Pretty,
        Layouts::PrettyIfFits => {
            let pretty = envelope.write(items, echo, truncated, limit, JsonLayout::Pretty);
            if utf16_len(&pretty) <= limit {
                JsonLayout::Pretty
            } else {
                JsonLayout::Compact
            }
        }
    };
    fixed_point(|used| envelope.write(items, echo, truncated, used, layout))
}

/// Solves `used == len16(text(used))` in at most eight attempts, starting from 0.
pub(crate) fn fixed_point(mut text: impl FnMut(usize) -> String) -> Result<String, RpcError> {
    let mut used = 0;
    for _ in 0..FIXED_POINT_ATTEMPTS {
        let candidate = text(used);
        let length = utf16_len(&candidate);
        if length == used {
            return Ok(candidate);
        }
        used = length;
    }
    Err(RpcError::Failed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dotaios_core::text::JsonWriter;

    /// `{"echo":…,"items":[…],"budget":{"limit":L,"used":U,"truncated":T}}`.
    struct Toy {
        limit: usize,
    }

    impl Envelope for Toy {
        type Item = String;

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
            writer.name("budget");
            writer.begin_object();
            writer.name("limit");
            writer.number(self.limit as f64);
            writer.name("used");
            writer.number(used as f64);
            writer.name("truncated");
            writer.bool(truncated);
            writer.end_object();
            writer.end_object();
            writer.finish()
        }
    }

    fn run(items: &[&str], echo: &str, limit: usize, layouts: Layouts) -> Result<String, RpcError> {
        let items = items.iter().map(|item| item.to_string()).collect();
        fit(&Toy { limit }, items, echo, "[cut]", limit, layouts, || {
            RpcError::invalid("too small")
        })
    }

    fn used_of(text: &str) -> usize {
        let value: serde_json::Value = serde_json::from_str(text).unwrap();
        value["budget"]["used"].as_u64().unwrap() as usize
    }

    #[test]
    fn everything_fits() {
        let text = run(&["a", "b"], "q", 1000, Layouts::Pretty).unwrap();
        assert_eq!(used_of(&text), utf16_len(&text));
        assert!(text.contains("\"truncated\": false"));
        assert!(text.contains("\"b\""));
    }

    #[test]
    fn greedy_stops_at_the_first_misfit() {
        let big = "x".repeat(60);
        let text = run(&["a", &big, "b"], "q", 120, Layouts::Pretty).unwrap();
        assert!(utf16_len(&text) <= 120);
        assert!(text.contains("\"a\"") && !text.contains("\"b\""), "{text}");
        assert!(text.contains("\"truncated\": true"));
        assert_eq!(used_of(&text), utf16_len(&text));
    }

    #[test]
    fn echo_cut_as_last_resort() {
        let echo = "😀".repeat(100);
        let text = run(&["a"], &echo, 120, Layouts::Pretty).unwrap();
        assert!(utf16_len(&text) <= 120);
        assert!(text.contains("[cut]") && !text.contains("\"a\""));
        assert_eq!(used_of(&text), utf16_len(&text));
        assert!(run(&[], "q", 20, Layouts::Pretty).is_err());
    }

    #[test]
    fn compact_when_pretty_does_not_fit() {
        let text = run(&["a", "b"], "q", 80, Layouts::PrettyIfFits).unwrap();
        assert!(!text.contains('\n'), "{text}");
        let text = run(&["a", "b"], "q", 200, Layouts::PrettyIfFits).unwrap();
        assert!(text.contains('\n'));
    }

    #[test]
    fn property_text_within_limit_and_used_exact() {
        use proptest::prelude::*;
        proptest!(ProptestConfig::with_cases(200), |(
            items in proptest::collection::vec("[a-z😀]{0,40}", 0..12),
            echo in "[a-z😀 ]{1,120}",
            limit in 60_usize..600,
            pretty in any::<bool>(),
        )| {
            let layouts = if pretty { Layouts::Pretty } else { Layouts::PrettyIfFits };
            let refs: Vec<&str> = items.iter().map(String::as_str).collect();
            if let Ok(text) = run(&refs, &echo, limit, layouts) {
                prop_assert!(utf16_len(&text) <= limit);
                prop_assert_eq!(used_of(&text), utf16_len(&text));
            }
        });
    }
}
