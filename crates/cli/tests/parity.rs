//! Behaviour the reference 2.0.19 fixes, through the built binaries (contract 02 §12, §14.4;
//! 01 §6.1; 04 §3.3, §6.4): the `coverage` member of `read_working_context` equal to the hook
//! JSON's `contextCoverage`, Project mode beside an over-cap sibling README, and the
//! `confidence`/`ambiguous` members of every `resolve_skill` match with the routing they
//! guard. Each case runs `dotaios init` into a fresh temporary folder.
#![allow(
    clippy::disallowed_methods,
    reason = "tests build and inspect their folders with std::fs"
)]

mod support;

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use support::{Adapter, dotaios, texts};

const README_CAP: usize = 1 << 20;

struct World {
    temp: tempfile::TempDir,
}

impl World {
    fn init() -> World {
        let temp = tempfile::tempdir().unwrap();
        std::fs::create_dir(temp.path().join("home")).unwrap();
        let world = World { temp };
        let output = world
            .cli(&["init", "--yes"])
            .arg("--path")
            .arg(world.aios())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{:?}", texts(&output));
        world
    }

    fn aios(&self) -> PathBuf {
        self.temp.path().join("aios")
    }

    fn cli(&self, args: &[&str]) -> Command {
        let mut command = dotaios(&self.temp.path().join("home"));
        command.env("TZ", "UTC").args(args);
        command
    }

    /// `dotaios args… --path <aios>`.
    fn run(&self, args: &[&str]) -> Output {
        self.cli(args)
            .arg("--path")
            .arg(self.aios())
            .output()
            .unwrap()
    }

    fn write(&self, relative: &str, bytes: impl AsRef<[u8]>) {
        let path = self.aios().join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }

    /// One `tools/call` per `(tool, arguments)` to `dotaios-mcp --path <aios>`; the payloads
    /// (the parsed result text) in order. A JSON-RPC error fails the test.
    fn tools(&self, calls: &[(&str, Value)]) -> Vec<Value> {
        let adapter = Adapter {
            aios: &self.aios(),
            home: &self.temp.path().join("home"),
            zone: "UTC",
        };
        adapter.payloads(calls)
    }

    fn resolve(&self, intent: &str, limit: u64) -> Vec<Value> {
        let payload = self
            .tools(&[("resolve_skill", json!({"intent": intent, "limit": limit}))])
            .remove(0);
        payload["matches"].as_array().unwrap().clone()
    }
}

fn project_readme(id: &str, slug: &str, body: &str) -> String {
    format!("---\nid: {id}\nproject: {slug}\ndescription: Overview.\n---\n# Demo\n\n{body}\n")
}

