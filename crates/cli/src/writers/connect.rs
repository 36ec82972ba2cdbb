//! The guarded merge of the `dotaios` MCP entry into OpenCode's `opencode.json` (contract 06 §6.3
//! to §6.6), and its atomic private write.
//!
//! [`plan`] reads and validates everything and computes the new bytes without writing; the
//! dry run stops there, so it refuses exactly what the real run refuses. [`write()`] then
//! creates the configuration directory if needed and replaces the file through
//! [`super::atomic`], keeping its permission bits (0600 for a new file) and refusing if the
//! file changed since it was read.
//!
//! What it must never do: change a byte of a file it refuses (invalid JSON, JSONC, a foreign
//! `dotaios` entry, legacy entries it does not own, a symlink or other non-regular file), touch
//! any member other than `mcp.dotaios` (and the legacy `mcp.servers` it migrates), follow a
//! symlink when writing, or write into the AIOS folder.

mod json;

use std::ffi::OsStr;
use std::io::Read;
use std::path::{Path, PathBuf};

use self::json::{Json, Members};
use super::atomic::{Dir, FileMode, WriteError};
use crate::sys::{self, FileKind, Meta, Os};

/// A larger `opencode.json` is not a configuration file we should load into memory.
const MAX_CONFIG_BYTES: u64 = 16 * 1024 * 1024;
/// The mode of a newly created configuration file: it may hold provider credentials.
const NEW_FILE_MODE: u32 = 0o600;

/// Why `connect opencode` refused or failed. Displayed with the file's path by
/// [`ConnectError::message`]; every variant leaves the file untouched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConnectError {
    /// Reading failed for another reason than absence; carries the errno name.
    Unreadable(&'static str),
    /// The file is not JSON (JSONC included).
    NotJson,
    /// The top level is not an object.
    NotObject,
    /// `mcp` is neither absent, `null` nor an object.
    McpNotObject,
    /// `mcp.servers` is neither absent, `null` nor an object.
    InvalidLegacy,
    /// Legacy `mcp.servers` members other than a recognised `dotaios`, in file order.
    LegacyEntries(Vec<String>),
    /// A legacy `mcp.servers.dotaios` entry this build did not write.
    UnrecognizedLegacy,
    /// An `mcp.dotaios` entry this build did not write.
    Unrecognized,
    /// The file (or what its link points to) is not a regular file.
    NotRegular,
    /// The file changed between the read and the write.
    Changed,
    /// Writing failed (the old file, if any, is still in place); carries the errno name.
    WriteFailed(&'static str),
}

impl ConnectError {
    /// The one stderr line for this refusal, naming `path` (contract 06 §6.3, §6.5).
    pub fn message(&self, path: &Path) -> String {
        let path = path.display();
        match self {
            ConnectError::Unreadable(code) => {
                format!("Could not read existing {path} ({code}). Refusing to overwrite it.")
            }
            ConnectError::NotJson => format!(
                "Existing {path} is not valid JSON. Fix or remove it, then retry — refusing to overwrite it."
            ),
            ConnectError::NotObject => format!(
                "Existing {path} must contain a JSON object. Fix it, then retry — refusing to overwrite it."
            ),
            ConnectError::McpNotObject => format!(
                "Existing {path} mcp field must contain a JSON object. Fix it, then retry — refusing to overwrite it."
            ),
            ConnectError::InvalidLegacy => format!(
                "Existing {path} has an invalid legacy mcp.servers value. Fix or remove it, then retry; refusing to write an invalid OpenCode configuration."
            ),
            ConnectError::LegacyEntries(names) => format!(
                "Existing {path} uses legacy mcp.servers entries ({}). Move them to current mcp.<name> entries, then retry; refusing to write an invalid OpenCode configuration.",
                names.join(", ")
            ),
            ConnectError::UnrecognizedLegacy => format!(
                "Existing {path} has an unrecognized legacy mcp.servers.dotaios entry. Move or remove it, then retry; refusing to overwrite it."
            ),
            ConnectError::Unrecognized => format!(
                "Existing {path} has an unrecognized mcp.dotaios entry. Move or remove it, then retry; refusing to overwrite it."
            ),
            ConnectError::NotRegular => {
                format!("Existing {path} is not a regular file. Refusing to overwrite it.")
            }
            ConnectError::Changed => {
                format!("Existing {path} changed during connect. Retry — refusing to overwrite it.")
            }
            ConnectError::WriteFailed(code) => format!(
                "Could not write {path} ({code}). The existing file, if any, was left as it was."
            ),
        }
    }
}

/// What the target was when it was read: compared again just before the rename.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seen {
    Absent,
    File(Identity),
}

