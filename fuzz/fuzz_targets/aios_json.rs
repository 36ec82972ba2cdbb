//! `aios.json` parsing (contract 01 §3.1, §8.1): the `JSON.parse`-like object reader, the strict
//! identity check `doctor` grades the file with, and the schema version.
//!
//! Checks: no panic; the two readers agree on what is an object; a config that passes the
//! identity check really has every required field in the required shape; a parsed schema
//! version round-trips through its text.
#![no_main]
#![forbid(unsafe_code)]

use dotaios_core::folder::config::{
    ConfigProblem, SchemaVersion, check_config_identity, is_canonical_iso_timestamp,
    parse_config_object, schema_support,
};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|text: &str| {
    let object = parse_config_object(text);
    let identity = check_config_identity(text);
    assert_eq!(
        object.is_none(),
        identity == Err(ConfigProblem::NotObject),
        "parse_config_object and check_config_identity disagree on {text:?}"
    );
    match &identity {
        // The repeated key may be any string, the empty one included.
        Err(ConfigProblem::DuplicateKey(key)) => {
            assert_eq!(
                identity.as_ref().err().map(ConfigProblem::field),
                Some(key.as_str())
            );
            assert!(object.as_ref().is_some_and(|o| o.contains_key(key)));
        }
        Err(problem) => assert!(!problem.field().is_empty()),
        Ok(()) => {}
    }
    if identity.is_ok() {
        let object = object
            .as_ref()
            .expect("an identity-valid config is an object");
        let created = object["created_at"]
            .as_str()
            .expect("created_at is a string");
        assert!(is_canonical_iso_timestamp(created));
        assert!(
            object["ai_tools"]
                .as_array()
                .is_some_and(|tools| tools.iter().all(Value::is_string))
        );
        assert!(matches!(
            object["vault_path"],
            Value::String(_) | Value::Null
        ));
        assert!(object.contains_key("schema_version"));
        assert!(object.get("skills_first").is_none_or(Value::is_boolean));
    }
    if let Some(object) = &object
        && let Some(version) = SchemaVersion::of_config(object)
    {
        assert_eq!(
            SchemaVersion::parse(version.as_str()).as_ref(),
            Some(&version)
        );
        let _ = schema_support(&version);
    }
    if let Some(version) = SchemaVersion::parse(text) {
        assert_eq!(version.as_str(), text);
        assert!(!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit() || b == b'.'));
        let _ = schema_support(&version);
    }
    if is_canonical_iso_timestamp(text) {
        assert!(text.len() == 24 || text.len() == 27, "{text:?}");
        assert!(text.ends_with('Z'));
    }
});
