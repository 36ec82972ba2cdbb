//! Compares `dotaios_core::text` with the JavaScript engine it imitates: Node's
//! `JSON.stringify`, `String`, `trim`, `slice`, `toFixed`, `Math.round`, default `sort()` and
//! `Intl.Collator('und')`.
//!
//! A few hundred cases are generated deterministically, Node runs once (its script below) and
//! every test compares one section of its answer byte for byte. Node must be on `PATH`; CI
//! installs it. Without it every test here fails with a message saying so.

use std::cmp::Ordering;
use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::LazyLock;

use dotaios_core::text::{
    JsString, JsonLayout, JsonWriter, collate, is_js_space, js_math_round, js_number_to_string,
    js_string_of, js_to_fixed, js_trim, js_trim_end, js_trim_start, js_truthy, round_thousandths,
    to_json_compact, to_json_pretty, utf16_cmp, utf16_len,
};
use serde_json::{Map, Value, json};

/// The Node side: reads the cases as JSON on stdin and answers with one JSON object.
const NODE_SCRIPT: &str = r#"
const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const collator = new Intl.Collator('und');
const spaces = [];
for (let c = 0; c < 0x10000; c++) {
  if (c >= 0xd800 && c <= 0xdfff) continue;
  if (String.fromCharCode(c).trim() === '') spaces.push(c);
}
const out = {
  compact: input.values.map(v => JSON.stringify(v)),
  pretty: input.values.map(v => JSON.stringify(v, null, 2)),
  string_of: input.values.map(v => String(v)),
  truthy: input.values.map(v => !!v),
  lengths: input.strings.map(s => s.length),
  trims: input.strings.map(s => [s.trim(), s.trimStart(), s.trimEnd()]),
  utf16_sorted: [...input.strings].sort(),
  collated: [...input.strings].sort(collator.compare),
  pair_signs: input.pairs.map(([i, j]) => Math.sign(collator.compare(input.strings[i], input.strings[j]))),
  units_json: input.units.map(u => JSON.stringify(String.fromCharCode(...u))),
  cuts: input.cuts.map(([i, n]) => {
    const s = input.strings[i].slice(0, n).trimEnd() + '\u2026';
    return [JSON.stringify(s), JSON.stringify(s, null, 2), s.length];
  }),
  number_text: input.numbers.map(x => String(x)),
  to_fixed: input.numbers.map(x => [0, 1, 2, 3, 20].map(d => x.toFixed(d))),
  rounded: input.numbers.map(x => String(Math.round(x * 1000) / 1000)),
  math_round: input.numbers.map(x => String(Math.round(x))),
  spaces,
};
process.stdout.write(JSON.stringify(out));
"#;

/// SplitMix64, so Node and Rust see the same cases every run.
use dotaios_testkit::SplitMix64 as Rng;

struct Cases {
    values: Vec<Value>,
    strings: Vec<String>,
    numbers: Vec<f64>,
    units: Vec<Vec<u16>>,
    pairs: Vec<(usize, usize)>,
    cuts: Vec<(usize, usize)>,
}

const ALPHABET: &[char] = &[
    'a',
    'b',
    'B',
    'Z',
    'z',
    '0',
    '1',
    '9',
    ' ',
    '-',
    '_',
    '.',
    '/',
    '"',
    '\\',
    '\n',
    '\r',
    '\t',
    '\u{0}',
    '\u{8}',
    '\u{b}',
    '\u{c}',
    '\u{1f}',
    '\u{7f}',
    '\u{85}',
    '\u{a0}',
    '\u{180e}',
    '\u{2028}',
    '\u{2029}',
    '\u{3000}',
    '\u{feff}',
    'é',
    'É',
    'ß',
    'ñ',
    'ø',
    '中',
    '文',
    '😀',
    '👍',
    '𝐀',
    '\u{e000}',
    '\u{ff5e}',
    '\u{fffd}',
    '\u{10000}',
    '\u{10ffff}',
    '·',
    '…',
];

/// Realistic names and labels, for collation.
const WORDS: &[&str] = &[
    "README.md",
    "readme.md",
    "Readme.md",
    "notes",
    "Notes",
    "note-1.md",
    "note_1.md",
    "note 1.md",
    "note10.md",
    "note2.md",
    "a",
    "A",
    "á",
    "Á",
    "ab",
    "a b",
    "a-b",
    "a_b",
    "b",
    "B",
    "résumé",
    "resume",
    "Resume",
    "zebra",
    "Zebra",
    "éclair",
    "eclair",
    "Ærø",
    "aero",
    "straße",
    "strasse",
    "2026-08-14T10:00:00Z",
    "2026-08-14T09:59:59.999Z",
    "2026-08-14",
    "",
    " ",
    "10",
    "2",
    "1",
    "😀",
    "中文",
    "日本",
    "acme-campaign",
    "project-acme-001",
    "alpha",
    "Alpha",
    "ALPHA",
    "ｚ",
    "o\u{308}",
    "ö",
    "Ö",
    "oe",
    "ä",
    "ae",
    "ﬁ",
    "fi",
    "#tag",
    "@user",
    "(x)",
    "[x]",
    "x!",
];

