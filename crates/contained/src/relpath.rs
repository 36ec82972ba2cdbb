//! [`RelPath`]: the only kind of path the contained reader accepts below a root.

use std::fmt;

/// A relative path of one or more normal components separated by `/`: no empty, `.` or `..`
/// component, no leading `/`, no NUL. It names something below a root and cannot name
/// anything else.
///
/// On Windows every component must also pass the Windows name rules
/// (`relpath::is_windows_name`: no reserved character, `\` or `:` included, no control
/// character, no trailing dot or space, no DOS device name, no 8.3 short-name shape, at most 255
/// UTF-16 units), so a path can never mean a device, an alternate data stream, a drive,
/// another entry's short alias or a name Windows would silently rewrite. On Unix those names are
/// ordinary file names and are accepted (`docs/decisions.md`, "The contained reader on
/// Windows").
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RelPath(String);

/// Why a string is not a [`RelPath`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a contained relative path")]
pub struct InvalidRelPath;

impl RelPath {
    /// Validates `path` (for example `memory/events.jsonl`).
    pub fn new(path: &str) -> Result<RelPath, InvalidRelPath> {
        if path.is_empty() || path.contains('\0') {
            return Err(InvalidRelPath);
        }
        if path.split('/').all(is_component) {
            Ok(RelPath(path.to_owned()))
        } else {
            Err(InvalidRelPath)
        }
    }

    /// `self` followed by one more component (a directory entry name).
    pub fn join(&self, name: &str) -> Result<RelPath, InvalidRelPath> {
        if !is_component(name) || name.contains(['/', '\0']) {
            return Err(InvalidRelPath);
        }
        // Sized once and filled by hand: this runs once per walked entry.
        let mut path = String::with_capacity(self.0.len() + 1 + name.len());
        path.push_str(&self.0);
        path.push('/');
        path.push_str(name);
        Ok(RelPath(path))
    }

    /// The path as text, `/`-separated.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The components, outermost first.
    pub fn components(&self) -> impl Iterator<Item = &str> {
        self.0.split('/')
    }

    /// The last component.
    pub fn file_name(&self) -> &str {
        self.0.rsplit('/').next().unwrap_or(&self.0)
    }

    /// Everything before the last component, when there is more than one.
    pub(crate) fn parent(&self) -> Option<&str> {
        self.0.rsplit_once('/').map(|(parent, _)| parent)
    }
}

/// Whether `name` is one normal component: what a directory handle's child operations accept
/// (no empty name, no `.` or `..`, no `/`, no NUL).
#[cfg_attr(
    all(windows, not(test)),
    expect(
        dead_code,
        reason = "Windows names are UTF-16 and checked by is_windows_name"
    )
)]
pub(crate) fn is_single_component_bytes(name: &[u8]) -> bool {
    // One pass over the bytes: this runs three times a file read by a walk (contract 03 §4.8).
    !name.is_empty() && name != b"." && name != b".." && !name.iter().any(|&b| b == b'/' || b == 0)
}

fn is_normal_component(component: &str) -> bool {
    !component.is_empty() && component != "." && component != ".."
}

/// One component of a [`RelPath`] on this platform: normal, and on Windows a Windows name.
fn is_component(component: &str) -> bool {
    is_normal_component(component) && {
        #[cfg(windows)]
        {
            is_windows_name(&component.encode_utf16().collect::<Vec<u16>>())
        }
        #[cfg(not(windows))]
        {
            true
        }
    }
}

/// The longest name, in UTF-16 units, that NTFS, ReFS and FAT store (`MAX_COMPONENT_LENGTH`).
const WINDOWS_NAME_MAX: usize = 255;

/// The DOS device names: with any extension, in any case, and with spaces before the
/// extension, each names a device to the Win32 layer rather than a file ("Naming Files, Paths,
/// and Namespaces", Microsoft). `CONIN$` and `CONOUT$` name the console.
const DOS_DEVICES: [&str; 27] = [
    "CON",
    "PRN",
    "AUX",
    "NUL",
    "CONIN$",
    "CONOUT$",
    "COM1",
    "COM2",
    "COM3",
    "COM4",
    "COM5",
    "COM6",
    "COM7",
    "COM8",
    "COM9",
    "COM\u{b9}",
    "COM\u{b2}",
    "COM\u{b3}",
    "LPT1",
    "LPT2",
    "LPT3",
    "LPT4",
    "LPT5",
    "LPT6",
    "LPT7",
    "LPT8",
    "LPT9",
];

/// The superscript ports the Win32 layer treats as devices too.
const DOS_SUPERSCRIPT_PRINTERS: [&str; 3] = ["LPT\u{b9}", "LPT\u{b2}", "LPT\u{b3}"];

