//! The skill catalog (contract 04 §1): which directories of `skills/` are skills, the bounded
//! frontmatter-only read of each `SKILL.md`, the metadata fields and their forms, and the
//! catalog order.
//!
//! Every byte comes through `dotaios_contained::Root`. Only the first 64 KiB of a `SKILL.md`
//! is ever read for the catalog (its whole size is still charged to the request ledger): its
//! frontmatter and, for routing, at most 32 headings of the body within it (contract 04 §1.3),
//! so a huge body costs nothing but its reservation.
//! Linked, hidden and `_`-prefixed entries are skipped without being inspected and their names
//! never reach a result or an error. A bad `SKILL.md` fails the whole catalog: routing must
//! not change silently because one skill stopped parsing.

use std::borrow::Cow;

use dotaios_contained::{EntryKind, Identity, Ledger, Limits, Listing, ReadError, RelPath, Root};

use crate::error::{EvidenceError, PublicError};

use crate::folder::frontmatter::{self, YamlValue, YamlWork};
use crate::text;

/// At most this many entries in the `skills/` listing; one more fails the request.
const MAX_LISTING_ENTRIES: u64 = 512;
/// At most this many files opened per request.
const MAX_FILES: u64 = 512;
/// The evidence reader's aggregate byte ceiling (contract 01 §5.3), against which the whole size
/// of every opened `SKILL.md` is reserved.
const MAX_BYTES: u64 = 256 * 1024 * 1024;
/// The evidence reader's aggregate entry ceiling (contract 01 §5.3).
const MAX_ENTRIES: u64 = 500_000;
/// A `SKILL.md` larger than this fails the request.
pub const MAX_SKILL_FILE_BYTES: u64 = 8 * 1024 * 1024;
/// Only this much of a `SKILL.md` is read, for its frontmatter and its headings.
const FRONTMATTER_PREFIX_BYTES: u64 = 64 * 1024;
/// At most this many headings of a `SKILL.md` take part in routing (contract 04 §1.3).
pub const MAX_HEADINGS: usize = 32;
/// A longer heading is cut to this many characters for routing.
pub const MAX_HEADING_CHARS: usize = 200;

/// One installed skill, as the catalog describes it (contract 04 §1.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skill {
    /// The directory name below `skills/` (valid UTF-8, no control character, no `\`).
    pub dir: String,
    /// The trimmed frontmatter `name` when non-empty, else `dir`.
    pub name: String,
    /// The trimmed frontmatter `description`, `""` when absent.
    pub description: String,
    /// Trigger phrases in declaration order, trimmed, empty ones dropped.
    pub triggers: Vec<String>,
    /// `when_to_use`, validated like `triggers` but never used for ranking.
    pub when_to_use: Vec<String>,
    /// The headings of the body within the first 64 KiB, in order, at most [`MAX_HEADINGS`],
    /// each cut to [`MAX_HEADING_CHARS`] characters (contract 04 §1.3).
    pub headings: Vec<String>,
}

impl Skill {
    /// A skill whose frontmatter gave no `name` (so it is named after `dir`) and no
    /// `when_to_use`: what tests, fuzz targets and embedders build catalogs from.
    pub fn new(dir: &str, description: &str, triggers: &[&str]) -> Skill {
        Skill {
            dir: dir.to_owned(),
            name: dir.to_owned(),
            description: description.to_owned(),
            triggers: triggers
                .iter()
                .map(|trigger| (*trigger).to_owned())
                .collect(),
            when_to_use: Vec::new(),
            headings: Vec::new(),
        }
    }

    /// `skills/<dir>/SKILL.md`, the skill's path relative to the AIOS root.
    pub fn resource(&self) -> String {
        format!("skills/{}/SKILL.md", self.dir)
    }
}

/// Why the catalog (or one skill file) could not be read. Each variant is one internal code of
/// contract 04 / 03 §15; surfaces turn them into their fixed, path-free messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CatalogError {
    /// `DOTAIOS_SKILL_METADATA_INVALID`: YAML that does not parse, is not a mapping, has a
    /// duplicate key, or a field of the wrong type.
    #[error("DOTAIOS_SKILL_METADATA_INVALID")]
    MetadataInvalid,
    /// `DOTAIOS_EVIDENCE_FRONTMATTER_INVALID`: a frontmatter block that does not close within
    /// the prefix.
    #[error("DOTAIOS_EVIDENCE_FRONTMATTER_INVALID")]
    FrontmatterInvalid,
    /// `DOTAIOS_EVIDENCE_PATH_UNSAFE`: a linked or special `SKILL.md`, a linked `skills/`, or
    /// an escape.
    #[error("DOTAIOS_EVIDENCE_PATH_UNSAFE")]
    PathUnsafe,
    /// `DOTAIOS_EVIDENCE_FILE_TOO_LARGE`: a `SKILL.md` over 8 MiB.
    #[error("DOTAIOS_EVIDENCE_FILE_TOO_LARGE")]
    FileTooLarge,
    /// `DOTAIOS_EVIDENCE_DIRECTORY_TOO_LARGE`: more than 512 entries in `skills/`.
    #[error("DOTAIOS_EVIDENCE_DIRECTORY_TOO_LARGE")]
    DirectoryTooLarge,
    /// `DOTAIOS_EVIDENCE_BUDGET_EXCEEDED`: the request ledger refused a reservation.
    #[error("DOTAIOS_EVIDENCE_BUDGET_EXCEEDED")]
    BudgetExceeded,
    /// `DOTAIOS_EVIDENCE_INVALID_UTF8`.
    #[error("DOTAIOS_EVIDENCE_INVALID_UTF8")]
    InvalidUtf8,
    /// `DOTAIOS_EVIDENCE_CHANGED`: something observed changed before the result was returned.
    #[error("DOTAIOS_EVIDENCE_CHANGED")]
    Changed,
    /// `DOTAIOS_EVIDENCE_READ_FAILED`: any other I/O failure.
    #[error("DOTAIOS_EVIDENCE_READ_FAILED")]
    ReadFailed,
}

