//! Inputs the fuzz targets (`fuzz/`) found, kept as regression tests.

use dotaios_core::folder::frontmatter::parse_mapping;

/// `frontmatter` target: a tag made the YAML loader see two keys where readers see one.
#[test]
fn a_tagged_key_still_duplicates_an_untagged_one() {
    for yaml in ["a:\n! a:", "a: 1\n!foo a: 2", "x: {a: 1, ! a: 2}"] {
        assert!(parse_mapping(yaml).is_err(), "{yaml:?}");
    }
    assert!(parse_mapping("a: 1\n!foo b: 2").is_ok());
}
