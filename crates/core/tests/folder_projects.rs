//! The project catalog (contract 01 §6.1), scope resolution (§6.5) and the portable identity
//! (§6.3) on real folders in temporary directories, read through the contained reader.
#![allow(
    clippy::disallowed_methods,
    reason = "tests build and inspect their folders with std::fs"
)]
// Helpers and imports of the Unix-only cases (links, modes, FIFOs) are unused on Windows.
#![cfg_attr(not(unix), allow(unused_imports, dead_code))]

use std::fs;
#[cfg(unix)]
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Command;

#[cfg(unix)]
use dotaios_contained::UnsafeKind;
use dotaios_contained::{BudgetDimension, Ledger, Limits, ReadError, Root};
use dotaios_core::folder::frontmatter::YamlError;
use dotaios_core::folder::projects::{
    CatalogError, IdentityError, IdentityProblem, Oversized, PortableIdentity, ProjectRecord,
    ScopeError, read_catalog, read_catalog_with, resolve_portable_identity, resolve_scope,
};
use dotaios_core::folder::selector::SelectorError;

fn ledger() -> Ledger {
    Ledger::new(Limits {
        files: 512,
        bytes: 16 << 20,
        entries: 10_000,
    })
}

fn aios() -> tempfile::TempDir {
    let temp = tempfile::tempdir().unwrap();
    fs::write(temp.path().join("aios.json"), "{}").unwrap();
    temp
}

fn project(temp: &tempfile::TempDir, slug: &str, readme: &str) {
    let dir = temp.path().join("projects").join(slug);
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("README.md"), readme).unwrap();
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

fn catalog(temp: &tempfile::TempDir) -> Result<Vec<ProjectRecord>, CatalogError> {
    read_catalog(&Root::open(temp.path()).unwrap(), &mut ledger())
}

fn identity(temp: &tempfile::TempDir, selector: &str) -> Result<PortableIdentity, IdentityError> {
    resolve_portable_identity(&Root::open(temp.path()).unwrap(), &mut ledger(), selector)
        .map(|resolution| resolution.identity)
}

fn pid(id: &str, slug: &str) -> PortableIdentity {
    PortableIdentity {
        id: id.to_owned(),
        slug: slug.to_owned(),
    }
}

// ---- catalog -----------------------------------------------------------------------------

#[test]
fn catalog_absent_shelf_is_empty() {
    assert_eq!(catalog(&aios()), Ok(Vec::new()));
}

#[cfg(unix)]
#[test]
fn catalog_reads_records_in_collation_order() {
    let temp = aios();
    project(&temp, "zeta", "# Zeta\n");
    project(
        &temp,
        "rust-port",
        "---\nid: proj-rust-001\nproject: rust-port\nname: Rust Port\nstatus: active\ndomain: [build]\n---\n# Rust Port\n\nPort the reader.\n",
    );
    project(&temp, "alpha-2", "Alpha two.\n");
    project(&temp, "alpha10", "");
    fs::create_dir_all(temp.path().join("projects/no-readme")).unwrap();
    fs::write(temp.path().join("projects/notes.txt"), "not a project").unwrap();
    mkfifo(&temp.path().join("projects/pipe"));
    let records = catalog(&temp).unwrap();
    let slugs: Vec<_> = records.iter().map(|r| r.slug.as_str()).collect();
    // Root collation puts the hyphen before letters and digits; byte order would too here,
    // but `alpha10` after `alpha-2` and `zeta` last hold in both.
    assert_eq!(slugs, ["alpha-2", "alpha10", "rust-port", "zeta"]);
    let rust = &records[2];
    assert_eq!(rust.id.as_deref(), Some("proj-rust-001"));
    assert_eq!(
        (rust.name.as_str(), rust.status.as_str()),
        ("Rust Port", "active")
    );
    assert_eq!(rust.domains, ["build"]);
    assert_eq!(rust.description, "Port the reader.");
    assert_eq!(rust.context_excerpt, "Port the reader.");
    assert_eq!(records[0].description, "Alpha two.");
    assert_eq!(records[3].name, "Zeta");
}

