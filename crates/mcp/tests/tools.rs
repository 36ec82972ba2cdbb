//! Contract 05 §14 acceptance items that read a real folder (items 4–12, 14–31, 36–40, 42, 44, 45):
//! a fresh `dotaios init` folder per case, the stated changes, the built `dotaios-mcp` spawned
//! with the requests, responses matched by position; "no path", "stderr empty" and, where
//! stated, "tree unchanged" checked on every run.
#![allow(
    clippy::disallowed_methods,
    reason = "tests build and inspect their folders with std::fs"
)]

mod support;

#[cfg(unix)]
use std::os::unix::fs::symlink;

use serde_json::{Value, json};
use support::*;

const FAILED: &str = "DotAIOS request failed safely.";
const CONTEXT_FAILED: &str = "DotAIOS could not read working context safely.";
const OVERSIZE: usize = 4 * 1024 * 1024 + 1;

fn today() -> String {
    jiff::Zoned::now().date().to_string()
}

fn now_iso() -> String {
    jiff::Timestamp::now().to_string()
}

fn assert_invalid_matching(response: &Value, needles: &[&str]) {
    let (code, message) = error_of(response);
    assert_eq!(code, -32602, "{response}");
    let lower = message.to_lowercase();
    assert!(
        needles
            .iter()
            .all(|needle| lower.contains(&needle.to_lowercase())),
        "{message:?}"
    );
}

fn assert_failed(response: &Value, message: &str) {
    assert_eq!(
        error_of(response),
        (-32603, message.to_owned()),
        "{response}"
    );
}

/// The pretty JSON of the payload without `markdown` (JavaScript's layout for these values).
fn metadata_length(payload: &Value) -> usize {
    let mut payload = payload.clone();
    payload.as_object_mut().unwrap().shift_remove("markdown");
    len16(&serde_json::to_string_pretty(&payload).unwrap())
}

fn session_row(title: &str, project: Option<&str>, path: &str) -> String {
    let mut row = json!({
        "session_id": "s-1",
        "agent": "codex",
        "captured_at": now_iso(),
        "source_type": "cli",
        "source_path": "/private/machine/session.jsonl",
    });
    if let Some(project) = project {
        row["project"] = json!(project);
    }
    row["turns"] = json!(3);
    row["title"] = json!(title);
    row["path"] = json!(path);
    row["content_hash"] = json!("0123456789abcdef");
    row.to_string()
}

fn project_readme(fixture: &Fixture, slug: &str, frontmatter: &str, body: &str) {
    fixture.write(
        &format!("projects/{slug}/README.md"),
        format!("---\n{frontmatter}\n---\n{body}"),
    );
}

/// Item 4.
#[test]
fn item_04_gateway_projection_and_read_only() {
    let fixture = Fixture::init();
    fixture.write(
        "context/identity.md",
        "# Identity\n\nIDENTITY_CANARY_4411\n",
    );
    project_readme(
        &fixture,
        "demo",
        "id: demo-id\nproject: demo",
        "# Demo\n\nGateway acceptance.\n",
    );
    let date = today();
    let body_path = format!("memory/sessions/{date}/{date}T10-00-00_codex_abc123.md");
    fixture.write(&body_path, "---\nagent: codex\n---\nGateway session body\n");
    fixture.write(
        "memory/sessions/index.jsonl",
        format!(
            "{}\n",
            session_row("Gateway session", Some("demo"), &body_path)
        ),
    );
    let index_before = std::fs::read(fixture.aios.join("memory/sessions/index.jsonl")).unwrap();
    let events_before = std::fs::read(fixture.aios.join("memory/events.jsonl")).unwrap();
    let responses = fixture.responses(&[
        request(1, "initialize", json!({"protocolVersion": "2025-06-18"})),
        request(2, "tools/list", json!({})),
        call(
            3,
            "read_working_context",
            json!({"project": "demo-id", "budget": 1000}),
        ),
        call(
            4,
            "search_aios",
            json!({"query": "gateway", "scope": "projects", "project": "demo-id", "budget": 3530}),
        ),
        call(5, "resolve_skill", json!({"intent": "plan my day"})),
    ]);
    let info = &responses[0]["result"]["serverInfo"];
    assert_eq!(
        (info["name"].as_str(), info["version"].as_str()),
        (Some("dotaios-mcp"), Some(env!("CARGO_PKG_VERSION")))
    );
    let tools = responses[1]["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["read_working_context", "search_aios", "resolve_skill"]
    );
    assert_eq!(
        tools[0]["inputSchema"]["properties"]["project"]["minLength"],
        1
    );

    let context = payload(&responses[2]);
    assert_eq!(
        (context["memory"].as_str(), context["receipt"].as_str()),
        (Some("project"), Some("Memory: This project"))
    );
    assert_eq!(context["complete"], true);
    assert_eq!(context["scope"]["project"], "demo");
    let markdown = context["markdown"].as_str().unwrap();
    assert!(markdown.contains("Gateway session"), "{markdown}");
    assert!(!markdown.contains("IDENTITY_CANARY_4411"));
    assert!(len16(markdown) <= 1000);

    let search_text = payload_text(&responses[3]);
    let search = payload(&responses[3]);
    assert_eq!(
        (search["memory"].as_str(), search["receipt"].as_str()),
        (Some("project"), Some("Memory: This project"))
    );
    assert_eq!(search["scope"], "projects");
    assert!(search_text.contains("Gateway acceptance"));
    assert!(!search_text.contains("private/machine"));
    assert_eq!(search["budget"]["used"], len16(&search_text));
    assert!(len16(&search_text) <= 3530);

    let skill = payload(&responses[4]);
    assert_eq!(
        (skill["memory"].as_str(), skill["receipt"].as_str()),
        (Some("shared"), Some("Memory: Shared"))
    );
    assert_eq!(skill["complete"], true);
    assert_eq!(skill["matches"][0]["name"], "plan-today");
    assert_eq!(
        skill["matches"][0]["resource"],
        "skills/plan-today/SKILL.md"
    );
    assert_eq!(
        std::fs::read(fixture.aios.join("memory/sessions/index.jsonl")).unwrap(),
        index_before
    );
    assert_eq!(
        std::fs::read(fixture.aios.join("memory/events.jsonl")).unwrap(),
        events_before
    );
}