impl CatalogError {
    /// The evidence-reader failure this is, or `None` for the skill metadata error, which is
    /// the catalog's own (contract 04 §5.1 step 2).
    pub fn evidence(self) -> Option<EvidenceError> {
        Some(match self {
            CatalogError::MetadataInvalid => return None,
            CatalogError::FrontmatterInvalid => EvidenceError::FrontmatterInvalid,
            CatalogError::PathUnsafe => EvidenceError::PathUnsafe,
            CatalogError::FileTooLarge => EvidenceError::FileTooLarge,
            CatalogError::DirectoryTooLarge => EvidenceError::DirectoryTooLarge,
            CatalogError::BudgetExceeded => EvidenceError::BudgetExceeded,
            CatalogError::InvalidUtf8 => EvidenceError::InvalidUtf8,
            CatalogError::Changed => EvidenceError::Changed,
            CatalogError::ReadFailed => EvidenceError::ReadFailed,
        })
    }

    /// The internal code, e.g. `DOTAIOS_SKILL_METADATA_INVALID`. Never shown to users by itself.
    pub fn code(self) -> &'static str {
        self.evidence()
            .map_or("DOTAIOS_SKILL_METADATA_INVALID", EvidenceError::code)
    }

    /// The fixed, path-free message a terminal shows for this failure (contract 04 §5.1 step 2:
    /// the metadata message, else the evidence reader's messages of contract 03 §15).
    pub fn message(self) -> &'static str {
        self.evidence().map_or(
            "DotAIOS could not read skill routing metadata safely.",
            EvidenceError::message,
        )
    }
}

impl PublicError for CatalogError {
    fn code(&self) -> &'static str {
        CatalogError::code(*self)
    }

    fn message(&self) -> Cow<'static, str> {
        Cow::Borrowed(CatalogError::message(*self))
    }

    fn is_input_error(&self) -> bool {
        false
    }
}

impl From<ReadError> for CatalogError {
    fn from(error: ReadError) -> CatalogError {
        match error {
            // The reference reports a special file where SKILL.md should be as unsafe too.
            ReadError::Unsafe(_) | ReadError::NotRegular(_) => CatalogError::PathUnsafe,
            ReadError::TooLarge => CatalogError::FileTooLarge,
            ReadError::Changed => CatalogError::Changed,
            ReadError::InvalidUtf8 => CatalogError::InvalidUtf8,
            ReadError::Budget(_) => CatalogError::BudgetExceeded,
            ReadError::DirectoryLimit => CatalogError::DirectoryTooLarge,
            ReadError::Io(_) => CatalogError::ReadFailed,
        }
    }
}

/// Reads the catalog of the AIOS folder behind `root`, ordered by name then directory (byte
/// order). A missing `skills/` is an empty catalog.
pub fn read_catalog(root: &Root) -> Result<Vec<Skill>, CatalogError> {
    let mut ledger = Ledger::new(Limits {
        files: MAX_FILES,
        bytes: MAX_BYTES,
        entries: MAX_ENTRIES,
    });
    let skills_dir = RelPath::new("skills").map_err(|_| CatalogError::ReadFailed)?;
    let Some(listing) = root.list_dir(Some(&skills_dir), MAX_LISTING_ENTRIES, &mut ledger)? else {
        return Ok(Vec::new());
    };
    let dirs = catalog_dirs(&listing);

    let mut skills = Vec::with_capacity(dirs.len());
    let mut observed: Vec<(RelPath, Identity)> = Vec::with_capacity(dirs.len());
    // Contract 01 §5.7 item 5: one parsing allowance for the whole catalog.
    let mut work = YamlWork::per_request();
    for dir in dirs {
        let rel = skill_file(dir)?;
        let Some(prefix) = root.read_prefix(
            &rel,
            MAX_SKILL_FILE_BYTES,
            FRONTMATTER_PREFIX_BYTES,
            &mut ledger,
        )?
        else {
            continue;
        };
        let metadata = parse_metadata(&prefix.bytes, &mut work)?;
        skills.push(metadata.into_skill(dir));
        observed.push((rel, prefix.identity));
    }

    // Contract 01 §4.6: every observed identity is checked once more before anything is returned.
    if !root.still_matches(&skills_dir, &listing.identity)? {
        return Err(CatalogError::Changed);
    }
    for (rel, identity) in &observed {
        if !root.still_matches(rel, identity)? {
            return Err(CatalogError::Changed);
        }
    }

    skills.sort_by(|left, right| {
        left.name
            .as_bytes()
            .cmp(right.name.as_bytes())
            .then_with(|| left.dir.as_bytes().cmp(right.dir.as_bytes()))
    });
    Ok(skills)
}

