//! `aios.json` (contract 01 §3.1): the JSON object, its schema version and support status
//! (§8.1–§8.2), and the strict identity check that `doctor` uses to grade the file.
//!
//! Pure parsing over text the caller read through the contained reader (the one bounded read
//! is [`crate::folder::inspection::read_config`], shared by migration inspection, planning and
//! `doctor`). Problems name a field, never
//! a path or a value.

use std::cmp::Ordering;
use std::fmt;

use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::{Map, Value};

use crate::text::{LoneSurrogates, serde_read};

/// The file's path below the root.
pub const CONFIG_PATH: &str = "aios.json";

/// The size bound of every `aios.json` read (1 MiB).
pub const CONFIG_CAP: u64 = 1 << 20;

/// The folder schema this build supports.
pub const SUPPORTED_SCHEMA_VERSION: &str = "1.2.0";

/// The `from` versions of the registered migrations (contract 01 §9.2), oldest first.
pub const MIGRATION_SOURCES: [&str; 2] = ["1.0.0", "1.1.0"];

/// `aios.json` as read: its exact text and the parsed top-level object.
#[derive(Debug, Clone, PartialEq)]
pub struct AiosConfig {
    /// The file's text (strict UTF-8).
    pub text: String,
    /// The top-level object, with JavaScript's `JSON.parse` semantics for repeated keys (the
    /// last value wins, at the first key's position).
    pub object: Map<String, Value>,
}

/// Parses `text` as `JSON.parse` would and returns the top-level object, or `None` when the
/// text is not JSON or not an object. Escapes that make lone surrogates (valid for
/// JavaScript) become U+FFFD first.
pub fn parse_config_object(text: &str) -> Option<Map<String, Value>> {
    match parse_config_value(text)? {
        Value::Object(object) => Some(object),
        _ => None,
    }
}

/// The one reading of an `aios.json` text, for every reader of the file (inspection, doctor,
/// the migration plan, search), with `JSON.parse`'s numbers: `1e400` is Infinity and a number
/// of a million digits the nearest double, as in JavaScript, instead of an unreadable file.
/// A text `serde_json` reads is read by it (numbers keep its integer or float form); one it
/// refuses goes through [`crate::text::read_json`], which accepts exactly what `JSON.parse`
/// accepts and where a non-finite number becomes `null` (what `JSON.stringify` writes for it).
/// `None` when the text is not JSON.
pub fn parse_config_value(text: &str) -> Option<Value> {
    serde_read::<Value>(text, LoneSurrogates::Replace)
        .ok()
        .or_else(|| {
            crate::text::read_json(text, &crate::text::JsonReadOptions::REPLACE)
                .ok()
                .map(|value| value.to_serde_value())
        })
}

/// An `aios.json` text search cannot use (contract 03 §3.2–§3.3): not JSON, or a truthy
/// `vault_path` that is not a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct UnusableVaultConfig;

/// The vault directory an `aios.json` text names for search (contract 03 §3.3), read with
/// [`parse_config_value`]: the `vault_path` string when the value is an object whose
/// `vault_path` is a non-empty string; `None` (the vault is `<root>/vault`) when the key is
/// absent, `null`, `""` or another falsy value, or the document is not an object. A truthy
/// non-string is unusable, as the chapter's open point recommends.
pub(crate) fn configured_vault_path(text: &str) -> Result<Option<String>, UnusableVaultConfig> {
    let value = parse_config_value(text).ok_or(UnusableVaultConfig)?;
    match value.get("vault_path") {
        Some(Value::String(text)) if !text.is_empty() => Ok(Some(text.clone())),
        Some(other) if crate::text::js_truthy(other) => Err(UnusableVaultConfig),
        _ => Ok(None),
    }
}

/// A schema version `x.y.z` matching `^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$`. Parts may
/// have any number of digits; comparison is numeric.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SchemaVersion {
    text: String,
}

impl SchemaVersion {
    /// Parses the exact `x.y.z` form (no leading zeros, no sign, no whitespace).
    pub fn parse(text: &str) -> Option<SchemaVersion> {
        let mut parts = text.split('.');
        let valid =
            (0..3).all(|_| parts.next().is_some_and(is_version_part)) && parts.next().is_none();
        valid.then(|| SchemaVersion {
            text: text.to_owned(),
        })
    }