fn random_string(rng: &mut Rng) -> String {
    let len = rng.below(14);
    (0..len).map(|_| *rng.pick(ALPHABET)).collect()
}

fn number_pool(rng: &mut Rng) -> Vec<f64> {
    let mut numbers = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        100.0,
        1e21,
        1e20,
        999_999_999_999_999_900_000.0,
        5e-324,
        0.1 + 0.2,
        123_456_789_012_345_680_000.0,
        1.5e-7,
        1e-6,
        1e-7,
        0.000_001_234,
        1.722,
        0.125,
        0.375,
        1.005,
        2.5,
        -2.5,
        0.5,
        -0.5,
        0.000_5,
        1.000_5,
        9_007_199_254_740_992.0,
        9_007_199_254_740_994.0,
        18_446_744_073_709_551_616.0,
        f64::MAX,
        f64::MIN_POSITIVE,
        1e300,
        -1e-300,
        4_503_599_627_370_495.5,
        0.499_999_999_999_999_94,
        2.0 / 7.0 + 1.4,
        8.0 / 9.0,
    ];
    for _ in 0..60 {
        let x = f64::from_bits(rng.next_u64());
        if x.is_finite() {
            numbers.push(x);
        }
    }
    for _ in 0..40 {
        numbers.push((rng.below(2_000_001) as f64 - 1_000_000.0) / 1000.0);
    }
    for _ in 0..30 {
        numbers.push(rng.below(10_000) as f64 / (1 + rng.below(30)) as f64);
    }
    for _ in 0..20 {
        numbers.push((rng.next_u64() >> rng.below(64)) as f64);
    }
    numbers
}

const KEYS: &[&str] = &[
    "a",
    "b",
    "B",
    "10",
    "2",
    "01",
    "0",
    "4294967295",
    "__proto__",
    "é",
    "😀",
    "",
    " k",
    "markdown",
];

fn random_value(rng: &mut Rng, depth: usize, strings: &[String], numbers: &[f64]) -> Value {
    let kinds = if depth == 0 { 4 } else { 6 };
    match rng.below(kinds) {
        0 => rng
            .pick(&[Value::Null, Value::Bool(true), Value::Bool(false)])
            .clone(),
        1 => json!(*rng.pick(numbers)),
        2 | 3 => Value::String(rng.pick(strings).clone()),
        4 => Value::Array(
            (0..rng.below(5))
                .map(|_| random_value(rng, depth - 1, strings, numbers))
                .collect(),
        ),
        _ => {
            let mut map = Map::new();
            for _ in 0..rng.below(5) {
                map.insert(
                    (*rng.pick(KEYS)).to_owned(),
                    random_value(rng, depth - 1, strings, numbers),
                );
            }
            Value::Object(map)
        }
    }
}

