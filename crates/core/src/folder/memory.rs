//! The memory policy (contract 01 §7): validation of the three inputs, the first-message phrases,
//! mode selection, and the receipt and notice of each mode.
//!
//! Pure and total: it never touches the filesystem, because Off must be provable as zero
//! reads. Callers resolve the policy before they locate or open the folder.

use crate::text::js_trim_start;

/// Internal code of every memory-policy failure.
pub const MEMORY_POLICY_INVALID_CODE: &str = "DOTAIOS_MEMORY_POLICY_INVALID";

/// The Off notice, one line (contract 01 §7.3).
pub const OFF_NOTICE: &str = "DotAIOS is off; your AI app may still keep its own conversation history. DotAIOS did not read, search, save, or capture this turn.";

/// One memory mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MemoryMode {
    /// Everything the folder holds (`shared`).
    Shared,
    /// One project's attributed memory only (`project`).
    Project,
    /// No access at all (`off`).
    Off,
}

impl MemoryMode {
    /// Every mode, in the order the refusal lists them (`shared, project, off`).
    pub const ALL: [MemoryMode; 3] = [MemoryMode::Shared, MemoryMode::Project, MemoryMode::Off];

    /// The wire spelling: `shared`, `project` or `off`.
    pub fn as_str(self) -> &'static str {
        match self {
            MemoryMode::Shared => "shared",
            MemoryMode::Project => "project",
            MemoryMode::Off => "off",
        }
    }

    /// Parses the wire spelling (exact, case-sensitive).
    pub fn from_wire(value: &str) -> Option<MemoryMode> {
        match value {
            "shared" => Some(MemoryMode::Shared),
            "project" => Some(MemoryMode::Project),
            "off" => Some(MemoryMode::Off),
            _ => None,
        }
    }

    /// The receipt line: `Memory: Shared`, `Memory: This project` or `Memory: Off`.
    pub fn receipt(self) -> &'static str {
        match self {
            MemoryMode::Shared => "Memory: Shared",
            MemoryMode::Project => "Memory: This project",
            MemoryMode::Off => "Memory: Off",
        }
    }

    /// The notice: only Off has one ([`OFF_NOTICE`]).
    pub fn notice(self) -> Option<&'static str> {
        match self {
            MemoryMode::Off => Some(OFF_NOTICE),
            MemoryMode::Shared | MemoryMode::Project => None,
        }
    }
}

/// One raw policy input as the caller received it. A JSON `null` is [`PolicyArg::Absent`]
/// for all three inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PolicyArg<'a> {
    /// Not given (or `null`).
    Absent,
    /// A string, raw and untrimmed.
    Text(&'a str),
    /// Given, but not a string (a JSON number, boolean, array or object).
    NotText,
}

/// The three inputs of contract 01 §7.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PolicyInputs<'a> {
    /// The explicit mode (`--memory`, MCP `memory`).
    pub mode: PolicyArg<'a>,
    /// The project selector (`--project`, MCP `project`), raw and untrimmed.
    pub project: PolicyArg<'a>,
    /// The first user message (CLI `--first-message`; MCP has none).
    pub first_user_message: PolicyArg<'a>,
}

/// The resolved policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryPolicy {
    /// The selected mode.
    pub mode: MemoryMode,
    /// The raw selector, kept only in project mode (a first message "use my memory" drops a
    /// given selector silently).
    pub project_selector: Option<String>,
}

impl MemoryPolicy {
    /// The receipt line of the selected mode.
    pub fn receipt(&self) -> &'static str {
        self.mode.receipt()
    }

    /// The notice of the selected mode (Off only).
    pub fn notice(&self) -> Option<&'static str> {
        self.mode.notice()
    }
}

