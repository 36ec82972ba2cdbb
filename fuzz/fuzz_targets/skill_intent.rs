//! Skill routing (contract 04 §3) and the `resolve_skill` payload fit (contract 04 §6.5).
//!
//! Input: `<intent>\n<trigger>\n<trigger>…`: the first line is the intent; the other lines
//! become the triggers (and the description) of one extra skill beside a fixed catalog
//! modelled on the sample folder's skills.
//!
//! Checks: no panic; every match scores at least 0.05 and is finite; matches are in
//! descending score order; an intent naming a skill ranks it first with the exact score; the
//! first match's fit is at least the routing threshold (contract 04 §3.2) and its confidence
//! lies in [0, 1]; a fitted payload is within its budget, its `budget.used` is its own UTF-16
//! length, and it is valid JSON.
#![no_main]
#![forbid(unsafe_code)]

use dotaios_core::skills::{
    BudgetHint, MatchUri, MemoryFields, PayloadError, ROUTE_THRESHOLD, Reason, Skill, confidence,
    fit_payload, rank, round_score,
};
use dotaios_core::text::{js_trim, utf16_len};
use dotaios_fuzz::parse_json;
use libfuzzer_sys::fuzz_target;

fn skill(dir: &str, description: &str, triggers: &[&str]) -> Skill {
    Skill::new(dir, description, triggers)
}

fn catalog(extra: Vec<String>) -> Vec<Skill> {
    let mut skills = vec![
        skill(
            "client-update",
            "Draft the weekly status email for a client from the project README.",
            &[
                "write a client update",
                "weekly status email",
                "update jonas",
            ],
        ),
        skill(
            "closeday",
            "Close out today's daily note, record what shipped, stage carry-over items.",
            &[
                "close the day",
                "wrap up today",
                "end of day",
                "log what I shipped",
            ],
        ),
        skill(
            "plan-today",
            "Plan the day from priorities, active work, and recent signals.",
            &[
                "plan my day",
                "what should I work on",
                "structure today",
                "what's my focus today",
            ],
        ),
        skill(
            "weekly-review",
            "Review the last week of memory, daily notes, projects, and priorities.",
            &["weekly review", "review my week", "reflect on the week"],
        ),
        skill("café-ü", "", &[]),
    ];
    let mut fuzzed = skill("fuzz-skill", &extra.join(" "), &[]);
    fuzzed.triggers = extra;
    skills.push(fuzzed);
    skills
}

fuzz_target!(|text: &str| {
    let mut lines = text.split('\n');
    let intent = lines.next().unwrap_or("");
    let triggers: Vec<String> = lines
        .map(js_trim)
        .filter(|trigger| !trigger.is_empty())
        .map(str::to_owned)
        .collect();
    let skills = catalog(triggers);
    let ranked = rank(intent, &skills);

    for pair in ranked.windows(2) {
        assert!(pair[0].score >= pair[1].score, "out of order");
    }
    for entry in &ranked {
        assert!(
            entry.score.is_finite() && entry.score >= 0.05,
            "{}",
            entry.score
        );
        assert!(round_score(entry.score).is_finite());
        assert_eq!(entry.reason == Reason::ExactName, entry.score >= 100.0);
    }
    let wanted = js_trim(&intent.to_lowercase()).to_owned();
    if let Some(named) = skills.iter().position(|s| s.name.to_lowercase() == wanted) {
        let first = ranked.first().expect("an exact name matches");
        assert_eq!(first.reason, Reason::ExactName);
        assert!(
            ranked
                .iter()
                .any(|entry| std::ptr::eq(entry.skill, &skills[named]))
        );
    }
    match confidence(&ranked) {
        None => assert!(ranked.is_empty()),
        Some(value) => {
            assert!((0.0..=1.0).contains(&value), "{value}");
            assert!(ranked[0].fit() >= ROUTE_THRESHOLD);
        }
    }

    let limit = 1 + text.len() % 10;
    let budget = 256 + (text.len() * 997) % 31_745;
    let memory = MemoryFields {
        memory: "shared",
        receipt: "Memory: Shared",
        notice: None,
    };
    let admitted = &ranked[..ranked.len().min(limit)];
    match fit_payload(
        intent,
        admitted,
        memory,
        budget,
        BudgetHint::State,
        MatchUri::State,
        None,
    ) {
        Ok(payload) => {
            assert_eq!(payload.used, utf16_len(&payload.text));
            assert!(payload.used <= budget);
            assert!(payload.matches <= admitted.len());
            let value = parse_json(&payload.text).expect("the payload is JSON");
            assert_eq!(value["budget"]["used"].as_u64(), Some(payload.used as u64));
            assert_eq!(
                value["matches"].as_array().map(Vec::len),
                Some(payload.matches)
            );
        }
        Err(PayloadError::BudgetTooSmall { .. }) => {}
        Err(PayloadError::Unstable) => panic!("budget.used did not settle"),
    }
});