/// Reads the whole `SKILL.md` of `dir` (≤ 8 MiB, strict UTF-8) for display. An absent file is
/// [`CatalogError::ReadFailed`]: the caller found the skill in the catalog a moment ago.
pub fn read_skill_text(root: &Root, dir: &str) -> Result<String, CatalogError> {
    let mut ledger = Ledger::new(Limits {
        files: 1,
        bytes: MAX_SKILL_FILE_BYTES,
        entries: 0,
    });
    let rel = skill_file(dir)?;
    match root.read_text(&rel, MAX_SKILL_FILE_BYTES, &mut ledger)? {
        Some(file) => Ok(file.text),
        None => Err(CatalogError::ReadFailed),
    }
}

/// The directories of a `skills/` listing that take part in the catalog, in byte order.
fn catalog_dirs(listing: &Listing) -> Vec<&str> {
    let mut dirs: Vec<&str> = listing
        .entries
        .iter()
        .filter(|entry| entry.kind == EntryKind::Directory)
        .filter_map(|entry| entry.name_str())
        .filter(|name| is_catalog_name(name))
        .collect();
    dirs.sort_unstable();
    dirs
}

/// The first skill directory (in byte order) whose own `SKILL.md` cannot be read or parsed,
/// with the reason; `doctor` names it when [`read_catalog`] fails. Each file is checked alone,
/// so aggregate failures (the listing, the byte budget, the catalog's parsing allowance) name
/// no directory; the search shares one parsing allowance, and stops without a name when that
/// is what runs out.
pub fn find_invalid_skill(root: &Root) -> Option<(String, CatalogError)> {
    let skills_dir = RelPath::new("skills").ok()?;
    let mut listing_ledger = Ledger::new(Limits {
        files: 0,
        bytes: 0,
        entries: MAX_ENTRIES,
    });
    let listing = root
        .list_dir(Some(&skills_dir), MAX_LISTING_ENTRIES, &mut listing_ledger)
        .ok()??;
    let dirs = catalog_dirs(&listing);
    let mut work = YamlWork::per_request();
    for dir in dirs {
        let mut ledger = Ledger::new(Limits {
            files: 1,
            bytes: MAX_SKILL_FILE_BYTES,
            entries: 0,
        });
        let prefix = skill_file(dir).and_then(|rel| {
            Ok(root.read_prefix(
                &rel,
                MAX_SKILL_FILE_BYTES,
                FRONTMATTER_PREFIX_BYTES,
                &mut ledger,
            )?)
        });
        let checked = match prefix {
            Err(error) => Err(error),
            Ok(None) => Ok(()),
            Ok(Some(prefix)) => match parse_metadata(&prefix.bytes, &mut work) {
                // The file alone may be fine and the shared allowance spent: then no
                // directory is to blame, and the rest cannot be checked within it.
                Err(CatalogError::MetadataInvalid)
                    if parse_metadata(&prefix.bytes, &mut YamlWork::per_request()).is_ok() =>
                {
                    return None;
                }
                parsed => parsed.map(drop),
            },
        };
        if let Err(error) = checked {
            return Some((dir.to_owned(), error));
        }
    }
    None
}

/// Whether a directory name under `skills/` takes part in the catalog: not hidden, not
/// `_`-prefixed, and structurally safe (no `\`, and no character the one name rule writes as an
/// escape: `Cc`, `Cf`, `Zl`, `Zp`; non-UTF-8 names never get here). A skill's `resource` is the
/// path an agent opens to run it, which an escaped name would no longer name, so such a skill
/// is left out instead (contract 02 §10.1). Unsafe names are skipped silently rather than
/// failing the catalog: one odd name must not block all routing (contract 04 §1.1, open
/// point 1).
fn is_catalog_name(name: &str) -> bool {
    !name.starts_with(['.', '_'])
        && !name
            .chars()
            .any(|c| text::is_invisible_in_names(c) || c == '\\')
}

fn skill_file(dir: &str) -> Result<RelPath, CatalogError> {
    // Names come from a listing and were filtered above; a name the path type still refuses
    // cannot be opened safely.
    RelPath::new("skills")
        .and_then(|skills| skills.join(dir))
        .and_then(|skill| skill.join("SKILL.md"))
        .map_err(|_| CatalogError::PathUnsafe)
}

/// The routing fields of one `SKILL.md`, before the directory name fills an empty `name`.
#[derive(Debug, Default, PartialEq, Eq)]
struct Metadata {
    name: String,
    description: String,
    triggers: Vec<String>,
    when_to_use: Vec<String>,
    headings: Vec<String>,
}