/// Why the policy could not be resolved. Every variant has the code
/// [`MEMORY_POLICY_INVALID_CODE`]; `Display` is the exact message (MCP -32602 uses it as is).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MemoryPolicyError {
    /// `project` present and not a non-empty string.
    #[error("Project must be a non-empty string.")]
    InvalidProject,
    /// `firstUserMessage` present and not a string.
    #[error("First user message must be a string.")]
    InvalidFirstMessage,
    /// `mode` present and not one of the three spellings.
    #[error("Memory mode must be one of: shared, project, off.")]
    InvalidMode,
    /// Explicit `shared` with a selector and no first-message phrase.
    #[error("Cannot combine shared memory with a project selector.")]
    SharedWithSelector,
    /// Project mode selected without a selector.
    #[error("A project selector is required for This project memory.")]
    ProjectWithoutSelector,
}

impl MemoryPolicyError {
    /// The internal error code, `DOTAIOS_MEMORY_POLICY_INVALID`.
    pub fn code(&self) -> &'static str {
        MEMORY_POLICY_INVALID_CODE
    }
}

/// Resolves the memory policy (contract 01 §7.1–§7.2) without any filesystem access.
pub fn resolve_memory_policy(inputs: PolicyInputs<'_>) -> Result<MemoryPolicy, MemoryPolicyError> {
    let selector = match inputs.project {
        PolicyArg::Absent => None,
        PolicyArg::Text(text) if !text.is_empty() => Some(text),
        PolicyArg::Text(_) | PolicyArg::NotText => return Err(MemoryPolicyError::InvalidProject),
    };
    let first_message_mode = match inputs.first_user_message {
        PolicyArg::Absent => None,
        PolicyArg::Text(text) => first_message_mode(text),
        PolicyArg::NotText => return Err(MemoryPolicyError::InvalidFirstMessage),
    };
    let explicit = match inputs.mode {
        PolicyArg::Absent => None,
        PolicyArg::Text(text) => {
            Some(MemoryMode::from_wire(text).ok_or(MemoryPolicyError::InvalidMode)?)
        }
        PolicyArg::NotText => return Err(MemoryPolicyError::InvalidMode),
    };

    let selected = if explicit == Some(MemoryMode::Off) {
        MemoryMode::Off
    } else if let Some(mode) = first_message_mode.or(explicit) {
        mode
    } else if selector.is_some() {
        MemoryMode::Project
    } else {
        MemoryMode::Shared
    };

    if explicit == Some(MemoryMode::Shared) && selector.is_some() && first_message_mode.is_none() {
        return Err(MemoryPolicyError::SharedWithSelector);
    }
    if selected == MemoryMode::Project && selector.is_none() {
        return Err(MemoryPolicyError::ProjectWithoutSelector);
    }
    Ok(MemoryPolicy {
        mode: selected,
        project_selector: match selected {
            MemoryMode::Project => selector.map(str::to_owned),
            MemoryMode::Shared | MemoryMode::Off => None,
        },
    })
}

/// The mode a first user message asks for: the first of `/^\s*private chat\b/i` → Off,
/// `/^\s*only this project\b/i` → Project, `/^\s*use my memory\b/i` → Shared that matches.
///
/// The JavaScript expressions have the `i` flag but not `u`, so case folding maps no
/// non-ASCII character onto these ASCII phrases, `\s` is the JS whitespace set, and `\b` sees
/// only `[A-Za-z0-9_]` as word characters.
pub fn first_message_mode(message: &str) -> Option<MemoryMode> {
    let rest = js_trim_start(message);
    const PHRASES: [(&str, MemoryMode); 3] = [
        ("private chat", MemoryMode::Off),
        ("only this project", MemoryMode::Project),
        ("use my memory", MemoryMode::Shared),
    ];
    PHRASES
        .iter()
        .find(|(phrase, _)| starts_with_word(rest, phrase))
        .map(|&(_, mode)| mode)
}

