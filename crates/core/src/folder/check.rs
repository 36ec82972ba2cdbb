//! The folder check (contract 01 §1.3, 05 §6.7): a configured folder is an AIOS folder when
//! `aios.json` exists directly inside it. Both binaries ask here, each after its own option or
//! argument validation, and word the refusal themselves (the CLI names the folder; the adapter
//! never names a path).
//!
//! **Invariant:** existence only, like the reference's `fs.existsSync`: the file is neither
//! opened nor parsed, a symlink at that name counts when its target exists, and any error
//! while looking counts as absent. Every real read afterwards goes through the contained
//! reader, which refuses links below the root.

use std::path::Path;

/// Whether `folder` holds an `aios.json` (any kind of entry, a link followed).
#[expect(
    clippy::disallowed_methods,
    reason = "contract 01 §1.3: existence only, following a link like existsSync; no byte is read"
)]
pub fn is_aios_folder(folder: &Path) -> bool {
    std::fs::metadata(folder.join("aios.json")).is_ok()
}

#[cfg(test)]
#[allow(
    clippy::disallowed_methods,
    reason = "tests build their folders directly"
)]
mod tests {
    use super::*;

    #[test]
    fn aios_json_must_exist_directly_inside() {
        let temp = tempfile::tempdir().unwrap();
        let folder = temp.path();
        assert!(!is_aios_folder(folder));
        assert!(!is_aios_folder(&folder.join("missing")));
        std::fs::create_dir(folder.join("nested")).unwrap();
        std::fs::write(folder.join("nested/aios.json"), "{}").unwrap();
        assert!(!is_aios_folder(folder));
        // Existence only: an empty or unparseable file counts.
        std::fs::write(folder.join("aios.json"), "").unwrap();
        assert!(is_aios_folder(folder));
        assert!(!is_aios_folder(&folder.join("aios.json")));
    }

    #[cfg(unix)]
    #[test]
    fn a_link_counts_when_its_target_exists() {
        let temp = tempfile::tempdir().unwrap();
        let folder = temp.path();
        std::os::unix::fs::symlink("target.json", folder.join("aios.json")).unwrap();
        assert!(!is_aios_folder(folder));
        std::fs::write(folder.join("target.json"), "{}").unwrap();
        assert!(is_aios_folder(folder));
    }
}
