//! JavaScript number semantics: `Number.prototype.toString`, `Math.round`, `toFixed`, and the
//! double that `JSON.parse` would produce for a parsed JSON number (contract 05 §10.3, 04 §3.4,
//! 03 §0 "Numbers").
//!
//! Every number the product prints goes through [`js_number_to_string`]; Rust's `Display` for
//! `f64` (`1e21` → `1000000000000000000000`, `0.1` fine but `1e-7` → `0.0000001`) and
//! `serde_json`'s float output (`100.0`) are not JavaScript's.

/// Formats a double exactly as JavaScript's `String(x)` / `Number.prototype.toString()`:
/// integers without a fraction (`100`), the shortest digits that round-trip (`0.30000000000000004`),
/// exponent form from `1e21` up and below `1e-6` (`1e+21`, `1.5e-7`), `-0` as `0`, and `NaN`,
/// `Infinity`, `-Infinity` for the non-finite values.
pub fn js_number_to_string(x: f64) -> String {
    let mut out = String::new();
    push_js_number(&mut out, x);
    out
}

/// Appends [`js_number_to_string`]`(x)` to `out` without an intermediate allocation.
pub(crate) fn push_js_number(out: &mut String, x: f64) {
    if x == 0.0 {
        // Both zeros print `0` in JavaScript; checking here keeps the sign question away from
        // the formatter.
        out.push('0');
        return;
    }
    if x.is_finite() && x.fract() == 0.0 && x.abs() <= MAX_SAFE_INTEGER {
        // Exact integers below 2^53 print as plain digits; this is the common case (counts,
        // limits) and skips the shortest-digits search.
        // Exact: |x| ≤ 2^53 and x is integral.
        let integer = x as i64;
        out.push_str(&integer.to_string());
        return;
    }
    out.push_str(ryu_js::Buffer::new().format(x));
}

/// The largest integer up to which every integer is an exact double (2^53), JavaScript's
/// `Number.MAX_SAFE_INTEGER + 1`.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_992.0;

/// Returns the double that JavaScript's `JSON.parse` gives for a JSON number that `serde_json`
/// parsed: integers beyond 2^53 round to the nearest double, exactly as a JavaScript number
/// literal does (`12345678901234567890` → `12345678901234567000` when printed).
pub fn js_number_of(number: &serde_json::Number) -> f64 {
    // `as_f64` only fails for the `arbitrary_precision` representation of a text that is not a
    // number, which a parsed value cannot contain; NaN then prints as `null` like JavaScript.
    number.as_f64().unwrap_or(f64::NAN)
}

/// JavaScript `Math.round`: the nearest integer, halves rounding towards +∞ (`2.5` → `3`,
/// `-2.5` → `-2`), `-0.4` → `-0`, non-finite values unchanged.
pub fn js_math_round(x: f64) -> f64 {
    if !x.is_finite() || x.abs() >= MAX_SAFE_INTEGER {
        // Every double at or above 2^53 is already an integer.
        return x;
    }
    let floor = x.floor();
    // `x - floor` is exact for doubles below 2^53, so the comparison with one half is too; the
    // tempting `(x + 0.5).floor()` is wrong for 0.49999999999999994 and for large odd values.
    let rounded = if x - floor >= 0.5 { floor + 1.0 } else { floor };
    if rounded == 0.0 && x.is_sign_negative() {
        -0.0
    } else {
        rounded
    }
}

/// Rounds a score to three decimals exactly as the reference does:
/// `Math.round(score × 1000) / 1000` (contract 04 §3.4, 05 §7.4), e.g. `1.7222…` → `1.722`.
pub fn round_thousandths(score: f64) -> f64 {
    js_math_round(score * 1000.0) / 1000.0
}