/// ASCII case-insensitive prefix followed by a word boundary. Every phrase ends in a word
/// character, so the boundary holds exactly when the next character is not one.
fn starts_with_word(text: &str, phrase: &str) -> bool {
    let Some(head) = text.get(..phrase.len()) else {
        return false;
    };
    head.eq_ignore_ascii_case(phrase)
        && !text[phrase.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;
    use PolicyArg::{Absent, NotText, Text};

    fn resolve(
        mode: PolicyArg<'_>,
        project: PolicyArg<'_>,
        first: PolicyArg<'_>,
    ) -> Result<MemoryPolicy, MemoryPolicyError> {
        resolve_memory_policy(PolicyInputs {
            mode,
            project,
            first_user_message: first,
        })
    }

    fn ok(mode: MemoryMode, selector: Option<&str>) -> Result<MemoryPolicy, MemoryPolicyError> {
        Ok(MemoryPolicy {
            mode,
            project_selector: selector.map(str::to_owned),
        })
    }

    #[test]
    fn every_message_is_exact() {
        use MemoryPolicyError::*;
        let cases = [
            (InvalidProject, "Project must be a non-empty string."),
            (InvalidFirstMessage, "First user message must be a string."),
            (
                InvalidMode,
                "Memory mode must be one of: shared, project, off.",
            ),
            (
                SharedWithSelector,
                "Cannot combine shared memory with a project selector.",
            ),
            (
                ProjectWithoutSelector,
                "A project selector is required for This project memory.",
            ),
        ];
        for (error, message) in cases {
            assert_eq!(error.to_string(), message);
            assert_eq!(error.code(), "DOTAIOS_MEMORY_POLICY_INVALID");
        }
    }

    #[test]
    fn validation_order_is_project_then_first_message_then_mode() {
        assert_eq!(
            resolve(Text("bogus"), Text(""), NotText),
            Err(MemoryPolicyError::InvalidProject)
        );
        assert_eq!(
            resolve(NotText, NotText, Absent),
            Err(MemoryPolicyError::InvalidProject)
        );
        assert_eq!(
            resolve(Text("bogus"), Absent, NotText),
            Err(MemoryPolicyError::InvalidFirstMessage)
        );
        assert_eq!(
            resolve(Text("bogus"), Absent, Absent),
            Err(MemoryPolicyError::InvalidMode)
        );
        assert_eq!(
            resolve(Text("Shared"), Absent, Absent),
            Err(MemoryPolicyError::InvalidMode)
        );
        assert_eq!(
            resolve(NotText, Absent, Absent),
            Err(MemoryPolicyError::InvalidMode)
        );
    }

    #[test]
    fn resolution_rows() {
        use MemoryMode::*;
        // No explicit mode: project when a selector is given, else shared.
        assert_eq!(resolve(Absent, Absent, Absent), ok(Shared, None));
        assert_eq!(resolve(Absent, Text("p"), Absent), ok(Project, Some("p")));
        // A whitespace selector is a non-empty string here; the selector check rejects it later.
        assert_eq!(resolve(Absent, Text("  "), Absent), ok(Project, Some("  ")));
        // Explicit modes.
        assert_eq!(resolve(Text("shared"), Absent, Absent), ok(Shared, None));
        assert_eq!(
            resolve(Text("project"), Text(" p "), Absent),
            ok(Project, Some(" p "))
        );
        assert_eq!(resolve(Text("off"), Absent, Absent), ok(Off, None));
        // Explicit off wins over a selector and over any first message.
        assert_eq!(resolve(Text("off"), Text("p"), Absent), ok(Off, None));
        assert_eq!(
            resolve(Text("off"), Text("p"), Text("only this project")),
            ok(Off, None)
        );
        assert_eq!(
            resolve(Text("off"), Absent, Text("use my memory")),
            ok(Off, None)
        );
        // The first-message mode wins over an explicit shared/project mode.
        assert_eq!(
            resolve(Text("project"), Text("p"), Text("use my memory")),
            ok(Shared, None)
        );
        assert_eq!(
            resolve(Text("shared"), Text("p"), Text("private chat")),
            ok(Off, None)
        );
        assert_eq!(
            resolve(Text("shared"), Text("p"), Text("only this project")),
            ok(Project, Some("p"))
        );
        assert_eq!(
            resolve(Text("shared"), Text("p"), Text("use my memory")),
            ok(Shared, None)
        );
        assert_eq!(
            resolve(Absent, Text("p"), Text("use my memory")),
            ok(Shared, None)
        );
        assert_eq!(
            resolve(Absent, Absent, Text("private chat please")),
            ok(Off, None)
        );
        // A first message without a phrase changes nothing.
        assert_eq!(
            resolve(Absent, Text("p"), Text("hello")),
            ok(Project, Some("p"))
        );
    }

    #[test]
    fn errors_after_selection() {
        assert_eq!(
            resolve(Text("shared"), Text("p"), Absent),
            Err(MemoryPolicyError::SharedWithSelector)
        );
        assert_eq!(
            resolve(Text("shared"), Text("p"), Text("hello")),
            Err(MemoryPolicyError::SharedWithSelector)
        );
        assert_eq!(
            resolve(Text("project"), Absent, Absent),
            Err(MemoryPolicyError::ProjectWithoutSelector)
        );
        assert_eq!(
            resolve(Absent, Absent, Text("only this project")),
            Err(MemoryPolicyError::ProjectWithoutSelector)
        );
        assert_eq!(
            resolve(Text("shared"), Absent, Text("only this project")),
            Err(MemoryPolicyError::ProjectWithoutSelector)
        );
    }

    #[test]
    fn receipts_and_notices() {
        assert_eq!(MemoryMode::Shared.receipt(), "Memory: Shared");
        assert_eq!(MemoryMode::Project.receipt(), "Memory: This project");
        assert_eq!(MemoryMode::Off.receipt(), "Memory: Off");
        assert_eq!(MemoryMode::Shared.notice(), None);
        assert_eq!(MemoryMode::Project.notice(), None);
        assert_eq!(
            MemoryMode::Off.notice(),
            Some(
                "DotAIOS is off; your AI app may still keep its own conversation history. DotAIOS did not read, search, save, or capture this turn."
            )
        );
        let policy = resolve(Text("off"), Absent, Absent).unwrap();
        assert_eq!(policy.receipt(), "Memory: Off");
        assert_eq!(policy.notice(), Some(OFF_NOTICE));
        assert_eq!(MemoryMode::from_wire("project"), Some(MemoryMode::Project));
        assert_eq!(MemoryMode::Project.as_str(), "project");
    }

    #[test]
    fn first_message_phrases() {
        use MemoryMode::*;
        assert_eq!(first_message_mode("private chat"), Some(Off));
        assert_eq!(first_message_mode("PRIVATE Chat, please"), Some(Off));
        assert_eq!(
            first_message_mode(" \t\n\u{3000}\u{feff}only this project"),
            Some(Project)
        );
        assert_eq!(first_message_mode("Use My Memory."), Some(Shared));
        assert_eq!(
            first_message_mode("use my memory-bank"),
            Some(Shared),
            "`-` is not a word character"
        );
        assert_eq!(
            first_message_mode("use my memoryé"),
            Some(Shared),
            "non-ASCII is not a word character without `u`"
        );
        // Not at the start, or followed by a word character, or a different space.
        assert_eq!(first_message_mode("please private chat"), None);
        assert_eq!(first_message_mode("private chats"), None);
        assert_eq!(first_message_mode("private chat_x"), None);
        assert_eq!(first_message_mode("private  chat"), None);
        assert_eq!(first_message_mode("private\u{a0}chat"), None);
        assert_eq!(
            first_message_mode("\u{85}private chat"),
            None,
            "U+0085 is not JS whitespace"
        );
        assert_eq!(first_message_mode("privat"), None);
        assert_eq!(first_message_mode(""), None);
        // The Kelvin sign does not fold to `k` without the `u` flag; no phrase has a k, but the
        // dotless i must not fold to `i` either.
        assert_eq!(first_message_mode("prıvate chat"), None);
    }
}