fn cases() -> Cases {
    let mut rng = Rng(20_260_813);
    let mut strings: Vec<String> = WORDS.iter().map(|w| (*w).to_owned()).collect();
    strings.extend((0..150).map(|_| random_string(&mut rng)));
    let numbers = number_pool(&mut rng);

    let mut values = vec![
        json!([]),
        json!({}),
        json!([[], {}, [[]], {"a": {}}]),
        json!("\u{2028}\u{2029}"),
        json!(1e21),
        json!(5e-324),
        json!(0.1 + 0.2),
        json!(-0.0),
        json!(123_456_789_012_345_680_000.0),
        json!(12_345_678_901_234_567_890_u64),
        json!(i64::MIN),
        json!(u64::MAX),
        serde_json::from_str(r#"{"scope":1,"b":2,"10":3,"a":4,"2":5,"b":6}"#).unwrap_or_default(),
    ];
    values.extend(numbers.iter().map(|&x| json!(x)));
    values.extend(strings.iter().map(|s| json!(s)));
    values.extend((0..200).map(|_| random_value(&mut rng, 3, &strings, &numbers)));

    let lone: &[u16] = &[
        0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xD83D, 0xDE00, 0x61, 0x22, 0x5C, 0x0A, 0x1F, 0x7F, 0x2028,
        0xE9, 0xFFFF,
    ];
    let units = (0..120)
        .map(|_| (0..rng.below(8)).map(|_| *rng.pick(lone)).collect())
        .collect();

    let pairs = (0..400)
        .map(|_| (rng.below(strings.len()), rng.below(strings.len())))
        .collect();
    let cuts = (0..300)
        .map(|_| {
            let index = rng.below(strings.len());
            (index, rng.below(strings[index].encode_utf16().count() + 2))
        })
        .collect();

    Cases {
        values,
        strings,
        numbers,
        units,
        pairs,
        cuts,
    }
}

struct Run {
    cases: Cases,
    node: Value,
}

static RUN: LazyLock<Run> = LazyLock::new(|| {
    let cases = cases();
    let input = json!({
        "values": cases.values,
        "strings": cases.strings,
        "numbers": cases.numbers,
        "units": cases.units,
        "pairs": cases.pairs,
        "cuts": cases.cuts,
    });
    let input = serde_json::to_string(&input).unwrap_or_default();
    let mut child = match Command::new("node")
        .arg("-e")
        .arg(NODE_SCRIPT)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(error) => panic!(
            "cannot run `node` ({error}): these tests compare dotaios_core::text with Node's \
             JSON.stringify, sort and Intl.Collator; install Node 20 or later and put it on PATH"
        ),
    };
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(input.as_bytes())
            .unwrap_or_else(|e| panic!("writing to node: {e}"));
    }
    let output = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("waiting for node: {e}"));
    assert!(
        output.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let node = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("node's answer is not JSON: {e}"));
    Run { cases, node }
});

/// One section of Node's answer, which must have one entry per case (`expected_len`), so that
/// a short answer can never make a comparison vacuous.
fn section(name: &str, expected_len: usize) -> &'static [Value] {
    let answer = RUN.node[name]
        .as_array()
        .map_or_else(|| panic!("node answer lacks `{name}`"), Vec::as_slice);
    assert_eq!(
        answer.len(),
        expected_len,
        "node answer `{name}` has the wrong length"
    );
    answer
}

fn text(value: &Value) -> &str {
    value
        .as_str()
        .unwrap_or_else(|| panic!("expected a string, got {value}"))
}

#[test]
#[cfg_attr(
    windows,
    ignore = "Node runs on the Linux host, not under Wine; these functions are the same on every platform"
)]
fn json_compact_matches_node() {
    let node = section("compact", RUN.cases.values.len());
    for (value, expected) in RUN.cases.values.iter().zip(node) {
        assert_eq!(to_json_compact(value), text(expected), "value {value:?}");
    }
}

#[test]
#[cfg_attr(
    windows,
    ignore = "Node runs on the Linux host, not under Wine; these functions are the same on every platform"
)]
fn json_pretty_matches_node() {
    let node = section("pretty", RUN.cases.values.len());
    for (value, expected) in RUN.cases.values.iter().zip(node) {
        let ours = to_json_pretty(value);
        assert_eq!(ours, text(expected), "value {value:?}");
        assert_eq!(utf16_len(&ours), text(expected).encode_utf16().count());
    }
}

#[test]
#[cfg_attr(
    windows,
    ignore = "Node runs on the Linux host, not under Wine; these functions are the same on every platform"
)]
fn string_conversion_and_truthiness_match_node() {
    for ((value, string), truthy) in RUN
        .cases
        .values
        .iter()
        .zip(section("string_of", RUN.cases.values.len()))
        .zip(section("truthy", RUN.cases.values.len()))
    {
        assert_eq!(js_string_of(value), text(string), "String({value:?})");
        assert_eq!(Some(js_truthy(value)), truthy.as_bool(), "!!{value:?}");
    }
}

#[test]
#[cfg_attr(
    windows,
    ignore = "Node runs on the Linux host, not under Wine; these functions are the same on every platform"
)]
fn lengths_and_trims_match_node() {
    for ((s, length), trims) in RUN
        .cases
        .strings
        .iter()
        .zip(section("lengths", RUN.cases.strings.len()))
        .zip(section("trims", RUN.cases.strings.len()))
    {
        assert_eq!(Some(utf16_len(s) as u64), length.as_u64(), "{s:?}.length");
        assert_eq!(js_trim(s), text(&trims[0]), "{s:?}.trim()");
        assert_eq!(js_trim_start(s), text(&trims[1]), "{s:?}.trimStart()");
        assert_eq!(js_trim_end(s), text(&trims[2]), "{s:?}.trimEnd()");
    }
}