    /// The `schema_version` of a parsed `aios.json`, when it is a string in `x.y.z` form.
    pub fn of_config(object: &Map<String, Value>) -> Option<SchemaVersion> {
        object
            .get("schema_version")
            .and_then(Value::as_str)
            .and_then(SchemaVersion::parse)
    }

    /// The version as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    fn parts(&self) -> impl Iterator<Item = &str> {
        self.text.split('.')
    }
}

impl Ord for SchemaVersion {
    fn cmp(&self, other: &SchemaVersion) -> Ordering {
        // Without leading zeros, a longer digit string is a larger number.
        self.parts()
            .zip(other.parts())
            .map(|(a, b)| a.len().cmp(&b.len()).then_with(|| a.cmp(b)))
            .find(|ordering| ordering.is_ne())
            .unwrap_or(Ordering::Equal)
    }
}

impl PartialOrd for SchemaVersion {
    fn partial_cmp(&self, other: &SchemaVersion) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for SchemaVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

fn is_version_part(part: &str) -> bool {
    match part.as_bytes() {
        [] => false,
        [b'0'] => true,
        [b'0', ..] => false,
        digits => digits.iter().all(u8::is_ascii_digit),
    }
}

/// How a folder's schema relates to this build (contract 01 §8.1 step 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemaSupport {
    /// Equal to [`SUPPORTED_SCHEMA_VERSION`].
    Current,
    /// Older, and the `from` of a registered migration.
    Outdated,
    /// Newer than this build (`FUTURE_SCHEMA`).
    Future,
    /// Older, with no registered migration from it (`UNSUPPORTED_SCHEMA`).
    Unsupported,
}

/// Classifies `version` against the supported schema and the migration registry.
pub fn schema_support(version: &SchemaVersion) -> SchemaSupport {
    let supported = SchemaVersion {
        text: SUPPORTED_SCHEMA_VERSION.to_owned(),
    };
    match version.cmp(&supported) {
        Ordering::Equal => SchemaSupport::Current,
        Ordering::Greater => SchemaSupport::Future,
        Ordering::Less if MIGRATION_SOURCES.contains(&version.as_str()) => SchemaSupport::Outdated,
        Ordering::Less => SchemaSupport::Unsupported,
    }
}

/// The first failure of the strict identity check (contract 01 §3.1), in the check's order.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigProblem {
    /// The text is not a JSON object at all.
    #[error("aios.json is not a JSON object")]
    NotObject,
    /// A top-level key appears more than once.
    #[error("duplicate top-level key {0}")]
    DuplicateKey(String),
    /// A required key is missing.
    #[error("{0} is missing")]
    Missing(&'static str),
    /// `created_at` is not a string whose canonical ISO form is itself.
    #[error("created_at is not a canonical ISO-8601 UTC timestamp")]
    CreatedAt,
    /// `ai_tools` is not an array of strings.
    #[error("ai_tools is not an array of strings")]
    AiTools,
    /// `vault_path` is neither a string nor `null`.
    #[error("vault_path is neither a string nor null")]
    VaultPath,
    /// `skills_first` is present and not a boolean.
    #[error("skills_first is not a boolean")]
    SkillsFirst,
}

impl ConfigProblem {
    /// The field the problem is about (`aios.json` itself for a non-object).
    pub fn field(&self) -> &str {
        match self {
            ConfigProblem::NotObject => CONFIG_PATH,
            ConfigProblem::DuplicateKey(key) => key,
            ConfigProblem::Missing(field) => field,
            ConfigProblem::CreatedAt => "created_at",
            ConfigProblem::AiTools => "ai_tools",
            ConfigProblem::VaultPath => "vault_path",
            ConfigProblem::SkillsFirst => "skills_first",
        }
    }
}

