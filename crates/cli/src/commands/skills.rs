//! `dotaios skills`, `dotaios skills <name>` and `dotaios skills resolve` (contract 04 §5): list
//! the installed skills, print one skill's `SKILL.md`, match an intent to a skill, or print the
//! boot-context table. Catalog reading and ranking are `dotaios_core::skills::resolve_skill`'s
//! (the same call as the MCP tool's); this module parses options, checks the folder, renders
//! and picks exit codes. It never writes.
//!
//! These outputs are addressed to the person at the terminal, so `run:`, `skillPath` and the
//! boot-context table name the absolute folder path (contract 01 §4.10); errors never do, except
//! the folder check's own message.

use std::ffi::OsString;
use std::path::Path;
use std::process::ExitCode;

use dotaios_contained::Root;
use dotaios_core::folder::memory::MemoryMode;
use dotaios_core::request::Limit;
use dotaios_core::skills::{
    Ranked, Skill, SkillRequest, escape_table_cell, read_catalog_at, read_skill_text,
    resolve_skill, round_score, routing_hint,
};
use dotaios_core::text::{self, JsonLayout, JsonWriter};

use super::folder::checked_folder;
use crate::args::{
    CommandSpec, Item, OptionSpec, PATH_OPTION, Scanner, did_you_mean, first_positional, text,
    unhandled,
};
use crate::output::{out, shell_quote};
use crate::{CliError, Env};

/// `dotaios skills` (list or show one skill): its options, help and completions.
pub(crate) static SPEC: CommandSpec = CommandSpec {
    name: "skills",
    label: "skills resolve",
    summary: "Match a request to an installed workflow",
    usage: "\
Usage:
  dotaios skills [--json] [--path <dir>]
  dotaios skills <name> [--json] [--path <dir>]
  dotaios skills resolve \"<intent>\" [--json] [--full] [--all] [--limit <n>] [--path <dir>]
  dotaios skills resolve --boot-context [--path <dir>]

List the workflows installed under skills/, print one skill's SKILL.md (matched by name or
directory, ignoring case), or match a request to a skill (see dotaios skills resolve --help).
",
    options: &[
        OptionSpec::flag(
            "--json",
            "Print the list (or the one skill, with its SKILL.md) as one JSON document",
        ),
        PATH_OPTION,
    ],
    words: &["resolve"],
    footer: "",
};

/// `dotaios skills resolve`: its options, help and completions.
pub(crate) static RESOLVE_SPEC: CommandSpec = CommandSpec {
    name: "skills resolve",
    label: "",
    summary: "Match a request to an installed workflow",
    usage: "\
Usage:
  dotaios skills resolve \"<intent>\" [--json] [--full] [--all] [--limit <n>] [--path <dir>]
  dotaios skills resolve --boot-context [--path <dir>]

Match a request to an installed workflow before hand-rolling the work. Ranking is lexical and
deterministic: trigger phrases first, then the description; an exact skill name wins.
The intent may be quoted or given as several words.
",
    options: &[
        OptionSpec::value(
            "--limit",
            "<n>",
            "Show the best <n> matches with --json (default 1)",
        ),
        OptionSpec::flag("--all", "Show every match"),
        OptionSpec::flag("--full", "Also print the top skill's SKILL.md"),
        OptionSpec::flag("--json", "Print the matches as JSON"),
        OptionSpec::flag(
            "--boot-context",
            "Print a Markdown table of every skill, to paste into an agent prompt",
        ),
        PATH_OPTION,
    ],
    words: &[],
    footer: "\nExit status: 0 when a skill matched, 2 when none did, 1 on errors (a missing intent included).\n",
};