#[cfg(unix)]
#[test]
fn catalog_error_symlinked_project_directory() {
    let temp = aios();
    project(&temp, "real", "# Real\n");
    symlink("real", temp.path().join("projects/linked")).unwrap();
    let error = catalog(&temp).unwrap_err();
    assert_eq!(error, CatalogError::LinkedProjectDirectory);
    assert_eq!(
        error.message(),
        "Project README path is outside the AIOS project shelf because its project directory is a symbolic link."
    );
    // A link to a file is refused the same way.
    let temp = aios();
    fs::create_dir_all(temp.path().join("projects")).unwrap();
    fs::write(temp.path().join("notes.md"), "x").unwrap();
    symlink("../notes.md", temp.path().join("projects/notes")).unwrap();
    assert_eq!(catalog(&temp), Err(CatalogError::LinkedProjectDirectory));
}

#[cfg(unix)]
#[test]
fn catalog_error_linked_or_special_shelf() {
    let temp = aios();
    let elsewhere = tempfile::tempdir().unwrap();
    symlink(elsewhere.path(), temp.path().join("projects")).unwrap();
    let error = catalog(&temp).unwrap_err();
    assert_eq!(
        error,
        CatalogError::Read {
            path: "projects/".into(),
            error: ReadError::Unsafe(UnsafeKind::Symlink)
        }
    );
    assert_eq!(error.code(), "DOTAIOS_UNSAFE_READ_PATH");
    let temp = aios();
    fs::write(temp.path().join("projects"), "").unwrap();
    assert_eq!(
        catalog(&temp).unwrap_err().code(),
        "DOTAIOS_UNSAFE_READ_PATH"
    );
}

/// A directory whose name is not a slug is left out and named, never read, and never fails the
/// catalog (contract 01 §6.1): its neighbours are still listed.
#[test]
fn a_directory_that_is_not_a_slug_is_left_out_and_named() {
    for name in [
        "My Project",
        ".git",
        "_archive",
        "Upper",
        "a--b",
        "evil\u{202E}gnp.EMDAER",
    ] {
        let temp = aios();
        project(&temp, "neighbour", "# Neighbour\n");
        fs::create_dir_all(temp.path().join("projects").join(name)).unwrap();
        // Its README is never read: invalid YAML would fail the catalog.
        fs::write(
            temp.path().join("projects").join(name).join("README.md"),
            "---\nid: [\n---\n",
        )
        .unwrap();
        let mut ledger = ledger();
        let read = read_catalog_with(
            &Root::open(temp.path()).unwrap(),
            &mut ledger,
            Oversized::Fail,
        )
        .unwrap();
        let slugs: Vec<_> = read.records.iter().map(|r| r.slug.as_str()).collect();
        assert_eq!(slugs, ["neighbour"], "{name:?}");
        assert_eq!(read.not_slugs, [name]);
    }
}

#[cfg(unix)]
#[test]
fn catalog_error_readme_link_or_special() {
    let temp = aios();
    fs::create_dir_all(temp.path().join("projects/linked")).unwrap();
    fs::write(temp.path().join("elsewhere.md"), "---\nid: x\n---\n").unwrap();
    symlink(
        "../../elsewhere.md",
        temp.path().join("projects/linked/README.md"),
    )
    .unwrap();
    let error = catalog(&temp).unwrap_err();
    assert_eq!(
        error,
        CatalogError::ReadmeNotRegular {
            slug: "linked".into()
        }
    );
    assert!(error.message().starts_with("projects/linked/README.md "));

    let temp = aios();
    fs::create_dir_all(temp.path().join("projects/piped")).unwrap();
    mkfifo(&temp.path().join("projects/piped/README.md"));
    assert_eq!(
        catalog(&temp),
        Err(CatalogError::ReadmeNotRegular {
            slug: "piped".into()
        })
    );

    let temp = aios();
    fs::create_dir_all(temp.path().join("projects/dir/README.md")).unwrap();
    assert_eq!(
        catalog(&temp),
        Err(CatalogError::ReadmeNotRegular { slug: "dir".into() })
    );
}