#[test]
#[cfg_attr(
    windows,
    ignore = "Node runs on the Linux host, not under Wine; these functions are the same on every platform"
)]
fn space_set_matches_node() {
    let node: Vec<u64> = section("spaces", 25)
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    let ours: Vec<u64> = (0..0x10000_u32)
        .filter_map(char::from_u32)
        .filter(|&c| is_js_space(c))
        .map(|c| u64::from(u32::from(c)))
        .collect();
    assert_eq!(ours, node);
}

#[test]
#[cfg_attr(
    windows,
    ignore = "Node runs on the Linux host, not under Wine; these functions are the same on every platform"
)]
fn utf16_sort_matches_node() {
    let mut ours = RUN.cases.strings.clone();
    ours.sort_by(|a, b| utf16_cmp(a, b));
    let node: Vec<&str> = section("utf16_sorted", RUN.cases.strings.len())
        .iter()
        .map(text)
        .collect();
    assert_eq!(ours, node);
}

#[test]
#[cfg_attr(
    windows,
    ignore = "Node runs on the Linux host, not under Wine; these functions are the same on every platform"
)]
fn collation_matches_node_intl_collator() {
    let mut ours = RUN.cases.strings.clone();
    ours.sort_by(|a, b| collate(a, b));
    let node: Vec<&str> = section("collated", RUN.cases.strings.len())
        .iter()
        .map(text)
        .collect();
    assert_eq!(ours, node);

    for (&(i, j), sign) in RUN
        .cases
        .pairs
        .iter()
        .zip(section("pair_signs", RUN.cases.pairs.len()))
    {
        let (a, b) = (&RUN.cases.strings[i], &RUN.cases.strings[j]);
        let expected = match sign.as_i64() {
            Some(-1) => Ordering::Less,
            Some(1) => Ordering::Greater,
            _ => Ordering::Equal,
        };
        assert_eq!(collate(a, b), expected, "{a:?} vs {b:?}");
    }
}

#[test]
#[cfg_attr(
    windows,
    ignore = "Node runs on the Linux host, not under Wine; these functions are the same on every platform"
)]
fn lone_surrogates_are_escaped_like_node() {
    for (units, expected) in RUN
        .cases
        .units
        .iter()
        .zip(section("units_json", RUN.cases.units.len()))
    {
        let mut writer = JsonWriter::new(JsonLayout::Compact);
        writer.js_string(&JsString::from_units(units.clone()));
        assert_eq!(writer.finish(), text(expected), "units {units:04x?}");
    }
}

#[test]
#[cfg_attr(
    windows,
    ignore = "Node runs on the Linux host, not under Wine; these functions are the same on every platform"
)]
fn unit_cuts_match_node_slice() {
    for (&(index, units), expected) in RUN
        .cases
        .cuts
        .iter()
        .zip(section("cuts", RUN.cases.cuts.len()))
    {
        let mut cut = JsString::from(RUN.cases.strings[index].as_str());
        cut.truncate(units);
        cut.trim_end();
        cut.push_str("\u{2026}");
        for (layout, slot) in [(JsonLayout::Compact, 0), (JsonLayout::Pretty, 1)] {
            let mut writer = JsonWriter::new(layout);
            writer.js_string(&cut);
            assert_eq!(writer.finish(), text(&expected[slot]), "{cut:?}");
        }
        assert_eq!(Some(cut.len() as u64), expected[2].as_u64());
    }
}

#[test]
#[cfg_attr(
    windows,
    ignore = "Node runs on the Linux host, not under Wine; these functions are the same on every platform"
)]
fn numbers_match_node() {
    let sections = (
        section("number_text", RUN.cases.numbers.len()),
        section("to_fixed", RUN.cases.numbers.len()),
        section("rounded", RUN.cases.numbers.len()),
        section("math_round", RUN.cases.numbers.len()),
    );
    for (index, &x) in RUN.cases.numbers.iter().enumerate() {
        assert_eq!(
            js_number_to_string(x),
            text(&sections.0[index]),
            "String({x:e})"
        );
        for (slot, digits) in [0_u8, 1, 2, 3, 20].into_iter().enumerate() {
            assert_eq!(
                js_to_fixed(x, digits),
                text(&sections.1[index][slot]),
                "({x:e}).toFixed({digits})"
            );
        }
        assert_eq!(
            js_number_to_string(round_thousandths(x)),
            text(&sections.2[index]),
            "round3({x:e})"
        );
        assert_eq!(
            js_number_to_string(js_math_round(x)),
            text(&sections.3[index]),
            "Math.round({x:e})"
        );
    }
}
