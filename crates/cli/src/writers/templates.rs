//! The text `dotaios init` writes (contract 01 §11.3–§11.4, 04 §1.5): starter templates and
//! bundled skills embedded at build time from `crates/cli/templates/`, the placeholder
//! renderer, and the generated skill catalogs (`skills/INDEX.md`, `skills/RESOLVER.md`,
//! `skills/_registry.json`).
//!
//! Wording is the product's own except where the contract states bytes (`decisions/log.md`,
//! `connections/registry.md`, `skills/_registry.json`, the `plan-today` frontmatter); unit
//! tests below pin those bytes. This module only produces text; it never touches the disk.

use dotaios_core::text::is_js_space;

use crate::output::lines_text;

/// One skill shipped with `init`, in the order of `skills/_registry.json`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BundledSkill {
    /// Directory under `skills/`, equal to the skill name.
    pub(crate) dir: &'static str,
    /// Frontmatter `description`.
    pub(crate) description: &'static str,
    /// Frontmatter `triggers`, split.
    pub(crate) triggers: &'static [&'static str],
    /// The complete `SKILL.md`.
    pub(crate) text: &'static str,
}

/// The four bundled skills (contract 01 §11.4), in registry order.
pub(crate) const BUNDLED_SKILLS: [BundledSkill; 4] = [
    BundledSkill {
        dir: "plan-today",
        description: "Plan the day from priorities, active work, and recent signals. Use it when the user asks for structure, what to focus on today, or what is next.",
        triggers: &[
            "plan my day",
            "what should I work on",
            "structure today",
            "what's my focus today",
        ],
        text: include_str!("../../templates/skills/plan-today/SKILL.md"),
    },
    BundledSkill {
        dir: "today",
        description: "Write today's plan into the daily note under memory/daily and keep its close-out section ready. Use it to start the day or open today's note.",
        triggers: &[
            "start my day",
            "open today's note",
            "today's plan",
            "build today",
        ],
        text: include_str!("../../templates/skills/today/SKILL.md"),
    },
    BundledSkill {
        dir: "closeday",
        description: "Close out today's daily note, record what shipped, stage carry-over items for tomorrow, and add one reflection.",
        triggers: &[
            "close the day",
            "wrap up today",
            "end of day",
            "log what I shipped",
            "close out my daily note",
        ],
        text: include_str!("../../templates/skills/closeday/SKILL.md"),
    },
    BundledSkill {
        dir: "weekly-review",
        description: "Review the last week of memory, daily notes, projects, and priorities, then suggest a few small context updates.",
        triggers: &[
            "weekly review",
            "review my week",
            "reflect on the week",
            "weekly memory review",
        ],
        text: include_str!("../../templates/skills/weekly-review/SKILL.md"),
    },
];

pub(crate) const README: &str = include_str!("../../templates/README.md");
pub(crate) const FIRST_SESSION: &str = include_str!("../../templates/FIRST_SESSION.md");
pub(crate) const CLAUDE: &str = include_str!("../../templates/CLAUDE.md");
pub(crate) const AGENTS: &str = include_str!("../../templates/AGENTS.md");
pub(crate) const CURSORRULES: &str = include_str!("../../templates/cursorrules");
pub(crate) const GITIGNORE: &str = include_str!("../../templates/gitignore");
pub(crate) const ENV_EXAMPLE: &str = include_str!("../../templates/env.example");
pub(crate) const SCHEDULES: &str = include_str!("../../templates/schedules.yml");
pub(crate) const IDENTITY: &str = include_str!("../../templates/context/identity.md");
pub(crate) const PRIORITIES: &str = include_str!("../../templates/context/priorities.md");
pub(crate) const WORK: &str = include_str!("../../templates/context/work.md");
pub(crate) const NORTH_STAR: &str = include_str!("../../templates/context/north-star.md");
pub(crate) const DOMAIN_BUILD: &str = include_str!("../../templates/context/domains/build.md");
pub(crate) const DOMAIN_MAKE: &str = include_str!("../../templates/context/domains/make.md");
pub(crate) const DOMAIN_SELL: &str = include_str!("../../templates/context/domains/sell.md");
pub(crate) const DECISION_LOG: &str = include_str!("../../templates/decisions/log.md");
pub(crate) const CONNECTIONS: &str = include_str!("../../templates/connections/registry.md");