#[test]
fn catalog_error_invalid_yaml() {
    let temp = aios();
    project(&temp, "broken", "---\nid: [unterminated\n---\n# Broken\n");
    let error = catalog(&temp).unwrap_err();
    assert!(matches!(
        error,
        CatalogError::InvalidFrontmatter { ref slug, error: YamlError::Syntax { .. } } if slug == "broken"
    ));
    assert_eq!(error.code(), "DOTAIOS_PROJECT_CATALOG_INVALID");
    let temp = aios();
    project(&temp, "twice", "---\nid: a\nid: b\n---\n");
    assert!(matches!(
        catalog(&temp),
        Err(CatalogError::InvalidFrontmatter {
            error: YamlError::DuplicateKey { .. },
            ..
        })
    ));
}

#[test]
fn catalog_error_non_mapping() {
    let temp = aios();
    project(&temp, "listed", "---\n- id\n- name\n---\n");
    assert_eq!(
        catalog(&temp),
        Err(CatalogError::FrontmatterNotMapping {
            slug: "listed".into()
        })
    );
}

#[test]
fn catalog_error_conflicting_ids() {
    let temp = aios();
    project(&temp, "conflict", "---\nid: a\nproject_id: b\n---\n");
    let error = catalog(&temp).unwrap_err();
    assert_eq!(
        error,
        CatalogError::ConflictingIds {
            slug: "conflict".into()
        }
    );
    assert_eq!(error.code(), "DOTAIOS_PROJECT_CATALOG_INVALID");
}

#[test]
fn catalog_error_duplicate_ids() {
    let temp = aios();
    project(&temp, "second", "---\nproject_id: shared-id\n---\n");
    project(&temp, "first", "---\nid: shared-id\n---\n");
    let error = catalog(&temp).unwrap_err();
    assert_eq!(
        error.message(),
        "Project id shared-id is used by both \"first\" and \"second\"."
    );
}

#[test]
fn catalog_directory_limit() {
    let temp = aios();
    let shelf = temp.path().join("projects");
    fs::create_dir_all(&shelf).unwrap();
    // Every entry counts, plain files included.
    for index in 0..256 {
        fs::write(shelf.join(format!("file-{index}.txt")), "").unwrap();
    }
    assert_eq!(catalog(&temp), Ok(Vec::new()));
    fs::write(shelf.join("one-more.txt"), "").unwrap();
    let error = catalog(&temp).unwrap_err();
    assert_eq!(error, CatalogError::DirectoryLimit);
    assert_eq!(error.code(), "DOTAIOS_PROJECT_DIRECTORY_LIMIT_EXCEEDED");
}

#[test]
fn catalog_read_failures_keep_reader_codes() {
    let temp = aios();
    project(&temp, "big", &"a".repeat((1 << 20) + 1));
    let error = catalog(&temp).unwrap_err();
    assert_eq!(
        error,
        CatalogError::Read {
            path: "projects/big/README.md".into(),
            error: ReadError::TooLarge
        }
    );
    assert_eq!(error.code(), "DOTAIOS_CONTEXT_SOURCE_TOO_LARGE");
    // Exactly 1 MiB is read.
    let temp = aios();
    project(&temp, "big", &"a".repeat(1 << 20));
    assert_eq!(catalog(&temp).unwrap().len(), 1);

    let temp = aios();
    fs::create_dir_all(temp.path().join("projects/bytes")).unwrap();
    fs::write(temp.path().join("projects/bytes/README.md"), b"# \xff\n").unwrap();
    assert_eq!(catalog(&temp).unwrap_err().code(), "DOTAIOS_INVALID_UTF8");

    let temp = aios();
    project(&temp, "one", "x");
    project(&temp, "two", "y");
    let mut tight = Ledger::new(Limits {
        files: 1,
        bytes: 1 << 20,
        entries: 100,
    });
    let error = read_catalog(&Root::open(temp.path()).unwrap(), &mut tight).unwrap_err();
    assert_eq!(
        error,
        CatalogError::Read {
            path: "projects/two/README.md".into(),
            error: ReadError::Budget(BudgetDimension::Files)
        }
    );
    assert_eq!(error.code(), "DOTAIOS_PROJECTION_READ_BUDGET_EXCEEDED");
}

