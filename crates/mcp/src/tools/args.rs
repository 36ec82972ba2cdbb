//! Static argument validation and the memory policy of `tools/call` (contract 05 §6.2–§6.5):
//! raw JSON arguments in, a validated call out, or the first failure with its exact message.
//!
//! **Invariant:** no filesystem access. Everything a tool needs from its arguments is checked
//! here, once, into `dotaios_core::request`'s typed values, whose bounds and defaults the
//! schema (`schema.rs`) reads too; later steps never look at the raw JSON again. No argument *name* is ever echoed
//! (a 100,000-character key answers `Unknown tool argument`).

use dotaios_core::folder::memory::{MemoryMode, PolicyArg, PolicyInputs, resolve_memory_policy};
use dotaios_core::folder::selector::is_cc;
use dotaios_core::request::{
    Bounds, Budget, ContextSelector, Limit, MAX_SELECTOR_CODE_POINTS, MAX_TEXT_CODE_POINTS,
    Selector,
};
use dotaios_core::search::ScopeRequest;
use dotaios_core::text::{code_point_len, js_trim};
use indexmap::IndexMap;

use crate::error::RpcError;
use crate::json::Json;

type Args = IndexMap<String, Json>;

/// A validated `read_working_context` call.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ContextArgs<'a> {
    pub(crate) mode: MemoryMode,
    /// The JS-trimmed project argument (matched against the catalog), project mode only.
    pub(crate) project: Option<ContextSelector<'a>>,
    /// Sessions shown, [`Limit::CONTEXT_TOOL`].
    pub(crate) limit: Limit,
    /// Markdown budget, [`Budget::TOOL`].
    pub(crate) budget: Budget,
}

/// A validated `search_aios` call.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SearchArgs<'a> {
    pub(crate) mode: MemoryMode,
    /// The query exactly as given (validation trims only to test for blankness).
    pub(crate) query: &'a str,
    /// The scope named by the trimmed argument.
    pub(crate) scope: ScopeRequest,
    /// The raw `scope` argument, echoed untrimmed by the Off payload; at most
    /// [`MAX_SCOPE_CODE_POINTS`] code points.
    pub(crate) raw_scope: Option<&'a str>,
    /// The selector (it passed the canonical check, so it is also trimmed), project mode only.
    pub(crate) project: Option<Selector<'a>>,
    /// The most results over every scope, [`Limit::SEARCH_TOOL`].
    pub(crate) limit: Limit,
    /// Budget of the whole text, [`Budget::SEARCH_TOOL`].
    pub(crate) budget: Budget,
}

/// A validated `resolve_skill` call.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SkillArgs<'a> {
    pub(crate) mode: MemoryMode,
    /// The raw (untrimmed) selector, project mode only; execution checks it again untrimmed.
    pub(crate) project: Option<&'a str>,
    /// The intent exactly as given.
    pub(crate) intent: &'a str,
    /// Matches returned, [`Limit::SKILL_TOOL`].
    pub(crate) limit: Limit,
    /// Budget of the whole text, [`Budget::TOOL`].
    pub(crate) budget: Budget,
}

/// §6.3 `read_working_context`, then the memory policy.
pub(crate) fn context_args(args: &Args) -> Result<ContextArgs<'_>, RpcError> {
    allowed_keys(args, &["memory", "project", "limit", "budget"])?;
    let project = match optional_string(
        args.get("project"),
        "project",
        Some(MAX_SELECTOR_CODE_POINTS),
    )? {
        None => None,
        // The static checks above refuse everything the working-context check refuses (the
        // test `static_checks_cover_the_working_context_selector`), so its message is never
        // the answer; the value is core's checked selector.
        Some(_) => args
            .get("project")
            .and_then(Json::as_str)
            .map(ContextSelector::check)
            .transpose()
            .map_err(|error| RpcError::invalid_owned(error.to_string()))?,
    };
    let limit = Limit::whole(bounded_integer(
        args.get("limit"),
        "limit",
        Limit::CONTEXT_TOOL,
    )?);
    let budget = Budget::whole(bounded_integer(args.get("budget"), "budget", Budget::TOOL)?);
    let mode = memory_policy(args)?;
    Ok(ContextArgs {
        mode,
        project: in_project_mode(mode, project),
        limit,
        budget,
    })
}