/// Replaces each `{{key}}` of `template` by its value in one left-to-right pass, so text
/// inside a value is never itself treated as a placeholder. Unknown keys stay as written.
pub(crate) fn render(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let replaced = after.find("}}").and_then(|end| {
            let key = &after[..end];
            values
                .iter()
                .find(|(name, _)| *name == key)
                .map(|(_, value)| (*value, end))
        });
        match replaced {
            Some((value, end)) => {
                out.push_str(value);
                rest = &after[end + 2..];
            }
            None => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// One entry of a skill catalog, as the generated catalogs need it (04 §1.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CatalogEntry<'a> {
    pub(crate) dir: &'a str,
    pub(crate) name: &'a str,
    pub(crate) description: &'a str,
    pub(crate) triggers: Vec<&'a str>,
}

/// The bundled skills as catalog entries, in catalog order.
pub(crate) fn bundled_catalog() -> Vec<CatalogEntry<'static>> {
    let mut entries: Vec<CatalogEntry<'static>> = BUNDLED_SKILLS
        .iter()
        .map(|skill| CatalogEntry {
            dir: skill.dir,
            name: skill.dir,
            description: skill.description,
            triggers: skill.triggers.to_vec(),
        })
        .collect();
    sort_catalog(&mut entries);
    entries
}