#[test]
fn catalog_messages_are_path_free() {
    let temp = aios();
    project(&temp, "broken", "---\nid: [x\n---\n");
    let message = catalog(&temp).unwrap_err().message();
    assert!(!message.contains(temp.path().to_str().unwrap()));
    assert!(!message.contains('/') || message.starts_with("projects/"));
}

// ---- scope -------------------------------------------------------------------------------

#[test]
fn scope_on_a_real_catalog() {
    let temp = aios();
    project(
        &temp,
        "rust-port",
        "---\nid: proj-rust-001\n---\n# Rust Port\n",
    );
    project(&temp, "alt", "---\nid: proj-alt\nproject: rust-port\n---\n");
    project(&temp, "site", "---\nid: 'café:client/01'\n---\n");
    let records = catalog(&temp).unwrap();
    let scope = resolve_scope(&records, "proj-rust-001").unwrap();
    assert_eq!(scope.filter, "rust-port");
    assert_eq!(records[scope.record].slug, "rust-port");
    assert_eq!(scope.unique_aliases, ["proj-rust-001"]);
    // Opaque ids resolve through the working-context path.
    assert_eq!(
        resolve_scope(&records, "café:client/01").unwrap().filter,
        "site"
    );
    assert_eq!(
        resolve_scope(&records, "rust-port"),
        Err(ScopeError::Ambiguous {
            selector: "rust-port".into()
        })
    );
    assert_eq!(resolve_scope(&records, "nope"), Err(ScopeError::Unknown));
}

// ---- portable identity -------------------------------------------------------------------

#[test]
fn identity_by_slug_and_by_id() {
    let temp = aios();
    project(&temp, "rust-port", "---\nid: proj-rust-001\n---\n");
    project(&temp, "client", "---\nproject_id: client:acme.01\n---\n");
    project(&temp, "cafe", "---\nid: café:über_2\n---\n");
    assert_eq!(
        identity(&temp, "rust-port"),
        Ok(pid("proj-rust-001", "rust-port"))
    );
    assert_eq!(
        identity(&temp, "proj-rust-001"),
        Ok(pid("proj-rust-001", "rust-port"))
    );
    assert_eq!(
        identity(&temp, "client:acme.01"),
        Ok(pid("client:acme.01", "client"))
    );
    assert_eq!(
        identity(&temp, "café:über_2"),
        Ok(pid("café:über_2", "cafe"))
    );
}

#[test]
fn identity_selector_grammar_comes_first() {
    let temp = aios();
    assert_eq!(
        identity(&temp, ""),
        Err(IdentityError::Selector(SelectorError::Empty))
    );
    assert_eq!(
        identity(&temp, " rust-port"),
        Err(IdentityError::Selector(SelectorError::Unsafe))
    );
    assert_eq!(
        identity(&temp, "café:client/01"),
        Err(IdentityError::Selector(SelectorError::Unsafe))
    );
    assert_eq!(
        identity(&temp, &"a".repeat(201)),
        Err(IdentityError::Selector(SelectorError::TooLong))
    );
    assert_eq!(
        IdentityError::Selector(SelectorError::Unsafe).code(),
        Some("DOTAIOS_PROJECT_SELECTOR_INVALID")
    );
}