impl Metadata {
    fn into_skill(self, dir: &str) -> Skill {
        Skill {
            dir: dir.to_owned(),
            name: if self.name.is_empty() {
                dir.to_owned()
            } else {
                self.name
            },
            description: self.description,
            triggers: self.triggers,
            when_to_use: self.when_to_use,
            headings: self.headings,
        }
    }
}

/// Parses the frontmatter found in the first bytes of a `SKILL.md` (contract 04 §1.2–§1.3),
/// charged to the catalog's parsing allowance `work`.
fn parse_metadata(prefix: &[u8], work: &mut YamlWork) -> Result<Metadata, CatalogError> {
    let Some((block, body)) = split_frontmatter(prefix)? else {
        return Ok(Metadata {
            headings: body_headings(prefix),
            ..Metadata::default()
        });
    };
    // Empty YAML is a null document, not a mapping, and fails like any other non-mapping.
    let mapping = frontmatter::parse_mapping_within(block, work)
        .map_err(|_| CatalogError::MetadataInvalid)?;
    let field = |key: &str| mapping.get(key).unwrap_or(&YamlValue::Null);
    Ok(Metadata {
        name: string_field(field("name"))?,
        description: string_field(field("description"))?,
        triggers: phrase_list(field("triggers"))?,
        when_to_use: phrase_list(field("when_to_use"))?,
        headings: body_headings(&prefix[body..]),
    })
}

/// The headings of a `SKILL.md` body as far as it was read (contract 04 §1.3): ATX heading
/// lines (`#` to `######`, then a space or tab, at most three spaces of indent) outside fenced
/// code blocks, their text trimmed and closing `#`s dropped, empty ones skipped, at most
/// [`MAX_HEADINGS`], each cut to [`MAX_HEADING_CHARS`] characters. The body need not be UTF-8
/// (§1.2 item 3): only its valid start is looked at, so a character cut by the end of the
/// prefix, or a stray byte, ends the scan. One pass over at most 64 KiB.
fn body_headings(body: &[u8]) -> Vec<String> {
    let text = match std::str::from_utf8(body) {
        Ok(text) => text,
        Err(error) => std::str::from_utf8(&body[..error.valid_up_to()]).unwrap_or_default(),
    };
    let mut headings = Vec::new();
    let mut fence: Option<u8> = None;
    for line in text.lines() {
        if headings.len() >= MAX_HEADINGS {
            break;
        }
        let trimmed = line.trim_start_matches(' ');
        if line.len() - trimmed.len() > 3 {
            continue;
        }
        if let Some(marker) = [b'`', b'~']
            .into_iter()
            .find(|marker| trimmed.as_bytes().starts_with(&[*marker; 3]))
        {
            fence = match fence {
                None => Some(marker),
                Some(open) if open == marker => None,
                open => open,
            };
            continue;
        }
        if fence.is_some() {
            continue;
        }
        let Some(level) = crate::context::parse::heading_level(trimmed) else {
            continue;
        };
        let content = text::js_trim(trimmed[level..].trim_end_matches('#'));
        if !content.is_empty() {
            headings.push(content.chars().take(MAX_HEADING_CHARS).collect());
        }
    }
    headings
}

/// Finds the YAML block of contract 04 §1.2. `Ok(None)` when the file does not begin with a
/// `---` line (empty metadata); the bytes read must then be strict UTF-8 all the same.
#[cfg(test)]
fn frontmatter_block(prefix: &[u8]) -> Result<Option<&str>, CatalogError> {
    Ok(split_frontmatter(prefix)?.map(|(block, _)| block))
}

/// [`frontmatter_block`] and where the body begins: the byte after the closing line.
fn split_frontmatter(prefix: &[u8]) -> Result<Option<(&str, usize)>, CatalogError> {
    let opening = if prefix.starts_with(b"---\n") {
        4
    } else if prefix.starts_with(b"---\r\n") {
        5
    } else {
        std::str::from_utf8(prefix).map_err(|_| CatalogError::InvalidUtf8)?;
        return Ok(None);
    };
    // The closing delimiter: the first `\n---` after the opening line followed by `\n`,
    // `\r\n` or the end of what was read.
    let mut search = opening;
    let closing_end = loop {
        let Some(found) = find(&prefix[search..], b"\n---") else {
            return Err(CatalogError::FrontmatterInvalid);
        };
        let after = search + found + 4;
        match &prefix[after..] {
            [] => break after,
            [b'\n', ..] => break after + 1,
            [b'\r', b'\n', ..] => break after + 2,
            _ => search = search + found + 1,
        }
    };
    let head =
        std::str::from_utf8(&prefix[..closing_end]).map_err(|_| CatalogError::InvalidUtf8)?;
    // `^---\r?\n([\s\S]*?)\r?\n---`: the lazy block ends at the first line that merely starts
    // with `---`, which may come before the closing line found above.
    // The closing line lies inside `body`, so a `\n---` is always found.
    let body = &head[opening..];
    let end = find(body.as_bytes(), b"\n---").ok_or(CatalogError::FrontmatterInvalid)?;
    let end = if end > 0 && body.as_bytes()[end - 1] == b'\r' {
        end - 1
    } else {
        end
    };
    Ok(Some((&body[..end], closing_end)))
}

