//! `dotaios search` (contract 03 §17): options in the contract's validation order, the memory
//! policy before anything touches the filesystem, the folder check, one call of the core search,
//! and the rendering: the classic form of §17.4 (piped, the reference's), the grouped form for a
//! person at a terminal (`grouped.rs`, contract 06 §1.9), or `--json`.
//!
//! Results go to stdout, one warning per omission to stderr; the exit code is 0 when the
//! search is complete (zero hits included), 2 when a scope was omitted, 1 on failure. This
//! module never reads a file itself and never writes anything.

use std::ffi::OsString;
use std::process::ExitCode;

use dotaios_core::folder::memory::{MemoryMode, PolicyArg, PolicyInputs};
use dotaios_core::request::{Limit, Selector};
use dotaios_core::search::{
    Clock, MarkdownHit, MemoryHit, Omission, OmissionReason, ScopeRequest, SearchError, SearchHit,
    SearchOutcome, SearchRequest, SessionFilters, SessionHit, check_request, query_terms, search,
    truncate,
};
use dotaios_core::text::{
    clip_code_points, js_string_of, js_truthy, to_json_compact, to_json_pretty, utf16_prefix,
};
use serde_json::{Map, Value};

use super::folder::checked_folder;
use super::memory::memory_policy;
use crate::args::{
    CommandSpec, Item, MEMORY_OPTION, OptionSpec, PATH_OPTION, Scanner, text, unhandled, value_hint,
};
use crate::output::{err_line, out};
use crate::terminal::{ColorChoice, Painter, Stdout};
use crate::{CliError, Env};

mod explain;
mod grouped;