/// Item 5.
#[test]
fn item_05_frontmatter_is_stripped() {
    let fixture = Fixture::init();
    fixture.write("context/identity.md", "---\nsource: private-import\nkind: context\nupdated_at: 2026-01-01\n---\n# Identity\n\nI lead the launch.\n");
    fixture.write("context/priorities.md", "---\nsource: private-import\nkind: context\nupdated_at: 2026-01-01\n---\n# Priorities\n\nShip the trust release.\n");
    let before = fixture.snapshot();
    let response = fixture.response(call(1, "read_working_context", json!({"budget": 1000})));
    let markdown = payload(&response)["markdown"].as_str().unwrap().to_owned();
    assert!(
        markdown.contains("I lead the launch") && markdown.contains("Ship the trust release"),
        "{markdown}"
    );
    for hidden in ["private-import", "updated_at", "kind: context"] {
        assert!(!markdown.contains(hidden));
    }
    assert!(!markdown.lines().any(|line| line == "---"));
    assert_eq!(fixture.snapshot(), before);
}

fn two_projects(fixture: &Fixture) {
    project_readme(
        fixture,
        "acme-campaign",
        "id: project-acme-001",
        "# Acme Campaign\n\nCampaign assets for the launch. ACME_CANARY_5521\n",
    );
    project_readme(
        fixture,
        "other-client",
        "id: project-other-002",
        "# Other Client\n\nCampaign assets elsewhere. OTHER_CANARY_9932\n",
    );
}

/// Item 6.
#[test]
fn item_06_project_search_by_slug_or_id() {
    let fixture = Fixture::init();
    two_projects(&fixture);
    let responses = fixture.responses(&[
        call(1, "search_aios", json!({"query": "campaign assets", "scope": "projects", "project": "acme-campaign", "budget": 3530})),
        call(2, "search_aios", json!({"query": "campaign assets", "scope": "projects", "project": "project-acme-001", "budget": 3530})),
        request(3, "tools/list", json!({})),
    ]);
    let by_slug = payload(&responses[0]);
    let by_id = payload(&responses[1]);
    assert_eq!(by_slug["results"], by_id["results"]);
    assert_eq!(by_slug["scope_selection"]["project"], "acme-campaign");
    for response in &responses[..2] {
        let text = payload_text(response);
        assert!(text.contains("ACME_CANARY_5521"));
        assert!(!text.contains("OTHER_CANARY_9932") && !text.contains("other-client"));
    }
    assert_eq!(responses[2]["result"]["tools"].as_array().unwrap().len(), 3);
}

/// Item 7.
#[test]
fn item_07_padded_selector_is_refused() {
    let fixture = Fixture::init();
    two_projects(&fixture);
    let responses = fixture.responses(&[
        call(
            1,
            "search_aios",
            json!({"query": "campaign assets", "project": " acme-campaign "}),
        ),
        call(
            2,
            "search_aios",
            json!({"query": "campaign assets", "project": "acme-campaign"}),
        ),
    ]);
    assert_invalid_matching(&responses[0], &["safe project slug or stable id"]);
    assert!(!responses[0].to_string().contains("ACME_CANARY_5521"));
    let found = payload(&responses[1]);
    assert_eq!(found["scope_selection"]["project"], "acme-campaign");
    assert!(payload_text(&responses[1]).contains("ACME_CANARY_5521"));
}

/// Item 8.
#[test]
fn item_08_invalid_catalog_identity_fails_safely() {
    let fixture = Fixture::init();
    project_readme(
        &fixture,
        "acme-campaign",
        "id: \" project-acme-001 \"",
        "# Acme\n\nACME_CANARY_5521\n",
    );
    let response = fixture.response(call(1, "search_aios", json!({"query": "campaign", "scope": "projects", "project": "acme-campaign", "budget": 3530})));
    assert_failed(&response, FAILED);
    assert!(!response.to_string().contains("ACME_CANARY_5521"));
}

fn assert_budget(response: &Value, limit: usize) -> Value {
    let text = payload_text(response);
    let value = payload(response);
    assert!(len16(&text) <= limit, "{} > {limit}", len16(&text));
    assert_eq!(value["budget"]["limit"], limit);
    assert_eq!(value["budget"]["used"], len16(&text));
    value
}