/// The start of a skill's instructions: the body of its `SKILL.md` after the frontmatter
/// (contract 05 §7.7).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instructions {
    /// The body's first characters, at most the bytes asked for, cut on a character boundary.
    pub text: String,
    /// Whether `text` is the whole body.
    pub complete: bool,
}

/// The first `max_bytes` bytes of the body of `dir`'s `SKILL.md` (after the frontmatter of
/// contract 04 §1.2, leading line breaks dropped): one bounded prefix read through the
/// contained reader (at most 64 KiB of frontmatter plus `max_bytes`), never the whole file. The
/// body is cut at its last whole character, and at the first byte that is not UTF-8.
pub fn read_instructions(
    root: &Root,
    dir: &str,
    max_bytes: u64,
) -> Result<Instructions, CatalogError> {
    let mut ledger = Ledger::new(Limits {
        files: 1,
        bytes: MAX_SKILL_FILE_BYTES,
        entries: 0,
    });
    let rel = skill_file(dir)?;
    let prefix = root
        .read_prefix(
            &rel,
            MAX_SKILL_FILE_BYTES,
            FRONTMATTER_PREFIX_BYTES + max_bytes,
            &mut ledger,
        )?
        .ok_or(CatalogError::ReadFailed)?;
    // A file without frontmatter is body from its first byte; only the head of a file with
    // frontmatter must be UTF-8 here (the catalog checked it a moment ago).
    let start = if prefix.bytes.starts_with(b"---\n") || prefix.bytes.starts_with(b"---\r\n") {
        split_frontmatter(&prefix.bytes)?.map_or(0, |(_, end)| end)
    } else {
        0
    };
    let body = &prefix.bytes[start..];
    let body = &body[body
        .iter()
        .position(|byte| !matches!(byte, b'\n' | b'\r'))
        .unwrap_or(body.len())..];
    let limit = usize::try_from(max_bytes)
        .unwrap_or(usize::MAX)
        .min(body.len());
    let (text, valid) = match std::str::from_utf8(&body[..limit]) {
        Ok(text) => (text, true),
        Err(error) => (
            // The prefix up to `valid_up_to` is UTF-8 by definition.
            std::str::from_utf8(&body[..error.valid_up_to()]).unwrap_or_default(),
            false,
        ),
    };
    Ok(Instructions {
        text: text.to_owned(),
        complete: valid && prefix.complete && limit == body.len(),
    })
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

/// `name` and `description`: absent or null → `""`, a string → JS-trimmed, anything else is
/// invalid metadata.
fn string_field(value: &YamlValue) -> Result<String, CatalogError> {
    match value {
        YamlValue::Null => Ok(String::new()),
        YamlValue::String(text) => Ok(text::js_trim(text).to_owned()),
        _ => Err(CatalogError::MetadataInvalid),
    }
}

/// `triggers` and `when_to_use`: null → `[]`; a list of strings → each trimmed, empty items
/// dropped; a string → split on `,` or `·`, each part trimmed, empty parts dropped.
fn phrase_list(value: &YamlValue) -> Result<Vec<String>, CatalogError> {
    match value {
        YamlValue::Null => Ok(Vec::new()),
        YamlValue::String(text) => Ok(text
            .split([',', '\u{b7}'])
            .map(text::js_trim)
            .filter(|part| !part.is_empty())
            .map(str::to_owned)
            .collect()),
        YamlValue::Sequence(items) => {
            let mut phrases = Vec::with_capacity(items.len());
            for item in items {
                let YamlValue::String(text) = item else {
                    return Err(CatalogError::MetadataInvalid);
                };
                let trimmed = text::js_trim(text);
                if !trimmed.is_empty() {
                    phrases.push(trimmed.to_owned());
                }
            }
            Ok(phrases)
        }
        _ => Err(CatalogError::MetadataInvalid),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    #[cfg(unix)]
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;

    fn block(prefix: &str) -> Result<Option<&str>, CatalogError> {
        frontmatter_block(prefix.as_bytes())
    }

    #[test]
    fn files_without_an_opening_line_have_empty_metadata() {
        for text in [
            "",
            "# Title\n",
            "\u{feff}---\nname: x\n---\n",
            " ---\n",
            "---",
            "--- \n",
        ] {
            assert_eq!(block(text), Ok(None), "{text:?}");
            // Without frontmatter the whole prefix is body: its headings still count.
            let headings = if text.starts_with('#') {
                strings(&["Title"])
            } else {
                Vec::new()
            };
            assert_eq!(
                parse_metadata(text.as_bytes(), &mut YamlWork::per_request()),
                Ok(Metadata {
                    headings,
                    ..Metadata::default()
                })
            );
        }
        assert_eq!(
            frontmatter_block(b"# x\xff"),
            Err(CatalogError::InvalidUtf8)
        );
    }

    #[test]
    fn closing_line_rules() {
        assert_eq!(block("---\nname: a\n---\nbody"), Ok(Some("name: a")));
        assert_eq!(block("---\r\nname: a\r\n---\r\nbody"), Ok(Some("name: a")));
        assert_eq!(block("---\nname: a\n---"), Ok(Some("name: a")));
        assert_eq!(block("---\n\n---\n"), Ok(Some("")));
        // `---x` and `----` do not close; an empty block never closes.
        for text in [
            "---\nname: a\n---x\n",
            "---\nname: a\n----\n",
            "---\n---\n",
            "---\nname: a\n",
        ] {
            assert_eq!(
                block(text),
                Err(CatalogError::FrontmatterInvalid),
                "{text:?}"
            );
        }
        // The lazy block stops at the first line that merely starts with `---`.
        assert_eq!(block("---\na: 1\n---x\nb: 2\n---\n"), Ok(Some("a: 1")));
    }

    #[test]
    fn only_the_head_must_be_utf8() {
        assert_eq!(
            frontmatter_block(b"---\nname: a\n---\n\xff\xfe body"),
            Ok(Some("name: a"))
        );
        assert_eq!(
            frontmatter_block(b"---\nname: \xff\n---\n"),
            Err(CatalogError::InvalidUtf8)
        );
    }

    fn metadata(yaml: &str) -> Result<Metadata, CatalogError> {
        parse_metadata(
            format!("---\n{yaml}\n---\n# Body\n").as_bytes(),
            &mut YamlWork::per_request(),
        )
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|item| (*item).to_owned()).collect()
    }

    #[test]
    fn field_forms() {
        let parsed = metadata(
            "name: '  Plan  '\ndescription: \" Plan the day. \"\ntriggers: plan my day, \
             what next \u{b7} focus,, \ncolor: blue",
        )
        .unwrap();
        assert_eq!(parsed.name, "Plan");
        assert_eq!(parsed.description, "Plan the day.");
        assert_eq!(
            parsed.triggers,
            strings(&["plan my day", "what next", "focus"])
        );
        assert!(parsed.when_to_use.is_empty());

        let parsed =
            metadata("name: ~\ndescription:\ntriggers:\n  - ' a '\n  - ''\n  - b\nwhen_to_use: ''")
                .unwrap();
        assert_eq!(
            parsed,
            Metadata {
                triggers: strings(&["a", "b"]),
                headings: strings(&["Body"]),
                ..Metadata::default()
            }
        );
        assert_eq!(
            metadata("triggers: null").unwrap().triggers,
            Vec::<String>::new()
        );
        assert_eq!(
            metadata("triggers: []").unwrap().triggers,
            Vec::<String>::new()
        );
        // A plain scalar with `: ` inside needs quotes; quoted, it is one string.
        assert_eq!(metadata("description: 'a: b'").unwrap().description, "a: b");
    }

    #[test]
    fn body_headings_are_bounded_and_skip_code() {
        let body = "intro\n# One\n\n## Two ##\n   ### Three\n    # indented code\n#no space\n\
                    ```\n# in a fence\n~~~\n# still in it\n```\n#\t Four\t\n####### seven\n#\n";
        assert_eq!(
            body_headings(body.as_bytes()),
            strings(&["One", "Two", "Three", "Four"])
        );
        let many: String = (0..100).map(|n| format!("# h{n}\n")).collect();
        let headings = body_headings(many.as_bytes());
        assert_eq!(headings.len(), MAX_HEADINGS);
        assert_eq!(headings[MAX_HEADINGS - 1], format!("h{}", MAX_HEADINGS - 1));
        let long = format!("# {}\n", "é".repeat(MAX_HEADING_CHARS * 2));
        assert_eq!(
            body_headings(long.as_bytes())[0].chars().count(),
            MAX_HEADING_CHARS
        );
        // A byte that is not UTF-8 ends the scan; the headings before it stay.
        assert_eq!(body_headings(b"# Kept\n\xff\n# Lost\n"), strings(&["Kept"]));
        let parsed = metadata("name: x").unwrap();
        assert_eq!(parsed.headings, strings(&["Body"]));
    }

    #[test]
    fn wrong_types_and_bad_yaml_are_invalid_metadata() {
        for yaml in [
            "name: 123",
            "name: true",
            "name: 0x1A",
            "name: 1.5",
            "name: [a]",
            "description: {a: 1}",
            "triggers: 3",
            "triggers: [a, 1]",
            "triggers: [a, [b]]",
            "when_to_use: true",
            "when_to_use: [x, null]",
            "name: a\nname: b",
            "- a\n- b",
            "just text",
            "",
            "name: [unclosed",
            "name: a\n  bad: indent",
        ] {
            assert_eq!(
                metadata(yaml),
                Err(CatalogError::MetadataInvalid),
                "{yaml:?}"
            );
        }
    }

    #[test]
    fn empty_name_falls_back_to_the_directory() {
        let skill = metadata("name: '   '").unwrap().into_skill("plan-today");
        assert_eq!(skill.name, "plan-today");
        assert_eq!(skill.resource(), "skills/plan-today/SKILL.md");
    }

    #[test]
    fn catalog_names() {
        assert!(is_catalog_name("plan-today"));
        assert!(is_catalog_name("caf\u{e9}"));
        for name in [
            ".git",
            "_drafts",
            "_",
            ".",
            "tab\there",
            "back\\slash",
            "bell\u{7}",
            "c1\u{85}",
        ] {
            assert!(!is_catalog_name(name), "{name:?}");
        }
    }

    // Folder-level tests: a temporary AIOS folder read through the contained reader.

    fn write_skill(root: &Path, dir: &str, text: &str) {
        let path = root.join("skills").join(dir);
        fs::create_dir_all(&path).unwrap();
        fs::write(path.join("SKILL.md"), text).unwrap();
    }

    fn simple(name: &str, trigger: &str) -> String {
        format!(
            "---\nname: {name}\ndescription: Does {name}.\ntriggers: {trigger}\n---\n# {name}\n"
        )
    }

    fn catalog_of(root: &Path) -> Result<Vec<Skill>, CatalogError> {
        read_catalog(&Root::open(root).unwrap())
    }

    #[cfg(unix)]
    fn dirs(skills: &[Skill]) -> Vec<&str> {
        skills.iter().map(|skill| skill.dir.as_str()).collect()
    }

    #[test]
    fn missing_skills_directory_is_an_empty_catalog() {
        let temp = tempfile::tempdir().unwrap();
        assert_eq!(catalog_of(temp.path()), Ok(Vec::new()));
    }

    #[cfg(unix)]
    #[test]
    fn skipped_entries_and_order() {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path();
        write_skill(root, "zeta", &simple("alpha", "a"));
        write_skill(root, "beta", &simple("beta", "b"));
        write_skill(root, "alpha", &simple("alpha", "c"));
        write_skill(root, "_drafts", &simple("drafted", "d"));
        write_skill(root, ".hidden", &simple("hidden", "e"));
        write_skill(root, "no-frontmatter", "# Just a body\n");
        fs::create_dir_all(root.join("skills/empty-dir")).unwrap();
        fs::write(root.join("skills/INDEX.md"), "# Installed Skills\n").unwrap();
        // A linked skill directory, pointing at a perfectly good skill outside the folder.
        let outside = tempfile::tempdir().unwrap();
        write_skill(
            outside.path(),
            "secret-linked",
            &simple("secret-linked", "f"),
        );
        std::os::unix::fs::symlink(
            outside.path().join("skills/secret-linked"),
            root.join("skills/secret-linked"),
        )
        .unwrap();
        // Structurally unsafe names are skipped, not fatal.
        write_skill(root, "back\\slash", &simple("odd", "g"));
        let raw = root
            .join("skills")
            .join(std::ffi::OsStr::from_bytes(b"bad-\xff"));
        fs::create_dir(&raw).unwrap();
        fs::write(raw.join("SKILL.md"), simple("raw", "h")).unwrap();

        let skills = catalog_of(root).unwrap();
        // By name, then directory; the skill without frontmatter is named after its directory.
        assert_eq!(dirs(&skills), ["alpha", "zeta", "beta", "no-frontmatter"]);
        assert_eq!(skills[3].name, "no-frontmatter");
        assert_eq!(skills[3].description, "");
        assert!(skills.iter().all(|skill| !skill.name.contains("secret")));
    }

    #[cfg(unix)]
    #[test]
    fn a_linked_or_special_skill_file_fails_the_catalog() {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path();
        write_skill(root, "good", &simple("good", "g"));
        fs::create_dir_all(root.join("skills/linked-file")).unwrap();
        std::os::unix::fs::symlink(
            root.join("skills/good/SKILL.md"),
            root.join("skills/linked-file/SKILL.md"),
        )
        .unwrap();
        assert_eq!(catalog_of(root), Err(CatalogError::PathUnsafe));

        fs::remove_file(root.join("skills/linked-file/SKILL.md")).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(root.join("skills/linked-file/SKILL.md"))
            .status()
            .unwrap();
        assert!(made.success());
        assert_eq!(catalog_of(root), Err(CatalogError::PathUnsafe));

        fs::remove_file(root.join("skills/linked-file/SKILL.md")).unwrap();
        assert_eq!(dirs(&catalog_of(root).unwrap()), ["good"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_linked_skills_directory_is_unsafe() {
        let temp = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        write_skill(elsewhere.path(), "x", &simple("x", "x"));
        std::os::unix::fs::symlink(elsewhere.path().join("skills"), temp.path().join("skills"))
            .unwrap();
        assert_eq!(catalog_of(temp.path()), Err(CatalogError::PathUnsafe));
    }

    #[test]
    fn a_huge_body_is_never_read_and_size_limits_hold() {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path();
        let mut text = simple("big", "find the needle");
        // 2 MB of body that would be invalid metadata and invalid UTF-8 if it were read.
        let mut bytes = text.clone().into_bytes();
        bytes.extend(std::iter::repeat_n(0xff_u8, 2_000_000));
        fs::create_dir_all(root.join("skills/big")).unwrap();
        fs::write(root.join("skills/big/SKILL.md"), &bytes).unwrap();
        let skills = catalog_of(root).unwrap();
        assert_eq!(skills[0].triggers, ["find the needle"]);

        // Exactly 8 MiB is accepted; one byte more fails the request.
        text.push_str(&" ".repeat(usize::try_from(MAX_SKILL_FILE_BYTES).unwrap() - text.len()));
        fs::write(root.join("skills/big/SKILL.md"), &text).unwrap();
        assert_eq!(catalog_of(root).unwrap().len(), 1);
        text.push(' ');
        fs::write(root.join("skills/big/SKILL.md"), &text).unwrap();
        assert_eq!(catalog_of(root), Err(CatalogError::FileTooLarge));
    }

    #[test]
    fn frontmatter_must_close_within_the_prefix() {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path();
        let long = format!("---\nname: x\ndescription: {}\n---\n", "y".repeat(70_000));
        write_skill(root, "long", &long);
        assert_eq!(catalog_of(root), Err(CatalogError::FrontmatterInvalid));
        // Without frontmatter, a character cut by the 64 KiB boundary fails strict UTF-8.
        let cut = format!("{}\u{e9}rest", "a".repeat(65_535));
        write_skill(root, "long", &cut);
        assert_eq!(catalog_of(root), Err(CatalogError::InvalidUtf8));
    }

    #[test]
    fn the_whole_size_of_each_file_is_reserved() {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path();
        // Sparse 8 MiB files: thirty-two fit the 256 MiB ceiling, a thirty-third does not.
        for n in 0..33 {
            let dir = root.join(format!("skills/s{n:02}"));
            fs::create_dir_all(&dir).unwrap();
            let file = fs::File::create(dir.join("SKILL.md")).unwrap();
            file.set_len(MAX_SKILL_FILE_BYTES).unwrap();
        }
        assert_eq!(catalog_of(root), Err(CatalogError::BudgetExceeded));
        fs::remove_dir_all(root.join("skills/s32")).unwrap();
        assert_eq!(catalog_of(root).unwrap().len(), 32);
    }

    #[test]
    fn at_most_512_listing_entries() {
        let temp = tempfile::tempdir().unwrap();
        let skills = temp.path().join("skills");
        fs::create_dir_all(&skills).unwrap();
        for n in 0..512 {
            fs::write(skills.join(format!("note-{n:03}.md")), "").unwrap();
        }
        assert_eq!(catalog_of(temp.path()), Ok(Vec::new()));
        fs::write(skills.join("one-more.md"), "").unwrap();
        assert_eq!(
            catalog_of(temp.path()),
            Err(CatalogError::DirectoryTooLarge)
        );
    }

    #[test]
    fn metadata_errors_fail_the_whole_catalog() {
        let temp = tempfile::tempdir().unwrap();
        write_skill(temp.path(), "good", &simple("good", "g"));
        write_skill(temp.path(), "bad", "---\nname: 123\n---\n");
        assert_eq!(catalog_of(temp.path()), Err(CatalogError::MetadataInvalid));
        assert_eq!(
            CatalogError::MetadataInvalid.code(),
            "DOTAIOS_SKILL_METADATA_INVALID"
        );
    }

    #[test]
    fn a_seven_trigger_yaml_list_reaches_the_payload_whole() {
        let temp = tempfile::tempdir().unwrap();
        let triggers = [
            "ship the release",
            "cut a release",
            "publish the package",
            "tag a version",
            "release checklist",
            "deploy the api",
            "bump the version",
        ];
        let list: String = triggers.iter().map(|t| format!("  - {t}\n")).collect();
        write_skill(
            temp.path(),
            "release",
            &format!("---\nname: release\ndescription: Ship it.\ntriggers:\n{list}---\n"),
        );
        let catalog = catalog_of(temp.path()).unwrap();
        assert_eq!(catalog[0].triggers, triggers);
        let ranked = crate::skills::rank("cut a release", &catalog);
        let memory = crate::skills::MemoryFields {
            memory: "shared",
            receipt: "Memory: Shared",
            notice: None,
        };
        let payload = crate::skills::fit_payload(
            "cut a release",
            &ranked,
            memory,
            6000,
            crate::skills::BudgetHint::Omit,
            crate::skills::MatchUri::Omit,
            None,
        )
        .unwrap();
        let value: serde_json::Value = serde_json::from_str(&payload.text).unwrap();
        assert_eq!(value["matches"][0]["triggers"], serde_json::json!(triggers));
        assert!(!payload.truncated);
        // A budget too small for the whole item drops the item; it never drops triggers.
        let tight = crate::skills::fit_payload(
            "cut a release",
            &ranked,
            memory,
            400,
            crate::skills::BudgetHint::Omit,
            crate::skills::MatchUri::Omit,
            None,
        )
        .unwrap();
        assert_eq!(tight.matches, 0);
        assert!(tight.truncated);
    }

    #[test]
    fn skill_text_is_read_whole_and_contained() {
        let temp = tempfile::tempdir().unwrap();
        write_skill(temp.path(), "good", &simple("good", "g"));
        let root = Root::open(temp.path()).unwrap();
        assert_eq!(read_skill_text(&root, "good").unwrap(), simple("good", "g"));
        assert_eq!(
            read_skill_text(&root, "missing"),
            Err(CatalogError::ReadFailed)
        );
        assert_eq!(
            read_skill_text(&root, "../x"),
            Err(CatalogError::PathUnsafe)
        );
    }
}