/// Which file was read, and its size and modification time (on Windows the identity is the
/// creation time, `crate::sys::Meta`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Identity {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
}

impl Identity {
    fn of(meta: &Meta) -> Identity {
        Identity {
            dev: meta.dev,
            ino: meta.ino,
            size: meta.size,
            mtime: meta.mtime,
        }
    }
}

/// A validated merge, ready to be written.
#[derive(Debug)]
pub(crate) struct Plan {
    file: PathBuf,
    seen: Seen,
    mode: u32,
    bytes: Vec<u8>,
}

/// Reads `file` (following a symlink, as a reader would), merges the entry for `launcher` and
/// `folder`, and checks that the target could be replaced (§6.5 step 1). Writes nothing.
pub(crate) fn plan(file: &Path, launcher: &str, folder: &str) -> Result<Plan, ConnectError> {
    let (seen, existing) = read_existing(file)?;
    let bytes = merged_config(existing.as_deref(), launcher, folder)?;
    let mode = replaceable_mode(file)?;
    Ok(Plan {
        file: file.to_path_buf(),
        seen,
        mode,
        bytes,
    })
}

/// The reading half of [`plan`], on bytes (contract 06 §6.3 steps 2 to 7): parses the existing
/// `opencode.json` (`None` when there is none), refuses what it does not own, merges the entry
/// for `launcher` and `folder` and returns the new file's bytes (pretty JSON and a newline).
pub fn merged_config(
    existing: Option<&[u8]>,
    launcher: &str,
    folder: &str,
) -> Result<Vec<u8>, ConnectError> {
    let document = match existing {
        None => Json::Object(Members::default()),
        Some(bytes) => json::parse(bytes).map_err(|json::Invalid| ConnectError::NotJson)?,
    };
    let merged = merge(document, launcher, folder)?;
    let mut text = json::to_pretty(&merged);
    text.push('\n');
    Ok(text.into_bytes())
}

/// Creates the configuration directory if missing and writes the plan atomically.
pub(crate) fn write(plan: &Plan) -> Result<(), ConnectError> {
    let (Some(parent), Some(name)) = (plan.file.parent(), plan.file.file_name()) else {
        return Err(ConnectError::WriteFailed("EINVAL"));
    };
    // The configuration directory is the user's own; a symlinked `~/.config` or
    // `~/.config/opencode` (dotfile managers) is followed on purpose. Only the file itself is
    // handled without following links.
    std::fs::create_dir_all(parent).map_err(|error| ConnectError::WriteFailed(io_code(&error)))?;
    let dir = Dir::open(parent).map_err(write_failure)?;
    let still_as_seen = |dir: &Dir, name: &OsStr| -> Result<bool, WriteError> {
        let now = match sys::stat_at(dir.handle(), name)? {
            Some(meta) if meta.kind == FileKind::File => Seen::File(Identity::of(&meta)),
            // Anything else than a regular file now: certainly not what was read.
            Some(_) => return Ok(false),
            None => Seen::Absent,
        };
        Ok(now == plan.seen)
    };
    dir.replace_file_if(name, &plan.bytes, FileMode::Exact(plan.mode), still_as_seen)
        .map_err(write_failure)
}