/// Item 9.
#[test]
fn item_09_search_budgets() {
    let fixture = Fixture::init();
    fixture.write(
        "context/work.md",
        format!("# Work\n\n{}\n", "bounded memory ".repeat(200)),
    );
    let query = format!("bounded {}", "context ".repeat(55));
    assert_eq!(query.chars().count(), 448);
    let responses = fixture.responses(&[
        call(1, "search_aios", json!({"query": query, "budget": 3530})),
        call(2, "search_aios", json!({"query": query})),
        call(3, "search_aios", json!({"query": query, "budget": 32000})),
    ]);
    assert_eq!(
        assert_budget(&responses[0], 3530)["budget"]["truncated"],
        true
    );
    assert_budget(&responses[1], 6000);
    assert_budget(&responses[2], 32000);
}

/// Item 10: the compact form is chosen exactly when the pretty one does not fit.
#[test]
fn item_10_compact_when_pretty_does_not_fit() {
    let fixture = Fixture::init();
    for n in 1..=20 {
        fixture.write(
            &format!("context/boundary-{n}.md"),
            format!(
                "# Boundary {n}\n\nserialization-boundary {}\n",
                "x".repeat(193)
            ),
        );
    }
    let arguments = json!({"query": "serialization-boundary", "scope": "context", "limit": 20, "budget": 32000});
    let first = payload(&fixture.response(call(1, "search_aios", arguments.clone())));
    let mut probe = first.clone();
    probe["budget"] = json!({"limit": 10000, "used": 0, "truncated": false});
    let b = len16(&serde_json::to_string_pretty(&probe).unwrap()) + 3;
    assert!((10_000..=32_000).contains(&b), "{b}");
    assert!(len16(&serde_json::to_string(&probe).unwrap()) < 10_000);
    let mut arguments = arguments;
    arguments["budget"] = json!(b);
    let response = fixture.response(call(2, "search_aios", arguments));
    let text = payload_text(&response);
    let value = assert_budget(&response, b);
    assert_eq!(value["results"].as_array().unwrap().len(), 20);
    assert_eq!(value["budget"]["truncated"], false);
    assert_eq!(text, serde_json::to_string(&value).unwrap());
    assert_ne!(text, serde_json::to_string_pretty(&value).unwrap());
}

fn write_skill(fixture: &Fixture, dir: &str, frontmatter: &str, body: &str) {
    fixture.write(
        &format!("skills/{dir}/SKILL.md"),
        format!("---\n{frontmatter}\n---\n{body}"),
    );
}

/// Item 11.
#[test]
fn item_11_skill_budgets() {
    let fixture = Fixture::init();
    let description = "bounded routing metadata ".repeat(200);
    write_skill(
        &fixture,
        "verbose",
        &format!(
            "name: verbose\ndescription: {}\ntriggers:\n  - bounded routing intent",
            description.trim()
        ),
        "# Verbose\n",
    );
    let responses = fixture.responses(&[
        call(
            1,
            "resolve_skill",
            json!({"intent": "bounded routing intent", "limit": 1, "budget": 256}),
        ),
        call(
            2,
            "resolve_skill",
            json!({"intent": "bounded routing intent", "limit": 1}),
        ),
        call(
            3,
            "resolve_skill",
            json!({"intent": "bounded routing intent", "limit": 1, "budget": 32000}),
        ),
    ]);
    assert_eq!(
        assert_budget(&responses[0], 256)["budget"]["truncated"],
        true
    );
    assert_budget(&responses[1], 6000);
    assert_budget(&responses[2], 32000);
}

/// Item 12.
#[test]
fn item_12_astral_query_and_intent() {
    let fixture = Fixture::init();
    let text = "😀".repeat(434);
    let responses = fixture.responses(&[
        call(
            1,
            "search_aios",
            json!({"query": text, "scope": "context", "budget": 3530}),
        ),
        call(2, "resolve_skill", json!({"intent": text, "budget": 256})),
    ]);
    assert_eq!(
        assert_budget(&responses[0], 3530)["budget"]["truncated"],
        false
    );
    assert_eq!(
        assert_budget(&responses[1], 256)["budget"]["truncated"],
        true
    );
}

fn set_schema(fixture: &Fixture, version: &str) {
    let path = fixture.aios.join("aios.json");
    let mut config: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    config["schema_version"] = json!(version);
    std::fs::write(path, serde_json::to_string_pretty(&config).unwrap()).unwrap();
}