/// §6.3 `search_aios`, then the memory policy.
pub(crate) fn search_args(args: &Args) -> Result<SearchArgs<'_>, RpcError> {
    allowed_keys(
        args,
        &["memory", "query", "scope", "project", "limit", "budget"],
    )?;
    let query = required_string(args.get("query"), "query", MAX_TEXT_CODE_POINTS)?;
    let project = match args.get("project") {
        None => None,
        present => Some(required_string(
            present,
            "project",
            MAX_SELECTOR_CODE_POINTS,
        )?),
    };
    let scope = match optional_string(args.get("scope"), "value", None)? {
        None => ScopeRequest::All,
        Some(trimmed) => scope_of(args.get("scope").and_then(Json::as_str), trimmed)?,
    };
    if scope.needs_project(project) {
        return Err(ArgError::ProjectsScopeNeedsProject.into());
    }
    let project = project.map(canonical_selector).transpose()?;
    let limit = Limit::whole(bounded_integer(
        args.get("limit"),
        "limit",
        Limit::SEARCH_TOOL,
    )?);
    let budget = Budget::whole(bounded_integer(
        args.get("budget"),
        "budget",
        Budget::SEARCH_TOOL,
    )?);
    let mode = memory_policy(args)?;
    Ok(SearchArgs {
        mode,
        query,
        scope,
        raw_scope: args.get("scope").and_then(Json::as_str),
        project: in_project_mode(mode, project),
        limit,
        budget,
    })
}

/// §6.3 `resolve_skill`, then the memory policy.
pub(crate) fn skill_args(args: &Args) -> Result<SkillArgs<'_>, RpcError> {
    allowed_keys(args, &["memory", "project", "intent", "limit", "budget"])?;
    if let Some(trimmed) = optional_string(
        args.get("project"),
        "project",
        Some(MAX_SELECTOR_CODE_POINTS),
    )? {
        canonical_selector(trimmed)?;
    }
    let intent = required_string(args.get("intent"), "intent", MAX_TEXT_CODE_POINTS)?;
    let limit = Limit::whole(bounded_integer(
        args.get("limit"),
        "limit",
        Limit::SKILL_TOOL,
    )?);
    let budget = Budget::whole(bounded_integer(args.get("budget"), "budget", Budget::TOOL)?);
    let mode = memory_policy(args)?;
    Ok(SkillArgs {
        mode,
        project: in_project_mode(mode, args.get("project").and_then(Json::as_str)),
        intent,
        limit,
        budget,
    })
}

/// The most code points a raw `scope` argument may have (contract 05 §6.2, §6.13). The Off
/// payload echoes the raw value twice in the structured eras (text and structured content), so
/// it needs a bound; a scope is one of a closed set of short names (the longest has 10), so 64
/// leaves room for any padding a client sends, and a longer value can only be a wrong one.
pub(crate) const MAX_SCOPE_CODE_POINTS: usize = 64;

/// §6.3 step 4: the scope the trimmed value names. A raw value over
/// [`MAX_SCOPE_CODE_POINTS`] is refused like any other invalid scope, with the message that
/// lists the names and echoes nothing.
fn scope_of(raw: Option<&str>, trimmed: &str) -> Result<ScopeRequest, RpcError> {
    if raw.is_some_and(|raw| code_point_len(raw) > MAX_SCOPE_CODE_POINTS) {
        return Err(ArgError::InvalidScope.into());
    }
    ScopeRequest::parse(trimmed).ok_or_else(|| ArgError::InvalidScope.into())
}

/// §6.5: the memory argument and the **raw** project argument; MCP has no first message.
fn memory_policy(args: &Args) -> Result<MemoryMode, RpcError> {
    let policy = resolve_memory_policy(PolicyInputs {
        mode: policy_arg(args.get("memory")),
        project: policy_arg(args.get("project")),
        first_user_message: PolicyArg::Absent,
    })
    .map_err(|error| RpcError::invalid_owned(error.to_string()))?;
    Ok(policy.mode)
}

