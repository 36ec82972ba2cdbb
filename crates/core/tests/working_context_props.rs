//! Property tests of the working-context projection over generated folders and budgets
//! 256..32000 (contract 02 §9): the digest never exceeds the budget, the MCP metadata stays within
//! 1,024 units, project mode never shows another project's row or an unattributed one, and the
//! folder is never modified.
//!
//! Rows carry a marker in their visible text that names their attribution: `MINE` (the
//! selected project), `OTHER` (another project), `NONE` (no attribution) and `MIXED`
//! (conflicting or malformed attribution). Only `MINE` may appear in project mode.

mod wc_support;

use std::path::Path;

use dotaios_contained::Root;
use dotaios_core::context::{ContextRequest, ContextScope, read_working_context};
use dotaios_core::request::{Budget, ContextSelector, Limit};
use dotaios_core::text::{JsonLayout, JsonWriter, utf16_len};
use jiff::Timestamp;
use jiff::tz::TimeZone;
use proptest::prelude::*;
use serde_json::json;
use wc_support::{fingerprint, write};

const TODAY: &str = "2026-08-29";

/// Text that exercises the JavaScript rules: CRLF, JS spaces, supplementary characters (so
/// UTF-16 cuts can split pairs), Markdown headings and bullets.
fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("word ".to_owned()),
            Just("\r\n".to_owned()),
            Just("\n".to_owned()),
            Just("## ".to_owned()),
            Just("- [ ] ".to_owned()),
            Just("😀".to_owned()),
            Just("\u{3000}".to_owned()),
            Just("é".to_owned()),
            "[a-z]{1,12}",
        ],
        0..120,
    )
    .prop_map(|parts| parts.concat())
}

/// How a generated row is attributed.
#[derive(Debug, Clone, Copy)]
enum Tag {
    Mine,
    Other,
    None,
    Mixed,
}

impl Tag {
    fn marker(self) -> &'static str {
        match self {
            Tag::Mine => "MINE",
            Tag::Other => "OTHER",
            Tag::None => "NONE",
            Tag::Mixed => "MIXED",
        }
    }

    /// The `project` / `project_id` members of a row with this tag (variant picks a shape).
    fn fields(self, variant: u8) -> serde_json::Map<String, serde_json::Value> {
        let value = match (self, variant % 3) {
            (Tag::Mine, 0) => json!({"project": "alpha", "project_id": "id-alpha"}),
            (Tag::Mine, 1) => json!({"project_id": "id-alpha"}),
            (Tag::Mine, _) => json!({"project": "id-alpha"}),
            (Tag::Other, 0) => json!({"project": "beta"}),
            (Tag::Other, 1) => json!({"project_id": "id-beta"}),
            (Tag::Other, _) => json!({"project": "beta", "project_id": "id-beta"}),
            (Tag::None, 0) => json!({}),
            (Tag::None, 1) => json!({"project": null}),
            (Tag::None, _) => json!({"project": null, "project_id": null}),
            (Tag::Mixed, 0) => json!({"project": "alpha", "project_id": "id-beta"}),
            (Tag::Mixed, 1) => json!({"project": " alpha"}),
            (Tag::Mixed, _) => json!({"project": 7}),
        };
        value.as_object().cloned().unwrap_or_default()
    }
}

fn tag() -> impl Strategy<Value = Tag> {
    prop_oneof![
        Just(Tag::Mine),
        Just(Tag::Other),
        Just(Tag::None),
        Just(Tag::Mixed)
    ]
}

#[derive(Debug, Clone)]
struct Row {
    tag: Tag,
    variant: u8,
    day: u8,
    hour: u8,
    words: String,
}

fn row() -> impl Strategy<Value = Row> {
    (tag(), any::<u8>(), 27_u8..=29, 0_u8..24, "[a-z ]{0,40}").prop_map(
        |(tag, variant, day, hour, words)| Row {
            tag,
            variant,
            day,
            hour,
            words,
        },
    )
}

impl Row {
    fn json(&self, index: usize, time_key: &str, text_key: &str) -> String {
        let mut object = self.tag.fields(self.variant);
        object.insert(
            time_key.to_owned(),
            json!(format!(
                "2026-08-{:02}T{:02}:00:00.000Z",
                self.day, self.hour
            )),
        );
        object.insert(
            text_key.to_owned(),
            json!(format!("{}-{index} {}", self.tag.marker(), self.words)),
        );
        object.insert("agent".to_owned(), json!("agent"));
        object.insert("turns".to_owned(), json!(self.hour));
        serde_json::Value::Object(object).to_string()
    }
}