/// Item 14.
#[test]
fn item_14_migration_states() {
    let fixture = Fixture::init();
    let line = || call(1, "read_working_context", json!({"budget": 512}));
    let run = |fixture: &Fixture| {
        let before = fixture.snapshot();
        let value = payload(&fixture.response(line()));
        assert_eq!(fixture.snapshot(), before, "tree unchanged");
        assert!(metadata_length(&value) <= 1024);
        value
    };
    let current = run(&fixture);
    assert_eq!(current["operational"]["migration"]["status"], "current");

    set_schema(&fixture, "1.1.0");
    let outdated = run(&fixture);
    assert_eq!(outdated["markdown"], current["markdown"]);
    assert_eq!(outdated["budget"], current["budget"]);
    assert_eq!(
        outdated["operational"]["migration"],
        json!({"status": "schema_outdated", "folder_schema_version": "1.1.0", "supported_schema_version": "1.2.0", "severity": "notice", "action": {"command": "dotaios migrate", "path_scope": "configured_aios"}})
    );

    fixture.write(
        ".dotaios/migrations/owner.json",
        "{\n  \"schema\": \"dotaios.migrations.v1\"\n}\n",
    );
    std::fs::create_dir_all(
        fixture
            .aios
            .join(".dotaios/migrations/transactions/migrate-1_1_0-to-1_2_0-0123456789abcdef"),
    )
    .unwrap();
    let pending = run(&fixture);
    assert_eq!(
        pending["operational"]["migration"]["status"],
        "transaction_present"
    );
    let operational = pending["operational"].to_string();
    assert!(!operational.contains("migrate-1_1_0") && !operational.contains("recover"));

    std::fs::remove_dir_all(fixture.aios.join(".dotaios")).unwrap();
    std::fs::write(
        fixture.aios.join("aios.json"),
        "{\"schema_version\":\"invalid\"}",
    )
    .unwrap();
    let failed = run(&fixture);
    assert_eq!(
        failed["operational"]["migration"],
        json!({"status": "inspection_failed", "code": "INVALID_SCHEMA", "severity": "warning", "action": {"command": "dotaios doctor", "path_scope": "configured_aios"}})
    );
    assert_eq!(failed["markdown"], current["markdown"]);
}

/// Item 15.
#[test]
fn item_15_corrupt_signal_line_is_skipped() {
    let fixture = Fixture::init();
    let valid = json!({"ts": now_iso(), "type": "signal", "summary": "CORRUPT_FIXTURE_SELECTED"});
    fixture.write(
        &format!("memory/signals/{}.jsonl", today()),
        format!("{{not-json}}\n{valid}\n"),
    );
    let before = fixture.snapshot();
    let response = fixture.response(call(1, "read_working_context", json!({"budget": 6000})));
    assert!(
        payload(&response)["markdown"]
            .as_str()
            .unwrap()
            .contains("CORRUPT_FIXTURE_SELECTED")
    );
    assert_eq!(fixture.snapshot(), before);
}

/// Item 16.
#[test]
fn item_16_corrupt_event_line_is_skipped_by_search() {
    let fixture = Fixture::init();
    let valid =
        json!({"ts": now_iso(), "type": "note", "summary": "CORRUPT_SEARCH_FIXTURE_SELECTED"});
    fixture.write("memory/events.jsonl", format!("{{not-json\n{valid}\n"));
    let before = fixture.snapshot();
    let response = fixture.response(call(
        1,
        "search_aios",
        json!({"query": "CORRUPT_SEARCH_FIXTURE_SELECTED", "scope": "memory"}),
    ));
    let value = payload(&response);
    assert!(!value["results"].as_array().unwrap().is_empty());
    assert!(payload_text(&response).contains("CORRUPT_SEARCH_FIXTURE_SELECTED"));
    assert_eq!(fixture.snapshot(), before);
}

/// Item 17.
#[test]
fn item_17_corrupt_session_index_line_is_skipped() {
    let fixture = Fixture::init();
    let date = today();
    let body_path = format!("memory/sessions/{date}/{date}T09-00-00_codex_abc123.md");
    fixture.write(&body_path, "---\nagent: codex\n---\nbody\n");
    fixture.write(
        "memory/sessions/index.jsonl",
        format!(
            "{{broken\n{}\n",
            session_row("CORRUPT_SESSION_INDEX_SELECTED", None, &body_path)
        ),
    );
    let before = fixture.snapshot();
    let response = fixture.response(call(
        1,
        "search_aios",
        json!({"query": "CORRUPT_SESSION_INDEX_SELECTED", "scope": "sessions"}),
    ));
    assert!(!payload(&response)["results"].as_array().unwrap().is_empty());
    assert_eq!(fixture.snapshot(), before);
}

#[cfg(unix)]
/// Item 18, where we differ from the reference on purpose (contract 03 §4.4): a linked note is
/// skipped, never followed, and reported as a path-free `symlink_skipped` omission.
#[test]
fn item_18_linked_evidence_is_skipped_and_reported() {
    for outside in [false, true] {
        let fixture = Fixture::init();
        let target = if outside {
            let target = fixture.tmp.path().join("outside.md");
            std::fs::write(&target, "# Outside\n\nlinked canary\n").unwrap();
            target
        } else {
            fixture.aios.join("context/work.md")
        };
        symlink(&target, fixture.aios.join("context/linked.md")).unwrap();
        let response = fixture.response(call(
            1,
            "search_aios",
            json!({"query": "linked canary", "scope": "context"}),
        ));
        let value = payload(&response);
        assert_eq!(value["complete"], false);
        assert_eq!(value["results"], json!([]));
        assert_eq!(
            value["omissions"],
            json!([{
                "scope": "context",
                "reason": "symlink_skipped",
                "observed": {"files": 1, "bytes": 0, "entries": 0},
                "inspection": "partially_searched",
                "recovery": {
                    "code": "replace_links",
                    "message": "Symbolic links are never followed: move linked notes into the folder, or set vault_path in aios.json to a linked vault; run dotaios doctor to list them."
                }
            }])
        );
        let text = response.to_string();
        assert!(!text.contains("linked.md"), "{text}");
        assert!(
            !text.contains(fixture.tmp.path().to_str().unwrap()),
            "{text}"
        );
    }
}

