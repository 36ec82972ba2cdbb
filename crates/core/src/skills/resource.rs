//! Skills as MCP resources (contract 04 §6.9, 05 §7.7): the path-free URI
//! `aios://skills/<dir>/SKILL.md` of a catalog entry, the bounded entries of `resources/list`,
//! and the read of the one whole `SKILL.md` a URI names.
//!
//! **Invariant:** a URI names a skill only when it is, character for character, the URI of an
//! entry of the catalog read in the same request. Nothing is decoded, joined or resolved, so
//! `..`, absolute paths, other schemes and percent-encodings other than the one canonical form
//! name nothing, and a URI of the wrong shape is refused before any filesystem access. Every
//! read goes through the catalog's contained reader and its limits (one whole file of at most
//! [`MAX_SKILL_FILE_BYTES`](super::MAX_SKILL_FILE_BYTES)); nothing here writes, and no path leaves: the URI is built from
//! the directory name alone.

use std::fmt::Write as _;
use std::path::Path;

use super::catalog::{CatalogError, Skill, read_catalog, read_skill_text};
use super::request::open_root;
use crate::sanitize::cap_string;

/// Every skill URI starts with this.
pub const SKILL_URI_PREFIX: &str = "aios://skills/";
/// Every skill URI ends with this.
pub const SKILL_URI_SUFFIX: &str = "/SKILL.md";
/// The MIME type of a skill resource.
pub const SKILL_MIME_TYPE: &str = "text/markdown";
/// The longest URI a request may name: a 255-byte directory name, every byte percent-encoded,
/// between the prefix and the suffix, fits; anything longer names nothing and is refused
/// without reading.
pub const MAX_SKILL_URI_BYTES: usize = SKILL_URI_PREFIX.len() + 3 * 255 + SKILL_URI_SUFFIX.len();

impl Skill {
    /// The skill's resource URI: the directory name with every byte outside RFC 3986's
    /// unreserved set (`A–Z a–z 0–9 - . _ ~`) written as `%XX` (upper-case hex), so the URI is
    /// valid whatever the name holds, and each name has exactly one URI.
    pub fn uri(&self) -> String {
        let mut uri =
            String::with_capacity(SKILL_URI_PREFIX.len() + self.dir.len() + SKILL_URI_SUFFIX.len());
        uri.push_str(SKILL_URI_PREFIX);
        for byte in self.dir.bytes() {
            if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
                uri.push(char::from(byte));
            } else {
                // Writing to a String cannot fail.
                let _ = write!(uri, "%{byte:02X}");
            }
        }
        uri.push_str(SKILL_URI_SUFFIX);
        uri
    }
}

/// Whether `uri` has the shape of a skill URI: the prefix, one non-empty segment without `/`,
/// the suffix, at most [`MAX_SKILL_URI_BYTES`]. Pure: what is refused here is refused before
/// the memory policy and before any read (contract 05 §7.7).
pub fn is_skill_uri(uri: &str) -> bool {
    uri.len() <= MAX_SKILL_URI_BYTES
        && uri
            .strip_prefix(SKILL_URI_PREFIX)
            .and_then(|rest| rest.strip_suffix(SKILL_URI_SUFFIX))
            .is_some_and(|segment| !segment.is_empty() && !segment.contains('/'))
}

/// One entry of `resources/list`, its strings sanitised like a match item's (300 units).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillResourceEntry {
    /// [`Skill::uri`], never cut.
    pub uri: String,
    /// The skill name.
    pub name: String,
    /// The description, `""` when none.
    pub description: String,
}

/// The `resources/list` entries of a catalog, in catalog order. A skill whose URI is longer
/// than [`MAX_SKILL_URI_BYTES`] could not be read back, so it is not listed.
pub fn resource_entries(catalog: &[Skill]) -> Vec<SkillResourceEntry> {
    catalog
        .iter()
        .map(|skill| (skill, skill.uri()))
        .filter(|(_, uri)| is_skill_uri(uri))
        .map(|(skill, uri)| SkillResourceEntry {
            uri,
            name: cap_string(&skill.name, "name"),
            description: cap_string(&skill.description, "description"),
        })
        .collect()
}

