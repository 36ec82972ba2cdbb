//! `dotaios migrate [--path <dir>] [--apply <plan-id> | --recover [<plan-id>]]` (contract 01
//! §9): options, the folder check, and the text of every outcome. What is planned, written or
//! rolled back is decided in [`crate::writers::migrate`]; this module only renders it.

use std::ffi::OsString;
use std::path::Path;
use std::process::ExitCode;

use dotaios_core::folder::plan::{PROTECTED_SHELVES, Plan};

use super::folder::{configured_folder, require_aios_json};
use crate::args::{
    CommandSpec, Item, OptionSpec, PATH_OPTION, Scanner, Takes, text, unexpected, unhandled,
};
use crate::output::{out, shell_quote};
use crate::writers::migrate::{
    self as writer, ApplyOutcome, MigrateError, PreviewOutcome, RecoverOutcome,
};
use crate::{CliError, Env};

/// `dotaios migrate`: its options, help and completions.
pub(crate) static SPEC: CommandSpec = CommandSpec {
    name: "migrate",
    label: "migrate",
    summary: "Preview or apply folder schema migrations",
    usage: "\
Usage:
  dotaios migrate [--path <dir>]                        Preview the plan; never writes
  dotaios migrate --apply <plan-id> [--path <dir>]      Apply exactly this plan
  dotaios migrate --recover [<plan-id>] [--path <dir>]  Roll back an interrupted migration

Bring an AIOS folder to schema 1.2.0. The preview lists every file the plan would change and
its plan id; --apply recomputes the plan, refuses if the folder changed since the preview, and
writes through a journal under .dotaios/migrations/ so that an interruption can always be
rolled back with --recover. Only aios.json and .gitignore are ever written; context/,
projects/, memory/ and vault/ are never touched.
",
    options: &[
        PATH_OPTION,
        OptionSpec::value("--apply", "<plan-id>", "Apply the plan the preview printed"),
        OptionSpec {
            name: "--recover",
            short: None,
            takes: Takes::OptionalValue("<plan-id>"),
            help: "Roll back an interrupted migration (the id is needed only when\nmore than one exists)",
        },
    ],
    words: &[],
    footer: "",
};

/// What the user asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Mode {
    Preview,
    Apply(String),
    Recover(Option<String>),
}

#[derive(Debug, Default)]
struct Options {
    path: Option<OsString>,
    apply: Option<String>,
    recover: Option<Option<String>>,
}

/// Runs `dotaios migrate`.
pub(crate) fn run(args: &[OsString], env: &Env) -> Result<ExitCode, CliError> {
    if Scanner::wants_help(args) {
        out(&SPEC.help())?;
        return Ok(ExitCode::SUCCESS);
    }
    let (path, mode) = parse(args)?;
    let folder = configured_folder(path.as_deref(), env);
    let is_default = folder == configured_folder(None, env);
    require_aios_json(&folder)?;
    match mode {
        Mode::Preview => preview(&folder, is_default),
        Mode::Apply(id) => apply(&folder, &id),
        Mode::Recover(id) => recover(&folder, id.as_deref()),
    }
}

fn parse(args: &[OsString]) -> Result<(Option<OsString>, Mode), CliError> {
    let mut options = Options::default();
    let mut scanner = Scanner::new(args, &SPEC);
    while let Some(item) = scanner.next_item()? {
        match item {
            Item::Value("--path", value) => options.path = Some(value),
            Item::Value("--apply", value) => options.apply = Some(text(value, "--apply")?),
            Item::MaybeValue("--recover", id) => {
                options.recover = Some(id.map(|id| id.to_string_lossy().into_owned()));
            }
            Item::Positional(word) => return Err(unexpected(&word)),
            other => return Err(unhandled(&other)),
        }
    }
    let mode = match (options.apply, options.recover) {
        (Some(_), Some(_)) => {
            return Err(CliError::ApplyAndRecover);
        }
        (Some(id), None) => Mode::Apply(id),
        (None, Some(id)) => Mode::Recover(id),
        (None, None) => Mode::Preview,
    };
    Ok((options.path, mode))
}

fn failed(error: MigrateError) -> CliError {
    CliError::Migrate(error)
}

