//! The provenance line of an excerpted source (contract 02 §10): the visible brief names the
//! file each header section and the selected project's README block was excerpted from, with
//! the content version of the whole file, so an agent can tell the excerpt from the source.
//!
//! `> Source: <path> (excerpt; sha256:<64 lowercase hex>)`, where the digest is taken over the
//! file's bytes exactly as read (a BOM included), not over the excerpt.

use sha2::{Digest, Sha256};

use crate::search::walk::is_skipped;
use crate::text::{NameOutput, escape_name};

/// The provenance line of `path` (AIOS-relative, `/`-separated) whose full text is `text`. The
/// path passes the one name rule (contract 02 §10.1); the paths that reach here (fixed ones and
/// `projects/<slug>/README.md`) have nothing it changes.
pub(crate) fn line(path: &str, text: &str) -> String {
    let path = escape_name(path, NameOutput::Markdown);
    let digest = Sha256::digest(text.as_bytes());
    let mut hex = String::with_capacity(64);
    for byte in digest {
        hex.push_str(&format!("{byte:02x}"));
    }
    format!("> Source: {path} (excerpt; sha256:{hex})")
}

/// The AIOS-relative path of a selected project's README when it may carry a provenance line
/// (contract 02 §10): the project has a stable id and no component of the path is one the
/// search skip rule hides (contract 03 §4.2). `None` otherwise.
pub(crate) fn project_readme(slug: &str, id: Option<&str>) -> Option<String> {
    let path = format!("projects/{slug}/README.md");
    let eligible = id.is_some_and(|id| !id.is_empty())
        && !slug.is_empty()
        && path.encode_utf16().count() <= 512
        && !path.chars().any(|c| c == '\\' || c.is_control())
        && !is_skipped(slug.as_bytes());
    eligible.then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_hashes_the_whole_file() {
        // sha256("") is the well-known e3b0c442… digest.
        assert_eq!(
            line("context/identity.md", ""),
            "> Source: context/identity.md (excerpt; sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855)"
        );
        let with_bom = line("context/work.md", "\u{feff}# Work");
        assert_ne!(with_bom, line("context/work.md", "# Work"));
        assert_eq!(
            line("projects/a/README.md", "x").encode_utf16().count(),
            10 + 20 + 11 + 7 + 64 + 1
        );
    }

    #[test]
    fn a_project_readme_needs_an_id_and_a_visible_slug() {
        assert_eq!(
            project_readme("coverage-demo", Some("coverage-id")).as_deref(),
            Some("projects/coverage-demo/README.md")
        );
        assert_eq!(project_readme("coverage-demo", None), None);
        assert_eq!(project_readme("coverage-demo", Some("")), None);
        assert_eq!(project_readme("token", Some("t")), None);
        assert_eq!(project_readme("credentials.d", Some("t")), None);
        assert_eq!(project_readme(".hidden", Some("t")), None);
    }
}