fn policy_arg(value: Option<&Json>) -> PolicyArg<'_> {
    match value {
        None | Some(Json::Null) => PolicyArg::Absent,
        Some(Json::String(text)) => PolicyArg::Text(text),
        Some(_) => PolicyArg::NotText,
    }
}

/// The canonical selector check (contract 01 §6.4.2), answered with core's message.
fn canonical_selector(value: &str) -> Result<Selector<'_>, RpcError> {
    Selector::canonical(value).map_err(|error| RpcError::invalid_owned(error.to_string()))
}

fn allowed_keys(args: &Args, allowed: &[&str]) -> Result<(), RpcError> {
    if args.keys().any(|name| !allowed.contains(&name.as_str())) {
        return Err(ArgError::UnknownArgument.into());
    }
    Ok(())
}

/// §6.2: the one message of a missing, mistyped or blank string argument.
fn not_a_non_empty_string(name: &'static str) -> RpcError {
    ArgError::NotNonEmptyString(name).into()
}

/// The project argument as a tool keeps it: only in Project mode (§6.5).
fn in_project_mode<T>(mode: MemoryMode, project: Option<T>) -> Option<T> {
    project.filter(|_| mode == MemoryMode::Project)
}

/// §6.2 required string: used untrimmed; no control-character check.
fn required_string<'a>(
    value: Option<&'a Json>,
    name: &'static str,
    max: usize,
) -> Result<&'a str, RpcError> {
    let Some(Json::String(text)) = value else {
        return Err(not_a_non_empty_string(name));
    };
    if js_trim(text).is_empty() {
        return Err(not_a_non_empty_string(name));
    }
    if code_point_len(text) > max {
        return Err(ArgError::TooLong { name, max }.into());
    }
    Ok(text)
}

/// §6.2 optional string: absent is `None`; otherwise the trimmed value.
fn optional_string<'a>(
    value: Option<&'a Json>,
    name: &'static str,
    max: Option<usize>,
) -> Result<Option<&'a str>, RpcError> {
    let Some(value) = value else {
        return Ok(None);
    };
    let Json::String(text) = value else {
        return Err(not_a_non_empty_string(name));
    };
    let trimmed = js_trim(text);
    if trimmed.is_empty() {
        return Err(not_a_non_empty_string(name));
    }
    if text.chars().any(is_cc) {
        return Err(ArgError::ControlCharacters(name).into());
    }
    if let Some(max) = max
        && code_point_len(text) > max
    {
        return Err(ArgError::TooLong { name, max }.into());
    }
    Ok(Some(trimmed))
}

/// §6.2 bounded integer: a JSON number whose value is an integer within `bounds`, no
/// coercion; absent is the default.
fn bounded_integer(
    value: Option<&Json>,
    name: &'static str,
    bounds: Bounds,
) -> Result<u32, RpcError> {
    let Some(value) = value else {
        return Ok(bounds.default);
    };
    match value {
        Json::Number(number) => bounds.admit(number.value()),
        _ => None,
    }
    .ok_or_else(|| {
        ArgError::NotIntegerInRange {
            name,
            min: bounds.min,
            max: bounds.max,
        }
        .into()
    })
}

