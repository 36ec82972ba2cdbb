//! The protocol's checks and samples on a generated 500-file fixture, untimed.

use super::check::{Check, Expectation, check_ripgrep, cli_sources};
use super::sample::{core, find_on_path, raw_stat, safe_corpus, safe_enumerate, safe_walk};
use crate::corpus::write_fixture;
use crate::fixtures::{FIXTURES, QUERIES, RESULT_LIMIT, expected_digest, expected_sources};

/// The expected ordered hits and result digests of contract 07 §2 at 500 files, through the
/// core search, the safe-corpus, safe-walk and safe-enumerate passes, and the files and bytes
/// raw-stat sees (untimed).
#[test]
fn expected_hits_at_500_files() {
    let temp = tempfile::tempdir().unwrap();
    for fixture in FIXTURES.iter().filter(|fixture| fixture.count == 500) {
        write_fixture(temp.path(), fixture).unwrap();
        let aios = temp.path().join(fixture.id).join("aios");
        for query in &QUERIES {
            let expect = Expectation::of(fixture, query);
            for workers in [1, 2] {
                if let Err(check) = core(&aios, workers, &expect) {
                    panic!("{}: {}", expect.cell, describe(check));
                }
            }
            assert!(safe_corpus(&aios, 2, &expect).is_ok(), "{}", expect.cell);
            let notes = super::vault_notes(&aios.join("vault")).unwrap();
            assert!(raw_stat(&notes, 2, &expect).is_ok(), "{}", expect.cell);
            assert!(
                raw_stat(&notes[1..], 2, &expect).is_err(),
                "{}",
                expect.cell
            );
            for workers in [1, 2] {
                assert!(
                    safe_walk(&aios, workers, &expect).is_ok(),
                    "{}",
                    expect.cell
                );
                assert!(
                    safe_enumerate(&aios, workers, &expect).is_ok(),
                    "{}",
                    expect.cell
                );
            }
        }
    }
}

#[test]
fn ripgrep_answers_are_checked() {
    let temp = tempfile::tempdir().unwrap();
    let fixture = FIXTURES
        .iter()
        .find(|fixture| fixture.id == "500-nested-high-entropy")
        .unwrap();
    write_fixture(temp.path(), fixture).unwrap();
    let vault = temp.path().join(fixture.id).join("aios").join("vault");
    let rg = find_on_path("rg");
    for query in &QUERIES {
        let expect = Expectation {
            cell: query.id.to_owned(),
            sources: expected_sources(fixture, query),
            digest: expected_digest(fixture, query),
            files: fixture.count,
            bytes: fixture.source_bytes,
            query,
        };
        let lines: Vec<String> = expect
            .sources
            .iter()
            .map(|source| {
                let file = source.strip_prefix("vault/").unwrap();
                format!("{}/{file}:1", vault.display())
            })
            .collect();
        let code = if lines.is_empty() { 1 } else { 0 };
        let stdout: String = lines.iter().map(|line| format!("{line}\n")).collect();
        assert!(check_ripgrep(&expect, &vault, code, &stdout, "").is_ok());
        // A wrong exit status, stderr, or a file outside the expected hits is wrong.
        assert!(check_ripgrep(&expect, &vault, 2, &stdout, "").is_err());
        assert!(check_ripgrep(&expect, &vault, code, &stdout, "boom").is_err());
        if expect.sources.len() < RESULT_LIMIT {
            let extra = format!("{stdout}{}/zz.md:1\n", vault.display());
            assert!(check_ripgrep(&expect, &vault, 0, &extra, "").is_err());
        }
        if let Some(rg) = &rg {
            // The real ripgrep agrees with the fixture's expected hits.
            let output = std::process::Command::new(rg)
                .args(["-F", "-i", "-c", query.text])
                .arg(&vault)
                .output()
                .unwrap();
            let result = check_ripgrep(
                &expect,
                &vault,
                i64::from(output.status.code().unwrap_or(-1)),
                &String::from_utf8_lossy(&output.stdout),
                &String::from_utf8_lossy(&output.stderr),
            );
            if let Err(check) = result {
                panic!("{}: {}", query.id, describe(check));
            }
        }
    }
}

fn describe(check: Check) -> String {
    match check {
        Check::Harness(message) => message,
        Check::Wrong { actual, detail, .. } => format!("{detail}: {actual:?}"),
    }
}

#[test]
fn cli_sources_take_the_last_parenthesised_group() {
    let stdout = "Memory: Shared\nSearching for \"x\" in all...\n\n── vault/ (2 matches) ──\n  Title (odd) (a/b.md)\n    L2-4: x (y)\n  T (c.md)\n    L1: z\n\n2 result(s) found.\n";
    assert_eq!(cli_sources(stdout), ["vault/a/b.md", "vault/c.md"]);
}
