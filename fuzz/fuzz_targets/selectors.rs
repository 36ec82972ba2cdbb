//! Project selectors (contract 01 §6.4) and the memory policy (contract 01 §7).
//!
//! Input: `<kinds byte><mode>\n<project>\n<first user message>`; the first byte chooses, for
//! each of the three policy inputs, absent, text or not-text.
//!
//! Checks: no panic; the working-context filter is the JS-trimmed input and within bounds; a
//! canonical selector also passes the looser filter unchanged and is one safe path component;
//! every slug within the bound is a canonical selector; a resolved policy keeps a selector
//! exactly in project mode, and explicit Off always wins.
#![no_main]
#![forbid(unsafe_code)]

use dotaios_contained::RelPath;
use dotaios_core::folder::memory::{
    MemoryMode, MemoryPolicyError, PolicyArg, PolicyInputs, first_message_mode,
    resolve_memory_policy,
};
use dotaios_core::folder::selector::{
    MAX_SELECTOR_CODE_POINTS, WorkingContextSelectorError, check_canonical_selector,
    check_working_context_selector, is_project_slug,
};
use dotaios_core::text::{code_point_len, js_trim};
use dotaios_fuzz::fields;
use libfuzzer_sys::fuzz_target;

fn check_selector(raw: &str) {
    let too_long = code_point_len(raw) > MAX_SELECTOR_CODE_POINTS;
    match check_working_context_selector(raw) {
        Ok(filter) => {
            assert!(!too_long);
            assert_eq!(filter, js_trim(raw));
            assert!(!filter.is_empty());
            assert!(!raw.chars().any(char::is_control));
        }
        Err(WorkingContextSelectorError::TooLong) => assert!(too_long),
        Err(_) => assert!(!too_long),
    }
    if check_canonical_selector(raw).is_ok() {
        assert_eq!(check_working_context_selector(raw), Ok(raw));
        let path = RelPath::new(raw).expect("a canonical selector is a safe path component");
        assert_eq!(path.components().count(), 1);
    }
    // The slug grammar has no length bound of its own; the selector bound still applies.
    if is_project_slug(raw) && !too_long {
        assert!(
            check_canonical_selector(raw).is_ok(),
            "slug {raw:?} refused"
        );
    }
}

fn arg(kind: u8, text: &str) -> PolicyArg<'_> {
    match kind % 3 {
        0 => PolicyArg::Absent,
        1 => PolicyArg::Text(text),
        _ => PolicyArg::NotText,
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&kinds, rest)) = data.split_first() else {
        return;
    };
    let Ok(rest) = std::str::from_utf8(rest) else {
        return;
    };
    check_selector(rest);
    let parts = fields(rest, 3);
    check_selector(parts[1]);

    let inputs = PolicyInputs {
        mode: arg(kinds, parts[0]),
        project: arg(kinds / 3, parts[1]),
        first_user_message: arg(kinds / 9, parts[2]),
    };
    match resolve_memory_policy(inputs) {
        Ok(policy) => {
            assert_eq!(
                policy.project_selector.is_some(),
                policy.mode == MemoryMode::Project
            );
            if let Some(selector) = &policy.project_selector {
                assert_eq!(inputs.project, PolicyArg::Text(selector));
                assert!(!selector.is_empty());
            }
            if inputs.mode == PolicyArg::Text("off") {
                assert_eq!(policy.mode, MemoryMode::Off);
            }
            assert_eq!(policy.notice().is_some(), policy.mode == MemoryMode::Off);
            assert_eq!(policy.receipt(), policy.mode.receipt());
            if let PolicyArg::Text(message) = inputs.first_user_message
                && let Some(asked) = first_message_mode(message)
                && inputs.mode != PolicyArg::Text("off")
            {
                assert_eq!(policy.mode, asked);
            }
        }
        Err(MemoryPolicyError::InvalidProject) => {
            assert!(matches!(
                inputs.project,
                PolicyArg::NotText | PolicyArg::Text("")
            ));
        }
        Err(MemoryPolicyError::InvalidMode) => {
            assert!(
                !matches!(inputs.mode, PolicyArg::Text(text) if MemoryMode::from_wire(text).is_some())
            );
        }
        Err(error) => assert_eq!(error.code(), "DOTAIOS_MEMORY_POLICY_INVALID"),
    }
});