/// Whether `name` (UTF-16 units) is one component Windows stores and means exactly as given:
/// not empty; at most 255 units; no control character (U+0000–U+001F) and none of
/// `< > : " / \ | ? *` (so no separator, drive, alternate data stream or wildcard); not ending
/// in a dot or a space (which the Win32 layer strips, so `a.md.` would alias `a.md`, and which
/// also refuses `.` and `..`); not a DOS device name ([`DOS_DEVICES`]) before its first dot,
/// in any case and with trailing spaces (`con`, `NUL.md`, `Com1 .txt`); and not shaped like a
/// generated 8.3 short name ([`is_short_name_shape`]: `PROGRA~1`, `WORK~12.MD`), which NTFS
/// resolves to another entry whose listed (long) name is different.
///
/// A pure function of the name, so its tests run on every platform; it is applied on Windows
/// only (`RelPath` and the single-name check of `Dir` operations).
#[cfg_attr(
    all(not(windows), not(test)),
    expect(dead_code, reason = "the Windows name rules apply on Windows only")
)]
pub(crate) fn is_windows_name(name: &[u16]) -> bool {
    if name.is_empty() || name.len() > WINDOWS_NAME_MAX {
        return false;
    }
    let reserved = |unit: u16| {
        unit < 0x20 || u8::try_from(unit).is_ok_and(|byte| b"<>:\"/\\|?*".contains(&byte))
    };
    if name.iter().any(|&unit| reserved(unit)) {
        return false;
    }
    if matches!(name.last(), Some(&unit) if unit == u16::from(b'.') || unit == u16::from(b' ')) {
        return false;
    }
    !is_dos_device(name) && !is_short_name_shape(name)
}

/// Whether `name` has the shape of a short name Windows generates for a long one: a base of at
/// most 8 units ending in `~` and one or more ASCII digits after at least one other unit, and
/// either no extension or one of 1 to 3 units without a further dot. A listing never returns
/// these aliases (it returns the long names), so a name of this shape that is not its entry's
/// own name could only reach the reader from elsewhere; a long name of this shape is refused
/// too, as it cannot be told apart.
fn is_short_name_shape(name: &[u16]) -> bool {
    let dot = u16::from(b'.');
    let (base, extension) = match name.iter().position(|&unit| unit == dot) {
        Some(at) => (&name[..at], Some(&name[at + 1..])),
        None => (name, None),
    };
    if base.len() > 8
        || extension.is_some_and(|ext| ext.is_empty() || ext.len() > 3 || ext.contains(&dot))
    {
        return false;
    }
    let Some(tilde) = base.iter().rposition(|&unit| unit == u16::from(b'~')) else {
        return false;
    };
    let digits = &base[tilde + 1..];
    tilde >= 1
        && !digits.is_empty()
        && digits
            .iter()
            .all(|&unit| (u16::from(b'0')..=u16::from(b'9')).contains(&unit))
}

/// Whether the part of `name` before its first dot, without trailing spaces, is a DOS device
/// name in any case.
fn is_dos_device(name: &[u16]) -> bool {
    let stem_end = name
        .iter()
        .position(|&unit| unit == u16::from(b'.'))
        .unwrap_or(name.len());
    let mut stem = &name[..stem_end];
    while let [rest @ .., last] = stem
        && *last == u16::from(b' ')
    {
        stem = rest;
    }
    DOS_DEVICES
        .iter()
        .chain(DOS_SUPERSCRIPT_PRINTERS.iter())
        .any(|device| {
            device.encode_utf16().count() == stem.len()
                && device
                    .encode_utf16()
                    .zip(stem)
                    .all(|(device, &unit)| ascii_upper(unit) == device)
        })
}

fn ascii_upper(unit: u16) -> u16 {
    if (u16::from(b'a')..=u16::from(b'z')).contains(&unit) {
        unit - 32
    } else {
        unit
    }
}

