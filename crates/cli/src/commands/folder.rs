//! The AIOS folder a command works on (contract 01 §1): where it is, the folder check every
//! reading command makes first, and the one rule for a path written into client configuration.
//! A leaf: it uses core and the CLI's error type, no command; of the folder it reads only what
//! the check of contract 01 §1.3 looks at.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use dotaios_core::folder::check::is_aios_folder;
use dotaios_core::folder::location::{LocationInputs, resolve_folder};

use crate::{CliError, Env};

/// The AIOS folder a command works on (contract 01 §1): `--path`, else `~/aios`, made absolute
/// against the working directory. `DOTAIOS_PATH` is never consulted here; only the adapter
/// reads it.
pub(crate) fn configured_folder(path_flag: Option<&OsStr>, env: &Env) -> PathBuf {
    resolve_folder(LocationInputs {
        path_flag,
        env_path: None,
        home: &env.home_or_root(),
        cwd: &env.cwd,
    })
}

/// [`configured_folder`] after the folder check of contract 01 §1.3.
pub(crate) fn checked_folder(path_flag: Option<&OsStr>, env: &Env) -> Result<PathBuf, CliError> {
    let folder = configured_folder(path_flag, env);
    require_aios_json(&folder)?;
    Ok(folder)
}

/// A path that goes into a client configuration (`mcp install`, `connect`) must be UTF-8 text
/// (contract 06 §2.3).
pub(crate) fn utf8_path(path: &Path) -> Result<&str, CliError> {
    path.to_str()
        .ok_or_else(|| CliError::NonUtf8Path(path.to_path_buf()))
}

/// The folder check of contract 01 §1.3 ([`is_aios_folder`], shared with the adapter), refused
/// with the CLI's message, which names the folder.
pub(crate) fn require_aios_json(folder: &Path) -> Result<(), CliError> {
    if is_aios_folder(folder) {
        Ok(())
    } else {
        Err(CliError::NoFolder(folder.to_path_buf()))
    }
}