#[test]
fn identity_unknown_and_ambiguous() {
    let temp = aios();
    project(&temp, "alpha", "---\nid: beta\n---\n");
    project(&temp, "beta", "---\nid: proj-beta\n---\n");
    let unknown = identity(&temp, "gamma").unwrap_err();
    assert_eq!(unknown, IdentityError::Unknown);
    assert_eq!(unknown.to_string(), "project selector is unknown");
    assert_eq!(unknown.code(), Some("DOTAIOS_PROJECT_SELECTOR_UNKNOWN"));
    // `beta` is one project's slug and another's id.
    let ambiguous = identity(&temp, "beta").unwrap_err();
    assert_eq!(ambiguous, IdentityError::Ambiguous);
    assert_eq!(
        ambiguous.to_string(),
        "project selector is ambiguous; use its stable id"
    );
    assert_eq!(ambiguous.code(), Some("DOTAIOS_PROJECT_SELECTOR_AMBIGUOUS"));
    assert_eq!(identity(&temp, "proj-beta"), Ok(pid("proj-beta", "beta")));
    // The `project` alias is not used here.
    let temp = aios();
    project(&temp, "gamma", "---\nid: g-1\nproject: delta\n---\n");
    assert_eq!(identity(&temp, "delta"), Err(IdentityError::Unknown));
    // No projects shelf at all.
    assert_eq!(identity(&aios(), "x"), Err(IdentityError::Unknown));
}

#[test]
fn identity_direct_record_is_strict() {
    let cases: [(&str, IdentityProblem); 7] = [
        ("# No frontmatter\n", IdentityProblem::FrontmatterInvalid),
        ("---\nid: [x\n---\n", IdentityProblem::FrontmatterInvalid),
        ("---\n- a\n---\n", IdentityProblem::NotMapping),
        ("---\nid: 123\n---\n", IdentityProblem::InvalidIdFields),
        (
            "---\nid: a\nproject_id: b\n---\n",
            IdentityProblem::ConflictingIds,
        ),
        ("---\nname: x\n---\n", IdentityProblem::MissingId),
        ("---\nid: ' padded'\n---\n", IdentityProblem::InvalidId),
    ];
    for (readme, problem) in cases {
        let temp = aios();
        project(&temp, "direct", readme);
        let error = identity(&temp, "direct").unwrap_err();
        assert_eq!(error, IdentityError::CatalogInvalid(problem), "{readme:?}");
        assert_eq!(error.code(), Some("DOTAIOS_PROJECT_CATALOG_INVALID"));
    }
    let temp = aios();
    project(&temp, "direct", "# none\n");
    assert_eq!(
        identity(&temp, "direct").unwrap_err().to_string(),
        "project identity frontmatter is invalid"
    );
}

#[cfg(unix)]
#[test]
fn identity_direct_record_unreadable_is_fatal() {
    let temp = aios();
    project(
        &temp,
        "big",
        &format!("---\nid: big\n---\n{}", "a".repeat(1 << 20)),
    );
    assert_eq!(
        identity(&temp, "big"),
        Err(IdentityError::CatalogInvalid(IdentityProblem::Unreadable(
            ReadError::TooLarge
        )))
    );
    let temp = aios();
    fs::create_dir_all(temp.path().join("projects/linked")).unwrap();
    fs::write(temp.path().join("r.md"), "---\nid: linked\n---\n").unwrap();
    symlink("../../r.md", temp.path().join("projects/linked/README.md")).unwrap();
    assert!(matches!(
        identity(&temp, "linked"),
        Err(IdentityError::CatalogInvalid(IdentityProblem::Unreadable(
            ReadError::Unsafe(_)
        )))
    ));
}

#[test]
fn identity_missing_direct_readme_lets_the_scan_decide() {
    let temp = aios();
    fs::create_dir_all(temp.path().join("projects/empty")).unwrap();
    assert_eq!(identity(&temp, "empty"), Err(IdentityError::Unknown));
    project(&temp, "other", "---\nid: empty\n---\n");
    assert_eq!(identity(&temp, "empty"), Ok(pid("empty", "other")));
}