#[derive(Debug, Clone)]
struct Folder {
    identity: String,
    priorities: String,
    work: String,
    decisions: String,
    today_note: String,
    yesterday_note: String,
    sessions: Vec<Row>,
    signals: Vec<Row>,
    events: Vec<Row>,
    readme: String,
    corrupt_lines: bool,
}

fn folder() -> impl Strategy<Value = Folder> {
    (
        (text(), text(), text(), text(), text(), text()),
        proptest::collection::vec(row(), 0..12),
        proptest::collection::vec(row(), 0..12),
        proptest::collection::vec(row(), 0..12),
        text(),
        any::<bool>(),
    )
        .prop_map(
            |(
                (identity, priorities, work, decisions, today_note, yesterday_note),
                sessions,
                signals,
                events,
                readme,
                corrupt_lines,
            )| Folder {
                identity,
                priorities,
                work: format!("## Current Work\n{work}"),
                decisions: format!("# Log\n## {decisions}"),
                today_note: format!("## Focus\n{today_note}\n## Plan\n{today_note}"),
                yesterday_note: format!("## Close\n### Carry-over\n{yesterday_note}"),
                sessions,
                signals,
                events,
                readme,
                corrupt_lines,
            },
        )
}

fn jsonl(rows: &[Row], time_key: &str, text_key: &str, corrupt: bool) -> String {
    let mut out = String::new();
    for (index, row) in rows.iter().enumerate() {
        if corrupt && index % 3 == 1 {
            out.push_str("{\"summary\":\"NONE-corrupt\"\n");
        }
        out.push_str(&row.json(index, time_key, text_key));
        out.push('\n');
    }
    out
}

fn write_folder(root: &Path, folder: &Folder) {
    write(root, "aios.json", "{\"schema_version\":\"1.2.0\"}\n");
    write(root, "context/identity.md", &folder.identity);
    write(root, "context/priorities.md", &folder.priorities);
    write(root, "context/work.md", &folder.work);
    write(root, "decisions/log.md", &folder.decisions);
    write(
        root,
        &format!("memory/daily/{TODAY}.md"),
        &folder.today_note,
    );
    write(root, "memory/daily/2026-08-28.md", &folder.yesterday_note);
    write(
        root,
        "memory/sessions/index.jsonl",
        &jsonl(
            &folder.sessions,
            "captured_at",
            "title",
            folder.corrupt_lines,
        ),
    );
    write(
        root,
        "memory/signals/2026-08-29.jsonl",
        &jsonl(&folder.signals, "ts", "summary", folder.corrupt_lines),
    );
    write(
        root,
        "memory/events.jsonl",
        &jsonl(&folder.events, "ts", "summary", folder.corrupt_lines),
    );
    write(
        root,
        "projects/alpha/README.md",
        &format!(
            "---\nid: id-alpha\nstatus: active\n---\n# Alpha\n\n{}",
            folder.readme
        ),
    );
    write(
        root,
        "projects/beta/README.md",
        "---\nid: id-beta\n---\n# Beta\n\nOTHER project.\n",
    );
}

/// The MCP payload without `markdown`, as contract 05 §7.2 bounds it.
fn metadata_len(payload: &str) -> usize {
    let value: serde_json::Value = serde_json::from_str(payload).unwrap_or_default();
    let mut writer = JsonWriter::new(JsonLayout::Pretty);
    writer.begin_object();
    if let Some(object) = value.as_object() {
        for (name, member) in object
            .iter()
            .filter(|(name, _)| name.as_str() != "markdown")
        {
            writer.member(name, member);
        }
    }
    writer.end_object();
    utf16_len(&writer.finish())
}