/// The static-validation catalogue (contract 05 §6.2–§6.3): every message this module writes
/// itself, in one place. Memory-policy and selector failures keep core's typed messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ArgError {
    /// `arguments` present but not a JSON object.
    #[error("tool arguments must be an object")]
    ArgumentsNotObject,
    /// A key the tool does not declare; the key itself is never echoed.
    #[error("Unknown tool argument")]
    UnknownArgument,
    /// A string argument that is missing, not a string, or blank.
    #[error("{0} must be a non-empty string")]
    NotNonEmptyString(&'static str),
    /// A string argument over its code-point maximum.
    #[error("{name} must be at most {max} characters")]
    TooLong { name: &'static str, max: usize },
    /// An optional string argument holding a `Cc` character.
    #[error("{0} must not contain control characters")]
    ControlCharacters(&'static str),
    /// A number argument that is not an integer in its range.
    #[error("{name} must be an integer from {min} to {max}")]
    NotIntegerInRange {
        name: &'static str,
        min: u32,
        max: u32,
    },
    /// A `scope` that is not a scope name, or longer than any padded name may be.
    #[error("scope must be one of: {}", ScopeRequest::NAMES.join(", "))]
    InvalidScope,
    /// `scope: "projects"` without a `project`.
    #[error("project is required when scope is projects")]
    ProjectsScopeNeedsProject,
}

impl From<ArgError> for RpcError {
    fn from(error: ArgError) -> RpcError {
        RpcError::invalid_owned(error.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    /// The arguments of one test call, kept for the rest of the test run: validated calls
    /// borrow their strings from them.
    fn object(text: &str) -> &'static Args {
        match parse(text).unwrap() {
            Json::Object(members) => Box::leak(Box::new(members)),
            other => panic!("not an object: {other:?}"),
        }
    }

    fn context_error(text: &str) -> String {
        context_args(object(text))
            .unwrap_err()
            .wire()
            .1
            .into_owned()
    }

    fn search_error(text: &str) -> String {
        search_args(object(text)).unwrap_err().wire().1.into_owned()
    }

    fn skill_error(text: &str) -> String {
        skill_args(object(text)).unwrap_err().wire().1.into_owned()
    }

    #[test]
    fn context_defaults_and_trimmed_project() {
        let args = context_args(object("{}")).unwrap();
        assert_eq!(
            args,
            ContextArgs {
                mode: MemoryMode::Shared,
                project: None,
                limit: Limit::whole(3),
                budget: Budget::whole(6000)
            }
        );
        let args = context_args(object(
            r#"{"project":" café:client/01 ","limit":1e1,"budget":256.0}"#,
        ))
        .unwrap();
        assert_eq!(args.mode, MemoryMode::Project);
        assert_eq!(
            args.project.map(ContextSelector::as_str),
            Some("café:client/01")
        );
        assert_eq!(
            (args.limit, args.budget),
            (Limit::whole(10), Budget::whole(256))
        );
        let args = context_args(object(r#"{"memory":"off","project":"x"}"#)).unwrap();
        assert_eq!((args.mode, args.project), (MemoryMode::Off, None));
        let args = context_args(object(r#"{"memory":null}"#)).unwrap();
        assert_eq!(args.mode, MemoryMode::Shared);
    }

    #[test]
    fn context_messages() {
        assert_eq!(
            context_error(r#"{"projet":"demo"}"#),
            "Unknown tool argument"
        );
        let long_key = format!(r#"{{"{}":true}}"#, "k".repeat(100_000));
        assert_eq!(context_error(&long_key), "Unknown tool argument");
        for value in ["42", "true", "null", "{}", "[]", "\"\"", "\"  \""] {
            assert_eq!(
                context_error(&format!(r#"{{"project":{value}}}"#)),
                "project must be a non-empty string"
            );
        }
        for value in [
            r#""x\u0000y""#,
            r#""alpha\n""#,
            r#""alpha\u007f""#,
            r#""alpha\u0085""#,
        ] {
            assert_eq!(
                context_error(&format!(r#"{{"project":{value}}}"#)),
                "project must not contain control characters"
            );
        }
        assert_eq!(
            context_error(&format!(r#"{{"project":"{}"}}"#, "🚀".repeat(201))),
            "project must be at most 200 characters"
        );
        assert!(context_args(object(&format!(r#"{{"project":"{}"}}"#, "🚀".repeat(200)))).is_ok());
        for value in [
            "\"3\"", "true", "[]", "null", "3.5", "0", "11", "-0", "1e400",
        ] {
            assert_eq!(
                context_error(&format!(r#"{{"limit":{value}}}"#)),
                "limit must be an integer from 1 to 10"
            );
        }
        assert_eq!(
            context_error(r#"{"budget":20}"#),
            "budget must be an integer from 256 to 32000"
        );
        assert_eq!(
            context_error(r#"{"budget":"256"}"#),
            "budget must be an integer from 256 to 32000"
        );
        assert_eq!(
            context_error(r#"{"memory":"automatic"}"#),
            "Memory mode must be one of: shared, project, off."
        );
        assert_eq!(
            context_error(r#"{"memory":1e400}"#),
            "Memory mode must be one of: shared, project, off."
        );
        assert_eq!(
            context_error(r#"{"memory":"shared","project":"p"}"#),
            "Cannot combine shared memory with a project selector."
        );
        assert_eq!(
            context_error(r#"{"memory":"project"}"#),
            "A project selector is required for This project memory."
        );
        // Static checks come before the policy.
        assert_eq!(
            context_error(r#"{"memory":"off","budget":20}"#),
            "budget must be an integer from 256 to 32000"
        );
        assert_eq!(
            context_error(r#"{"memory":"off","surprise":true}"#),
            "Unknown tool argument"
        );
    }

    /// `(limit, budget)` of a validated call of `tool` with these extra members.
    fn numbers(tool: &str, members: &str) -> Result<(usize, usize), RpcError> {
        let text = |required: &str| format!("{{{required}{members}}}");
        match tool {
            "read_working_context" => {
                context_args(object(&text(""))).map(|args| (args.limit.get(), args.budget.units()))
            }
            "search_aios" => search_args(object(&text(r#""query":"x""#)))
                .map(|args| (args.limit.get(), args.budget.units())),
            "resolve_skill" => skill_args(object(&text(r#""intent":"x""#)))
                .map(|args| (args.limit.get(), args.budget.units())),
            other => panic!("unknown tool {other}"),
        }
    }

    /// Both schema editions and the validator agree on every integer argument: the validator
    /// accepts `minimum` and `maximum`, refuses one beyond either, and applies `default`.
    #[test]
    fn validator_accepts_exactly_the_schema_bounds() {
        for list in [
            super::super::schema::tools(),
            super::super::schema::structured_tools(),
        ] {
            for tool in list.as_array().unwrap() {
                let name = tool["name"].as_str().unwrap();
                let properties = &tool["inputSchema"]["properties"];
                for (index, key) in ["limit", "budget"].into_iter().enumerate() {
                    let bound = |member: &str| properties[key][member].as_u64().unwrap() as usize;
                    let pick = |pair: (usize, usize)| if index == 0 { pair.0 } else { pair.1 };
                    let with = |value: usize| {
                        numbers(name, &format!(r#"{}"{key}":{value}"#, comma(name)))
                            .map(pick)
                            .ok()
                    };
                    let (min, max) = (bound("minimum"), bound("maximum"));
                    assert_eq!(with(min), Some(min), "{name}.{key}");
                    assert_eq!(with(max), Some(max), "{name}.{key}");
                    assert_eq!(with(min - 1), None, "{name}.{key}");
                    assert_eq!(with(max + 1), None, "{name}.{key}");
                    let default = numbers(name, "").map(pick).ok();
                    assert_eq!(default, Some(bound("default")), "{name}.{key}");
                }
            }
        }
    }

    /// The separator after a tool's required member, if it has one.
    fn comma(tool: &str) -> &'static str {
        if tool == "read_working_context" {
            ""
        } else {
            ","
        }
    }

    /// The adapter's static checks of `project` refuse everything core's working-context check
    /// refuses (contract 05 §6.3 against 01 §6.4.1), so `context_args` never answers with core's
    /// message.
    #[test]
    fn static_checks_cover_the_working_context_selector() {
        let long = "x".repeat(200);
        let values = [
            String::new(),
            " ".into(),
            "\u{feff}\u{2028}".into(),
            "a\u{85}".into(),
            "a\u{7}".into(),
            format!("{long} "),
            format!(" {long}"),
            format!("{long}\u{7}"),
            "x".repeat(201),
            " café:client/01 ".into(),
        ];
        for value in values {
            let text = format!(r#"{{"project":{}}}"#, serde_json::json!(value));
            let static_answer = context_args(object(&text)).map(|args| args.project);
            let core_answer = ContextSelector::check(&value);
            match static_answer {
                Ok(Some(selector)) => assert_eq!(Ok(selector), core_answer, "{value:?}"),
                Ok(None) => panic!("{value:?}: a project argument gives project mode"),
                Err(error) => assert!(!error.wire().1.starts_with("Working-context"), "{value:?}"),
            }
        }
    }

    #[test]
    fn search_order_and_messages() {
        assert_eq!(
            search_error(r#"{"memory":"off"}"#),
            "query must be a non-empty string"
        );
        assert_eq!(
            search_error(r#"{"query":42}"#),
            "query must be a non-empty string"
        );
        assert_eq!(
            search_error(&format!(r#"{{"query":"{}"}}"#, "x".repeat(501))),
            "query must be at most 500 characters"
        );
        assert_eq!(
            search_error(r#"{"query":"x","project":null}"#),
            "project must be a non-empty string"
        );
        assert_eq!(
            search_error(r#"{"query":"x","scope":42}"#),
            "value must be a non-empty string"
        );
        assert_eq!(
            search_error(r#"{"query":"x","scope":"a\u0001"}"#),
            "value must not contain control characters"
        );
        assert_eq!(
            search_error(r#"{"query":"x","scope":"everything"}"#),
            "scope must be one of: memory, vault, context, projects, decisions, skills, references, plugins, sessions, all"
        );
        assert_eq!(
            search_error(r#"{"memory":"off","query":"x","scope":"projects"}"#),
            "project is required when scope is projects"
        );
        assert_eq!(
            search_error(r#"{"query":"x","project":" acme-campaign "}"#),
            "project selector must be a safe project slug or stable id"
        );
        assert_eq!(
            search_error(r#"{"query":"x","limit":100}"#),
            "limit must be an integer from 1 to 20"
        );
        assert_eq!(
            search_error(r#"{"query":"x","budget":3529}"#),
            "budget must be an integer from 3530 to 32000"
        );
        // The raw scope is bounded (§6.13): 64 code points pass and are echoed, 65 are an
        // invalid scope, whatever the padding is made of.
        let padded = |spaces: usize| {
            format!(
                r#"{{"query":"x","scope":"{}memory","memory":"off"}}"#,
                "\\u3000".repeat(spaces)
            )
        };
        let args = search_args(object(&padded(MAX_SCOPE_CODE_POINTS - 6))).unwrap();
        assert_eq!(
            args.raw_scope.map(code_point_len),
            Some(MAX_SCOPE_CODE_POINTS)
        );
        assert_eq!(
            search_error(&padded(MAX_SCOPE_CODE_POINTS - 5)),
            search_error(r#"{"query":"x","scope":"everything"}"#)
        );
        let args = search_args(object(
            r#"{"query":" x ","scope":" memory ","memory":"off"}"#,
        ))
        .unwrap();
        assert_eq!(
            (args.query, args.scope.as_str(), args.raw_scope),
            (" x ", "memory", Some(" memory "))
        );
        assert_eq!(
            (args.limit, args.budget),
            (Limit::whole(10), Budget::whole(6000))
        );
        let args = search_args(object(r#"{"query":"x","project":"acme-campaign"}"#)).unwrap();
        assert_eq!(
            (args.mode, args.project.map(Selector::as_str), args.scope),
            (
                MemoryMode::Project,
                Some("acme-campaign"),
                ScopeRequest::All
            )
        );
    }

    #[test]
    fn skill_order_and_messages() {
        assert_eq!(
            skill_error(r#"{"memory":"off"}"#),
            "intent must be a non-empty string"
        );
        assert_eq!(
            skill_error(r#"{"memory":"off","intent":[]}"#),
            "intent must be a non-empty string"
        );
        assert_eq!(
            skill_error(&format!(r#"{{"intent":"{}"}}"#, "x".repeat(501))),
            "intent must be at most 500 characters"
        );
        assert_eq!(
            skill_error(r#"{"intent":"x","project":"a/b"}"#),
            "project selector must be a safe project slug or stable id"
        );
        assert_eq!(
            skill_error(r#"{"intent":"x","limit":0}"#),
            "limit must be an integer from 1 to 10"
        );
        // The trimmed project passes statically; the raw one is kept for execution.
        let args = skill_args(object(r#"{"intent":"x","project":" client-work "}"#)).unwrap();
        assert_eq!(
            (args.mode, args.project),
            (MemoryMode::Project, Some(" client-work "))
        );
        assert_eq!(
            (args.limit, args.budget),
            (Limit::whole(1), Budget::whole(6000))
        );
        let args = skill_args(object(r#"{"intent":"x","project":"p","memory":"off"}"#)).unwrap();
        assert_eq!((args.mode, args.project), (MemoryMode::Off, None));
    }
}