/// Catalog order (04 §1.4): name, then directory, both in byte order.
pub(crate) fn sort_catalog(entries: &mut [CatalogEntry<'_>]) {
    entries.sort_by(|a, b| {
        (a.name.as_bytes(), a.dir.as_bytes()).cmp(&(b.name.as_bytes(), b.dir.as_bytes()))
    });
}

/// `skills/INDEX.md` for `entries` (already in catalog order).
pub(crate) fn index_markdown(entries: &[CatalogEntry<'_>]) -> String {
    let mut lines: Vec<String> = vec![
        "# Installed Skills".into(),
        String::new(),
        "Skills installed in this folder. When a request matches one, read its file and follow it instead of improvising.".into(),
        String::new(),
    ];
    if entries.is_empty() {
        lines.push("_No skills are installed yet._".into());
    }
    for entry in entries {
        lines.push(format!("## {}", entry.name));
        lines.push(String::new());
        if !entry.description.is_empty() {
            lines.push(entry.description.to_owned());
            lines.push(String::new());
        }
        lines.push(format!(
            "Read `skills/{}/SKILL.md` and follow it.",
            entry.dir
        ));
        lines.push(String::new());
    }
    lines_text(&lines)
}

/// `skills/RESOLVER.md` for `entries` (already in catalog order).
pub(crate) fn resolver_markdown(entries: &[CatalogEntry<'_>]) -> String {
    let mut lines: Vec<String> = vec![
        "# Skill Resolver".into(),
        String::new(),
        "Find the row that matches the user's request, then read that skill file and follow it. `dotaios skills resolve \"<request>\"` does the matching for you.".into(),
        String::new(),
    ];
    if entries.is_empty() {
        lines.push("_No skills are installed yet. Add one as `skills/<name>/SKILL.md`._".into());
    } else {
        lines.push("| If the user wants… | Run this skill |".into());
        lines.push("| --- | --- |".into());
        for entry in entries {
            let hints = if !entry.triggers.is_empty() {
                entry.triggers.join(" · ")
            } else if !entry.description.is_empty() {
                entry.description.to_owned()
            } else {
                entry.name.to_owned()
            };
            lines.push(format!(
                "| {} | `skills/{}/SKILL.md` |",
                escape_cell(&hints),
                entry.dir
            ));
        }
    }
    lines_text(&lines)
}

/// `skills/_registry.json`: `{"skills": [...]}` with the array on one line, as contract 01 §11.3
/// states its bytes.
pub(crate) fn registry_json(names: &[&str]) -> String {
    let quoted: Vec<String> = names
        .iter()
        .map(|name| serde_json::Value::from(*name).to_string())
        .collect();
    format!("{{\n  \"skills\": [{}]\n}}\n", quoted.join(", "))
}

/// Table-cell escaping of 04 §1.5: `|` becomes `\|`, and every run of whitespace that contains
/// a line feed (`\s*\n\s*`, JavaScript's whitespace set) becomes one space.
fn escape_cell(text: &str) -> String {
    let escaped = text.replace('|', "\\|");
    let mut out = String::with_capacity(escaped.len());
    let mut run = String::new();
    for ch in escaped.chars() {
        if is_js_space(ch) {
            run.push(ch);
            continue;
        }
        flush_run(&mut out, &mut run);
        out.push(ch);
    }
    flush_run(&mut out, &mut run);
    out
}

fn flush_run(out: &mut String, run: &mut String) {
    if run.contains('\n') {
        out.push(' ');
    } else {
        out.push_str(run);
    }
    run.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The registry order of `skills/_registry.json`.
    const REGISTRY: [&str; 4] = ["plan-today", "today", "closeday", "weekly-review"];

    #[test]
    fn exact_bytes_stated_by_the_spec() {
        assert_eq!(DECISION_LOG, "# Decision Log\n\n");
        assert_eq!(
            CONNECTIONS,
            "# Connections\n\n| Service | Status | Notes |\n|---|---|---|\n"
        );
        assert_eq!(
            registry_json(&REGISTRY),
            "{\n  \"skills\": [\"plan-today\", \"today\", \"closeday\", \"weekly-review\"]\n}\n"
        );
        let names: Vec<&str> = BUNDLED_SKILLS.iter().map(|skill| skill.dir).collect();
        assert_eq!(names, REGISTRY);
    }

    #[test]
    fn plan_today_frontmatter_is_the_spec_block() {
        let expected = "---\n\
name: plan-today\n\
triggers: plan my day, what should I work on, structure today, what's my focus today\n\
description: Plan the day from priorities, active work, and recent signals. Use it when the user asks for structure, what to focus on today, or what is next.\n\
when_to_use: plan my day · what should I work on · structure today · what's my focus today\n\
---\n";
        assert!(BUNDLED_SKILLS[0].text.starts_with(expected));
    }

    /// Each bundled `SKILL.md` opens with exactly the frontmatter the table describes, in the
    /// shape of 01 §11.4: `name`, comma-separated `triggers`, a plain `description` free of
    /// `: ` and ` #`, and `when_to_use` joined with ` · `.
    #[test]
    fn bundled_frontmatter_matches_the_table() {
        for skill in BUNDLED_SKILLS {
            let expected = format!(
                "---\nname: {}\ntriggers: {}\ndescription: {}\nwhen_to_use: {}\n---\n",
                skill.dir,
                skill.triggers.join(", "),
                skill.description,
                skill.triggers.join(" · "),
            );
            assert!(skill.text.starts_with(&expected), "{}", skill.dir);
            assert!(!skill.description.contains(": ") && !skill.description.contains(" #"));
            assert!(
                skill
                    .triggers
                    .iter()
                    .all(|t| !t.contains(',') && !t.contains(": "))
            );
        }
    }

    /// The example folder ships the bundled skills unchanged, so demos and docs show exactly
    /// what `init` writes.
    #[test]
    fn example_folder_carries_the_bundled_skills_byte_for_byte() {
        let examples = [
            include_str!("../../../../examples/aios/skills/plan-today/SKILL.md"),
            include_str!("../../../../examples/aios/skills/today/SKILL.md"),
            include_str!("../../../../examples/aios/skills/closeday/SKILL.md"),
            include_str!("../../../../examples/aios/skills/weekly-review/SKILL.md"),
        ];
        for (skill, example) in BUNDLED_SKILLS.iter().zip(examples) {
            assert_eq!(skill.text, example, "{}", skill.dir);
        }
    }

    /// The example folder's generated root files are the templates as `init` writes them.
    #[test]
    fn example_folder_carries_the_generated_root_files() {
        let pairs = [
            (README, include_str!("../../../../examples/aios/README.md")),
            (
                FIRST_SESSION,
                include_str!("../../../../examples/aios/FIRST_SESSION.md"),
            ),
            (CLAUDE, include_str!("../../../../examples/aios/CLAUDE.md")),
            (AGENTS, include_str!("../../../../examples/aios/AGENTS.md")),
            (
                CURSORRULES,
                include_str!("../../../../examples/aios/.cursorrules"),
            ),
            (
                GITIGNORE,
                include_str!("../../../../examples/aios/.gitignore"),
            ),
            (
                ENV_EXAMPLE,
                include_str!("../../../../examples/aios/.env.example"),
            ),
            (
                SCHEDULES,
                include_str!("../../../../examples/aios/schedules.yml"),
            ),
        ];
        for (template, example) in pairs {
            assert_eq!(template, example);
        }
    }

    /// The example's catalogs are what `init`'s generator produces for its six skills.
    #[test]
    fn example_catalogs_match_the_generator() {
        let mut entries = bundled_catalog();
        entries.push(CatalogEntry {
            dir: "client-update",
            name: "client-update",
            description: "Draft the weekly status email for a client from the project README, recent events and decisions.",
            triggers: vec!["write a client update", "weekly status email", "update jonas"],
        });
        entries.push(CatalogEntry {
            dir: "release-tidepool",
            name: "release-tidepool",
            description: "Cut a Tidepool library release and deploy the API, with changelog, version bump, tag and smoke test.",
            triggers: vec!["cut a release", "publish tidepool", "release checklist", "deploy the api"],
        });
        sort_catalog(&mut entries);
        assert_eq!(
            index_markdown(&entries),
            include_str!("../../../../examples/aios/skills/INDEX.md")
        );
        assert_eq!(
            resolver_markdown(&entries),
            include_str!("../../../../examples/aios/skills/RESOLVER.md")
        );
        assert!(
            include_str!("../../../../examples/aios/skills/client-update/SKILL.md")
                .contains(&format!("description: {}\n", entries[0].description))
        );
    }

    #[test]
    fn generated_catalogs_for_the_bundled_skills() {
        let entries = bundled_catalog();
        let order: Vec<&str> = entries.iter().map(|entry| entry.name).collect();
        assert_eq!(order, ["closeday", "plan-today", "today", "weekly-review"]);
        let index = index_markdown(&entries);
        assert!(index.starts_with("# Installed Skills\n\n"));
        assert!(index.contains(
            "## plan-today\n\nPlan the day from priorities, active work, and recent signals."
        ));
        assert!(index.contains("Read `skills/plan-today/SKILL.md` and follow it.\n"));
        let resolver = resolver_markdown(&entries);
        assert!(resolver.contains(
            "| If the user wants… | Run this skill |\n| --- | --- |\n| close the day · wrap up today"
        ));
        assert!(resolver.ends_with(
            "| weekly review · review my week · reflect on the week · weekly memory review | `skills/weekly-review/SKILL.md` |\n"
        ));
    }

    #[test]
    fn empty_catalogs_say_so() {
        assert!(index_markdown(&[]).ends_with("\n_No skills are installed yet._\n"));
        let resolver = resolver_markdown(&[]);
        assert!(!resolver.contains("| --- |"));
        assert!(resolver.ends_with("`skills/<name>/SKILL.md`._\n"));
    }

    #[test]
    fn cells_escape_pipes_and_fold_line_breaks() {
        assert_eq!(escape_cell("a|b"), "a\\|b");
        assert_eq!(escape_cell("one \n\n  two\r\nthree"), "one two three");
        assert_eq!(escape_cell("keep  double\tspaces"), "keep  double\tspaces");
        let entry = CatalogEntry {
            dir: "x",
            name: "x",
            description: "first line\n  second | third",
            triggers: vec![],
        };
        assert!(
            resolver_markdown(&[entry])
                .contains("| first line second \\| third | `skills/x/SKILL.md` |")
        );
    }

    #[test]
    fn render_is_single_pass() {
        assert_eq!(
            render(
                "- Name: {{name}}\n{{unknown}} {{",
                &[("name", "{{name}} Ada")]
            ),
            "- Name: {{name}} Ada\n{{unknown}} {{"
        );
    }
}
