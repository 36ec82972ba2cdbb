//! JavaScript-compatible text rules, shared by every module that measures, cuts, trims, orders
//! or serialises text the way the reference (a JavaScript program) does.
//!
//! **Unit:** every length, offset and budget here is in UTF-16 code units (JavaScript
//! `length`) unless a name says `code_point`; input maxima count code points (contract 01 §0).
//!
//! What it owns:
//! - JS whitespace and trims ([`is_js_space`], [`js_trim`], [`js_trim_start`], [`js_trim_end`]);
//! - UTF-16 measures and code-point-safe cuts of `&str` ([`utf16_len`], [`utf16_prefix`],
//!   [`utf16_slice`], [`clip_units`], …) and code-point measures ([`code_point_len`], …);
//! - [`JsString`], UTF-16 text that may hold a lone surrogate, for the working-context cuts
//!   that reproduce the reference's pair-splitting slices;
//! - `JSON.stringify`-identical output ([`to_json_compact`], [`to_json_pretty`],
//!   [`JsonWriter`], [`compact_json_text`]) and the JavaScript object model for parsed JSON ([`js_object_entries`],
//!   [`apply_js_key_order`], [`replace_lone_surrogate_escapes`]);
//! - the one JavaScript-faithful JSON reader ([`read_json`] into [`JsonValue`]: `JSON.parse`'s
//!   grammar, member order, number text kept, a lone-surrogate policy, the nesting limit and
//!   an optional value budget), which the adapter's requests and `connect` read with;
//! - the one bounded `serde_json` read ([`serde_read`], [`serde_read_with`]: the nesting
//!   pre-check, the lone-surrogate policy, then `serde_json`; [`serde_read_line`] adds an item
//!   ceiling and keeps numbers beyond the double range, for search's JSONL lines), which every
//!   reader of untrusted JSON into `serde_json` types goes through (JSONL, `aios.json`, the
//!   migration journal and receipt, the adapter client's answers);
//! - JavaScript number printing and rounding ([`js_number_to_string`], [`js_math_round`],
//!   [`round_thousandths`], [`js_to_fixed`]) and value conversions ([`js_truthy`],
//!   [`js_string_of`]);
//! - JavaScript `Date.parse` for the ECMAScript date-time string format (`js_date_parse`,
//!   crate-internal), with the one local-time conversion (`local_time_to_utc`): a date-time
//!   without an offset is local time in a `jiff` time zone the caller passes;
//! - the one ISO-8601 timestamp formatter, `Date.prototype.toISOString` on `jiff`
//!   ([`iso_string`] for a time value, [`iso_utc`] for an instant);
//! - the closest name for a typo ([`did_you_mean`]);
//! - the one display rule for a name taken from the folder ([`escape_name`]: format and control
//!   characters as `\u{…}`, Markdown characters backslash-escaped in Markdown; [`escape_os_name`]
//!   for a listed name that may not be UTF-8, its stray bytes as `\xHH`);
//! - orders: [`collate`] (ICU root collation, where the reference used `localeCompare`) and
//!   [`utf16_cmp`] (JavaScript's default `sort`).
//!
//! **Invariant:** pure functions only: no I/O, no environment, no global state except the
//! collator built once on first use. Nothing here knows about DotAIOS files or payload shapes.

mod collate;
mod iso_date;
mod js_date;
mod js_string;
mod json;
mod json_read;
mod name;
mod nesting;
mod number;
mod serde_read;
mod space;
mod suggest;
mod utf16;
mod value;

pub use self::collate::collate;
pub use self::iso_date::{iso_string, iso_utc};
pub(crate) use self::js_date::js_date_parse;
pub use self::js_string::JsString;
pub use self::json::{
    JsonLayout, JsonWriter, apply_js_key_order, compact_json_text, is_array_index,
    js_object_entries, json_quote, push_json_string, replace_lone_surrogate_escapes, to_json,
    to_json_canonical, to_json_compact, to_json_pretty,
};
pub use self::json_read::{
    JsonNumber, JsonObject, JsonReadError, JsonReadOptions, JsonValue, LoneSurrogates, read_json,
};
pub use self::name::{NameOutput, escape_name, escape_os_name, is_invisible_in_names};
pub use self::nesting::{JsonBound, MAX_NESTING, json_nesting_ok, json_within};
pub use self::number::{
    js_math_round, js_number_of, js_number_to_string, js_to_fixed, round_thousandths,
};
pub use self::serde_read::{SerdeReadError, serde_read, serde_read_line, serde_read_with};
pub use self::space::{is_js_space, js_trim, js_trim_end, js_trim_start};
pub use self::suggest::did_you_mean;
pub use self::utf16::{
    ELLIPSIS, char_utf16_len, clip_code_points, clip_units, clip_units_trim_end, code_point_len,
    code_point_prefix, utf16_cmp, utf16_floor, utf16_len, utf16_prefix, utf16_slice,
};
pub use self::value::{js_string_of, js_truthy};
