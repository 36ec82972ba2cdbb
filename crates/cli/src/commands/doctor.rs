//! `dotaios doctor [--path <dir>] [--json]`: the read-only health report (contract 01 §10). The
//! checks live in `dotaios_core::doctor`; this module parses options, opens the folder and
//! renders the report. It never writes and never starts a process.

use std::ffi::OsString;
use std::path::Path;
use std::process::ExitCode;
use std::time::SystemTime;

use dotaios_contained::Root;
use dotaios_core::doctor::{self, DoctorInputs, FOLDER_PLACEHOLDER, Report, Status};
use dotaios_core::folder::location::{LocationInputs, resolve_folder};
use serde_json::json;

use crate::args::{CommandSpec, Item, OptionSpec, PATH_OPTION, Scanner, unexpected, unhandled};
use crate::output::{out, shell_quote};
use crate::{CliError, Env};

/// `dotaios doctor`: its options, help and completions.
pub(crate) static SPEC: CommandSpec = CommandSpec {
    name: "doctor",
    label: "doctor",
    summary: "Report folder health without changing anything",
    usage: "\
Usage: dotaios doctor [--path <dir>] [--json]

Report the health of an AIOS folder without changing anything: schema and migration state,
starter files, the workspace ignore rule, the local secret file, whether the working context,
project catalog and skills can be read, memory quarantine, context freshness, and links,
special files or oversized files that readers would refuse.
",
    options: &[
        PATH_OPTION,
        OptionSpec::flag(
            "--json",
            "Print the report as JSON (folder-relative, no machine paths)",
        ),
    ],
    words: &[],
    footer: "\nExit status: 0 when nothing blocks (warnings allowed), 1 when a check failed.\n",
};

/// Runs `dotaios doctor`.
pub(crate) fn run(args: &[OsString], env: &Env) -> Result<ExitCode, CliError> {
    if Scanner::wants_help(args) {
        out(&SPEC.help())?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut path_flag: Option<OsString> = None;
    let mut json = false;
    let mut scanner = Scanner::new(args, &SPEC);
    while let Some(item) = scanner.next_item()? {
        match item {
            Item::Value("--path", value) => path_flag = Some(value),
            Item::Flag("--json") => json = true,
            Item::Positional(word) => return Err(unexpected(&word)),
            other => return Err(unhandled(&other)),
        }
    }
    let home = env.home_or_root();
    let folder = resolve_folder(LocationInputs {
        path_flag: path_flag.as_deref(),
        env_path: None,
        home: &home,
        cwd: &env.cwd,
    });
    let default_folder = home.join("aios");
    let root = Root::open(&folder).ok();
    let path_suffix = (folder != default_folder).then(|| shell_quote(&folder));
    let report = doctor::run(&DoctorInputs {
        root: root.as_ref(),
        folder: &folder,
        path_suffix: path_suffix.as_deref(),
        now: SystemTime::now(),
        uid: crate::sys::effective_ids().0,
        time_zone: &jiff::tz::TimeZone::system(),
    });
    if json {
        out(&render_json(&report))?;
    } else {
        out(&render_text(&report, &display_folder(&folder, &home)))?;
    }
    Ok(if report.failures() > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The text form: header, one line per check with 8-space detail and fix lines, summary.
fn render_text(report: &Report, folder: &str) -> String {
    let mut text = String::from("DotAIOS doctor\n\n");
    for check in &report.checks {
        text.push_str(&format!(
            "[{}] {}\n",
            check.status.as_str(),
            check.name.replace(FOLDER_PLACEHOLDER, folder)
        ));
        for detail in &check.details {
            text.push_str(&format!("        {detail}\n"));
        }
        if let Some(fix) = &check.fix {
            text.push_str(&format!(
                "        Fix: {}\n",
                fix.replace(FOLDER_PLACEHOLDER, folder)
            ));
        }
    }
    text.push('\n');
    text.push_str(&report.summary());
    text.push('\n');
    text
}

/// The JSON form (contract 01 §10 open point): the folder stays a placeholder, so no machine path
/// appears.
fn render_json(report: &Report) -> String {
    let checks: Vec<serde_json::Value> = report
        .checks
        .iter()
        .map(|check| {
            json!({
                "name": check.name.replace(FOLDER_PLACEHOLDER, "<this-aios-folder>"),
                "status": check.status.as_str(),
                "detail": if check.details.is_empty() { serde_json::Value::Null } else { json!(check.details.join("\n")) },
                "fix": check.fix.as_ref().map(|fix| fix.replace(FOLDER_PLACEHOLDER, "<this-aios-folder>")),
            })
        })
        .collect();
    let count = |status: Status| {
        report
            .checks
            .iter()
            .filter(|check| check.status == status)
            .count()
    };
    let value = json!({
        "checks": checks,
        "summary": { "fail": count(Status::Fail), "warn": count(Status::Warn) },
    });
    let mut text = serde_json::to_string_pretty(&value).expect("a JSON value always serialises");
    text.push('\n');
    text
}

/// The folder with the home directory abbreviated to `~`.
fn display_folder(folder: &Path, home: &Path) -> String {
    match folder.strip_prefix(home) {
        Ok(rest) if rest.as_os_str().is_empty() => "~".to_owned(),
        Ok(rest) if home != Path::new("/") => format!("~/{}", rest.to_string_lossy()),
        _ => folder.to_string_lossy().into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn home_is_abbreviated() {
        let home = Path::new("/home/ada");
        assert_eq!(display_folder(Path::new("/home/ada/aios"), home), "~/aios");
        assert_eq!(display_folder(Path::new("/home/ada"), home), "~");
        assert_eq!(display_folder(Path::new("/srv/aios"), home), "/srv/aios");
    }
}
