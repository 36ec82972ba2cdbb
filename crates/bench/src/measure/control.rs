//! `dotaios-bench control`: one pass of one reading control alone, outside the protocol's
//! rounds, so that it can be profiled (`strace -c -f`), plus the Linux `uring` comparison.
//!
//! It owns the command's arguments and its one printed line; it never checks an answer against
//! a fixture's expectation (the protocol's `check` does that).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use dotaios_core::search::read_vault_corpus;

use crate::timing::elapsed_ns;

use super::sample::{raw_counts, raw_stat_counts};

/// `dotaios-bench control <name> <aios> [<workers>]`: one pass of one control on its own, so
/// that it can be profiled alone (`strace -c -f` counts its system calls per file). Prints the
/// files, bytes and milliseconds of the pass. `raw-read` takes the vault's `.md` files in
/// path order.
pub(crate) fn control(args: &[std::ffi::OsString]) -> ExitCode {
    let (Some(name), Some(aios)) = (args.first().and_then(|name| name.to_str()), args.get(1))
    else {
        eprintln!(
            "control requires <raw-read|raw-stat|safe-corpus|safe-walk|safe-enumerate|floor-plain|floor-uring|uring> <AIOS-DIR> [<workers>|<rounds>]"
        );
        return ExitCode::from(1);
    };
    let aios = Path::new(aios);
    let workers = args
        .get(2)
        .and_then(|workers| workers.to_str()?.parse().ok())
        .unwrap_or(2);
    let start = Instant::now();
    let counts = match name {
        "raw-read" => {
            vault_notes(&aios.join("vault")).and_then(|files| raw_counts(&files, workers))
        }
        "raw-stat" => {
            vault_notes(&aios.join("vault")).and_then(|files| raw_stat_counts(&files, workers))
        }
        "safe-corpus" => read_vault_corpus(aios, workers)
            .map(|counts| (counts.files, counts.bytes))
            .map_err(|error| error.code().to_owned()),
        "safe-walk" | "safe-enumerate" => {
            let pass = if name == "safe-walk" {
                crate::walk::Pass::Read
            } else {
                crate::walk::Pass::Enumerate
            };
            crate::walk::read_vault(aios, workers, pass).map(|totals| (totals.files, totals.bytes))
        }
        #[cfg(target_os = "linux")]
        "floor-plain" | "floor-uring" => {
            let variant = if name == "floor-plain" {
                crate::uring::Variant::Plain
            } else {
                crate::uring::Variant::Uring
            };
            crate::uring::pass(aios, variant, workers).map(|totals| (totals.files, totals.bytes))
        }
        #[cfg(target_os = "linux")]
        "uring" => {
            let rounds = args
                .get(2)
                .and_then(|rounds| rounds.to_str()?.parse().ok())
                .unwrap_or(20);
            return match crate::uring::compare(aios, rounds) {
                Ok(()) => ExitCode::SUCCESS,
                Err(message) => {
                    eprintln!("uring: {message}");
                    ExitCode::from(1)
                }
            };
        }
        other => Err(format!("unknown control: {other}")),
    };
    match counts {
        Ok((files, bytes)) => {
            println!(
                "{name}: {files} files, {bytes} bytes, {:.2} ms",
                elapsed_ns(start) as f64 / 1e6
            );
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("{name}: {message}");
            ExitCode::from(1)
        }
    }
}

/// The `.md` files below `dir`, in path order.
pub(crate) fn vault_notes(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).map_err(|error| error.to_string())? {
            let entry = entry.map_err(|error| error.to_string())?;
            let kind = entry.file_type().map_err(|error| error.to_string())?;
            if kind.is_dir() {
                stack.push(entry.path());
            } else if kind.is_file() && entry.path().extension().is_some_and(|ext| ext == "md") {
                files.push(entry.path());
            }
        }
    }
    files.sort();
    Ok(files)
}
