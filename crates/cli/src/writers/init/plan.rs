//! What `init` writes (contract 01 §11.2, §11.3): the directories, every file in writing order
//! with its replacement [`Policy`], the rendered context templates and `aios.json` (§3.1).
//!
//! Pure: it builds bytes from the embedded templates and the answers; it never touches the
//! file system.

use crate::writers::templates::{self, BUNDLED_SKILLS};

use super::{Answers, InitRequest};

/// The folder schema `init` writes and the only one it continues on.
pub(crate) const SCHEMA_VERSION: &str = "1.2.0";

/// `ai_tools` written with `--yes` (and offered as the default when prompting).
pub(crate) const DEFAULT_AI_TOOLS: [&str; 3] = ["claude-code", "codex", "cursor"];

/// Directories of §11.2 below the target, parents before children.
pub(super) const DIRECTORIES: [&str; 10] = [
    "context/domains",
    "projects",
    "connections/apis",
    "memory/signals",
    "memory/daily",
    "memory/sessions",
    "skills",
    "plugins",
    "decisions",
    "archives",
];

/// Vault subfolders of §11.2, relative to the vault (built in or external).
pub(super) const VAULT_DIRECTORIES: [&str; 5] =
    ["wiki", "raw", "org/companies", "org/people", "outputs"];

/// What an already-present file may become.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Policy {
    /// Never replaced, not even with `--overwrite`: `migrate` is the only writer (decision D1).
    MigrationOwned,
    /// Starter content the user makes their own (context, logs, registries): kept always.
    UserContent,
    /// Generated from the product's templates (the §2 "generated" files and bundled skills):
    /// replaced with `--overwrite`.
    Generated,
}

