//! Hostile directory and file names (issue 35: one odd name never takes a tool down): every
//! character of general category `Cc`, `Cf`, `Zl` and `Zp`, read from the Unicode data itself
//! rather than from the product's own predicate, and names built from Markdown and HTML
//! metacharacters. The tests that build folders with them assert that a call still succeeds and
//! prints none of these characters raw. [`non_utf8_entry`] makes a name that is not UTF-8.

use icu_properties::CodePointMapData;
use icu_properties::props::{GeneralCategory, GeneralCategoryGroup};

/// Every code point of general category `Cc`, `Cf`, `Zl` or `Zp`, in code point order.
pub fn invisible_chars() -> Vec<char> {
    let group = GeneralCategoryGroup::Control
        .union(GeneralCategoryGroup::Format)
        .union(GeneralCategoryGroup::LineSeparator)
        .union(GeneralCategoryGroup::ParagraphSeparator);
    CodePointMapData::<GeneralCategory>::new()
        .iter_ranges_for_group(group)
        .flat_map(|range| range.filter_map(char::from_u32))
        .collect()
}

/// The Markdown and HTML metacharacters a name may try to open markup with.
pub const MARKUP_CHARS: &[char] = &['`', '*', '_', '[', ']', '<', '>', '#', '|', '\\', '&'];

/// Names a directory or file may carry on Unix: one per invisible character (`NUL` excepted,
/// which no file name can hold) around a reversed word, the two reproductions, one per
/// markup character and a few markup sequences. None contains `/`.
pub fn hostile_names() -> Vec<String> {
    let mut names: Vec<String> = invisible_chars()
        .into_iter()
        .filter(|c| *c != '\0')
        .map(|c| format!("evil{c}gnp.EMDAER"))
        .collect();
    names.extend(MARKUP_CHARS.iter().map(|c| format!("zz{c}x")));
    names.extend(
        [
            "zz`<img src=x>`",
            "<script>alert(1)",
            "[x](javascript:alert(1))",
            "![i](http:x)",
            "# heading",
            "a | b | c",
            "line\nbreak",
            "&#x202E;entity",
            "*bold* _em_",
        ]
        .map(str::to_owned),
    );
    names
}

/// The sequences that would open HTML or Markdown if a hostile name were printed raw.
pub const MARKUP_OPENERS: &[&str] = &[
    "<img",
    "<script",
    "](javascript:",
    "![i]",
    "&#x202E;",
    "`<",
    "*bold*",
];

/// Asserts that `text` shows none of `names` raw: no name itself, none of their format or
/// control characters (the line breaks every output has aside), no markup opener (contract 02
/// §10.1), and not `unread`, a marker only the odd directories' files hold.
pub fn assert_no_raw_name(text: &str, names: &[String], unread: &str) {
    let invisible = invisible_chars();
    for name in names {
        assert!(!text.contains(name.as_str()), "{name:?} printed raw");
        for c in name.chars().filter(|c| *c != '\n' && invisible.contains(c)) {
            assert!(!text.contains(c), "U+{:04X} printed raw", u32::from(c));
        }
    }
    for opener in MARKUP_OPENERS {
        assert!(!text.contains(opener), "{opener:?} printed");
    }
    assert!(!text.contains(unread), "an odd directory's file was read");
}

/// Creates, in the directory `parent`, an entry whose name is `name`, bytes that are not UTF-8
/// (contract 03 §4.6): a file holding `contents`, or a directory when `contents` is `None`.
/// Returns its path, or `None`, saying why on stderr, where the filesystem refuses such names
/// (macOS APFS answers `EILSEQ`), so the calling test stops there instead of failing.
#[cfg(unix)]
pub fn non_utf8_entry(
    parent: &std::path::Path,
    name: &[u8],
    contents: Option<&[u8]>,
) -> Option<std::path::PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    let path = parent.join(std::ffi::OsStr::from_bytes(name));
    let made = match contents {
        Some(bytes) => std::fs::write(&path, bytes),
        None => std::fs::create_dir(&path),
    };
    match made {
        Ok(()) => Some(path),
        Err(error) if error.raw_os_error() == Some(rustix::io::Errno::ILSEQ.raw_os_error()) => {
            #[expect(clippy::print_stderr, reason = "a skipped test says why")]
            {
                eprintln!("skipped: this filesystem refuses names that are not UTF-8 ({error})");
            }
            None
        }
        Err(error) => panic!("create {}: {error}", path.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_categories_are_complete() {
        let chars = invisible_chars();
        // 65 Cc, U+2028 and U+2029, and the Cf characters (170 in Unicode 16).
        assert!(chars.len() > 65 + 2 + 150, "{}", chars.len());
        for c in [
            '\0',
            '\n',
            '\u{7F}',
            '\u{9F}',
            '\u{AD}',
            '\u{200B}',
            '\u{202E}',
            '\u{2066}',
            '\u{FEFF}',
            '\u{E0001}',
            '\u{2028}',
        ] {
            assert!(chars.contains(&c), "{c:?}");
        }
        assert!(!chars.contains(&'a') && !chars.contains(&' '));
    }
}