fn write_failure(error: WriteError) -> ConnectError {
    match error {
        WriteError::Changed => ConnectError::Changed,
        WriteError::Symlink | WriteError::NotRegular => ConnectError::NotRegular,
        WriteError::Io(error) => ConnectError::WriteFailed(io_code(&error)),
        WriteError::NotDirectory => ConnectError::WriteFailed("ENOTDIR"),
        WriteError::InvalidName | WriteError::Exists => ConnectError::WriteFailed("write error"),
    }
}

/// §6.3 step 1: the existing bytes, or `None` when there is no file (a dangling symlink
/// included). A FIFO or device is refused without being read from.
fn read_existing(file: &Path) -> Result<(Seen, Option<Vec<u8>>), ConnectError> {
    let (file, meta) = match sys::open_file_path(file) {
        Ok(Some(opened)) => opened,
        Ok(None) => return Ok((Seen::Absent, None)),
        Err(error) => return Err(ConnectError::Unreadable(io_code(&error))),
    };
    match meta.kind {
        FileKind::File => {}
        // What reading a directory reports, so that the message names the usual code.
        FileKind::Directory => return Err(ConnectError::Unreadable("EISDIR")),
        _ => return Err(ConnectError::NotRegular),
    }
    if meta.size > MAX_CONFIG_BYTES {
        return Err(ConnectError::Unreadable("EFBIG"));
    }
    let mut bytes = Vec::new();
    file.take(MAX_CONFIG_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| ConnectError::Unreadable(io_code(&error)))?;
    if bytes.len() as u64 > MAX_CONFIG_BYTES {
        return Err(ConnectError::Unreadable("EFBIG"));
    }
    Ok((Seen::File(Identity::of(&meta)), Some(bytes)))
}

/// §6.5 step 1: the target seen without following links must be a regular file (whose
/// permission bits the new file keeps) or absent (0600). On Windows the bits mean nothing
/// to the write (`crate::sys`); the check of the kind is the same.
fn replaceable_mode(file: &Path) -> Result<u32, ConnectError> {
    match sys::stat_path(file) {
        Ok(Some(meta)) if meta.kind == FileKind::File => Ok(meta.mode),
        Ok(Some(_)) => Err(ConnectError::NotRegular),
        Ok(None) => Ok(NEW_FILE_MODE),
        Err(error) => Err(ConnectError::Unreadable(io_code(&error))),
    }
}

/// §6.3 steps 3 to 7 on the parsed document.
fn merge(document: Json, launcher: &str, folder: &str) -> Result<Json, ConnectError> {
    let Json::Object(mut root) = document else {
        return Err(ConnectError::NotObject);
    };
    let mut mcp = match root.get("mcp") {
        None | Some(Json::Null) => Members::default(),
        Some(Json::Object(mcp)) => mcp.clone(),
        Some(_) => return Err(ConnectError::McpNotObject),
    };
    match mcp.get("servers") {
        None | Some(Json::Null) => {}
        Some(Json::Object(servers)) => {
            let own = servers.get("dotaios").filter(|entry| **entry != Json::Null);
            match own {
                Some(entry) => {
                    let others: Vec<String> = servers
                        .keys()
                        .filter(|name| *name != "dotaios")
                        .cloned()
                        .collect();
                    if !others.is_empty() {
                        return Err(ConnectError::LegacyEntries(others));
                    }
                    if !is_legacy_entry(entry, launcher) {
                        return Err(ConnectError::UnrecognizedLegacy);
                    }
                }
                None if servers.is_empty() => {}
                None => {
                    return Err(ConnectError::LegacyEntries(
                        servers.keys().cloned().collect(),
                    ));
                }
            }
            mcp.shift_remove("servers");
        }
        Some(_) => return Err(ConnectError::InvalidLegacy),
    }
    match mcp.get("dotaios") {
        None | Some(Json::Null) => {}
        Some(entry) if is_current_entry(entry, launcher) => {}
        Some(_) => return Err(ConnectError::Unrecognized),
    }
    mcp.insert("dotaios".to_owned(), entry(launcher, folder));
    root.insert("mcp".to_owned(), Json::Object(mcp));
    Ok(Json::Object(root))
}