/// The whole text of the skill whose URI is `uri`, in the AIOS folder at `folder` (whose
/// `aios.json` the caller has checked): `Ok(None)` when `uri` is not a skill URI or no catalog
/// entry has it. The catalog is read first (every rule of contract 04 §1.1 applies: a linked
/// skill directory is not in it, a linked, special or oversized `SKILL.md` fails it), then the
/// one file, whole, strict UTF-8, at most [`MAX_SKILL_FILE_BYTES`](super::MAX_SKILL_FILE_BYTES).
pub fn read_skill_resource(folder: &Path, uri: &str) -> Result<Option<String>, CatalogError> {
    if !is_skill_uri(uri) {
        return Ok(None);
    }
    let root = open_root(folder)?;
    let catalog = read_catalog(&root)?;
    let Some(skill) = catalog.iter().find(|skill| skill.uri() == uri) else {
        return Ok(None);
    };
    read_skill_text(&root, &skill.dir).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn folder(skills: &[(&str, &str)]) -> tempfile::TempDir {
        let temp = tempfile::tempdir().unwrap();
        fs::write(temp.path().join("aios.json"), "{}").unwrap();
        for (dir, text) in skills {
            fs::create_dir_all(temp.path().join("skills").join(dir)).unwrap();
            fs::write(temp.path().join("skills").join(dir).join("SKILL.md"), text).unwrap();
        }
        temp
    }

    #[test]
    fn uris_encode_every_byte_outside_the_unreserved_set() {
        assert_eq!(
            Skill::new("plan-today", "", &[]).uri(),
            "aios://skills/plan-today/SKILL.md"
        );
        assert_eq!(
            Skill::new("a b%é", "", &[]).uri(),
            "aios://skills/a%20b%25%C3%A9/SKILL.md"
        );
    }

    #[test]
    fn shapes() {
        assert!(is_skill_uri("aios://skills/x/SKILL.md"));
        for bad in [
            "",
            "aios://skills//SKILL.md",
            "aios://skills/a/b/SKILL.md",
            "aios://skills/../../aios.json",
            "/etc/passwd",
            "file:///etc/passwd",
            "aios://skills/x/skill.md",
            "AIOS://skills/x/SKILL.md",
        ] {
            assert!(!is_skill_uri(bad), "{bad}");
        }
        let long = format!("aios://skills/{}/SKILL.md", "x".repeat(3 * 255 + 1));
        assert!(!is_skill_uri(&long));
    }

    #[test]
    fn reads_only_what_the_catalog_lists() {
        let temp = folder(&[
            ("plan-today", "---\nname: plan\n---\nBODY-TOKEN\n"),
            ("_draft", "---\nname: draft\n---\nDRAFT\n"),
        ]);
        let text = read_skill_resource(temp.path(), "aios://skills/plan-today/SKILL.md").unwrap();
        assert_eq!(text.as_deref(), Some("---\nname: plan\n---\nBODY-TOKEN\n"));
        for unknown in [
            "aios://skills/_draft/SKILL.md",
            "aios://skills/%70lan-today/SKILL.md",
            "aios://skills/PLAN-TODAY/SKILL.md",
            "aios://skills/plan-today%2F/SKILL.md",
            "aios://skills/xplan-today/SKILL.md",
            "aios://skills/..%2F_draft/SKILL.md",
            "aios://skills/../SKILL.md",
            "aios://skills/missing/SKILL.md",
        ] {
            assert_eq!(
                read_skill_resource(temp.path(), unknown),
                Ok(None),
                "{unknown}"
            );
        }
    }

    /// 05 §7.7: the instructions are the body after the frontmatter, cut at a whole character
    /// within the bytes asked for, and say whether they are all of it.
    #[test]
    fn instructions_are_the_body_cut_at_a_character() {
        let temp = folder(&[
            ("with", "---\nname: with\n---\n\nStep \u{e9}t\u{e9}.\n"),
            ("without", "Just a body \u{e9}.\n"),
        ]);
        let root = open_root(temp.path()).unwrap();
        let read = |dir: &str, max: u64| super::super::read_instructions(&root, dir, max).unwrap();
        let whole = read("with", 100);
        assert_eq!(
            (whole.text.as_str(), whole.complete),
            ("Step \u{e9}t\u{e9}.\n", true)
        );
        // "Step \u{e9}" is 7 bytes; 6 bytes end inside the \u{e9}.
        let cut = read("with", 6);
        assert_eq!((cut.text.as_str(), cut.complete), ("Step ", false));
        assert_eq!(read("with", 7).text, "Step \u{e9}");
        let bare = read("without", 100);
        assert_eq!(
            (bare.text.as_str(), bare.complete),
            ("Just a body \u{e9}.\n", true)
        );
    }

    #[cfg(unix)]
    #[test]
    fn links_are_not_followed() {
        let temp = folder(&[("real", "---\nname: real\n---\nREAL\n")]);
        let outside = tempfile::tempdir().unwrap();
        fs::create_dir_all(outside.path().join("secret")).unwrap();
        fs::write(outside.path().join("secret/SKILL.md"), "SECRET").unwrap();
        std::os::unix::fs::symlink(
            outside.path().join("secret"),
            temp.path().join("skills/linked"),
        )
        .unwrap();
        assert_eq!(
            read_skill_resource(temp.path(), "aios://skills/linked/SKILL.md"),
            Ok(None)
        );
        assert_eq!(
            resource_entries(&read_catalog(&open_root(temp.path()).unwrap()).unwrap())
                .iter()
                .map(|entry| entry.uri.as_str())
                .collect::<Vec<_>>(),
            ["aios://skills/real/SKILL.md"]
        );
        fs::remove_file(temp.path().join("skills/real/SKILL.md")).unwrap();
        std::os::unix::fs::symlink(
            outside.path().join("secret/SKILL.md"),
            temp.path().join("skills/real/SKILL.md"),
        )
        .unwrap();
        assert_eq!(
            read_skill_resource(temp.path(), "aios://skills/real/SKILL.md"),
            Err(CatalogError::PathUnsafe)
        );
    }
}
