//! Where the AIOS folder is (contract 01 §1): choosing the source, tilde expansion and lexical
//! absolutisation. Pure: the caller passes the home and working directories in, and nothing
//! here touches the filesystem (symlinks are not resolved; the folder need not exist).

use std::ffi::{OsStr, OsString};
use std::path::{Component, Path, PathBuf};

/// The inputs of folder resolution, captured by the binary.
#[derive(Debug, Clone, Copy)]
pub struct LocationInputs<'a> {
    /// The last `--path` value given, if any.
    pub path_flag: Option<&'a OsStr>,
    /// `DOTAIOS_PATH`, only for the adapter surfaces; `None` for every other command.
    pub env_path: Option<&'a OsStr>,
    /// The home directory (`$HOME`).
    pub home: &'a Path,
    /// The working directory.
    pub cwd: &'a Path,
}

/// Resolves the configured AIOS folder: `--path`, else a non-empty `DOTAIOS_PATH`, else
/// `~/aios`; then tilde expansion (§1.2) and lexical absolutisation against `cwd`.
pub fn resolve_folder(inputs: LocationInputs<'_>) -> PathBuf {
    let chosen: OsString = match (inputs.path_flag, inputs.env_path) {
        (Some(flag), _) => flag.to_os_string(),
        (None, Some(env)) if !env.is_empty() => env.to_os_string(),
        _ => OsString::from("~/aios"),
    };
    absolutize(&expand_tilde(&chosen, inputs.home), inputs.cwd)
}

/// `~` → home, `~/x` → home/x, and the reference's quirk `~x` → home/x (no `~user` lookup).
/// On Windows `~\x` is home/x too.
pub fn expand_tilde(value: &OsStr, home: &Path) -> PathBuf {
    let bytes = value.as_encoded_bytes();
    if bytes.first() != Some(&b'~') {
        return PathBuf::from(value);
    }
    let separator = bytes
        .get(1)
        .is_some_and(|byte| *byte == b'/' || (cfg!(windows) && *byte == b'\\'));
    // The remainder may be non-UTF-8: cut losslessly after the ASCII prefix.
    let rest = os_tail(value, if separator { 2 } else { 1 });
    if rest.is_empty() {
        home.to_path_buf()
    } else {
        home.join(rest)
    }
}

/// Makes `path` absolute against `cwd` lexically: `.` components are dropped and `..` pops one
/// component, without consulting the filesystem.
pub fn absolutize(path: &Path, cwd: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        cwd.join(path)
    };
    let mut normal = PathBuf::new();
    for component in joined.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                normal.pop();
            }
            other => normal.push(other.as_os_str()),
        }
    }
    normal
}

/// `value` without its first `skip` bytes, which must be ASCII (so the cut falls between two
/// characters on every platform), kept exactly: Unix OS strings are bytes, Windows ones
/// UTF-16 code units, one per ASCII byte. Used wherever an argument is split after a fixed
/// ASCII prefix (`~/`, `--path=`).
pub fn os_tail(value: &OsStr, skip: usize) -> OsString {
    debug_assert!(value.as_encoded_bytes()[..skip].is_ascii());
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        OsStr::from_bytes(&value.as_bytes()[skip..]).to_os_string()
    }
    #[cfg(windows)]
    {
        use std::os::windows::ffi::{OsStrExt, OsStringExt};
        let wide: Vec<u16> = value.encode_wide().skip(skip).collect();
        OsString::from_wide(&wide)
    }
    #[cfg(not(any(unix, windows)))]
    {
        OsString::from(String::from_utf8_lossy(&value.as_encoded_bytes()[skip..]).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(flag: Option<&str>, env: Option<&str>) -> PathBuf {
        resolve_folder(LocationInputs {
            path_flag: flag.map(OsStr::new),
            env_path: env.map(OsStr::new),
            home: Path::new("/home/ada"),
            cwd: Path::new("/srv/cwd"),
        })
    }

    #[test]
    fn order_is_flag_then_env_then_home() {
        assert_eq!(
            resolve(Some("x"), Some("/env")),
            PathBuf::from("/srv/cwd/x")
        );
        assert_eq!(resolve(None, Some("/env")), PathBuf::from("/env"));
        assert_eq!(resolve(None, Some("")), PathBuf::from("/home/ada/aios"));
        assert_eq!(resolve(None, None), PathBuf::from("/home/ada/aios"));
    }

    #[test]
    fn tilde_forms() {
        assert_eq!(resolve(Some("~"), None), PathBuf::from("/home/ada"));
        assert_eq!(
            resolve(Some("~/notes"), None),
            PathBuf::from("/home/ada/notes")
        );
        assert_eq!(
            resolve(Some("~notes"), None),
            PathBuf::from("/home/ada/notes")
        );
        assert_eq!(resolve(Some("a/~b"), None), PathBuf::from("/srv/cwd/a/~b"));
    }

    #[test]
    fn absolutisation_is_lexical() {
        assert_eq!(resolve(Some("../a/./b"), None), PathBuf::from("/srv/a/b"));
        assert_eq!(resolve(Some("/abs/x/.."), None), PathBuf::from("/abs"));
    }
}