/// The entry as pretty JSON, for the dry run's report.
pub fn entry_text(launcher: &str, folder: &str) -> String {
    json::to_pretty(&entry(launcher, folder))
}

/// `{"type":"local","command":[launcher,"--path",folder],"enabled":true}`.
fn entry(launcher: &str, folder: &str) -> Json {
    let mut members = Members::default();
    members.insert("type".to_owned(), Json::String("local".to_owned()));
    members.insert(
        "command".to_owned(),
        Json::Array(
            [launcher, "--path", folder]
                .into_iter()
                .map(|text| Json::String(text.to_owned()))
                .collect(),
        ),
    );
    members.insert("enabled".to_owned(), Json::Bool(true));
    Json::Object(members)
}

/// A recognised current entry (§6.4): members among `type`, `command`, `enabled`; `type` is
/// `"local"`; `command` is a DotAIOS launcher command.
fn is_current_entry(entry: &Json, launcher: &str) -> bool {
    let Json::Object(members) = entry else {
        return false;
    };
    if !members
        .keys()
        .all(|name| matches!(name.as_str(), "type" | "command" | "enabled"))
    {
        return false;
    }
    let Some(Json::Array(command)) = members.get("command") else {
        return false;
    };
    members.get("type") == Some(&Json::String("local".to_owned()))
        && strings(command).is_some_and(|command| is_launcher_command(&command, launcher))
}

/// A recognised legacy entry (§6.4): members among `type`, `command`, `args`, `enabled`; `type`
/// is `"local"`; `command` a string; `args` an array; together a DotAIOS launcher command.
fn is_legacy_entry(entry: &Json, launcher: &str) -> bool {
    let Json::Object(members) = entry else {
        return false;
    };
    if !members
        .keys()
        .all(|name| matches!(name.as_str(), "type" | "command" | "args" | "enabled"))
    {
        return false;
    }
    let (Some(Json::String(command)), Some(Json::Array(args))) =
        (members.get("command"), members.get("args"))
    else {
        return false;
    };
    let Some(args) = strings(args) else {
        return false;
    };
    let mut full = vec![command.as_str()];
    full.extend(args);
    members.get("type") == Some(&Json::String("local".to_owned()))
        && is_launcher_command(&full, launcher)
}