/// Item 19, 20.
#[test]
fn items_19_20_oversized_memory_is_an_omission() {
    let fixture = Fixture::init();
    fixture.write("memory/events.jsonl", vec![b'x'; OVERSIZE]);
    let before = fixture.snapshot();
    let responses = fixture.responses(&[
        call(
            1,
            "search_aios",
            json!({"query": "missing", "scope": "memory"}),
        ),
        request(2, "tools/list", json!({})),
        call(
            3,
            "search_aios",
            json!({"query": "missing", "scope": "memory", "budget": 3530}),
        ),
    ]);
    for index in [0, 2] {
        let value = payload(&responses[index]);
        assert_eq!(value["complete"], false);
        assert_eq!(value["results"], json!([]));
        assert_eq!(value["budget"]["truncated"], false);
        let omission = &value["omissions"][0];
        assert_eq!(
            (omission["scope"].as_str(), omission["reason"].as_str()),
            (Some("memory"), Some("file_too_large"))
        );
        let names: Vec<&String> = omission.as_object().unwrap().keys().collect();
        assert_eq!(
            names,
            ["scope", "reason", "observed", "inspection", "recovery"]
        );
        assert_eq!(omission["recovery"]["code"], "split_or_move_file");
        let message = omission["recovery"]["message"]
            .as_str()
            .unwrap()
            .to_lowercase();
        assert!(message.contains("split") || message.contains("move"));
    }
    assert_budget(&responses[2], 3530);
    assert_eq!(
        responses[1]["result"]["tools"][1]["inputSchema"]["properties"]["budget"]["minimum"],
        3530
    );
    assert_eq!(fixture.snapshot(), before);
}

