//! Shared pieces of the fuzz targets: a private copy of the sample AIOS folder for the targets
//! that need a real folder (search, the MCP adapter), the JSON reading every reader uses, and a
//! number-tolerant JSON equality.
//!
//! Fuzz support only: never built by the main workspace, never shipped. It must not change the
//! code under test; everything here goes through the crates' public APIs.
#![forbid(unsafe_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use dotaios_core::text::replace_lone_surrogate_escapes;
use serde_json::Value;

/// The repository's sample folder, copied once per fuzzing process.
const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/aios");

/// A private copy of `examples/aios` below the system temporary directory, made once per
/// process (`<tmp>/dotaios-fuzz-<name>-<pid>/aios`). The targets only read it; `run.sh`
/// removes these directories afterwards. The returned path is absolute, so any output that
/// contains it has leaked a machine path.
pub fn sample_folder(name: &str) -> &'static Path {
    static FOLDER: OnceLock<PathBuf> = OnceLock::new();
    FOLDER.get_or_init(|| {
        let base = std::env::temp_dir().join(format!("dotaios-fuzz-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&base);
        let aios = base.join("aios");
        copy_tree(Path::new(SAMPLE), &aios).expect("copy the sample folder");
        aios
    })
}

fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else if kind.is_file() {
            fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// Parses one JSON text as every reader does (`JSON.parse` semantics: lone-surrogate escapes
/// become U+FFFD first). The readers' own line parsers are crate-private; this is the same
/// two public steps.
pub fn parse_json(text: &str) -> Option<Value> {
    serde_json::from_str(&replace_lone_surrogate_escapes(text)).ok()
}

/// `JSON.parse` equality of two values: numbers compare as IEEE doubles (JavaScript has no
/// integer type, so `1`, `1.0` and `1e0` are the same value), objects compare as maps.
pub fn js_equal(left: &Value, right: &Value) -> bool {
    match (left, right) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
        (Value::String(a), Value::String(b)) => a == b,
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| js_equal(x, y))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(key, x)| b.get(key).is_some_and(|y| js_equal(x, y)))
        }
        _ => false,
    }
}

/// Splits fuzz input into at most `n` text fields separated by `\n` (the last field keeps any
/// further line breaks). Seeds stay readable this way.
pub fn fields(text: &str, n: usize) -> Vec<&str> {
    let mut parts: Vec<&str> = text.splitn(n, '\n').collect();
    parts.resize(n, "");
    parts
}