/// The strict identity check of contract 01 §3.1, which `doctor` uses to grade the file: no
/// duplicate top-level keys; `schema_version`, `created_at`, `ai_tools` and `vault_path` present;
/// `created_at` canonical; `ai_tools` an array of strings; `vault_path` a string or `null`;
/// `skills_first`, when present, a boolean. Returns the first failure.
pub fn check_config_identity(text: &str) -> Result<(), ConfigProblem> {
    let keys = match serde_read::<TopLevelKeys>(text, LoneSurrogates::Replace) {
        Ok(TopLevelKeys::Object(keys)) => keys,
        _ => return Err(ConfigProblem::NotObject),
    };
    for (index, key) in keys.iter().enumerate() {
        if keys[..index].contains(key) {
            return Err(ConfigProblem::DuplicateKey(key.clone()));
        }
    }
    let object = parse_config_object(text).ok_or(ConfigProblem::NotObject)?;
    for field in ["schema_version", "created_at", "ai_tools", "vault_path"] {
        if !object.contains_key(field) {
            return Err(ConfigProblem::Missing(field));
        }
    }
    if !object
        .get("created_at")
        .and_then(Value::as_str)
        .is_some_and(is_canonical_iso_timestamp)
    {
        return Err(ConfigProblem::CreatedAt);
    }
    let tools_ok = match object.get("ai_tools") {
        Some(Value::Array(items)) => items.iter().all(Value::is_string),
        _ => false,
    };
    if !tools_ok {
        return Err(ConfigProblem::AiTools);
    }
    if !matches!(
        object.get("vault_path"),
        Some(Value::String(_) | Value::Null)
    ) {
        return Err(ConfigProblem::VaultPath);
    }
    if object
        .get("skills_first")
        .is_some_and(|value| !value.is_boolean())
    {
        return Err(ConfigProblem::SkillsFirst);
    }
    Ok(())
}

/// Whether `text` is exactly what JavaScript's `new Date(text).toISOString()` would print for
/// it: `YYYY-MM-DDTHH:MM:SS.sssZ` (or the six-digit signed year form outside 0000–9999) naming
/// a real instant. Anything `Date.parse` would reject or normalise (31 February, hour 24,
/// a leap second, a missing `Z` or milliseconds) is not canonical.
pub fn is_canonical_iso_timestamp(text: &str) -> bool {
    let bytes = text.as_bytes();
    let (year, rest): (i64, &[u8]) = match bytes.first() {
        Some(b'+' | b'-') if bytes.len() > 7 && bytes[1..7].iter().all(u8::is_ascii_digit) => {
            let magnitude = digits(&bytes[1..7]);
            let year = if bytes[0] == b'-' {
                -magnitude
            } else {
                magnitude
            };
            // JavaScript prints the extended form only outside 0000–9999, and never `-000000`.
            if (0..=9999).contains(&year) {
                return false;
            }
            (year, &bytes[7..])
        }
        _ if bytes.len() >= 4 && bytes[..4].iter().all(u8::is_ascii_digit) => {
            (digits(&bytes[..4]), &bytes[4..])
        }
        _ => return false,
    };
    // -MM-DDTHH:MM:SS.sssZ
    let shape = b"-00-00T00:00:00.000Z";
    if rest.len() != shape.len()
        || !rest.iter().zip(shape).all(|(c, s)| {
            if *s == b'0' {
                c.is_ascii_digit()
            } else {
                c == s
            }
        })
    {
        return false;
    }
    let field = |from: usize| digits(&rest[from..from + 2]);
    let (month, day, hour, minute, second) = (field(1), field(4), field(7), field(10), field(13));
    let month_days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        _ => return false,
    };
    if !(1..=month_days).contains(&day) || hour > 23 || minute > 59 || second > 59 {
        return false;
    }
    // ECMAScript time values span ±8.64e15 ms around the epoch.
    let millis = digits(&rest[16..19]);
    let time = ((hour * 60 + minute) * 60 + second) * 1000 + millis;
    let epoch_millis = days_from_civil(year, month, day) * 86_400_000 + time;
    epoch_millis.abs() <= 8_640_000_000_000_000
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month_index = (month + 9) % 12;
    let day_of_year = (153 * month_index + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

fn digits(bytes: &[u8]) -> i64 {
    bytes
        .iter()
        .fold(0, |value, digit| value * 10 + i64::from(digit - b'0'))
}

/// The top-level keys of a JSON object in document order, repeats included.
enum TopLevelKeys {
    Object(Vec<String>),
    Other,
}

impl<'de> Deserialize<'de> for TopLevelKeys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<TopLevelKeys, D::Error> {
        deserializer.deserialize_any(KeysVisitor)
    }
}

