//! The migration journal and receipt as `migrate` reads them back (contract 01 §9.5, §9.7 step
//! 5): `dotaios_cli::parsers::Journal::parse`, the validation recovery runs on
//! `transactions/<id>/journal.json`, and `check_receipt`, the check of `receipts/<id>.json`.
//!
//! Input: `<directory name>\n<document>`; the document is also tried under its own `plan_id`.
//!
//! Checks: no panic; a parsed journal keeps the directory name as its plan id, has only
//! writable operation paths, modes within `0o777`, a `before_sha256` exactly for a replace;
//! a journal with every mode recorded (what this writer writes) is read back unchanged from its
//! own bytes; a valid receipt has the receipt schema, the plan id and a `to_schema_version`
//! whose text is the summary's.
#![no_main]
#![forbid(unsafe_code)]

use dotaios_cli::parsers::{Journal, check_receipt};
use dotaios_core::folder::plan::{Action, check_writable};
use dotaios_fuzz::{fields, parse_json};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|text: &str| {
    let parts = fields(text, 2);
    let (name, document) = (parts[0], parts[1]);
    let own_id = parse_json(document).and_then(|value| {
        value
            .get("plan_id")
            .and_then(Value::as_str)
            .map(str::to_owned)
    });
    for dir_name in [Some(name), own_id.as_deref()].into_iter().flatten() {
        check_journal(document, dir_name);
        check_one_receipt(document, dir_name);
    }
});

fn check_journal(document: &str, dir_name: &str) {
    let Some(journal) = Journal::parse(document, dir_name) else {
        return;
    };
    assert_eq!(journal.plan_id, dir_name);
    let mut all_modes = true;
    for operation in &journal.operations {
        assert!(
            check_writable(&operation.path).is_ok(),
            "{:?}",
            operation.path
        );
        assert_eq!(
            operation.before_sha256.is_some(),
            operation.action == Action::Replace
        );
        assert_eq!(
            operation.backup_path().is_some(),
            operation.action == Action::Replace
        );
        for mode in [operation.before_mode, operation.after_mode]
            .into_iter()
            .flatten()
        {
            assert!(mode <= 0o777);
        }
        let before_recorded = operation.action == Action::Create || operation.before_mode.is_some();
        all_modes &= operation.after_mode.is_some() && before_recorded;
    }
    let bytes = journal.to_bytes();
    let text = std::str::from_utf8(&bytes).expect("the journal writer writes UTF-8");
    assert!(text.ends_with("}\n"));
    if all_modes {
        assert_eq!(
            Journal::parse(text, dir_name).as_ref(),
            Some(&journal),
            "{text}"
        );
    }
}

fn check_one_receipt(document: &str, plan_id: &str) {
    let Some(summary) = check_receipt(document, plan_id) else {
        return;
    };
    let receipt = parse_json(document).expect("a valid receipt is JSON");
    assert_eq!(receipt["schema"], "dotaios.migration-receipt.v1");
    assert_eq!(receipt["plan_id"].as_str(), Some(plan_id));
    assert_eq!(
        receipt["to_schema_version"].as_str(),
        Some(summary.to.as_str())
    );
}