/// Item 21.
#[test]
fn item_21_every_corpus_oversized() {
    let fixture = Fixture::init();
    let big = vec![b'x'; OVERSIZE];
    for path in [
        "memory/sessions/index.jsonl",
        "context/oversized.md",
        "memory/events.jsonl",
        "vault/oversized.md",
        "projects/ceiling-project/oversized.md",
        "decisions/oversized.md",
        "skills/oversized/SKILL.md",
        "references/oversized.md",
        "plugins/oversized/manifest.json",
    ] {
        fixture.write(path, &big);
    }
    let responses = fixture.responses(&[
        call(
            1,
            "search_aios",
            json!({"query": "missing", "scope": "all", "budget": 3529}),
        ),
        call(
            2,
            "search_aios",
            json!({"query": "missing", "scope": "all", "budget": 3530}),
        ),
    ]);
    assert_invalid_matching(&responses[0], &["3530 to 32000"]);
    let value = assert_budget(&responses[1], 3530);
    assert_eq!(value["complete"], false);
    assert_eq!(value["results"], json!([]));
    let scopes: Vec<&str> = value["omissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|omission| omission["scope"].as_str().unwrap())
        .collect();
    assert_eq!(
        scopes,
        [
            "sessions",
            "context",
            "memory",
            "vault",
            "decisions",
            "skills",
            "references",
            "plugins"
        ]
    );
    for omission in value["omissions"].as_array().unwrap() {
        assert_eq!(omission["reason"], "file_too_large");
        let observed: Vec<&String> = omission["observed"].as_object().unwrap().keys().collect();
        assert_eq!(observed, ["files", "bytes", "entries"]);
        assert_eq!(omission["inspection"], "not_searched");
        assert_eq!(omission["recovery"]["code"], "split_or_move_file");
    }
}

/// Item 22.
#[test]
fn item_22_partial_results_with_an_omission() {
    let fixture = Fixture::init();
    fixture.write("memory/events.jsonl", vec![b'x'; OVERSIZE]);
    for n in 0..8 {
        fixture.write(
            &format!("context/partial-{n}.md"),
            format!(
                "# Partial {n}\n\n{}\n",
                "MCP_PARTIAL_TRANSPORT_CANARY ".repeat(100)
            ),
        );
    }
    let response = fixture.response(call(
        1,
        "search_aios",
        json!({"query": "MCP_PARTIAL_TRANSPORT_CANARY", "scope": "all", "budget": 3530}),
    ));
    let value = assert_budget(&response, 3530);
    assert_eq!(value["complete"], false);
    assert_eq!(value["budget"]["truncated"], true);
    assert_eq!(
        (
            value["omissions"][0]["scope"].as_str(),
            value["omissions"][0]["reason"].as_str()
        ),
        (Some("memory"), Some("file_too_large"))
    );
}

/// Items 23, 24, 25.
#[test]
fn items_23_to_25_unsafe_session_paths() {
    let cases = ["../outside-session.md", "<absolute>", "context/identity.md"];
    for case in cases {
        let fixture = Fixture::init();
        std::fs::write(
            fixture.tmp.path().join("outside-session.md"),
            "OUTSIDE_SESSION_CANARY\n",
        )
        .unwrap();
        let path = if case == "<absolute>" {
            fixture
                .tmp
                .path()
                .join("outside-session.md")
                .to_string_lossy()
                .into_owned()
        } else {
            case.to_owned()
        };
        fixture.write(
            "memory/sessions/index.jsonl",
            format!("{}\n", session_row("OUTSIDE_SESSION_CANARY", None, &path)),
        );
        let response = fixture.response(call(
            1,
            "search_aios",
            json!({"query": "OUTSIDE_SESSION_CANARY", "scope": "sessions"}),
        ));
        assert_failed(&response, FAILED);
    }
}

#[cfg(unix)]
/// Item 26.
#[test]
fn item_26_unsafe_configuration() {
    for case in ["link", "utf8", "large"] {
        let fixture = Fixture::init();
        let config = fixture.aios.join("aios.json");
        match case {
            "link" => {
                let copy = fixture.tmp.path().join("aios-copy.json");
                std::fs::copy(&config, &copy).unwrap();
                std::fs::remove_file(&config).unwrap();
                symlink(&copy, &config).unwrap();
            }
            "utf8" => std::fs::write(&config, b"{\"schema_version\":\"1.2.0\xff\"}").unwrap(),
            _ => std::fs::write(
                &config,
                format!(
                    "{{\"schema_version\":\"1.2.0\",\"pad\":\"{}\"}}",
                    "x".repeat(1 << 20)
                ),
            )
            .unwrap(),
        }
        let before = std::fs::read(&config).unwrap();
        let response = fixture.response(call(
            1,
            "search_aios",
            json!({"query": "missing", "scope": "memory"}),
        ));
        assert_failed(&response, FAILED);
        assert_eq!(std::fs::read(&config).unwrap(), before, "{case}");
    }
}

/// Item 27.
#[test]
fn item_27_external_vault() {
    let fixture = Fixture::init();
    let vault = fixture.tmp.path().join("external-vault");
    std::fs::create_dir_all(&vault).unwrap();
    std::fs::write(vault.join("note.md"), "# Note\n\nEXTERNAL_VAULT_CANARY\n").unwrap();
    let path = fixture.aios.join("aios.json");
    let mut config: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    config["vault_path"] = json!(vault.to_string_lossy());
    std::fs::write(&path, serde_json::to_string_pretty(&config).unwrap()).unwrap();
    let response = fixture.response(call(
        1,
        "search_aios",
        json!({"query": "EXTERNAL_VAULT_CANARY", "scope": "vault"}),
    ));
    let value = payload(&response);
    assert_eq!(value["results"][0]["scope"], "vault");
    assert_eq!(value["results"][0]["file"], "note.md");
}

#[cfg(unix)]
/// Item 28.
#[test]
fn item_28_linked_skill_is_skipped_silently() {
    let fixture = Fixture::init();
    let outside = fixture.tmp.path().join("outside-skill");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(
        outside.join("SKILL.md"),
        "---\nname: linked-skill\ndescription: ZZZXQ_9471\ntriggers: ZZZXQ_9471\n---\n# Linked\n",
    )
    .unwrap();
    symlink(&outside, fixture.aios.join("skills/linked-skill")).unwrap();
    let responses = fixture.responses(&[
        call(1, "resolve_skill", json!({"intent": "ZZZXQ_9471"})),
        call(2, "resolve_skill", json!({"intent": "plan my day"})),
    ]);
    let first = payload(&responses[0]);
    assert_eq!(first["matches"], json!([]));
    assert_eq!(payload(&responses[1])["matches"][0]["name"], "plan-today");
    for response in &responses {
        assert!(!response.to_string().contains("linked-skill"));
    }
}

/// Item 29.
#[test]
fn item_29_long_intent_is_cut() {
    let fixture = Fixture::init();
    let intent = format!("plan my day {}", "context ".repeat(60));
    assert_eq!(intent.chars().count(), 492);
    let response = fixture.response(call(
        1,
        "resolve_skill",
        json!({"intent": intent, "limit": 10, "budget": 256}),
    ));
    assert_eq!(assert_budget(&response, 256)["budget"]["truncated"], true);
}

/// Item 30.
#[test]
fn item_30_all_triggers_are_kept() {
    let fixture = Fixture::init();
    let triggers: Vec<String> = (1..=7)
        .map(|n| format!("many trigger phrase {n}"))
        .collect();
    let list: String = triggers
        .iter()
        .map(|trigger| format!("\n  - {trigger}"))
        .collect();
    write_skill(
        &fixture,
        "many-triggers",
        &format!("name: many-triggers\ndescription: Route MANY_TRIGGER_CANARY.\ntriggers:{list}"),
        "# Many\n",
    );
    let response = fixture.response(call(
        1,
        "resolve_skill",
        json!({"intent": "MANY_TRIGGER_CANARY", "budget": 32000}),
    ));
    let value = payload(&response);
    assert_eq!(value["matches"][0]["triggers"], json!(triggers));
    assert_eq!(value["budget"]["truncated"], false);
}

/// Item 31.
#[test]
fn item_31_metadata_only_reads() {
    let fixture = Fixture::init();
    write_skill(
        &fixture,
        "metadata-only",
        "name: metadata-only\ntriggers: METADATA_ONLY_CANARY",
        &"body line\n".repeat(200_000),
    );
    let response = fixture.response(call(
        1,
        "resolve_skill",
        json!({"intent": "METADATA_ONLY_CANARY"}),
    ));
    let value = payload(&response);
    assert_eq!(value["matches"][0]["name"], "metadata-only");
    assert_eq!(
        value["matches"][0]["resource"],
        "skills/metadata-only/SKILL.md"
    );
}

/// Item 36.
#[test]
fn item_36_ambiguous_project() {
    let fixture = Fixture::init();
    project_readme(&fixture, "alpha", "project: shared", "# Alpha\n");
    project_readme(&fixture, "beta", "project: shared", "# Beta\n");
    let response = fixture.response(call(
        1,
        "read_working_context",
        json!({"project": "shared", "budget": 256}),
    ));
    assert_invalid_matching(&response, &["ambiguous", "stable id"]);
}

/// Item 37.
#[test]
fn item_37_unknown_project() {
    let fixture = Fixture::init();
    let responses = fixture.responses(&[
        call(1, "read_working_context", json!({"memory": "project", "project": "missing-project", "budget": 256})),
        call(2, "resolve_skill", json!({"memory": "project", "project": "missing-project", "intent": "plan this work", "budget": 6000})),
    ]);
    for response in &responses {
        assert_invalid_matching(response, &["project", "not registered"]);
    }
}

/// Item 38.
#[test]
fn item_38_skill_in_project_mode() {
    let fixture = Fixture::init();
    project_readme(
        &fixture,
        "client-work",
        "id: client-work-001",
        "# Client Work\n",
    );
    let response = fixture.response(call(1, "resolve_skill", json!({"memory": "project", "project": "client-work-001", "intent": "plan this work", "budget": 6000})));
    let value = payload(&response);
    assert_eq!(
        (value["memory"].as_str(), value["receipt"].as_str()),
        (Some("project"), Some("Memory: This project"))
    );
    assert_eq!(value["complete"], true);
    assert!(!value["matches"].as_array().unwrap().is_empty());
}

/// Item 39.
#[test]
fn item_39_opaque_working_context_id() {
    let fixture = Fixture::init();
    project_readme(
        &fixture,
        "client-work",
        "id: \"café:client/01\"",
        "# Client Work\n\nClient Work notes.\n",
    );
    let response = fixture.response(call(
        1,
        "read_working_context",
        json!({"project": "café:client/01", "budget": 512}),
    ));
    let value = payload(&response);
    assert_eq!(value["scope"]["project"], "client-work");
    assert!(value["markdown"].as_str().unwrap().contains("Client Work"));
}

/// Item 40.
#[test]
fn item_40_maximum_length_ids() {
    let fixture = Fixture::init();
    let ids = ["x".repeat(200), "🚀".repeat(200)];
    for (index, id) in ids.iter().enumerate() {
        project_readme(
            &fixture,
            &format!("maximum-project-{index}"),
            &format!("id: \"{id}\""),
            &format!("# Maximum {index}\n"),
        );
    }
    for (index, id) in ids.iter().enumerate() {
        let response = fixture.response(call(
            1,
            "read_working_context",
            json!({"project": id, "budget": 256}),
        ));
        let value = payload(&response);
        assert_eq!(
            value["scope"]["project"],
            format!("maximum-project-{index}")
        );
        assert!(len16(value["markdown"].as_str().unwrap()) <= 256);
        assert!(metadata_length(&value) <= 1024);
    }
}

/// Item 42.
#[test]
fn item_42_escape_heavy_folder() {
    let fixture = Fixture::init();
    let heavy = |count: usize| "\"\\".repeat(count);
    fixture.write("context/identity.md", format!("{}\n", heavy(12_000)));
    let date = today();
    let mut index = String::new();
    for n in 0..3 {
        let path = format!("memory/sessions/{date}/{date}T0{n}-00-00_codex_abc12{n}.md");
        fixture.write(&path, "---\nagent: codex\n---\nbody\n");
        index.push_str(&session_row(&heavy(3_500), None, &path));
        index.push('\n');
    }
    fixture.write("memory/sessions/index.jsonl", index);
    let rows = |kind: &str| -> String {
        (0..8)
            .map(|_| {
                format!(
                    "{}\n",
                    json!({"ts": now_iso(), "type": kind, "summary": heavy(350)})
                )
            })
            .collect()
    };
    fixture.write(&format!("memory/signals/{date}.jsonl"), rows("signal"));
    fixture.write("memory/events.jsonl", rows("note"));
    let mut escaped_past_bound = false;
    for budget in [256_usize, 6000, 32000] {
        let response = fixture.response(call(1, "read_working_context", json!({"budget": budget})));
        let text = payload_text(&response);
        let value = payload(&response);
        let markdown = value["markdown"].as_str().unwrap();
        assert!(len16(markdown) <= budget);
        if budget > 256 {
            assert!(
                len16(markdown) * 10 >= budget * 8,
                "{} < 0.8 × {budget}",
                len16(markdown)
            );
        }
        assert!(metadata_length(&value) <= 1024);
        escaped_past_bound |= len16(&text) > len16(markdown) + 1024;
    }
    assert!(escaped_past_bound);
}

/// Item 44.
#[test]
fn item_44_broken_project_frontmatter() {
    let fixture = Fixture::init();
    project_readme(&fixture, "broken", "id: [unterminated", "# Broken\n");
    let response = fixture.response(call(1, "read_working_context", json!({})));
    assert_failed(&response, CONTEXT_FAILED);
}

/// Item 45.
#[test]
fn item_45_oversized_identity() {
    let fixture = Fixture::init();
    fixture.write("context/identity.md", vec![b'x'; (1 << 20) + 1]);
    let before = fixture.snapshot();
    let response = fixture.response(call(1, "read_working_context", json!({"budget": 256})));
    assert_failed(&response, CONTEXT_FAILED);
    assert_eq!(fixture.snapshot(), before);
}

/// Issue 35: project directories with odd names (every `Cc`/`Cf` character, Markdown and HTML
/// metacharacters, line breaks) never fail `read_working_context`, in either mode, and its
/// neighbours' content is all there (contract 01 §6.1, 02 §10.1). Batches keep `projects/`
/// within its 256 entries.
#[cfg(unix)]
#[test]
fn odd_project_directory_names_never_stop_read_working_context() {
    let names = dotaios_testkit::hostile_names();
    for batch in names.chunks(200) {
        let fixture = Fixture::init();
        two_projects(&fixture);
        let calls = [
            call(1, "read_working_context", json!({"budget": 6000})),
            call(
                2,
                "read_working_context",
                json!({"project": "project-acme-001", "budget": 6000}),
            ),
            call(
                3,
                "read_working_context",
                json!({"project": "other-client", "budget": 6000}),
            ),
        ];
        let without = fixture.responses(&calls);
        for name in batch {
            // Were this README read, its invalid YAML would fail the catalog.
            fixture.write(
                &format!("projects/{name}/README.md"),
                "---\nid: [\nstatus: active\n---\n# ODD_README\n",
            );
        }
        let before = fixture.snapshot();
        let with = fixture.responses(&calls);
        for (with, without) in with.iter().zip(&without) {
            let text = payload_text(with);
            dotaios_testkit::assert_no_raw_name(&text, batch, "ODD_README");
            let mut with = payload(with);
            let mut without = payload(without);
            for payload in [&mut with, &mut without] {
                payload
                    .as_object_mut()
                    .unwrap()
                    .shift_remove("generated_at");
            }
            assert_eq!(with, without);
        }
        assert!(payload_text(&with[1]).contains("ACME_CANARY_5521"));
        assert!(payload_text(&with[2]).contains("OTHER_CANARY_9932"));
        assert_eq!(fixture.snapshot(), before);
    }
}

/// Asserts that `text` holds none of the format or control characters of `names` raw (the line
/// breaks of pretty JSON aside).
#[cfg(unix)]
fn assert_no_raw_invisible(text: &str, names: &[String]) {
    let invisible = dotaios_testkit::invisible_chars();
    for c in names
        .iter()
        .flat_map(|name| name.chars())
        .filter(|c| *c != '\n' && invisible.contains(c))
    {
        assert!(!text.contains(c), "U+{:04X} printed raw", u32::from(c));
    }
}

/// Issue 35 for search and skills: notes and skill directories with odd names never fail
/// `search_aios` or `resolve_skill`. A note is found and its path shown through the one name
/// rule (format and control characters as `\u{…}`); a skill whose directory name holds one is
/// left out (its `resource` could not name it), and a neighbour routes as before (contract 02
/// §10.1, 04 §1.1). Batches of nine names and one neighbour fit the skill tool's 10 matches.
#[cfg(unix)]
#[test]
fn odd_note_and_skill_names_never_stop_search_or_skills() {
    let invisible = dotaios_testkit::invisible_chars();
    let names = dotaios_testkit::hostile_names();
    for batch in names.chunks(9) {
        let fixture = Fixture::init();
        fixture.write("references/neighbour.md", "# Neighbour\n\nzebra marker\n");
        write_skill(
            &fixture,
            "neighbour-skill",
            "description: zebra marker routing\ntriggers: [zebra marker]",
            "# N\n",
        );
        for name in batch {
            fixture.write(&format!("references/{name}.md"), "# Odd\n\nzebra marker\n");
            write_skill(
                &fixture,
                name,
                "description: zebra marker routing\ntriggers: [zebra marker]",
                "# O\n",
            );
        }
        let before = fixture.snapshot();
        let responses = fixture.responses(&[
            call(1, "search_aios", json!({"query": "zebra marker", "scope": "references", "limit": 10, "budget": 32000})),
            call(2, "resolve_skill", json!({"intent": "zebra marker", "limit": 10, "budget": 32000})),
        ]);
        let search = payload_text(&responses[0]);
        assert_no_raw_invisible(&search, batch);
        let files: Vec<String> = payload(&responses[0])["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|hit| hit["file"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(files.len(), batch.len() + 1, "{search}");
        assert!(files.iter().any(|file| file == "neighbour.md"), "{search}");
        for name in batch {
            let shown: String = name
                .chars()
                .map(|c| {
                    if invisible.contains(&c) {
                        format!("\\u{{{:04X}}}", u32::from(c))
                    } else {
                        c.to_string()
                    }
                })
                .collect();
            assert!(
                files.contains(&format!("{shown}.md")),
                "{shown:?} in {files:?}"
            );
        }
        let skills = payload_text(&responses[1]);
        assert_no_raw_invisible(&skills, batch);
        let resources: Vec<String> = payload(&responses[1])["matches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|item| item["resource"].as_str().unwrap().to_owned())
            .collect();
        assert!(
            resources.contains(&"skills/neighbour-skill/SKILL.md".to_owned()),
            "{skills}"
        );
        for name in batch {
            let listed = resources.contains(&format!("skills/{name}/SKILL.md"));
            // Markdown characters are data in JSON: such a skill routes as before.
            assert_eq!(
                listed,
                !name.contains('\\') && !name.chars().any(|c| invisible.contains(&c)),
                "{name:?}"
            );
        }
        assert_eq!(fixture.snapshot(), before);
    }
}