/// The elements as text, when every one is a string.
fn strings(items: &[Json]) -> Option<Vec<&str>> {
    items
        .iter()
        .map(|item| match item {
            Json::String(text) => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

/// One of the three launcher forms DotAIOS has ever written (§6.4 a–c).
fn is_launcher_command(command: &[&str], launcher: &str) -> bool {
    match command {
        [program, "--path", _] => *program == launcher || is_adapter_path(program, Os::HOST),
        [
            "npx" | "npx.cmd",
            "--yes",
            "--package",
            version,
            "dotaios-mcp",
            "--path",
            _,
        ] => is_pinned_package(version),
        [node, script, "--path", _] => is_node(node) && is_reference_server(script),
        _ => false,
    }
}

/// §6.4 (a): an absolute path whose last component is `dotaios-mcp` or `dotaios-mcp.exe`. On
/// Windows a path is absolute with a drive (`C:\`, `C:/`) or as a UNC or verbatim path
/// (`\\server`, `\\?\`), components split at `\` and `/`, and the name compared
/// case-insensitively; on Unix it starts with `/` and the name is exact.
fn is_adapter_path(program: &str, os: Os) -> bool {
    match os {
        Os::Unix => {
            program.starts_with('/')
                && Path::new(program)
                    .file_name()
                    .is_some_and(|name| name == "dotaios-mcp" || name == "dotaios-mcp.exe")
        }
        Os::Windows => {
            let bytes = program.as_bytes();
            let drive = bytes.len() >= 3
                && bytes[0].is_ascii_alphabetic()
                && bytes[1] == b':'
                && matches!(bytes[2], b'\\' | b'/');
            let unc = program.starts_with(r"\\") || program.starts_with("//");
            let last = program.rsplit(['/', '\\']).next().unwrap_or(program);
            (drive || unc)
                && (last.eq_ignore_ascii_case("dotaios-mcp")
                    || last.eq_ignore_ascii_case("dotaios-mcp.exe"))
        }
    }
}

/// `^dotaios@[0-9]+\.[0-9]+\.[0-9]+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$`.
fn is_pinned_package(version: &str) -> bool {
    let Some(rest) = version.strip_prefix("dotaios@") else {
        return false;
    };
    let (core, build) = match rest.split_once('+') {
        Some((core, build)) => (core, Some(build)),
        None => (rest, None),
    };
    let (numbers, pre) = match core.split_once('-') {
        Some((numbers, pre)) => (numbers, Some(pre)),
        None => (core, None),
    };
    let is_identifier = |text: &str| {
        !text.is_empty()
            && text
                .bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || byte == b'.' || byte == b'-')
    };
    let parts: Vec<&str> = numbers.split('.').collect();
    parts.len() == 3
        && parts
            .iter()
            .all(|part| !part.is_empty() && part.bytes().all(|byte| byte.is_ascii_digit()))
        && pre.is_none_or(is_identifier)
        && build.is_none_or(is_identifier)
}

/// The last component (split on `/` or `\`) is `node` or `node.exe`, in any case.
fn is_node(program: &str) -> bool {
    let last = program.rsplit(['/', '\\']).next().unwrap_or(program);
    last.eq_ignore_ascii_case("node") || last.eq_ignore_ascii_case("node.exe")
}

/// Ends with `packages`, `mcp`, `src`, `server.mjs` joined by `/` or `\` (each independently).
fn is_reference_server(script: &str) -> bool {
    let mut rest = script;
    for (index, part) in ["server.mjs", "src", "mcp", "packages"]
        .into_iter()
        .enumerate()
    {
        let Some(before) = rest.strip_suffix(part) else {
            return false;
        };
        rest = before;
        if index < 3 {
            let Some(before) = rest.strip_suffix('/').or_else(|| rest.strip_suffix('\\')) else {
                return false;
            };
            rest = before;
        }
    }
    true
}

/// The symbolic name of an OS error, as the messages show it (contract 06 §6.3 step 1), or
/// `read error` when none is known.
fn io_code(error: &std::io::Error) -> &'static str {
    sys::error_name(error).unwrap_or("read error")
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAUNCHER: &str = "/opt/bin/dotaios-mcp";
    const FOLDER: &str = "/home/ada/aios";

    fn merged(text: &str) -> Result<String, ConnectError> {
        let document = json::parse(text.as_bytes()).expect("test input is JSON");
        merge(document, LAUNCHER, FOLDER).map(|value| json::to_pretty(&value))
    }

    fn merged_compact(text: &str) -> String {
        let pretty = merged(text).unwrap();
        let value: serde_json::Value = serde_json::from_str(&pretty).unwrap();
        value.to_string()
    }

    const ENTRY: &str = r#"{"type":"local","command":["/opt/bin/dotaios-mcp","--path","/home/ada/aios"],"enabled":true}"#;

    #[test]
    fn empty_document_gets_mcp_and_the_entry() {
        assert_eq!(
            merged_compact("{}"),
            format!(r#"{{"mcp":{{"dotaios":{ENTRY}}}}}"#)
        );
        assert_eq!(
            merged_compact(r#"{"mcp":null,"z":1}"#),
            format!(r#"{{"mcp":{{"dotaios":{ENTRY}}},"z":1}}"#)
        );
    }

    // Unix launcher paths; the Windows form of rule (a) is `adapter_paths_follow_…` below.
    #[cfg(unix)]
    #[test]
    fn other_members_keep_their_place() {
        assert_eq!(
            merged_compact(
                r#"{"$schema":"s","mcp":{"custom":{"type":"remote","url":"u"},"dotaios":{"type":"local","command":["/old/dotaios-mcp","--path","/x"],"enabled":false},"after":{}},"provider":{}}"#
            ),
            format!(
                r#"{{"$schema":"s","mcp":{{"custom":{{"type":"remote","url":"u"}},"dotaios":{ENTRY},"after":{{}}}},"provider":{{}}}}"#
            )
        );
    }

    #[test]
    fn structural_refusals() {
        assert_eq!(merged("[]"), Err(ConnectError::NotObject));
        assert_eq!(merged("null"), Err(ConnectError::NotObject));
        assert_eq!(merged(r#"{"mcp":[]}"#), Err(ConnectError::McpNotObject));
        assert_eq!(merged(r#"{"mcp":"x"}"#), Err(ConnectError::McpNotObject));
        for servers in ["\"wrong\"", "[]", "42"] {
            assert_eq!(
                merged(&format!(r#"{{"mcp":{{"servers":{servers}}}}}"#)),
                Err(ConnectError::InvalidLegacy)
            );
        }
    }

    #[test]
    fn legacy_servers() {
        assert_eq!(
            merged(r#"{"mcp":{"servers":{"custom":{},"other":1}}}"#),
            Err(ConnectError::LegacyEntries(vec![
                "custom".into(),
                "other".into()
            ]))
        );
        assert_eq!(
            merged(r#"{"mcp":{"servers":{"dotaios":null}}}"#),
            Err(ConnectError::LegacyEntries(vec!["dotaios".into()]))
        );
        let legacy = r#"{"type":"local","command":"/usr/bin/node","args":["/src/packages/mcp/src/server.mjs","--path","/x"]}"#;
        assert_eq!(
            merged(&format!(
                r#"{{"mcp":{{"servers":{{"dotaios":{legacy},"custom":{{}}}}}}}}"#
            )),
            Err(ConnectError::LegacyEntries(vec!["custom".into()]))
        );
        assert_eq!(
            merged_compact(&format!(
                r#"{{"mcp":{{"a":1,"servers":{{"dotaios":{legacy}}},"b":2}}}}"#
            )),
            format!(r#"{{"mcp":{{"a":1,"b":2,"dotaios":{ENTRY}}}}}"#)
        );
        let python = r#"{"type":"local","command":"python3","args":["/src/packages/mcp/src/server.mjs","--path","/x"]}"#;
        assert_eq!(
            merged(&format!(
                r#"{{"mcp":{{"servers":{{"dotaios":{python}}}}}}}"#
            )),
            Err(ConnectError::UnrecognizedLegacy)
        );
        assert_eq!(
            merged_compact(r#"{"mcp":{"a":1,"servers":{},"b":2}}"#),
            format!(r#"{{"mcp":{{"a":1,"b":2,"dotaios":{ENTRY}}}}}"#)
        );
        assert_eq!(
            merged_compact(r#"{"mcp":{"servers":null}}"#),
            format!(r#"{{"mcp":{{"servers":null,"dotaios":{ENTRY}}}}}"#)
        );
    }

    #[test]
    fn foreign_current_entries_are_refused() {
        for entry in [
            r#"{"type":"remote","url":"https://example.test/mcp"}"#,
            r#"{"type":"local","command":["/opt/bin/dotaios-mcp","--path","/x","extra"]}"#,
            r#"{"type":"local","command":["npx","foreign-prelude","--package","dotaios@1.0.0","foreign-middle","dotaios-mcp","--foreign-flag","--path","/foreign-aios","--tail"]}"#,
            r#"{"type":"local","command":["/opt/bin/dotaios-mcp","--path","/x"],"url":"u"}"#,
            r#"{"type":"local","command":["/opt/bin/dotaios-mcp","--path","/x"],"environment":{}}"#,
            r#"{"command":["/opt/bin/dotaios-mcp","--path","/x"]}"#,
            r#"{"type":"local","command":["relative/dotaios-mcp","--path","/x"]}"#,
            r#"{"type":"local","command":["/bin/other","--path","/x"]}"#,
            r#"{"type":"local","command":"/opt/bin/dotaios-mcp"}"#,
            r#""dotaios""#,
        ] {
            assert_eq!(
                merged(&format!(r#"{{"mcp":{{"dotaios":{entry}}}}}"#)),
                Err(ConnectError::Unrecognized),
                "{entry}"
            );
        }
    }

    // Unix launcher paths; the Windows form of rule (a) is `adapter_paths_follow_…` below.
    #[cfg(unix)]
    #[test]
    fn every_launcher_dotaios_ever_wrote_is_recognised() {
        for command in [
            r#"["/elsewhere/dotaios-mcp","--path","/x"]"#,
            r#"["/elsewhere/dotaios-mcp.exe","--path","/x"]"#,
            r#"["npx","--yes","--package","dotaios@2.0.19","dotaios-mcp","--path","/x"]"#,
            r#"["npx.cmd","--yes","--package","dotaios@2.0.0-beta.1+build.5","dotaios-mcp","--path","/x"]"#,
            r#"["/usr/bin/node","/a/packages/mcp/src/server.mjs","--path","/x"]"#,
            r#"["C:\\nodejs\\NODE.EXE","C:\\a\\packages/mcp\\src/server.mjs","--path","/x"]"#,
        ] {
            let text = format!(r#"{{"mcp":{{"dotaios":{{"type":"local","command":{command}}}}}}}"#);
            assert_eq!(
                merged_compact(&text),
                format!(r#"{{"mcp":{{"dotaios":{ENTRY}}}}}"#),
                "{command}"
            );
        }
    }

    #[test]
    fn pinned_versions() {
        for good in [
            "dotaios@2.0.19",
            "dotaios@0.0.0-rc.1",
            "dotaios@1.2.3+x-y.z",
        ] {
            assert!(is_pinned_package(good), "{good}");
        }
        for bad in [
            "dotaios@latest",
            "dotaios@2.0",
            "dotaios@2.0.x",
            "dotaios@2.0.1-",
            "dotaios@2.0.1+",
            "dotaios@2.0.1-a_b",
            "other@2.0.1",
            "dotaios@",
        ] {
            assert!(!is_pinned_package(bad), "{bad}");
        }
    }

    #[test]
    fn messages_name_the_path() {
        let path = Path::new("/h/.config/opencode/opencode.json");
        assert_eq!(
            ConnectError::LegacyEntries(vec!["a".into(), "b".into()]).message(path),
            "Existing /h/.config/opencode/opencode.json uses legacy mcp.servers entries (a, b). Move them to current mcp.<name> entries, then retry; refusing to write an invalid OpenCode configuration."
        );
        assert_eq!(
            ConnectError::Unreadable("EISDIR").message(path),
            "Could not read existing /h/.config/opencode/opencode.json (EISDIR). Refusing to overwrite it."
        );
        assert_eq!(
            io_code(&std::io::Error::from(std::io::ErrorKind::PermissionDenied)),
            "read error"
        );
    }

    #[test]
    fn adapter_paths_follow_each_platforms_rules() {
        assert!(is_adapter_path("/opt/bin/dotaios-mcp", Os::Unix));
        assert!(is_adapter_path("/opt/bin/dotaios-mcp.exe", Os::Unix));
        assert!(!is_adapter_path("/opt/bin/DOTAIOS-MCP", Os::Unix));
        assert!(!is_adapter_path("bin/dotaios-mcp", Os::Unix));
        assert!(!is_adapter_path(r"C:\bin\dotaios-mcp.exe", Os::Unix));
        assert!(is_adapter_path(
            r"C:\Users\ada\.cargo\bin\dotaios-mcp.exe",
            Os::Windows
        ));
        assert!(is_adapter_path(r"c:/tools/DotAIOS-MCP.EXE", Os::Windows));
        assert!(is_adapter_path(r"\\srv\share\dotaios-mcp", Os::Windows));
        assert!(is_adapter_path(r"\\?\C:\bin\dotaios-mcp.exe", Os::Windows));
        assert!(!is_adapter_path(r"bin\dotaios-mcp.exe", Os::Windows));
        assert!(!is_adapter_path(r"C:dotaios-mcp.exe", Os::Windows));
        assert!(!is_adapter_path(r"C:\bin\dotaios-mcp.cmd", Os::Windows));
    }
}