/// Runs `dotaios skills …`.
pub(crate) fn run(args: &[OsString], env: &Env) -> Result<ExitCode, CliError> {
    if let Some(index) = resolve_position(args) {
        let mut rest = args.to_vec();
        rest.remove(index);
        return resolve(&rest, env);
    }
    if Scanner::wants_help(args) {
        out(&SPEC.help())?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut path_flag: Option<OsString> = None;
    let mut json = false;
    let mut words: Vec<String> = Vec::new();
    let mut scanner = Scanner::new(args, &SPEC);
    while let Some(item) = scanner.next_item()? {
        match item {
            Item::Value("--path", value) => path_flag = Some(value),
            Item::Flag("--json") => json = true,
            Item::Positional(word) => words.push(word.to_string_lossy().into_owned()),
            other => return Err(unhandled(&other)),
        }
    }
    let folder = checked_folder(path_flag.as_deref(), env)?;
    let path = path_suffix(path_flag.is_some(), &folder);
    let catalog = read_catalog_at(&folder).map_err(CliError::Catalog)?;
    let folder_text = folder.to_string_lossy();
    if words.is_empty() {
        if json {
            out(&format!("{}\n", render_list_json(&catalog, &folder_text)))?;
        } else {
            out(&render_list(&catalog, &path))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    // A skill name may hold spaces, so the words form one name, as intent words do.
    let wanted = words.join(" ").to_lowercase();
    let Some(skill) = catalog
        .iter()
        .find(|skill| skill.name.to_lowercase() == wanted || skill.dir.to_lowercase() == wanted)
    else {
        return Err(CliError::NoSkill {
            name: words.join(" "),
            hint: skill_hint(&wanted, &catalog),
            path,
        });
    };
    let text = read_full(&folder, skill)?;
    if json {
        out(&format!(
            "{}\n",
            render_skill_json(skill, &folder_text, &text)
        ))?;
    } else {
        out(&format!("{text}\n"))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Where the word `resolve` selects the subcommand: the first argument that is neither an
/// option nor an option's value (so `skills --path DIR resolve …` works too).
fn resolve_position(args: &[OsString]) -> Option<usize> {
    first_positional(args, &SPEC).filter(|&index| args[index] == "resolve")
}

/// The options of `skills resolve`, read left to right (contract 04 §5.1).
#[derive(Debug, Default)]
struct ResolveOptions {
    path_flag: Option<OsString>,
    words: Vec<String>,
    limit: Option<Limit>,
    all: bool,
    full: bool,
    json: bool,
    boot_context: bool,
}

fn parse_resolve(args: &[OsString]) -> Result<ResolveOptions, CliError> {
    let mut options = ResolveOptions::default();
    let mut scanner = Scanner::new(args, &RESOLVE_SPEC);
    while let Some(item) = scanner.next_item()? {
        match item {
            Item::Value("--path", value) => options.path_flag = Some(value),
            Item::Value("--limit", value) => {
                options.limit = Some(parse_limit(&text(value, "--limit")?)?);
            }
            Item::Flag("--all") => options.all = true,
            Item::Flag("--full") => options.full = true,
            Item::Flag("--json") => options.json = true,
            Item::Flag("--boot-context") => options.boot_context = true,
            // Unknown `--name` options are refused by the scanner (contract 04 §5.1; the
            // reference ignored them silently); `-x` is an intent word like any other.
            Item::Positional(word) => options.words.push(word.to_string_lossy().into_owned()),
            other => return Err(unhandled(&other)),
        }
    }
    Ok(options)
}

/// ` --path <folder>` for printed next steps when `--path` was given, else nothing.
fn path_suffix(given: bool, folder: &Path) -> String {
    if given {
        format!(" --path {}", shell_quote(folder))
    } else {
        String::new()
    }
}

/// `--limit` ([`Limit::from_digits`], the rule `search` shares): `^\d+$` and at least 1; a
/// value too large for memory means "no limit".
fn parse_limit(value: &str) -> Result<Limit, CliError> {
    Limit::from_digits(value).ok_or_else(|| CliError::InvalidLimit(value.to_owned()))
}

fn resolve(args: &[OsString], env: &Env) -> Result<ExitCode, CliError> {
    if Scanner::wants_help(args) {
        out(&RESOLVE_SPEC.help())?;
        return Ok(ExitCode::SUCCESS);
    }
    let options = parse_resolve(args)?;
    let folder = checked_folder(options.path_flag.as_deref(), env)?;
    let path = path_suffix(options.path_flag.is_some(), &folder);
    let intent = text::js_trim(&options.words.join(" ")).to_owned();
    // Text mode shows one block for the top match, or every match with --all.
    let request = SkillRequest {
        intent: &intent,
        memory: MemoryMode::Shared,
        project: None,
        limit: (!options.all).then(|| options.limit.unwrap_or(Limit::SKILL_DEFAULT)),
    };
    let resolution = resolve_skill(&folder, &request)?;
    let catalog = &resolution.catalog;
    let folder_text = folder.to_string_lossy();

    if options.boot_context {
        out(&format!("{}\n", render_boot_context(catalog, &folder_text)))?;
        return Ok(ExitCode::SUCCESS);
    }
    if intent.is_empty() {
        return Err(CliError::NoIntent { path });
    }

    let shown = resolution.matches();
    if shown.is_empty() {
        if options.json {
            out(&format!("{}\n", render_json(&intent, &[], &folder_text)))?;
        } else {
            let hint = skill_hint(&intent.to_lowercase(), catalog);
            return Err(CliError::NoSkillMatched { intent, hint, path });
        }
        return Ok(ExitCode::from(2));
    }
    if options.json {
        out(&format!("{}\n", render_json(&intent, &shown, &folder_text)))?;
        return Ok(ExitCode::SUCCESS);
    }
    // Text mode shows one block for the top match, or every match with --all.
    let blocks: &[Ranked<'_>] = if options.all { &shown } else { &shown[..1] };
    let mut text = String::new();
    for matched in blocks {
        text.push_str(&render_block(matched, &folder_text));
    }
    if options.full && !options.all {
        let full = read_full(&folder, shown[0].skill)?;
        text.push('\n');
        text.push_str(&full);
        text.push('\n');
    }
    out(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// The whole `SKILL.md` of `skill`, through the contained reader (≤ 8 MiB, strict UTF-8).
fn read_full(folder: &Path, skill: &Skill) -> Result<String, CliError> {
    Root::open(folder)
        .ok()
        .and_then(|root| read_skill_text(&root, &skill.dir).ok())
        .ok_or_else(|| CliError::SkillFileUnreadable(skill.resource()))
}

fn skill_path(folder: &str, skill: &Skill) -> String {
    crate::output::below(Path::new(folder), skill.resource().split('/'))
        .display()
        .to_string()
}

/// `. Did you mean <dir>?` for the installed skill whose folder name is closest to `wanted`
/// (lowercased), or nothing (contract 06 §1.2). Folder names, lowercased, are what the lookup
/// accepts and carry no control character (contract 04 §1.4), so the hint can be printed and
/// typed back as it is.
fn skill_hint(wanted: &str, catalog: &[Skill]) -> String {
    let dirs: Vec<String> = catalog
        .iter()
        .map(|skill| skill.dir.to_lowercase())
        .collect();
    did_you_mean(wanted, dirs.iter().map(String::as_str), "")
}

/// `dotaios skills`: a count line, the skills in catalog order, a hint (contract 04 §5.5).
fn render_list(catalog: &[Skill], path: &str) -> String {
    if catalog.is_empty() {
        return "No skills installed.\n\
                Add one as skills/<name>/SKILL.md, with name, description and triggers in its \
                frontmatter.\n"
            .to_owned();
    }
    let noun = if catalog.len() == 1 {
        "skill"
    } else {
        "skills"
    };
    let mut text = format!("{} {noun} installed:\n\n", catalog.len());
    for skill in catalog {
        if skill.description.is_empty() {
            text.push_str(&format!("  {}\n", skill.name));
        } else {
            text.push_str(&format!(
                "  {} \u{2014} {}\n",
                skill.name, skill.description
            ));
        }
    }
    text.push_str(&format!(
        "\nShow one with dotaios skills <name>{path}, or match a request with dotaios skills resolve \
         \"<intent>\"{path}.\n"
    ));
    text
}

/// One text block of contract 04 §5.3.
fn render_block(matched: &Ranked<'_>, folder: &str) -> String {
    let skill = matched.skill;
    let description = if skill.description.is_empty() {
        "(no description)"
    } else {
        &skill.description
    };
    // The one confidence of contract 04 §3.3, printed as `resolve_skill` carries it (§5.3).
    let mut block = format!(
        "{} \u{2014} {description}\n  dir:        {}\n  confidence: {} ({})\n",
        skill.name,
        skill.dir,
        text::js_number_to_string(matched.confidence()),
        matched.reason,
    );
    if !skill.triggers.is_empty() {
        block.push_str(&format!(
            "  triggers:   {}\n",
            skill.triggers.join(" \u{b7} ")
        ));
    }
    block.push_str(&format!("  run:        {}\n", skill_path(folder, skill)));
    block
}

/// `--json` (contract 04 §5.2): 2-space pretty JSON, without the final newline.
fn render_json(intent: &str, matches: &[Ranked<'_>], folder: &str) -> String {
    let mut json = JsonWriter::new(JsonLayout::Pretty);
    json.begin_object();
    json.name("intent");
    json.str(intent);
    json.name("matches");
    json.begin_array();
    for matched in matches {
        let skill = matched.skill;
        json.begin_object();
        skill_members(&mut json, skill);
        json.name("score");
        json.number(round_score(matched.score));
        json.name("confidence");
        json.number(matched.confidence());
        json.name("reason");
        json.str(&matched.reason.to_string());
        json.name("skillPath");
        json.str(&skill_path(folder, skill));
        json.end_object();
    }
    json.end_array();
    json.end_object();
    json.finish()
}

/// The members every JSON form gives a skill first (contract 04 §5.2, §5.5): `name`, `dir`,
/// `description`, `triggers`.
fn skill_members(json: &mut JsonWriter, skill: &Skill) {
    json.name("name");
    json.str(&skill.name);
    json.name("dir");
    json.str(&skill.dir);
    json.name("description");
    json.str(&skill.description);
    json.name("triggers");
    json.begin_array();
    for trigger in &skill.triggers {
        json.str(trigger);
    }
    json.end_array();
}

/// `dotaios skills --json` (contract 04 §5.5): `{"skills": [...]}` in catalog order, each
/// skill's members and its `skillPath`; 2-space pretty JSON without the final newline.
fn render_list_json(catalog: &[Skill], folder: &str) -> String {
    let mut json = JsonWriter::new(JsonLayout::Pretty);
    json.begin_object();
    json.name("skills");
    json.begin_array();
    for skill in catalog {
        json.begin_object();
        skill_members(&mut json, skill);
        json.name("skillPath");
        json.str(&skill_path(folder, skill));
        json.end_object();
    }
    json.end_array();
    json.end_object();
    json.finish()
}

/// `dotaios skills <name> --json` (contract 04 §5.5): the skill's members, its `skillPath` and
/// its whole `SKILL.md` as `text`.
fn render_skill_json(skill: &Skill, folder: &str, text: &str) -> String {
    let mut json = JsonWriter::new(JsonLayout::Pretty);
    json.begin_object();
    skill_members(&mut json, skill);
    json.name("skillPath");
    json.str(&skill_path(folder, skill));
    json.name("text");
    json.str(text);
    json.end_object();
    json.finish()
}

/// `--boot-context` (contract 04 §5.4), without the final newline the command adds.
fn render_boot_context(catalog: &[Skill], folder: &str) -> String {
    let mut lines: Vec<String> = vec![
        "## Skills first".to_owned(),
        String::new(),
        "Before hand-rolling a task, check whether one of these installed workflows fits the \
         request."
            .to_owned(),
        "If one does, read its SKILL.md and follow it; `dotaios skills resolve \"<request>\"` \
         picks the best match."
            .to_owned(),
        String::new(),
    ];
    if catalog.is_empty() {
        lines.push(
            "No skills are installed yet: add one as skills/<name>/SKILL.md with name, \
             description and triggers in its frontmatter."
                .to_owned(),
        );
    } else {
        lines.push("| Skill | Triggers | Run |".to_owned());
        lines.push("| --- | --- | --- |".to_owned());
        let mut ordered: Vec<&Skill> = catalog.iter().collect();
        ordered.sort_by(|left, right| text::collate(&left.name, &right.name));
        for skill in ordered {
            lines.push(format!(
                "| {} | {} | `{}` |",
                escape_table_cell(&skill.name),
                escape_table_cell(&routing_hint(skill)),
                escape_table_cell(&skill_path(folder, skill)),
            ));
        }
    }
    lines.push(String::new());
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The help states the default `resolve_skill` and `skills resolve` share.
    #[test]
    fn help_states_the_request_default() {
        assert_eq!(
            RESOLVE_SPEC.option_help("--limit").map(str::to_owned),
            Some(format!(
                "Show the best <n> matches with --json (default {})",
                Limit::SKILL_DEFAULT.get()
            ))
        );
    }

    #[test]
    fn limit_values() {
        assert_eq!(parse_limit("3").unwrap().get(), 3);
        assert_eq!(parse_limit("007").unwrap().get(), 7);
        assert_eq!(
            parse_limit("99999999999999999999999").unwrap().get(),
            usize::MAX
        );
        for bad in ["0", "00", "-1", "1.5", "x", " 1", "\u{663}"] {
            assert_eq!(
                parse_limit(bad).unwrap_err().to_string(),
                format!("Invalid --limit \"{bad}\". Use a positive whole number.")
            );
        }
    }

    #[test]
    fn resolve_options_keep_words_and_refuse_unknown_flags() {
        let args: Vec<OsString> = ["plan", "-x", "my", "--path=/x", "day", "--json"]
            .iter()
            .map(OsString::from)
            .collect();
        let options = parse_resolve(&args).unwrap();
        assert_eq!(options.words, ["plan", "-x", "my", "day"]);
        assert!(options.json && options.path_flag.as_deref() == Some("/x".as_ref()));
        let unknown: Vec<OsString> = vec!["x".into(), "--verbsoe".into()];
        assert_eq!(
            parse_resolve(&unknown).unwrap_err().to_string(),
            "Unknown option: --verbsoe"
        );
        let typo: Vec<OsString> = vec!["x".into(), "--jsno".into()];
        assert_eq!(
            parse_resolve(&typo).unwrap_err().to_string(),
            "Unknown option: --jsno. Did you mean --json?"
        );
        let missing: Vec<OsString> = vec!["x".into(), "--limit".into()];
        assert_eq!(
            parse_resolve(&missing).unwrap_err().to_string(),
            "--limit requires a value"
        );
    }
}