/// `dotaios search`: its options, help and completions.
pub(crate) static SPEC: CommandSpec = CommandSpec {
    name: "search",
    label: "search <query>",
    summary: "Search the AIOS folder",
    usage: "\
Usage: dotaios search <query> [options]

Search the AIOS folder's content: sessions, context, memory, vault, decisions, skills,
references and plugins (and one project's files with --project). Results are one list ranked
over all scopes together, --limit bounding its length; anything that could not be searched
whole is reported on stderr. Nothing is written.
Words after -- are query words even when they start with -.

Output: on a terminal (or with --color always or --heading), results are grouped: one
heading per scope and per file, overlapping snippets of a file merged into one block per
run of lines, each block as path:line: (relative to the folder, as an editor opens it), and
lines cut to the terminal width (COLUMNS, else the terminal's, else 100) with …. Piped (or
with --no-heading): the classic form, stable for scripts: one list in relevance order,
L<line>: snippets, matches marked >>like this<<, never coloured or cut to a width.
",
    options: &[
        OptionSpec::value(
            "--scope",
            "<scope>",
            "memory, vault, context, projects, decisions, skills, references,\nplugins, sessions or all (default all)",
        ),
        OptionSpec::value(
            "--limit",
            "<n>",
            "Most results, over all scopes (default 20)",
        ),
        MEMORY_OPTION,
        OptionSpec::value(
            "--project",
            "<selector>",
            "Search one project's memory and files: its slug or stable id",
        ),
        OptionSpec::value("--agent", "<name>", "Sessions: only this agent"),
        OptionSpec::value(
            "--session-project",
            "<tag>",
            "Sessions: only entries tagged with this project",
        ),
        OptionSpec::value(
            "--since",
            "<spec>",
            "Sessions: captured since 7d, 12h, 2w, 1m or an ISO date",
        ),
        OptionSpec::value(
            "--color",
            "<when>",
            "auto, always or never (default auto: colour on a terminal unless\nNO_COLOR is set; always wins over NO_COLOR)",
        ),
        OptionSpec::flag("--heading", "The grouped form, also when piped"),
        OptionSpec::flag("--no-heading", "The classic form, also on a terminal"),
        OptionSpec::flag("--json", "Print the result as JSON"),
        OptionSpec::flag(
            "--explain",
            "After the results, why each scored what it did: per term and field\nits tf, idf, weight and saturation, the bonuses, the prior and the score\n(with --json, an \"explain\" array)",
        ),
        PATH_OPTION,
    ],
    words: &[],
    footer: "\nExit status: 0 complete (also with no results), 2 incomplete (a scope was omitted), 1 error.\n",
};

/// The options of one invocation, as given.
#[derive(Debug, Default)]
struct Options {
    words: Vec<String>,
    scope: Option<String>,
    limit: Option<Limit>,
    memory: Option<String>,
    project: Option<String>,
    filters: SessionFilters,
    path: Option<OsString>,
    json: bool,
    /// `--explain`: each result's score, part by part (contract 03 §9.5).
    explain: bool,
    color: ColorChoice,
    /// `--heading` (`Some(true)`) or `--no-heading` (`Some(false)`), the last one given.
    heading: Option<bool>,
}

/// Runs `dotaios search`.
pub(crate) fn run(args: &[OsString], env: &Env) -> Result<ExitCode, CliError> {
    if Scanner::wants_help(args) {
        out(&SPEC.help())?;
        return Ok(ExitCode::SUCCESS);
    }
    let options = parse(args)?;
    let query = options.words.join(" ");
    if query.is_empty() {
        return Err(CliError::SearchUsage);
    }
    let scope_name = options.scope.as_deref().unwrap_or("all");
    let scope = ScopeRequest::parse(scope_name).ok_or_else(|| CliError::InvalidScope {
        given: clip_code_points(scope_name, 64, "…").into_owned(),
        hint: value_hint(scope_name, ScopeRequest::NAMES),
    })?;
    let policy = memory_policy(PolicyInputs {
        mode: text_arg(options.memory.as_deref()),
        project: text_arg(options.project.as_deref()),
        first_user_message: PolicyArg::Absent,
    })?;

    let time_zone = jiff::tz::TimeZone::system();
    let mut request = SearchRequest {
        query: &query,
        scope,
        limit: options.limit.unwrap_or(Limit::SEARCH_CLI_DEFAULT),
        memory: policy.mode,
        project: None,
        session_filters: &options.filters,
        clock: Clock {
            now_ms: jiff::Timestamp::now().as_millisecond() as f64,
            time_zone: &time_zone,
        },
        workers: std::thread::available_parallelism().map_or(1, |n| n.get().min(32)),
        snippets: dotaios_core::search::SnippetForm::Lines,
    };

    if policy.mode == MemoryMode::Off {
        if options.json {
            out(&json_text(&query, None, &request, options.explain))?;
        } else {
            let notice = policy.notice().unwrap_or_default();
            out(&format!(
                "{}\n{notice}\nNo results found.\n",
                policy.receipt()
            ))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    // The selector is checked once, here; the receipt line is printed with the results, so
    // that nothing reaches stdout before an error is known (contract 03 §17.2, 06 §1.3).
    request.project = policy
        .project_selector
        .as_deref()
        .map(Selector::canonical)
        .transpose()
        .map_err(SearchError::Selector)?;
    check_request(&request)?;
    let folder = checked_folder(options.path.as_deref(), env)?;
    let outcome = search(&folder, &request)?;
    if options.json {
        out(&json_text(
            &query,
            Some(&outcome),
            &request,
            options.explain,
        ))?;
    } else {
        let stdout = Stdout::of_process(env);
        // Contract 06 §1.9: the grouped form on a terminal or with `--color always`, unless
        // `--no-heading`; the classic form of 03 §17.4 otherwise, byte for byte.
        let grouped = options
            .heading
            .unwrap_or(stdout.is_terminal || options.color == ColorChoice::Always);
        let body = if grouped {
            let form = grouped::Form {
                painter: Painter {
                    colour: stdout.colour(options.color),
                },
                width: stdout.width,
            };
            grouped::render(&query, scope_name, &outcome, form)
        } else {
            render(&query, scope_name, &outcome, &request)
        };
        let receipt = if grouped {
            super::memory::explained_receipt(policy.mode)
        } else {
            policy.receipt().to_owned()
        };
        let explained = if options.explain {
            explain::text(&outcome)
        } else {
            String::new()
        };
        out(&format!("{receipt}\n{body}{explained}"))?;
    }
    // A skipped link or unreadable file is named by its path, one line each (contract 03
    // §4.4, §4.5, §17.4); every other omission by its scope.
    for link in &outcome.skipped_links {
        err_line(&format!("Skipped symbolic link {link}: {LINK_FIX}"))?;
    }
    for file in &outcome.skipped_files {
        err_line(&format!(
            "Skipped unreadable {} {}: {}",
            file.why.noun(),
            file.path,
            file.why.fix()
        ))?;
    }
    for omission in outcome.omissions.iter().filter(|o| !is_skip(o)) {
        err_line(&incomplete_line(omission))?;
    }
    Ok(if outcome.complete() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}

/// What to do about a skipped link, after its path (contract 03 §4.4).
const LINK_FIX: &str = "links are never followed. Move the note into the folder (or, for a linked vault, set vault_path in aios.json to the folder it points to); `dotaios doctor` lists every link.";

/// One stderr line for an omission other than skipped links (contract 03 §17.4).
fn incomplete_line(omission: &Omission) -> String {
    format!(
        "Search incomplete for {}: {}",
        omission.scope,
        omission.explanation()
    )
}

/// Whether an omission stands for files named one by one on stderr (links, unreadable files)
/// rather than for a scope left out.
fn is_skip(omission: &Omission) -> bool {
    matches!(
        omission.reason,
        OmissionReason::SymlinkSkipped | OmissionReason::UnreadableSkipped
    )
}

fn text_arg(value: Option<&str>) -> PolicyArg<'_> {
    value.map_or(PolicyArg::Absent, PolicyArg::Text)
}

/// Parses the arguments left to right (§17.1, §17.2 step 1); the first problem wins.
fn parse(args: &[OsString]) -> Result<Options, CliError> {
    let mut options = Options::default();
    let mut scanner = Scanner::new(args, &SPEC).refusing(
        &["--follow", "--budget"],
        "--follow and --budget are not supported.",
    );
    while let Some(item) = scanner.next_item()? {
        match item {
            Item::Value("--scope", value) => options.scope = Some(text(value, "--scope")?),
            Item::Value("--limit", value) => options.limit = Some(limit(&text(value, "--limit")?)?),
            Item::Value("--memory", value) => options.memory = Some(text(value, "--memory")?),
            Item::Value("--project", value) => options.project = Some(text(value, "--project")?),
            Item::Value("--agent", value) => options.filters.agent = Some(text(value, "--agent")?),
            Item::Value("--session-project", value) => {
                options.filters.session_project = Some(text(value, "--session-project")?);
            }
            Item::Value("--since", value) => options.filters.since = Some(text(value, "--since")?),
            Item::Value("--path", value) => options.path = Some(value),
            Item::Flag("--json") => options.json = true,
            Item::Flag("--explain") => options.explain = true,
            Item::Value("--color", value) => options.color = color(&text(value, "--color")?)?,
            Item::Flag("--heading") => options.heading = Some(true),
            Item::Flag("--no-heading") => options.heading = Some(false),
            // Every other argument is a query word, `-x` and words after `--` included;
            // an unknown `--name` was refused by the scanner (§17.1).
            Item::Positional(word) => options.words.push(word.to_string_lossy().into_owned()),
            other => return Err(unhandled(&other)),
        }
    }
    Ok(options)
}

/// `--limit` ([`Limit::from_digits`], the rule `skills resolve` shares); the error echoes the
/// value clipped to 64 code points.
fn limit(value: &str) -> Result<Limit, CliError> {
    Limit::from_digits(value)
        .ok_or_else(|| CliError::InvalidLimit(clip_code_points(value, 64, "…").into_owned()))
}

/// `--color` (contract 06 §1.9); the error echoes the value clipped to 64 code points.
fn color(value: &str) -> Result<ColorChoice, CliError> {
    ColorChoice::parse(value).ok_or_else(|| CliError::InvalidColor {
        given: clip_code_points(value, 64, "…").into_owned(),
        hint: value_hint(value, ColorChoice::NAMES),
    })
}

// ----- human output (§17.4) -----------------------------------------------------------------

fn render(
    query: &str,
    scope_name: &str,
    outcome: &SearchOutcome,
    request: &SearchRequest<'_>,
) -> String {
    let highlighter = Highlighter::new(request.query);
    let mut text = String::new();
    text.push_str(&format!("Searching for \"{query}\" in {scope_name}...\n\n"));
    if outcome.scope.projects_omitted {
        text.push_str("Project corpus omitted because no --project selector was supplied.\n\n");
    }
    // One list in the relevance order (contract 03 §17.4): a scope header opens every run of
    // consecutive results from the same scope.
    let ranked: Vec<(dotaios_core::search::Scope, &SearchHit)> = outcome.ranked().collect();
    let total = ranked.len();
    let mut at = 0;
    while at < ranked.len() {
        let scope = ranked[at].0;
        let run = ranked[at..]
            .iter()
            .take_while(|(other, _)| *other == scope)
            .count();
        let noun = if run == 1 { "match" } else { "matches" };
        text.push_str(&format!("── {}/ ({run} {noun}) ──\n", scope.as_str()));
        for &(_, hit) in &ranked[at..at + run] {
            match hit {
                SearchHit::Markdown(hit) => render_markdown(&mut text, hit, &highlighter),
                SearchHit::Memory(hit) => render_memory(&mut text, hit, &highlighter),
                SearchHit::Session(hit) => render_session(&mut text, hit, &highlighter),
            }
        }
        text.push('\n');
        at += run;
    }
    text.push_str(&final_line(outcome, total));
    text.push('\n');
    text
}

/// The last line of both forms (§17.4): the count, or why there is none, then what was left
/// out.
fn final_line(outcome: &SearchOutcome, total: usize) -> String {
    let mut last = if total > 0 {
        format!("{total} result(s) found.")
    } else if outcome.omissions.is_empty() {
        "No results found.".to_owned()
    } else {
        "No results found in inspected sources.".to_owned()
    };
    let mut scopes: Vec<&str> = Vec::new();
    for omission in outcome.omissions.iter().filter(|o| !is_skip(o)) {
        if !scopes.contains(&omission.scope) {
            scopes.push(omission.scope);
        }
    }
    if !scopes.is_empty() {
        last.push_str(&format!(
            " Search incomplete; omitted scope(s): {}.",
            scopes.join(", ")
        ));
    }
    if !outcome.skipped_links.is_empty() {
        last.push_str(&format!(
            " Search incomplete; skipped {} symbolic link(s).",
            outcome.skipped_links.len()
        ));
    }
    if !outcome.skipped_files.is_empty() {
        last.push_str(&format!(
            " Search incomplete; skipped {} unreadable file(s).",
            outcome.skipped_files.len()
        ));
    }
    last
}

fn render_markdown(text: &mut String, hit: &MarkdownHit, highlighter: &Highlighter) {
    text.push_str(&format!("  {} ({})\n", hit.title, hit.file));
    for snippet in &hit.matches {
        let lines = if snippet.line_end == snippet.line {
            format!("L{}", snippet.line)
        } else {
            format!("L{}-{}", snippet.line, snippet.line_end)
        };
        let content = highlighter.apply(&truncate(&snippet.content, 140));
        text.push_str(&format!("    {lines}: {content}\n"));
    }
}

/// A memory result as both forms show it (§17.4).
enum MemoryItem {
    /// An entry that carries a `matches` array, shown like a note, as the reference does:
    /// its title, file and `(L<line>[-<lineEnd>], content)` lines.
    Notes {
        title: String,
        file: String,
        lines: Vec<(String, String)>,
    },
    /// Any other entry: `[<ts>] <type><meta> — ` before the summary, the matched field and
    /// snippet when not the summary, and the source.
    Entry {
        head: String,
        summary: String,
        matched: Option<(String, String)>,
        source: String,
    },
}

fn memory_item(hit: &MemoryHit) -> Option<MemoryItem> {
    let value = SearchHit::Memory(hit.clone()).to_value();
    let Value::Object(result) = &value else {
        return None;
    };
    if let Some(Value::Array(matches)) = result.get("matches") {
        let lines = matches
            .iter()
            .filter_map(|item| match item {
                Value::Object(item) => Some(item),
                _ => None,
            })
            .map(|item| {
                let line = field_text(item, "line");
                let end = field_text(item, "lineEnd");
                let lines = if end == line {
                    format!("L{line}")
                } else {
                    format!("L{line}-{end}")
                };
                (lines, field_text(item, "content"))
            })
            .collect();
        return Some(MemoryItem::Notes {
            title: field_text(result, "title"),
            file: field_text(result, "file"),
            lines,
        });
    }
    let ts =
        truthy_text(result, "ts").map_or("?".to_owned(), |ts| utf16_prefix(&ts, 10).to_owned());
    let kind = truthy_text(result, "type");
    let meta: Vec<String> = ["project", "domain"]
        .iter()
        .filter_map(|name| truthy_text(result, name))
        .collect();
    let meta = if meta.is_empty() {
        String::new()
    } else {
        format!(" ({})", meta.join(" / "))
    };
    let summary = truthy_text(result, "summary")
        .or_else(|| kind.clone())
        .unwrap_or_else(|| utf16_prefix(&to_json_compact(&value), 100).to_owned());
    let matched = match result.get("matchedField") {
        None | Some(Value::Null) => None,
        Some(field) => Some((
            js_string_of(field),
            result
                .get("matchedSnippet")
                .map_or("undefined".to_owned(), js_string_of),
        )),
    };
    Some(MemoryItem::Entry {
        head: format!("[{ts}] {}{meta} — ", kind.as_deref().unwrap_or("?")),
        summary,
        matched,
        source: field_text(result, "source"),
    })
}

fn render_memory(text: &mut String, hit: &MemoryHit, highlighter: &Highlighter) {
    match memory_item(hit) {
        None => {}
        Some(MemoryItem::Notes { title, file, lines }) => {
            text.push_str(&format!("  {title} ({file})\n"));
            for (lines, content) in lines {
                let content = highlighter.apply(&truncate(&content, 140));
                text.push_str(&format!("    {lines}: {content}\n"));
            }
        }
        Some(MemoryItem::Entry {
            head,
            summary,
            matched,
            source,
        }) => {
            text.push_str(&format!(
                "  {head}{}\n",
                highlighter.apply(&truncate(&summary, 100))
            ));
            if let Some((field, snippet)) = matched {
                text.push_str(&format!(
                    "    match: {field} = {}\n",
                    highlighter.apply(&truncate(&snippet, 100))
                ));
            }
            text.push_str(&format!("    source: {source}\n"));
        }
    }
}

/// A session's first line (§17.4): `[<date>] <agent>[  [<project>]]  <session_id>`.
fn session_head(hit: &SessionHit) -> String {
    let date = hit
        .date
        .as_deref()
        .filter(|date| !date.is_empty())
        .unwrap_or("?");
    let agent = hit
        .agent
        .as_ref()
        .filter(|agent| js_truthy(agent))
        .map_or("manual".to_owned(), js_string_of);
    let project = hit
        .project
        .as_ref()
        .filter(|project| js_truthy(project))
        .map(|project| format!("  [{}]", js_string_of(project)))
        .unwrap_or_default();
    let session_id = hit
        .session_id
        .as_ref()
        .filter(|id| js_truthy(id))
        .map(js_string_of)
        .unwrap_or_default();
    format!("[{date}] {agent}{project}  {session_id}")
}

fn render_session(text: &mut String, hit: &SessionHit, highlighter: &Highlighter) {
    text.push_str(&format!("  {}\n", session_head(hit)));
    let title = js_string_of(&hit.title);
    text.push_str(&format!(
        "    {}\n",
        highlighter.apply(&truncate(&title, 80))
    ));
    for snippet in &hit.matches {
        if snippet.content.is_empty() {
            continue;
        }
        text.push_str(&format!(
            "    {}\n",
            highlighter.apply(&truncate(&snippet.content, 140))
        ));
    }
}

/// JavaScript's `String(value)` of a member, `undefined` when absent.
fn field_text(object: &Map<String, Value>, name: &str) -> String {
    object
        .get(name)
        .map_or("undefined".to_owned(), js_string_of)
}

/// `String(value)` of a member when the member is truthy.
fn truthy_text(object: &Map<String, Value>, name: &str) -> Option<String> {
    object
        .get(name)
        .filter(|value| js_truthy(value))
        .map(js_string_of)
}

/// The `>>…<<` highlighting of §17.4 (the whole phrase when it occurs, else each term in turn,
/// both normalised by the search's own [`query_terms`], §5), and the match ranges the grouped
/// form colours by the same rule (contract 06 §1.9).
struct Highlighter {
    phrase: Vec<char>,
    terms: Vec<Vec<char>>,
}

impl Highlighter {
    fn new(query: &str) -> Highlighter {
        let normalised = query_terms(query);
        Highlighter {
            phrase: normalised.join(" ").chars().map(fold).collect(),
            terms: normalised
                .iter()
                .map(|term| term.chars().map(fold).collect())
                .collect(),
        }
    }

    fn apply(&self, text: &str) -> String {
        if self.phrase.is_empty() {
            return text.to_owned();
        }
        if let Some(marked) = mark(text, &self.phrase, 1) {
            return marked;
        }
        let mut current = text.to_owned();
        let mut index = 0;
        while index < self.terms.len() {
            let term = &self.terms[index];
            let run = self.terms[index..]
                .iter()
                .take_while(|other| *other == term)
                .count();
            index += run;
            // Marking a term that holds no `<` or `>` again wraps exactly the occurrences the
            // previous pass wrapped (a new occurrence would have to cross a marker), so a run of
            // equal terms is one pass with nested markers: linear, where one pass per repeat
            // grows quadratically with the query (contract 03 §19 rule 6).
            let passes = if term.iter().any(|c| matches!(c, '<' | '>')) {
                vec![1; run]
            } else {
                vec![run]
            };
            for depth in passes {
                if let Some(marked) = mark(&current, term, depth) {
                    current = marked;
                }
            }
        }
        current
    }
}

impl Highlighter {
    /// The byte ranges the grouped form marks in `text` (contract 06 §1.9): every occurrence
    /// of the phrase when it occurs, else every occurrence of each term, overlapping or
    /// touching ones joined; sorted. The caller cuts `text` to a line's width first, so the
    /// work is that width times the query's length.
    fn ranges(&self, text: &str) -> Vec<(usize, usize)> {
        if self.phrase.is_empty() {
            return Vec::new();
        }
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        let folded: Vec<char> = chars.iter().map(|&(_, c)| fold(c)).collect();
        let byte_at = |index: usize| chars.get(index).map_or(text.len(), |&(at, _)| at);
        let mut found = occurrences(&folded, &self.phrase);
        if found.is_empty() {
            let mut terms: Vec<&Vec<char>> = self.terms.iter().collect();
            terms.sort();
            terms.dedup();
            for term in terms {
                found.extend(occurrences(&folded, term));
            }
            found.sort_unstable();
        }
        let mut joined: Vec<(usize, usize)> = Vec::with_capacity(found.len());
        for (start, end) in found {
            match joined.last_mut() {
                Some(last) if start <= last.1 => last.1 = last.1.max(end),
                _ => joined.push((start, end)),
            }
        }
        joined
            .into_iter()
            .map(|(start, end)| (byte_at(start), byte_at(end)))
            .collect()
    }
}

/// The non-overlapping occurrences of `needle` in `folded`, left to right, as character index
/// ranges.
fn occurrences(folded: &[char], needle: &[char]) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    if needle.is_empty() {
        return found;
    }
    let mut index = 0;
    while index < folded.len() {
        if folded[index..].starts_with(needle) {
            found.push((index, index + needle.len()));
            index += needle.len();
        } else {
            index += 1;
        }
    }
    found
}

/// Wraps every non-overlapping case-insensitive occurrence of `needle` in `text` in `depth`
/// nested `>>…<<` pairs; `None` when there is none.
fn mark(text: &str, needle: &[char], depth: usize) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    let folded: Vec<char> = chars.iter().copied().map(fold).collect();
    let mut out = String::with_capacity(text.len() + 8);
    let mut index = 0;
    let mut found = false;
    while index < chars.len() {
        if folded[index..].starts_with(needle) {
            found = true;
            out.extend(std::iter::repeat_n(">>", depth));
            out.extend(&chars[index..index + needle.len()]);
            out.extend(std::iter::repeat_n("<<", depth));
            index += needle.len();
        } else {
            out.push(chars[index]);
            index += 1;
        }
    }
    found.then_some(out)
}

/// Simple case folding per character (the open point of §17.4).
fn fold(c: char) -> char {
    let mut lower = c.to_lowercase();
    match (lower.next(), lower.next()) {
        (Some(single), None) => single,
        _ => c,
    }
}

// ----- JSON output ---------------------------------------------------------------------------

/// `--json`: the core result of §12.1 as pretty JSON (see `docs/decisions.md`).
fn json_text(
    query: &str,
    outcome: Option<&SearchOutcome>,
    request: &SearchRequest<'_>,
    explain: bool,
) -> String {
    let mut object = Map::new();
    object.insert("query".into(), Value::from(query));
    let mut scope = Map::new();
    scope.insert("requested".into(), Value::from(request.scope.as_str()));
    let meta = outcome.map(|outcome| &outcome.scope);
    let text_or_null =
        |value: Option<&String>| value.map_or(Value::Null, |text| Value::from(text.as_str()));
    scope.insert(
        "project".into(),
        text_or_null(meta.and_then(|meta| meta.project.as_ref())),
    );
    scope.insert(
        "project_id".into(),
        text_or_null(meta.and_then(|meta| meta.project_id.as_ref())),
    );
    scope.insert(
        "projects_omitted".into(),
        Value::from(meta.is_some_and(|meta| meta.projects_omitted)),
    );
    object.insert("scope".into(), Value::Object(scope));
    object.insert("memory".into(), Value::from(request.memory.as_str()));
    object.insert("receipt".into(), Value::from(request.memory.receipt()));
    object.insert(
        "notice".into(),
        request.memory.notice().map_or(Value::Null, Value::from),
    );
    let groups = outcome.map_or_else(Vec::new, |outcome| {
        outcome
            .groups
            .iter()
            .map(|group| {
                let mut item = Map::new();
                item.insert("scope".into(), Value::from(group.scope.as_str()));
                item.insert(
                    "results".into(),
                    Value::Array(group.results.iter().map(SearchHit::to_value).collect()),
                );
                Value::Object(item)
            })
            .collect()
    });
    object.insert("groups".into(), Value::Array(groups));
    object.insert(
        "complete".into(),
        Value::from(outcome.is_none_or(SearchOutcome::complete)),
    );
    let omissions = outcome.map_or_else(Vec::new, |outcome| {
        outcome
            .omissions
            .iter()
            .map(|omission| omission.to_value())
            .collect()
    });
    object.insert("omissions".into(), Value::Array(omissions));
    if explain && let Some(outcome) = outcome {
        object.insert("explain".into(), explain::json(outcome));
    }
    let mut text = to_json_pretty(&Value::Object(object));
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The help states the default limit the request gets and the scope names of core's one
    /// table, in its order.
    #[test]
    fn help_states_the_request_defaults_and_scopes() {
        assert_eq!(
            SPEC.option_help("--limit").map(str::to_owned),
            Some(format!(
                "Most results, over all scopes (default {})",
                Limit::SEARCH_CLI_DEFAULT.get()
            ))
        );
        let (all, named) = ScopeRequest::NAMES.split_last().unwrap();
        assert_eq!(
            SPEC.option_help("--scope")
                .map(|help| help.replace('\n', " ")),
            Some(format!(
                "{} or {all} (default {})",
                named.join(", "),
                ScopeRequest::All.as_str()
            ))
        );
    }

    #[test]
    fn repeated_terms_mark_as_one_pass_per_repeat_would() {
        // The term-by-term definition of §17.4, one `mark` per query term.
        let slow = |query: &str, text: &str| {
            let highlighter = Highlighter::new(query);
            if let Some(marked) = mark(text, &highlighter.phrase, 1) {
                return marked;
            }
            let mut current = text.to_owned();
            for term in &highlighter.terms {
                if let Some(marked) = mark(&current, term, 1) {
                    current = marked;
                }
            }
            current
        };
        for (query, text) in [
            ("a a a", "xaxa aa"),
            ("aa aa b aa", "aaaa baa"),
            ("x x", "no match"),
            ("> > a", "a>b>>"),
            ("<a <a <a", "<a<<a"),
            ("é É é", "CAFÉ é"),
        ] {
            assert_eq!(
                Highlighter::new(query).apply(text),
                slow(query, text),
                "{query:?} {text:?}"
            );
        }
        assert_eq!(Highlighter::new("a a").apply("ba"), "b>>>>a<<<<");
    }

    #[test]
    fn highlighting() {
        let highlighter = Highlighter::new("Alpha beta");
        assert_eq!(
            highlighter.apply("ALPHA BETA and alpha beta"),
            ">>ALPHA BETA<< and >>alpha beta<<"
        );
        assert_eq!(
            highlighter.apply("beta, then alpha"),
            ">>beta<<, then >>alpha<<"
        );
        assert_eq!(highlighter.apply("nothing"), "nothing");
        assert_eq!(Highlighter::new("   ").apply("a b"), "a b");
        assert_eq!(Highlighter::new("café").apply("CAFÉ!"), ">>CAFÉ<<!");
    }

    #[test]
    fn limits() {
        assert_eq!(limit("007").unwrap().get(), 7);
        assert_eq!(limit("99999999999999999999999").unwrap().get(), usize::MAX);
        for bad in ["0", "", "-1", "1.5", "x", "00"] {
            assert_eq!(
                limit(bad).unwrap_err().to_string(),
                format!("Invalid --limit \"{bad}\". Use a positive whole number.")
            );
        }
    }
}
