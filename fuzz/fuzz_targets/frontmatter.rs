//! Frontmatter split (contract 01 §3.7) and strict YAML parsing on arbitrary UTF-8.
//!
//! Checks: no panic; the block is a `---` header with a suffix body; the whole-text split and
//! the end-of-file prefix split agree; a block closed inside a shorter prefix is the block of
//! the whole text; a parsed mapping never repeats a string key.
#![no_main]
#![forbid(unsafe_code)]

use dotaios_core::folder::frontmatter::{
    YamlValue, body_of, parse_mapping, parse_yaml, split_frontmatter, split_frontmatter_prefix,
};
use libfuzzer_sys::fuzz_target;

fn offset(whole: &str, part: &str) -> usize {
    part.as_ptr() as usize - whole.as_ptr() as usize
}

fn check_value(value: &YamlValue) {
    match value {
        YamlValue::Mapping(mapping) => {
            let keys: Vec<&str> = mapping.iter().filter_map(|(key, _)| key.as_str()).collect();
            for (index, key) in keys.iter().enumerate() {
                assert!(!keys[..index].contains(key), "duplicate string key {key:?}");
            }
            assert_eq!(mapping.len(), mapping.iter().count());
            mapping.iter().for_each(|(key, value)| {
                check_value(key);
                check_value(value);
            });
        }
        YamlValue::Sequence(items) => items.iter().for_each(check_value),
        _ => {}
    }
}

fuzz_target!(|text: &str| {
    let whole = split_frontmatter(text);
    assert_eq!(split_frontmatter_prefix(text, true), whole);
    match whole {
        Some(block) => {
            assert!(text.starts_with("---\n") || text.starts_with("---\r\n"));
            assert!(text.ends_with(block.body));
            assert!(offset(text, block.yaml) + block.yaml.len() + 4 <= offset(text, block.body));
            assert_eq!(body_of(text), block.body);
            if let Ok(mapping) = parse_mapping(block.yaml) {
                check_value(&YamlValue::Mapping(mapping));
            }
        }
        None => assert_eq!(body_of(text), text),
    }

    // A block closed inside a prefix (that is not the end of the file) is the whole text's.
    let mut cut = text.len() / 2;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    if let Some(early) = split_frontmatter_prefix(&text[..cut], false) {
        let block = whole.expect("a block closed in a prefix closes the whole text");
        assert_eq!(early.yaml, block.yaml);
        assert_eq!(offset(&text[..cut], early.body), offset(text, block.body));
    }

    // The YAML parser on the raw text as well: a README's frontmatter is attacker-shaped.
    if let Ok(value) = parse_yaml(text) {
        check_value(&value);
    }
    let _ = parse_mapping(text);
});