struct KeysVisitor;

impl<'de> Visitor<'de> for KeysVisitor {
    type Value = TopLevelKeys;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TopLevelKeys, A::Error> {
        let mut keys = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            map.next_value::<IgnoredAny>()?;
            keys.push(key);
        }
        Ok(TopLevelKeys::Object(keys))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<TopLevelKeys, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(TopLevelKeys::Other)
    }

    fn visit_bool<E>(self, _: bool) -> Result<TopLevelKeys, E> {
        Ok(TopLevelKeys::Other)
    }

    fn visit_i64<E>(self, _: i64) -> Result<TopLevelKeys, E> {
        Ok(TopLevelKeys::Other)
    }

    fn visit_u64<E>(self, _: u64) -> Result<TopLevelKeys, E> {
        Ok(TopLevelKeys::Other)
    }

    fn visit_f64<E>(self, _: f64) -> Result<TopLevelKeys, E> {
        Ok(TopLevelKeys::Other)
    }

    fn visit_str<E>(self, _: &str) -> Result<TopLevelKeys, E> {
        Ok(TopLevelKeys::Other)
    }

    fn visit_unit<E>(self) -> Result<TopLevelKeys, E> {
        Ok(TopLevelKeys::Other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{
  "schema_version": "1.2.0",
  "created_at": "2026-08-01T00:00:00.000Z",
  "ai_tools": ["claude-code", "codex", "cursor"],
  "vault_path": null
}
"#;

    #[test]
    fn parse_config_object_is_json_parse() {
        assert!(parse_config_object(GOOD).is_some());
        assert!(parse_config_object("[]").is_none());
        assert!(parse_config_object("\"x\"").is_none());
        assert!(parse_config_object("null").is_none());
        assert!(parse_config_object("{").is_none());
        assert!(
            parse_config_object("\u{feff}{}").is_none(),
            "JSON.parse refuses a BOM"
        );
        assert!(parse_config_object(" \n{} \t").is_some());
        let repeated = parse_config_object(r#"{"a":1,"b":2,"a":3}"#).unwrap();
        assert_eq!(repeated.keys().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(repeated["a"], 3);
        let lone = parse_config_object(r#"{"a":"\ud800"}"#).unwrap();
        assert_eq!(lone["a"], "\u{fffd}");
    }

    #[test]
    fn vault_path_for_search() {
        let read = configured_vault_path;
        assert_eq!(read(r#"{"vault_path":"/v"}"#), Ok(Some("/v".to_owned())));
        for none in [
            "{}",
            r#"{"vault_path":null}"#,
            r#"{"vault_path":""}"#,
            r#"{"vault_path":0}"#,
            r#"{"vault_path":false}"#,
            r#"["vault_path"]"#,
            r#""/v""#,
        ] {
            assert_eq!(read(none), Ok(None), "{none}");
        }
        for unusable in [
            "{",
            r#"{"vault_path":42}"#,
            r#"{"vault_path":{}}"#,
            r#"{"vault_path":[]}"#,
        ] {
            assert_eq!(read(unusable), Err(UnusableVaultConfig), "{unusable}");
        }
    }

    /// Issue 21: numbers JavaScript reads as Infinity or as the nearest double do not make
    /// the file unreadable.
    #[test]
    fn huge_numbers_read_as_javascript_does() {
        let infinite = parse_config_object(r#"{"vault_path":null,"n":1e400,"m":-1E+999}"#).unwrap();
        assert_eq!(
            infinite["n"],
            Value::Null,
            "JSON.stringify(Infinity) is null"
        );
        assert_eq!(infinite["m"], Value::Null);
        let digits = format!(
            r#"{{"big":{},"small":0.{}1}}"#,
            "9".repeat(1_000_000),
            "0".repeat(1_000_000)
        );
        let long = parse_config_object(&digits).unwrap();
        assert_eq!(long["big"], Value::Null, "10^1000000 is Infinity");
        assert_eq!(long["small"].as_f64(), Some(0.0));
        let near = parse_config_object(&format!(r#"{{"x":1{}}}"#, "0".repeat(300))).unwrap();
        assert_eq!(near["x"].as_f64(), Some(1e300));
        assert_eq!(
            parse_config_value("[1e400]"),
            Some(Value::Array(vec![Value::Null]))
        );
        assert!(check_config_identity(&format!(
            r#"{{"schema_version":"1.2.0","created_at":"2026-08-01T00:00:00.000Z","ai_tools":[],"vault_path":null,"n":1e400,"d":{}}}"#,
            "7".repeat(100_000)
        ))
        .is_ok());
    }

    #[test]
    fn schema_versions() {
        for ok in [
            "1.2.0",
            "0.0.0",
            "10.20.30",
            "123456789012345678901234567890.0.0",
        ] {
            assert!(SchemaVersion::parse(ok).is_some(), "{ok}");
        }
        for bad in [
            "", "1.2", "1.2.0.0", "01.2.0", "1.02.0", "1.2.00", "v1.2.0", "1.2.0 ", "1..0",
            "-1.0.0", "1.2.x", "１.2.0",
        ] {
            assert!(SchemaVersion::parse(bad).is_none(), "{bad}");
        }
        let v = |s: &str| SchemaVersion::parse(s).unwrap();
        assert!(v("1.10.0") > v("1.9.0"));
        assert!(v("2.0.0") > v("1.99.99"));
        assert!(v("1.2.0") == v("1.2.0"));
        assert!(v("100000000000000000000.0.0") > v("99999999999999999999.0.0"));
        let object = parse_config_object(r#"{"schema_version":"1.1.0"}"#).unwrap();
        assert_eq!(SchemaVersion::of_config(&object).unwrap().as_str(), "1.1.0");
        let object = parse_config_object(r#"{"schema_version":110}"#).unwrap();
        assert_eq!(SchemaVersion::of_config(&object), None);
    }

    #[test]
    fn support_check() {
        let v = |s: &str| schema_support(&SchemaVersion::parse(s).unwrap());
        assert_eq!(v("1.2.0"), SchemaSupport::Current);
        assert_eq!(v("1.1.0"), SchemaSupport::Outdated);
        assert_eq!(v("1.0.0"), SchemaSupport::Outdated);
        assert_eq!(v("1.2.1"), SchemaSupport::Future);
        assert_eq!(v("2.0.0"), SchemaSupport::Future);
        assert_eq!(v("0.9.0"), SchemaSupport::Unsupported);
        assert_eq!(v("1.1.5"), SchemaSupport::Unsupported);
    }

    #[test]
    fn strict_identity_accepts_the_init_shape() {
        assert_eq!(check_config_identity(GOOD), Ok(()));
        let with_path = GOOD.replace("null", "\"/home/ada/vault\"");
        assert_eq!(check_config_identity(&with_path), Ok(()));
        let with_flag = GOOD.replace(
            "\"vault_path\": null",
            "\"vault_path\": null, \"skills_first\": true",
        );
        assert_eq!(check_config_identity(&with_flag), Ok(()));
    }

    #[test]
    fn strict_identity_problems_in_order() {
        assert_eq!(check_config_identity("[1]"), Err(ConfigProblem::NotObject));
        assert_eq!(check_config_identity("{"), Err(ConfigProblem::NotObject));
        let duplicate = GOOD.replace(
            "\"vault_path\": null",
            "\"vault_path\": null, \"ai_tools\": []",
        );
        assert_eq!(
            check_config_identity(&duplicate),
            Err(ConfigProblem::DuplicateKey("ai_tools".into()))
        );
        // Escaped spellings of the same key are the same key.
        let escaped = GOOD.replace(
            "\"vault_path\": null",
            "\"vault_path\": null, \"vault\\u005fpath\": 1",
        );
        assert_eq!(
            check_config_identity(&escaped),
            Err(ConfigProblem::DuplicateKey("vault_path".into()))
        );
        let missing =
            r#"{"created_at":"2026-08-01T00:00:00.000Z","ai_tools":[],"vault_path":null}"#;
        assert_eq!(
            check_config_identity(missing),
            Err(ConfigProblem::Missing("schema_version"))
        );
        assert_eq!(
            ConfigProblem::Missing("schema_version").field(),
            "schema_version"
        );
        let missing_vault =
            r#"{"schema_version":"1.2.0","created_at":"2026-08-01T00:00:00.000Z","ai_tools":[]}"#;
        assert_eq!(
            check_config_identity(missing_vault),
            Err(ConfigProblem::Missing("vault_path"))
        );
        let bad_date = GOOD.replace("2026-08-01T00:00:00.000Z", "2026-08-01T00:00:00Z");
        assert_eq!(
            check_config_identity(&bad_date),
            Err(ConfigProblem::CreatedAt)
        );
        let number_date = GOOD.replace("\"2026-08-01T00:00:00.000Z\"", "0");
        assert_eq!(
            check_config_identity(&number_date),
            Err(ConfigProblem::CreatedAt)
        );
        let tools = GOOD.replace("[\"claude-code\", \"codex\", \"cursor\"]", "[\"a\", 1]");
        assert_eq!(check_config_identity(&tools), Err(ConfigProblem::AiTools));
        let tools = GOOD.replace("[\"claude-code\", \"codex\", \"cursor\"]", "\"a\"");
        assert_eq!(check_config_identity(&tools), Err(ConfigProblem::AiTools));
        let vault = GOOD.replace("\"vault_path\": null", "\"vault_path\": false");
        assert_eq!(check_config_identity(&vault), Err(ConfigProblem::VaultPath));
        let flag = GOOD.replace(
            "\"vault_path\": null",
            "\"vault_path\": null, \"skills_first\": \"yes\"",
        );
        assert_eq!(
            check_config_identity(&flag),
            Err(ConfigProblem::SkillsFirst)
        );
        assert_eq!(ConfigProblem::SkillsFirst.field(), "skills_first");
    }

    #[test]
    fn canonical_timestamps() {
        for ok in [
            "2026-08-01T00:00:00.000Z",
            "2024-02-29T23:59:59.999Z",
            "2000-02-29T12:00:00.000Z",
            "0000-01-01T00:00:00.000Z",
            "9999-12-31T23:59:59.999Z",
            "+010000-01-01T00:00:00.000Z",
            "-000001-01-01T00:00:00.000Z",
            "+275760-09-13T00:00:00.000Z",
            "-271821-04-20T00:00:00.000Z",
            "-271821-04-20T00:00:00.001Z",
        ] {
            assert!(is_canonical_iso_timestamp(ok), "{ok}");
        }
        for bad in [
            "2026-08-01T00:00:00Z",
            "2026-08-01T00:00:00.00Z",
            "2026-08-01T00:00:00.000+00:00",
            "2026-08-01 00:00:00.000Z",
            "2026-08-01",
            "2026-02-29T00:00:00.000Z",
            "1900-02-29T00:00:00.000Z",
            "2026-04-31T00:00:00.000Z",
            "2026-13-01T00:00:00.000Z",
            "2026-00-01T00:00:00.000Z",
            "2026-08-00T00:00:00.000Z",
            "2026-08-01T24:00:00.000Z",
            "2026-08-01T23:60:00.000Z",
            "2026-08-01T23:59:60.000Z",
            "+002026-08-01T00:00:00.000Z",
            "-000000-01-01T00:00:00.000Z",
            "+275760-09-13T00:00:00.001Z",
            "+275760-09-14T00:00:00.000Z",
            "-271821-04-19T23:59:59.999Z",
            " 2026-08-01T00:00:00.000Z",
            "２026-08-01T00:00:00.000Z",
        ] {
            assert!(!is_canonical_iso_timestamp(bad), "{bad}");
        }
    }
}
