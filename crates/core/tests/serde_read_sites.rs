//! Every reader of untrusted JSON into `serde_json` types in core, the adapter and the CLI goes
//! through `dotaios_core::text::serde_read` (the nesting limit, the lone-surrogate policy, then
//! `serde_json`, in one place): outside that module no product code calls `serde_json`'s text
//! entry points, the nesting pre-check or the surrogate rewrite. Test modules may.
#![expect(
    clippy::disallowed_methods,
    reason = "the test reads the workspace's own source files, not an AIOS folder"
)]

use std::fs;
use std::path::{Path, PathBuf};

/// The calls that make up the sequence, or start a `serde_json` read of text.
const STEPS: [&str; 8] = [
    "serde_json::from_str",
    "serde_json::from_slice",
    "serde_json::from_reader",
    "Deserializer::from_str",
    "Deserializer::from_slice",
    "json_nesting_ok(",
    "json_within(",
    "replace_lone_surrogate_escapes(",
];

/// Files allowed to hold a step, each for one reason.
const HOMES: [(&str, &str); 5] = [
    ("core/src/text/serde_read.rs", "the sequence's one home"),
    ("core/src/text/nesting.rs", "defines the nesting pre-check"),
    ("core/src/text/json.rs", "defines the surrogate rewrite"),
    (
        "cli/src/package_install.rs",
        "reads the installed package's own package.json, not folder content",
    ),
    (
        "cli/src/commands/demo.rs",
        "reads back the text this binary's adapter just answered",
    ),
];

fn rust_files(dir: &Path, into: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("list {}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, into);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            into.push(path);
        }
    }
}

/// The file's text up to its test module (`#[cfg(test)]` followed by `mod`).
fn product_part(text: &str) -> &str {
    let mut offset = 0;
    let mut lines = text.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        if line.trim_end() == "#[cfg(test)]"
            && lines
                .peek()
                .is_some_and(|next| next.trim_start().starts_with("mod "))
        {
            return &text[..offset];
        }
        offset += line.len();
    }
    text
}

#[test]
fn every_serde_json_read_goes_through_serde_read() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    let mut files = 0;
    for name in ["core", "mcp", "cli"] {
        let mut paths = Vec::new();
        rust_files(&crates.join(name).join("src"), &mut paths);
        for path in paths {
            files += 1;
            let relative = path
                .strip_prefix(&crates)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if HOMES.iter().any(|(home, _)| *home == relative) {
                continue;
            }
            let text = fs::read_to_string(&path).unwrap();
            for (number, line) in product_part(&text).lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                if let Some(step) = STEPS.iter().find(|step| code.contains(*step)) {
                    found.push(format!("{relative}:{}: {step}", number + 1));
                }
            }
        }
    }
    assert!(files > 100, "only {files} source files found");
    assert!(
        found.is_empty(),
        "JSON read outside core::text::serde_read:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_test_part_is_cut_at_the_test_module() {
    let text = "a\n#[cfg(test)]\nfn helper() {}\nb\n#[cfg(test)]\nmod tests {\nc\n}\n";
    assert_eq!(product_part(text), "a\n#[cfg(test)]\nfn helper() {}\nb\n");
    assert_eq!(product_part("a\nb\n"), "a\nb\n");
}