fn check(folder: &Folder, budget: u32, limit: u8, project_mode: bool) -> Result<(), TestCaseError> {
    let dir = tempfile::tempdir().map_err(|e| TestCaseError::fail(e.to_string()))?;
    write_folder(dir.path(), folder);
    let before = fingerprint(dir.path());
    let root = Root::open(dir.path()).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let now: Timestamp = "2026-08-29T10:00:00.000Z"
        .parse()
        .unwrap_or(Timestamp::UNIX_EPOCH);
    let scope = if project_mode {
        ContextScope::Project {
            selector: ContextSelector::check("id-alpha").unwrap(),
        }
    } else {
        ContextScope::Shared
    };
    let context = read_working_context(
        &root,
        &ContextRequest {
            scope,
            limit: Limit::whole(u32::from(limit)),
            budget: Budget::whole(budget),
            now,
            time_zone: &TimeZone::UTC,
        },
    )
    .map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
    let projection = &context.projection;
    prop_assert!(projection.markdown.len() <= budget as usize);
    prop_assert_eq!(projection.budget.used, projection.markdown.len());
    prop_assert_eq!(
        projection.budget.remaining,
        f64::from(budget) - projection.budget.used as f64
    );
    let payload = context
        .mcp_payload()
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert!(metadata_len(&payload) <= 1024);
    if let Some(notice) = context.operational_notice() {
        prop_assert!(utf16_len(&notice) <= 1024);
    }
    let markdown = projection.markdown.to_string_lossy();
    if project_mode {
        for marker in ["OTHER", "NONE", "MIXED"] {
            prop_assert!(
                !markdown.contains(marker),
                "{} leaked into\n{}",
                marker,
                markdown
            );
        }
        let coverage = projection
            .coverage
            .ok_or_else(|| TestCaseError::fail("no coverage"))?;
        let coverage_json = format!(
            "{{\n  \"contextCoverage\": {{\n    \"version\": 1,\n    \"selectedProjectReadme\": {{\n      \"excerptClipped\": {},\n      \"budgetOmitted\": {}\n    }},\n    \"notice\": null\n  }}\n}}",
            coverage.excerpt_clipped, coverage.budget_omitted
        );
        let notice = coverage.notice().unwrap_or_default();
        // With the notice as a string instead of `null`: the JSON grows by its length − 2.
        prop_assert!(utf16_len(&coverage_json) + 2 * utf16_len(&notice) + 2 <= 512);
    } else {
        prop_assert!(projection.coverage.is_none());
    }
    prop_assert!(fingerprint(dir.path()) == before, "the folder changed");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn shared_mode_fits_and_never_writes(folder in folder(), budget in 256_u32..=32_000, limit in 0_u8..=10) {
        check(&folder, budget, limit, false)?;
    }

    #[test]
    fn project_mode_fits_and_never_leaks(folder in folder(), budget in 256_u32..=32_000, limit in 0_u8..=10) {
        check(&folder, budget, limit, true)?;
    }

    #[test]
    fn tight_budgets_still_fit(folder in folder(), budget in 256_u32..=600, project in any::<bool>()) {
        check(&folder, budget, 10, project)?;
    }
}

/// The generator's attribution shapes do what their tags say: every `MINE` shape is shown in
/// project mode and every other shape is not (so the properties above are not vacuous).
#[test]
fn every_attribution_shape_is_classified() {
    let rows: Vec<Row> = [Tag::Mine, Tag::Other, Tag::None, Tag::Mixed]
        .into_iter()
        .flat_map(|tag| {
            (0..3).map(move |variant| Row {
                tag,
                variant,
                day: 29,
                hour: 9,
                words: String::new(),
            })
        })
        .collect();
    let folder = Folder {
        identity: String::new(),
        priorities: String::new(),
        work: String::new(),
        decisions: String::new(),
        today_note: String::new(),
        yesterday_note: String::new(),
        sessions: rows.clone(),
        signals: rows.clone(),
        events: rows,
        readme: String::new(),
        corrupt_lines: true,
    };
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    write_folder(dir.path(), &folder);
    let root = Root::open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let now: Timestamp = "2026-08-29T10:00:00.000Z"
        .parse()
        .unwrap_or(Timestamp::UNIX_EPOCH);
    let run = |scope| {
        read_working_context(
            &root,
            &ContextRequest {
                scope,
                limit: Limit::whole(12),
                budget: Budget::whole(32_000),
                now,
                time_zone: &TimeZone::UTC,
            },
        )
        .unwrap_or_else(|e| panic!("{e:?}"))
        .projection
        .markdown
        .to_string_lossy()
    };
    let project = run(ContextScope::Project {
        selector: ContextSelector::check("alpha").unwrap(),
    });
    // Three MINE shapes in each of sessions, signals and events.
    assert_eq!(project.matches("MINE-").count(), 9, "{project}");
    for marker in ["OTHER-", "NONE-", "MIXED-"] {
        assert!(!project.contains(marker), "{project}");
    }
    let shared = run(ContextScope::Shared);
    for marker in ["MINE-", "OTHER-", "NONE-", "MIXED-"] {
        assert!(shared.contains(marker), "{shared}");
    }
}
