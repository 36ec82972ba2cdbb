//! The folder check of contract 01 §1.3 and 05 §6.7 through both binaries: `dotaios search`
//! and `search_aios` of `dotaios-mcp` refuse exactly the same folders, each with its own
//! message (the CLI names the folder; the adapter names no path).
#![allow(
    clippy::disallowed_methods,
    reason = "tests build and inspect their folders with std::fs"
)]

mod support;

use std::fs;
use std::path::Path;

use dotaios_core::error::NO_FOLDER_MESSAGE;
use serde_json::json;
use support::{Adapter, dotaios, texts};

/// Whether `dotaios search` refuses `aios` as no AIOS folder (its exact line, exit 1).
fn cli_refuses(aios: &Path, home: &Path) -> bool {
    let output = dotaios(home)
        .args(["search", "lantern", "--path"])
        .arg(aios)
        .output()
        .unwrap();
    let (_, stderr) = texts(&output);
    let line = format!(
        "No AIOS folder found at {}. Run dotaios init first, or pass --path.\n",
        aios.display()
    );
    let refused = stderr == line;
    assert!(
        !refused || output.status.code() == Some(1),
        "{:?}",
        output.status
    );
    refused
}

/// Whether `search_aios` refuses `aios` with the fixed no-folder message.
fn adapter_refuses(aios: &Path, home: &Path) -> bool {
    let adapter = Adapter {
        aios,
        home,
        zone: "UTC",
    };
    let response = adapter
        .responses(&[("search_aios", json!({"query": "lantern"}))])
        .remove(0);
    response["error"]["message"] == NO_FOLDER_MESSAGE
}

#[test]
fn both_binaries_refuse_the_same_folders() {
    let temp = tempfile::tempdir().unwrap();
    let home = temp.path().join("home");
    fs::create_dir(&home).unwrap();
    let case = |name: &str, build: &dyn Fn(&Path)| {
        let aios = temp.path().join(name);
        build(&aios);
        (name.to_owned(), aios)
    };
    #[allow(unused_mut, reason = "only Unix adds the link cases")]
    let mut cases = vec![
        case("missing", &|_| {}),
        case("empty", &|aios| fs::create_dir(aios).unwrap()),
        case("nested", &|aios| {
            fs::create_dir_all(aios.join("sub")).unwrap();
            fs::write(aios.join("sub/aios.json"), "{}\n").unwrap();
        }),
        case("present", &|aios| {
            fs::create_dir(aios).unwrap();
            fs::write(aios.join("aios.json"), "{\"schema_version\":\"1.2.0\"}\n").unwrap();
        }),
        case("unparseable", &|aios| {
            fs::create_dir(aios).unwrap();
            fs::write(aios.join("aios.json"), "not json").unwrap();
        }),
        case("directory", &|aios| {
            fs::create_dir_all(aios.join("aios.json")).unwrap();
        }),
    ];
    #[cfg(unix)]
    {
        cases.push(case("dangling-link", &|aios| {
            fs::create_dir(aios).unwrap();
            std::os::unix::fs::symlink("gone.json", aios.join("aios.json")).unwrap();
        }));
        cases.push(case("link", &|aios| {
            fs::create_dir(aios).unwrap();
            fs::write(aios.join("real.json"), "{\"schema_version\":\"1.2.0\"}\n").unwrap();
            std::os::unix::fs::symlink("real.json", aios.join("aios.json")).unwrap();
        }));
    }
    let mut refused = Vec::new();
    for (name, aios) in &cases {
        let cli = cli_refuses(aios, &home);
        let adapter = adapter_refuses(aios, &home);
        assert_eq!(
            cli, adapter,
            "{name}: dotaios refuses {cli}, dotaios-mcp {adapter}"
        );
        if cli {
            refused.push(name.as_str());
        }
    }
    let mut expected = vec!["missing", "empty", "nested"];
    if cfg!(unix) {
        expected.push("dangling-link");
    }
    assert_eq!(refused, expected);
}