fn preview(folder: &Path, is_default: bool) -> Result<ExitCode, CliError> {
    let outcome = writer::preview(folder).map_err(failed)?;
    // Every printed next step keeps a non-default folder, so it works where it is printed.
    let suffix = if is_default {
        String::new()
    } else {
        format!(" --path {}", shell_quote(folder))
    };
    let mut text = format!(
        "DotAIOS migration preview for {}\n",
        folder.to_string_lossy()
    );
    let code = match outcome {
        PreviewOutcome::Blocked(ids) => {
            text.push_str(&format!(
                "[blocked] Interrupted migration: {}\n",
                ids.join(", ")
            ));
            text.push_str(&format!(
                "Run `dotaios migrate --recover{suffix}` before previewing or applying another plan.\n"
            ));
            ExitCode::from(1)
        }
        PreviewOutcome::Current => {
            text.push_str("[ok] Schema 1.2.0 is current. No migration needed.\n");
            ExitCode::SUCCESS
        }
        PreviewOutcome::Plan(plan) => {
            text.push_str(&render_plan(&plan, &suffix));
            ExitCode::SUCCESS
        }
    };
    out(&text)?;
    Ok(code)
}

/// The plan lines of contract 01 §9.4 (after the header).
fn render_plan(plan: &Plan, path_suffix: &str) -> String {
    let mut text = format!(
        "Schema: {} \u{2192} {}\nPlan ID: {}\nChanges:\n",
        plan.from_schema_version, plan.to_schema_version, plan.id
    );
    for change in &plan.changes {
        text.push_str(&format!(
            "  [{}] {} \u{2014} {}\n",
            change.action.as_str(),
            change.path,
            change.summary
        ));
    }
    text.push_str(&format!(
        "Protected: {} (not written)\nNo files changed.\n",
        PROTECTED_SHELVES.join(", ")
    ));
    text.push_str(&format!(
        "Apply exactly this plan with: dotaios migrate --apply {}{path_suffix}\n",
        plan.id
    ));
    text
}

fn apply(folder: &Path, plan_id: &str) -> Result<ExitCode, CliError> {
    let text = match writer::apply(folder, plan_id).map_err(failed)? {
        ApplyOutcome::AlreadyApplied(id) => format!("[ok] Plan {id} was already applied.\n"),
        ApplyOutcome::Applied { from, to, plan_id } => format!(
            "[ok] Migrated schema {from} \u{2192} {to}.\nReceipt: {}\n",
            writer::receipt_rel_path(&plan_id)
        ),
    };
    out(&text)?;
    Ok(ExitCode::SUCCESS)
}

fn recover(folder: &Path, plan_id: Option<&str>) -> Result<ExitCode, CliError> {
    let text = match writer::recover(folder, plan_id).map_err(failed)? {
        RecoverOutcome::NothingToRecover { version } => {
            format!("[ok] No interrupted migration found. Schema {version} is unchanged.\n")
        }
        RecoverOutcome::AlreadyCommitted(id) => {
            format!("[ok] Plan {id} was already committed; stale transaction files were cleared.\n")
        }
        RecoverOutcome::Recovered { id, version } => {
            format!("[ok] Recovered {id}; schema is {version}.\n")
        }
    };
    out(&text)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(items: &[&str]) -> Result<Mode, String> {
        let items: Vec<OsString> = items.iter().map(OsString::from).collect();
        parse(&items)
            .map(|(_, mode)| mode)
            .map_err(|error| error.to_string())
    }

    #[test]
    fn modes() {
        assert_eq!(parsed(&[]), Ok(Mode::Preview));
        assert_eq!(parsed(&["--path", "x"]), Ok(Mode::Preview));
        assert_eq!(parsed(&["--apply", "id"]), Ok(Mode::Apply("id".into())));
        assert_eq!(parsed(&["--recover"]), Ok(Mode::Recover(None)));
        assert_eq!(
            parsed(&["--recover", "id"]),
            Ok(Mode::Recover(Some("id".into())))
        );
        assert_eq!(
            parsed(&["--recover", "--path", "x"]),
            Ok(Mode::Recover(None))
        );
    }

    #[test]
    fn refusals() {
        assert_eq!(parsed(&["--apply"]), Err("--apply requires a value".into()));
        assert_eq!(
            parsed(&["--recover", ""]),
            Err("--recover requires a value".into())
        );
        assert_eq!(
            parsed(&["--apply", "--path"]),
            Err("--apply requires a value".into())
        );
        assert_eq!(
            parsed(&["--apply", "a", "--recover"]),
            Err("Choose either --apply or --recover, not both.".into())
        );
        assert_eq!(
            parsed(&["--path=x", "--apply=id"]),
            Ok(Mode::Apply("id".into()))
        );
        assert_eq!(
            parsed(&["--recover=id"]),
            Ok(Mode::Recover(Some("id".into())))
        );
        assert_eq!(parsed(&["extra"]), Err("Unknown option: extra".into()));
        assert_eq!(parsed(&["--path"]), Err("--path requires a value".into()));
    }
}