impl fmt::Debug for RelPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl fmt::Display for RelPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_normal_paths() {
        assert!(RelPath::new("aios.json").is_ok());
        assert!(RelPath::new("memory/signals/2026-11-30.jsonl").is_ok());
        // A name of dots is a name on Unix; on Windows its trailing dot is refused.
        assert_eq!(RelPath::new("...").is_ok(), cfg!(not(windows)));
    }

    #[test]
    fn refuses_everything_that_could_leave() {
        for bad in [
            "",
            "/etc/passwd",
            "a//b",
            "a/",
            "./a",
            "a/..",
            "../x",
            "a\0b",
            ".",
        ] {
            assert_eq!(RelPath::new(bad), Err(InvalidRelPath), "{bad:?}");
        }
        let base = RelPath::new("a").unwrap();
        assert!(base.join("..").is_err());
        assert!(base.join("b/c").is_err());
        assert_eq!(base.join("b").unwrap().as_str(), "a/b");
    }

    fn units(name: &str) -> Vec<u16> {
        name.encode_utf16().collect()
    }

    #[test]
    fn windows_names_accept_ordinary_names() {
        for good in [
            "work.md",
            "...md",
            ".env",
            "a b.md",
            "CONFIG.md",
            "console.md",
            "COM10.md",
            "LPT0",
            "COM",
            "nul-notes.md",
            "x.con",
            "\u{e9}t\u{e9}.md",
            "\u{1f600}.md",
        ] {
            assert!(is_windows_name(&units(good)), "{good:?}");
        }
        assert!(is_windows_name(&vec![u16::from(b'a'); 255]));
        // A lone surrogate is a legal NTFS name unit.
        assert!(is_windows_name(&[0xd800, u16::from(b'a')]));
    }

    #[test]
    fn windows_names_refuse_reserved_characters_and_control_characters() {
        for bad in [
            "a<b",
            "a>b",
            "a:b",
            "a\"b",
            "a/b",
            "a\\b",
            "a|b",
            "a?b",
            "a*b",
            "work.md:stream",
            "C:",
            "a\u{1}b",
            "a\tb",
            "a\0b",
            "\u{1f}",
        ] {
            assert!(!is_windows_name(&units(bad)), "{bad:?}");
        }
    }

    #[test]
    fn windows_names_refuse_trailing_dots_spaces_and_long_names() {
        for bad in ["", ".", "..", "a.", "a.md.", "a ", "a.md ", "a. ", " "] {
            assert!(!is_windows_name(&units(bad)), "{bad:?}");
        }
        assert!(!is_windows_name(&vec![u16::from(b'a'); 256]));
        // The bound counts UTF-16 units, not bytes or characters: 128 emoji are 256 units.
        assert!(!is_windows_name(&units(&"\u{1f600}".repeat(128))));
        assert!(is_windows_name(&units(&"\u{1f600}".repeat(127))));
    }

    #[test]
    fn windows_names_refuse_dos_devices_with_any_extension_and_case() {
        for bad in [
            "CON",
            "con",
            "Con.md",
            "PRN.txt",
            "aux.tar.gz",
            "NUL",
            "nul.md",
            "COM1",
            "com9.md",
            "LPT1",
            "lpt5.x",
            "COM\u{b9}",
            "lpt\u{b3}.md",
            "CON .md",
            "nul  .txt",
            "CONIN$",
            "conout$.log",
        ] {
            assert!(!is_windows_name(&units(bad)), "{bad:?}");
        }
    }

    #[test]
    fn windows_names_refuse_short_name_shapes() {
        for bad in [
            "PROGRA~1",
            "progra~1",
            "WORK~1.MD",
            "work~12.md",
            "CONTEX~1",
            "A~1",
            "AB12~123.TXT",
            "ABCDEF~9.X",
        ] {
            assert!(!is_windows_name(&units(bad)), "{bad:?}");
        }
        for good in [
            "~1",
            "notes~.md",
            "notes~a.md",
            "LONGNAME~1",
            "WORK~1.MDX2",
            "WORK~1.tar.gz",
            "WORK~1.",
            "backup~1~x.md",
            "~$report.docx",
        ] {
            // Not the 8.3 shape (too long a base or extension, no digits, nothing before the
            // tilde, two dots); "WORK~1." is refused by the trailing-dot rule instead.
            assert_eq!(is_windows_name(&units(good)), good != "WORK~1.", "{good:?}");
        }
    }

    /// On Windows a `RelPath` applies the Windows rules to every component; on Unix the same
    /// names are ordinary file names.
    #[test]
    fn relpath_applies_the_windows_rules_on_windows_only() {
        for name in ["CON.md", "a:b", "a.md.", "notes ", "x\\y"] {
            let path = format!("context/{name}");
            assert_eq!(RelPath::new(&path).is_ok(), cfg!(not(windows)), "{path:?}");
            let base = RelPath::new("context").unwrap();
            assert_eq!(base.join(name).is_ok(), cfg!(not(windows)), "{name:?}");
        }
    }

    #[test]
    fn parent_and_single_components() {
        assert_eq!(RelPath::new("a/b/c").unwrap().parent(), Some("a/b"));
        assert_eq!(RelPath::new("a").unwrap().parent(), None);
        assert!(is_single_component_bytes(b"note.md"));
        assert!(is_single_component_bytes(b"..."));
        for bad in [&b""[..], b".", b"..", b"a/b", b"/", b"a\0b"] {
            assert!(!is_single_component_bytes(bad), "{bad:?}");
        }
    }
}