fn hook_json(world: &World, project: &str, budget: u64) -> Value {
    let budget = budget.to_string();
    let output = world.run(&[
        "brief",
        "--compact",
        "--json",
        "--project",
        project,
        "--budget",
        &budget,
    ]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    serde_json::from_str(&stdout).unwrap()
}

/// The reference's "MCP and hook JSON agree on bounded selected README coverage": for a short
/// and a clipped README, at budgets 256 and 6000.
#[test]
fn mcp_coverage_is_the_hook_json_coverage() {
    let world = World::init();
    for (body, clipped) in [
        ("Short constraint \u{1f680}.".to_owned(), false),
        ("Background \u{1f680}. ".repeat(120), true),
    ] {
        let readme = project_readme("coverage-id", "coverage-demo", &body);
        world.write("projects/coverage-demo/README.md", readme.as_str());
        let digest: String = Sha256::digest(readme.as_bytes())
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect();
        let provenance =
            format!("\n> Source: projects/coverage-demo/README.md (excerpt; sha256:{digest})");
        for budget in [256, 6000] {
            let payload = world
                .tools(&[(
                    "read_working_context",
                    json!({"project": "coverage-demo", "budget": budget}),
                )])
                .remove(0);
            let hook = hook_json(&world, "coverage-demo", budget);
            let coverage = &payload["coverage"];
            assert_eq!(coverage, &hook["contextCoverage"], "budget {budget}");
            assert_eq!(
                coverage["selectedProjectReadme"],
                // At 256 neither block fits: the short one is 124 units, its provenance line
                // 126 more, and the 26-unit marker is reserved beside it (contract 02 §9, §10).
                json!({"excerptClipped": clipped, "budgetOmitted": budget == 256})
            );
            assert_eq!(payload["budget"], hook["contextBudget"]);
            let markdown = payload["markdown"].as_str().unwrap();
            // The README block ends with its provenance line exactly when it was shown.
            assert_eq!(
                markdown.ends_with(&provenance),
                budget == 6000,
                "{markdown}"
            );
            assert_eq!(markdown.contains("### Active Project"), budget == 6000);
            let expected = match coverage["notice"].as_str() {
                Some(notice) => format!("{notice}\n\n{markdown}"),
                None => markdown.to_owned(),
            };
            assert_eq!(
                hook["hookSpecificOutput"]["additionalContext"],
                json!(expected)
            );
            // `coverage` is the last member, after `operational`.
            let keys: Vec<&String> = payload.as_object().unwrap().keys().collect();
            assert_eq!(keys.last().map(|key| key.as_str()), Some("coverage"));
            let bounded = serde_json::to_string_pretty(&json!({"coverage": coverage})).unwrap();
            assert!(bounded.len() <= 512, "{bounded}");
        }
    }
    // Shared mode has no coverage member.
    let shared = world
        .tools(&[("read_working_context", json!({}))])
        .remove(0);
    assert!(shared.get("coverage").is_none(), "{shared}");
}

fn oversized_sibling(world: &World) {
    world.write(
        "projects/selected/README.md",
        project_readme("selected-id", "selected", "SELECTED_PROJECT_CANARY"),
    );
    let mut sibling = project_readme("sibling-id", "sibling", "SIBLING_CANARY").into_bytes();
    sibling.resize(README_CAP + 1, b'a');
    world.write("projects/sibling/README.md", sibling);
}

/// The reference renders the selected project beside a sibling README of 1 MiB + 1 byte; the
/// sibling is reported in the coverage object, never rendered.
#[test]
fn project_mode_renders_the_selection_beside_an_over_cap_sibling() {
    let world = World::init();
    oversized_sibling(&world);
    let output = world.run(&[
        "brief",
        "--compact",
        "--memory",
        "project",
        "--project",
        "selected-id",
    ]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains("SELECTED_PROJECT_CANARY"), "{stdout}");
    assert!(!stdout.contains("SIBLING_CANARY"));

    let omitted = json!({"count": 1, "reason": "file_too_large"});
    let hook = hook_json(&world, "selected-id", 6000);
    assert_eq!(hook["contextCoverage"]["omittedProjectReadmes"], omitted);
    let payload = world
        .tools(&[(
            "read_working_context",
            json!({"memory": "project", "project": "selected-id"}),
        )])
        .remove(0);
    assert_eq!(payload["scope"]["project"], "selected");
    assert!(
        payload["markdown"]
            .as_str()
            .unwrap()
            .contains("SELECTED_PROJECT_CANARY")
    );
    assert_eq!(payload["coverage"], hook["contextCoverage"]);

    // Selecting the over-cap project itself, or anything only it could be, still fails; so
    // does shared mode, which renders every project.
    for args in [
        &["brief", "--compact", "--project", "sibling"][..],
        &["brief", "--compact", "--project", "sibling-id"],
        &["brief", "--compact"],
    ] {
        let output = world.run(args);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert_eq!(
            texts(&output).1,
            "DotAIOS could not read working context safely.\n"
        );
    }
}

/// `plan my day` on a fresh folder: the reference's test asks for a numeric `confidence` and
/// `ambiguous: false`, with the members in the reference's order.
#[test]
fn resolve_skill_matches_carry_confidence_and_ambiguous() {
    let world = World::init();
    let matches = world.resolve("plan my day", 3);
    let top = &matches[0];
    assert_eq!(top["name"], "plan-today");
    assert!(top["confidence"].is_number());
    assert_eq!(top["ambiguous"], false);
    for entry in &matches {
        let keys: Vec<&str> = entry
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "name",
                "description",
                "triggers",
                "score",
                "confidence",
                "ambiguous",
                "reason",
                "resource"
            ]
        );
    }
    // An exact name is certain.
    let exact = world.resolve("closeday", 1);
    assert_eq!(exact[0]["confidence"], 1);
    assert_eq!(exact[0]["ambiguous"], false);
}

fn write_skill(world: &World, dir: &str, description: &str, triggers: &[&str]) {
    let list: String = triggers
        .iter()
        .map(|trigger| format!("  - \"{trigger}\"\n"))
        .collect();
    world.write(
        &format!("skills/{dir}/SKILL.md"),
        format!("---\nname: {dir}\ndescription: {description}\ntriggers:\n{list}---\n# {dir}\n"),
    );
}

/// Two skills with the same trigger: both route, flagged ambiguous, each with half the fit a
/// lone match would have (contract 04 §3.3; the reference's separation alone was 0.5).
#[test]
fn near_equal_skills_are_ambiguous() {
    let world = World::init();
    write_skill(&world, "alpha-notes", "Alpha.", &["sort my inbox"]);
    write_skill(&world, "beta-notes", "Beta.", &["sort my inbox"]);
    let matches = world.resolve("sort my inbox", 2);
    assert_eq!(matches.len(), 2);
    for entry in &matches {
        assert_eq!(entry["ambiguous"], true, "{entry}");
        assert_eq!(entry["confidence"], 0.497, "{entry}");
    }
}

fn top_name(world: &World, intent: &str) -> Option<String> {
    world
        .resolve(intent, 1)
        .first()
        .map(|entry| entry["name"].as_str().unwrap().to_owned())
}

/// The false routes of issue 24 on the bundled skills of `init`, the inflection it names, and
/// the routes the reference's tests fix.
#[test]
fn routing_without_false_matches() {
    let world = World::init();
    // `what's` is one word: it shares no `s` with `today's`.
    assert_eq!(
        top_name(&world, "what's the weather in Lisbon tomorrow"),
        None
    );
    // Nothing in a poem request fits a skill of the catalog.
    assert_eq!(top_name(&world, "write a haiku about autumn"), None);
    // Stop words and function words alone never make a match.
    assert_eq!(top_name(&world, "what should I do about it"), None);
    assert_eq!(top_name(&world, "is it going to rain today"), None);
    // Inflections meet: `days` is `day`.
    write_skill(
        &world,
        "recap",
        "Summarise what happened lately.",
        &["review the past day"],
    );
    assert_eq!(
        top_name(&world, "look back at the past seven days").as_deref(),
        Some("recap")
    );
    assert_eq!(
        top_name(&world, "plan my day").as_deref(),
        Some("plan-today")
    );
    assert_eq!(
        top_name(&world, "close the day").as_deref(),
        Some("closeday")
    );
    assert_eq!(
        top_name(&world, "review my week").as_deref(),
        Some("weekly-review")
    );
}