#[cfg(unix)]
#[test]
fn identity_scan_is_lenient() {
    let temp = aios();
    project(&temp, "good", "---\nid: target\n---\n");
    project(&temp, "no-block", "# x\n");
    project(&temp, "bad-yaml", "---\nid: [\n---\n");
    project(&temp, "bad-id", "---\nid: 'a/b'\n---\n");
    project(&temp, "big", &"a".repeat((1 << 20) + 1));
    fs::create_dir_all(temp.path().join("projects/bytes")).unwrap();
    fs::write(
        temp.path().join("projects/bytes/README.md"),
        b"---\nid: target\n---\n\xff",
    )
    .unwrap();
    fs::create_dir_all(temp.path().join("projects/Bad Name")).unwrap();
    fs::write(
        temp.path().join("projects/Bad Name/README.md"),
        "---\nid: target\n---\n",
    )
    .unwrap();
    fs::create_dir_all(temp.path().join("projects/piped")).unwrap();
    mkfifo(&temp.path().join("projects/piped/README.md"));
    let elsewhere = tempfile::tempdir().unwrap();
    fs::write(elsewhere.path().join("README.md"), "---\nid: target\n---\n").unwrap();
    symlink(elsewhere.path(), temp.path().join("projects/linked")).unwrap();
    fs::write(
        temp.path().join("projects/stray.md"),
        "---\nid: target\n---\n",
    )
    .unwrap();
    assert_eq!(identity(&temp, "target"), Ok(pid("target", "good")));
}

#[test]
fn identity_reads_only_a_bounded_prefix() {
    // A block closed early in a large (but ≤ 1 MiB) file is found.
    let temp = aios();
    project(
        &temp,
        "long",
        &format!("---\nid: long\n---\n{}", "b".repeat(900_000)),
    );
    assert_eq!(identity(&temp, "long"), Ok(pid("long", "long")));
    // A block that closes only after 16 KiB is invalid.
    let temp = aios();
    project(
        &temp,
        "late",
        &format!("---\nid: late\nnote: {}\n---\n", "c".repeat(17 * 1024)),
    );
    assert_eq!(
        identity(&temp, "late"),
        Err(IdentityError::CatalogInvalid(
            IdentityProblem::FrontmatterInvalid
        ))
    );
    // A prefix cut inside a multi-byte character is not invalid UTF-8.
    let temp = aios();
    let mut readme = "---\nid: wide\n---\n".to_owned();
    while readme.len() < 16 * 1024 - 1 {
        readme.push('x');
    }
    readme.push_str("ééé");
    project(&temp, "wide", &readme);
    assert_eq!(identity(&temp, "wide"), Ok(pid("wide", "wide")));
}

#[cfg(unix)]
#[test]
fn identity_reader_failures_propagate() {
    let temp = aios();
    let elsewhere = tempfile::tempdir().unwrap();
    symlink(elsewhere.path(), temp.path().join("projects")).unwrap();
    assert_eq!(
        identity(&temp, "proj-x:1"),
        Err(IdentityError::Read(ReadError::Unsafe(UnsafeKind::Symlink)))
    );
    assert_eq!(IdentityError::Read(ReadError::TooLarge).code(), None);
}

#[test]
fn identity_reports_what_it_observed() {
    let temp = aios();
    project(&temp, "one", "---\nid: one-id\n---\n");
    project(&temp, "two", "---\nid: two-id\n---\n");
    let root = Root::open(temp.path()).unwrap();
    let resolution = resolve_portable_identity(&root, &mut ledger(), "one").unwrap();
    let mut paths: Vec<_> = resolution
        .observed
        .iter()
        .map(|(path, _)| path.as_str().to_owned())
        .collect();
    paths.sort();
    assert_eq!(
        paths,
        [
            "projects",
            "projects/one/README.md",
            "projects/two/README.md"
        ]
    );
    for (path, identity) in &resolution.observed {
        assert!(root.still_matches(path, identity).unwrap(), "{path}");
    }
}
