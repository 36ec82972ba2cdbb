//! The agent's view of the one relevance order (contract 03 §9): the exact `results` of
//! `search_aios` at MCP defaults for a few fixed queries over a fixed folder, through the
//! built adapter (the same `dotaios_mcp::run` as `dotaios-mcp`).

mod support;

use serde_json::{Value, json};
use support::{Fixture, call, payload};

fn folder() -> Fixture {
    let fixture = Fixture::init();
    fixture.write(
        "vault/security/api-key-rotation.md",
        "# API key rotation\n\nRotate the production keys every 90 days.\nRevoke the old key after the deploy.\n",
    );
    fixture.write(
        "vault/food/chickpea-curry.md",
        "# Chickpea curry\n\nHow I cook it: the onions first, then the spices.\n",
    );
    fixture.write(
        "vault/ops/pod-eviction.md",
        "# Notes on pod eviction\n\nDrain the node before the upgrade.\n",
    );
    fixture.write(
        "vault/car/service.md",
        "# Car service\n\nNew tyres. Unrelated: read about pod eviction later.\n",
    );
    fixture.write(
        "vault/people/jurgen.md",
        "# Jürgen Müller\n\nMet at the Berlin meetup; works on deployments.\n",
    );
    fixture.write(
        "memory/events.jsonl",
        "{\"ts\":\"2026-11-30T10:00:00Z\",\"type\":\"note\",\"summary\":\"Asked about the api\"}\n",
    );
    fixture
}

/// `(scope, source, first snippet kind)` of every result, in order.
fn shown(fixture: &Fixture, query: &str) -> Vec<(String, String, String)> {
    let answer = payload(&fixture.response(call(1, "search_aios", json!({"query": query}))));
    answer["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| {
            let text = |value: &Value| value.as_str().unwrap_or("").to_owned();
            let kind = item["matches"].get(0).map_or_else(
                || text(&item["match"]["kind"]),
                |first| text(&first["match"]),
            );
            (text(&item["scope"]), text(&item["source"]), kind)
        })
        .collect()
}

fn row(scope: &str, source: &str, kind: &str) -> (String, String, String) {
    (scope.to_owned(), source.to_owned(), kind.to_owned())
}

#[test]
fn a_question_finds_the_key_rotation_note_first() {
    let fixture = folder();
    assert_eq!(
        shown(&fixture, "how do I rotate the api keys"),
        [
            row("vault", "vault/security/api-key-rotation.md", "terms"),
            row("memory", "memory/events.jsonl", "partial"),
        ]
    );
}

#[test]
fn accents_fold_and_titles_beat_passing_mentions() {
    let fixture = folder();
    assert_eq!(
        shown(&fixture, "jurgen muller"),
        [row("vault", "vault/people/jurgen.md", "phrase")]
    );
    assert_eq!(
        shown(&fixture, "pod eviction"),
        [
            row("vault", "vault/ops/pod-eviction.md", "phrase"),
            row("vault", "vault/car/service.md", "phrase"),
        ]
    );
    assert_eq!(
        shown(&fixture, "deploy"),
        // One passing mention each: the shorter note wins on length normalisation, the stem
        // match (`deployments`) shown as `inflected`.
        [
            row("vault", "vault/people/jurgen.md", "inflected"),
            row("vault", "vault/security/api-key-rotation.md", "phrase"),
        ]
    );
}

#[test]
fn an_ideograph_run_finds_its_words_written_apart() {
    let fixture = folder();
    fixture.write("vault/marketing/wechat-ads.md", "# 微信广告\n\n预算。\n");
    fixture.write("vault/marketing/plan.md", "# 计划\n\n微信上的广告很贵。\n");
    // The note holding the run is a phrase and comes first; the one that writes 微信 and 广告
    // apart holds two of the three neighbouring pairs (contract 03 §5.1).
    assert_eq!(
        shown(&fixture, "微信广告"),
        [
            row("vault", "vault/marketing/wechat-ads.md", "phrase"),
            row("vault", "vault/marketing/plan.md", "partial"),
        ]
    );
}