/// Where a starter file's bytes come from.
#[derive(Debug, Clone, Copy)]
enum Source {
    /// The template as it is.
    Text(&'static str),
    /// A context template, filled with `created_at` and the answers.
    Context(&'static str),
    /// An empty file.
    Empty,
}

/// The fixed §11.3 files before the bundled skills and catalogs, in writing order.
#[rustfmt::skip]
const STARTER_FILES: [(&str, Source, Policy); 19] = {
    use Policy::{Generated, MigrationOwned, UserContent};
    use Source::{Context, Empty, Text};
    [
        (".gitignore", Text(templates::GITIGNORE), MigrationOwned),
        ("README.md", Text(templates::README), Generated),
        ("FIRST_SESSION.md", Text(templates::FIRST_SESSION), Generated),
        ("CLAUDE.md", Text(templates::CLAUDE), Generated),
        ("AGENTS.md", Text(templates::AGENTS), Generated),
        (".cursorrules", Text(templates::CURSORRULES), Generated),
        (".env.example", Text(templates::ENV_EXAMPLE), Generated),
        ("schedules.yml", Text(templates::SCHEDULES), UserContent),
        ("context/identity.md", Context(templates::IDENTITY), UserContent),
        ("context/priorities.md", Context(templates::PRIORITIES), UserContent),
        ("context/work.md", Context(templates::WORK), UserContent),
        ("context/north-star.md", Text(templates::NORTH_STAR), UserContent),
        ("context/domains/build.md", Text(templates::DOMAIN_BUILD), UserContent),
        ("context/domains/make.md", Text(templates::DOMAIN_MAKE), UserContent),
        ("context/domains/sell.md", Text(templates::DOMAIN_SELL), UserContent),
        ("decisions/log.md", Text(templates::DECISION_LOG), UserContent),
        ("memory/events.jsonl", Empty, UserContent),
        ("memory/errors.jsonl", Empty, UserContent),
        ("connections/registry.md", Text(templates::CONNECTIONS), UserContent),
    ]
};

/// One file `init` writes.
#[derive(Debug, Clone)]
pub(crate) struct PlannedFile {
    /// Relative to the target, `/`-separated.
    pub(crate) path: String,
    pub(crate) bytes: Vec<u8>,
    pub(crate) policy: Policy,
}

/// Every §11.3 file, in writing order. `aios.json` comes last: a folder only becomes an AIOS
/// folder once everything else is in place, so an interrupted run is never mistaken for a
/// complete one.
pub(crate) fn planned_files(
    request: &InitRequest,
    answers: &Answers,
    created_at: &str,
) -> Vec<PlannedFile> {
    let context = |template: &str| -> Vec<u8> {
        templates::render(
            template,
            &[
                ("created_at", created_at),
                ("name", &answers.name),
                ("role", &answers.role),
                ("current_work", &answers.current_work),
                ("priorities", &answers.priorities),
            ],
        )
        .into_bytes()
    };
    let text = |text: &str| text.as_bytes().to_vec();
    let catalog = templates::bundled_catalog();
    let registry_names: Vec<&str> = BUNDLED_SKILLS.iter().map(|skill| skill.dir).collect();
    let vault_path = request
        .vault
        .as_ref()
        .and_then(|vault| vault.path.to_str().map(str::to_owned));

    use Policy::{Generated, MigrationOwned, UserContent};
    let mut files: Vec<PlannedFile> = STARTER_FILES
        .iter()
        .map(|(path, source, policy)| {
            let bytes = match source {
                Source::Text(template) => text(template),
                Source::Context(template) => context(template),
                Source::Empty => Vec::new(),
            };
            file(*path, bytes, *policy)
        })
        .collect();
    for skill in BUNDLED_SKILLS {
        files.push(file(
            format!("skills/{}/SKILL.md", skill.dir),
            text(skill.text),
            Generated,
        ));
    }
    files.push(file(
        "skills/_registry.json",
        templates::registry_json(&registry_names).into_bytes(),
        UserContent,
    ));
    files.push(file(
        "skills/INDEX.md",
        templates::index_markdown(&catalog).into_bytes(),
        Generated,
    ));
    files.push(file(
        "skills/RESOLVER.md",
        templates::resolver_markdown(&catalog).into_bytes(),
        Generated,
    ));
    files.push(file(
        "aios.json",
        aios_json(created_at, &answers.ai_tools, vault_path.as_deref()).into_bytes(),
        MigrationOwned,
    ));
    files
}

fn file(path: impl Into<String>, bytes: Vec<u8>, policy: Policy) -> PlannedFile {
    PlannedFile {
        path: path.into(),
        bytes,
        policy,
    }
}

/// `aios.json` as §3.1 writes it: 2-space pretty JSON, keys in the stated order, one `\n`.
pub(crate) fn aios_json(created_at: &str, ai_tools: &[String], vault_path: Option<&str>) -> String {
    let mut config = serde_json::Map::new();
    config.insert("schema_version".into(), SCHEMA_VERSION.into());
    config.insert("created_at".into(), created_at.into());
    config.insert(
        "ai_tools".into(),
        serde_json::Value::Array(ai_tools.iter().map(|tool| tool.as_str().into()).collect()),
    );
    config.insert(
        "vault_path".into(),
        vault_path.map_or(serde_json::Value::Null, serde_json::Value::from),
    );
    let mut text =
        serde_json::to_string_pretty(&serde_json::Value::Object(config)).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    #[test]
    fn aios_json_has_the_spec_shape() {
        let tools: Vec<String> = DEFAULT_AI_TOOLS.iter().map(|t| (*t).to_owned()).collect();
        assert_eq!(
            aios_json("2026-11-20T09:02:11.482Z", &tools, None),
            "{\n  \"schema_version\": \"1.2.0\",\n  \"created_at\": \"2026-11-20T09:02:11.482Z\",\n  \"ai_tools\": [\n    \"claude-code\",\n    \"codex\",\n    \"cursor\"\n  ],\n  \"vault_path\": null\n}\n"
        );
        assert!(
            aios_json("x", &[], Some("/v"))
                .contains("\"ai_tools\": [],\n  \"vault_path\": \"/v\"\n}")
        );
    }

    /// The files of `init --yes` into `/t`, created at a fixed time.
    fn placeholder_files() -> Vec<PlannedFile> {
        let request = InitRequest {
            target: PathBuf::from("/t"),
            vault: None,
            force: false,
            overwrite: false,
        };
        planned_files(
            &request,
            &Answers::placeholders(),
            "2026-11-20T00:00:00.000Z",
        )
    }

    #[test]
    fn overwrite_policy_protects_migration_owned_and_user_files() {
        let files = placeholder_files();
        let policy = |path: &str| files.iter().find(|f| f.path == path).unwrap().policy;
        assert_eq!(policy("aios.json"), Policy::MigrationOwned);
        assert_eq!(policy(".gitignore"), Policy::MigrationOwned);
        assert_eq!(policy("context/identity.md"), Policy::UserContent);
        assert_eq!(policy("memory/events.jsonl"), Policy::UserContent);
        assert_eq!(policy("CLAUDE.md"), Policy::Generated);
        assert_eq!(policy("skills/plan-today/SKILL.md"), Policy::Generated);
        assert_eq!(files.last().unwrap().path, "aios.json");
    }

    #[test]
    fn placeholders_fill_the_context_templates() {
        let files = placeholder_files();
        let text = |path: &str| {
            String::from_utf8(files.iter().find(|f| f.path == path).unwrap().bytes.clone()).unwrap()
        };
        let identity = text("context/identity.md");
        assert!(identity.starts_with(
            "---\nsource: dotaios init\ncreated_at: 2026-11-20T00:00:00.000Z\nkind: context\n---\n# Identity\n"
        ));
        assert!(
            identity
                .contains("## Basics\n\n- Name: <!-- Your Name -->\n- Role: <!-- Your Role -->\n")
        );
        assert!(text("context/work.md").contains(
            "## Current Work\n\n<!-- Add the active work threads agents should keep in mind. -->\n"
        ));
        assert!(text("context/priorities.md").contains(
            "## Current Bets\n\n<!-- Add the current bets and near-term priorities. -->\n"
        ));
        assert!(
            files
                .iter()
                .all(|f| !String::from_utf8_lossy(&f.bytes).contains("{{"))
        );
    }
}