/// JavaScript `Number.prototype.toFixed(digits)`: the exact binary value rounded to `digits`
/// decimals with ties going away from zero (`0.125` → `0.13`, unlike Rust's `{:.2}` which gives
/// `0.12`), `x ≥ 1e21` in [`js_number_to_string`] form, `-0` as `0.00`. `digits` above 100 is
/// treated as 100, the ECMAScript maximum.
pub fn js_to_fixed(x: f64, digits: u8) -> String {
    ryu_js::Buffer::new()
        .format_to_fixed(x, digits.min(100))
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn prints_like_javascript() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0"),
            (-0.0, "0"),
            (100.0, "100"),
            (-7.0, "-7"),
            (1.722, "1.722"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (123_456_789_012_345_680_000.0, "123456789012345680000"),
            (1.5e-7, "1.5e-7"),
            (1e-6, "0.000001"),
            (1e-7, "1e-7"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e+308"),
            (9_007_199_254_740_992.0, "9007199254740992"),
            (9_007_199_254_740_994.0, "9007199254740994"),
            (18_446_744_073_709_551_616.0, "18446744073709552000"),
            (-1.5e300, "-1.5e+300"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
        ];
        for &(x, expected) in cases {
            assert_eq!(js_number_to_string(x), expected, "{x:?}");
        }
    }

    #[test]
    fn numbers_from_json() {
        let big: serde_json::Number =
            serde_json::from_str("12345678901234567890").unwrap_or_else(|_| 0.into());
        assert_eq!(
            js_number_to_string(js_number_of(&big)),
            "12345678901234567000"
        );
        let neg: serde_json::Number = serde_json::from_str("-0").unwrap_or_else(|_| 1.into());
        assert_eq!(js_number_to_string(js_number_of(&neg)), "0");
        let float: serde_json::Number = serde_json::from_str("12.0").unwrap_or_else(|_| 0.into());
        assert_eq!(js_number_to_string(js_number_of(&float)), "12");
        let exp: serde_json::Number = serde_json::from_str("1.2e1").unwrap_or_else(|_| 0.into());
        assert_eq!(js_number_to_string(js_number_of(&exp)), "12");
    }

    #[test]
    fn math_round() {
        assert_eq!(js_math_round(2.5), 3.0);
        assert_eq!(js_math_round(-2.5), -2.0);
        assert_eq!(js_math_round(0.499_999_999_999_999_94), 0.0);
        assert_eq!(js_math_round(-0.4).to_bits(), (-0.0_f64).to_bits());
        assert_eq!(js_math_round(-0.5).to_bits(), (-0.0_f64).to_bits());
        assert_eq!(js_math_round(-0.6), -1.0);
        assert_eq!(
            js_math_round(4_503_599_627_370_495.5),
            4_503_599_627_370_496.0
        );
        assert!(js_math_round(f64::NAN).is_nan());
        assert_eq!(round_thousandths(1.722_222), 1.722);
        assert_eq!(
            js_number_to_string(round_thousandths(2.0 / 7.0 + 1.4)),
            "1.686"
        );
        assert_eq!(js_number_to_string(round_thousandths(100.0)), "100");
        assert_eq!(js_number_to_string(round_thousandths(8.0 / 9.0)), "0.889");
        assert_eq!(js_number_to_string(round_thousandths(0.0005)), "0.001");
    }

    #[test]
    fn to_fixed() {
        assert_eq!(js_to_fixed(0.125, 2), "0.13");
        assert_eq!(js_to_fixed(0.375, 2), "0.38");
        assert_eq!(js_to_fixed(1.005, 2), "1.00");
        assert_eq!(js_to_fixed(-0.125, 2), "-0.13");
        assert_eq!(js_to_fixed(2.5, 0), "3");
        assert_eq!(js_to_fixed(-2.5, 0), "-3");
        assert_eq!(js_to_fixed(1e21, 2), "1e+21");
        assert_eq!(js_to_fixed(-0.0001, 2), "-0.00");
        assert_eq!(js_to_fixed(-0.0, 2), "0.00");
        assert_eq!(js_to_fixed(1.0, 2), "1.00");
        assert_eq!(js_to_fixed(0.5, 2), "0.50");
    }

    proptest! {
        #[test]
        fn round_trips(bits in any::<u64>()) {
            let x = f64::from_bits(bits);
            prop_assume!(x.is_finite());
            let text = js_number_to_string(x);
            let back: f64 = text.parse().map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
            prop_assert!(back == x, "{} printed as {}", x, text);
        }

        #[test]
        fn math_round_is_nearest(x in -1e6_f64..1e6) {
            let r = js_math_round(x);
            prop_assert!(r.fract() == 0.0);
            prop_assert!(x - r < 0.5 && r - x <= 0.5);
        }
    }
}
