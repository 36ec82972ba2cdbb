//! The terminal a person reads (contract 06 §1.9): whether output is coloured (`--color`,
//! `NO_COLOR`, `TERM=dumb`, whether stdout is a terminal), how wide a line may be (`COLUMNS`,
//! the terminal's own size, else 100), how many columns a character takes, and the styled,
//! width-cut text of one line with its matches marked.
//!
//! It decides and measures; it never writes (that is `crate::output`'s job), never reads a file,
//! and never cuts what an editor must open (a `path:line:` prefix is the caller's, kept whole).

use std::ffi::OsStr;
use std::io::IsTerminal;

use crate::Env;

/// The width when neither `COLUMNS` nor the terminal names one (contract 06 §1.9).
pub(crate) const DEFAULT_WIDTH: usize = 100;
/// The narrowest and widest line a person's output is cut to: a `COLUMNS` outside this range is
/// clamped into it, so that every cut line's work stays bounded (contract 06 §1.9).
pub(crate) const MIN_WIDTH: usize = 20;
pub(crate) const MAX_WIDTH: usize = 1000;

/// `--color <when>` (contract 06 §1.9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum ColorChoice {
    /// Colour only when stdout is a terminal (not a Windows console), `NO_COLOR` is unset or
    /// empty and `TERM` is not `dumb`.
    #[default]
    Auto,
    /// Colour whatever stdout is; the flag wins over `NO_COLOR`, as in ripgrep.
    Always,
    /// Never colour.
    Never,
}

impl ColorChoice {
    /// The accepted values, in the order the help and the error list them.
    pub(crate) const NAMES: [&'static str; 3] = ["auto", "always", "never"];

    pub(crate) fn parse(value: &str) -> Option<ColorChoice> {
        match value {
            "auto" => Some(ColorChoice::Auto),
            "always" => Some(ColorChoice::Always),
            "never" => Some(ColorChoice::Never),
            _ => None,
        }
    }
}

/// What the process knows about stdout, read once per command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stdout {
    /// stdout is a terminal.
    pub(crate) is_terminal: bool,
    /// `NO_COLOR` is set and not empty.
    pub(crate) no_color: bool,
    /// `TERM=dumb`.
    pub(crate) dumb: bool,
    /// The terminal is known to show ANSI colour: not on Windows, whose console shows escape
    /// sequences as text unless a program turns them on (which this `unsafe`-free crate does
    /// not), so `auto` stays plain there and `always` is the person's choice.
    pub(crate) ansi: bool,
    /// The width lines are cut to.
    pub(crate) width: usize,
}

impl Stdout {
    /// The facts of this process's stdout and environment.
    pub(crate) fn of_process(env: &Env) -> Stdout {
        let is_terminal = std::io::stdout().is_terminal();
        let queried = if is_terminal {
            crate::sys::stdout_columns()
        } else {
            None
        };
        Stdout {
            is_terminal,
            no_color: env.no_color,
            dumb: env.dumb_terminal,
            ansi: !cfg!(windows),
            width: width(env.columns.as_deref(), queried),
        }
    }

    /// Whether `choice` colours this output (contract 06 §1.9).
    pub(crate) fn colour(&self, choice: ColorChoice) -> bool {
        match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => self.is_terminal && self.ansi && !self.no_color && !self.dumb,
        }
    }
}

/// The line width: `COLUMNS` when it is a whole number, else the terminal's reported width,
/// else [`DEFAULT_WIDTH`]; clamped to [`MIN_WIDTH`]..=[`MAX_WIDTH`].
pub(crate) fn width(columns: Option<&OsStr>, queried: Option<usize>) -> usize {
    let given = columns
        .and_then(OsStr::to_str)
        .filter(|text| {
            !text.is_empty() && text.len() <= 6 && text.bytes().all(|b| b.is_ascii_digit())
        })
        .and_then(|text| text.parse::<usize>().ok())
        .filter(|&columns| columns > 0);
    given
        .or(queried)
        .unwrap_or(DEFAULT_WIDTH)
        .clamp(MIN_WIDTH, MAX_WIDTH)
}

/// The columns `c` takes: 2 for the East Asian wide and fullwidth blocks and the emoji blocks,
/// else 1. Combining and zero-width characters count 1 too: an overestimate only makes a cut
/// line shorter than the width, never longer.
pub(crate) fn char_columns(c: char) -> usize {
    let wide = matches!(u32::from(c),
        0x1100..=0x115F
        | 0x231A..=0x231B
        | 0x2329..=0x232A
        | 0x23E9..=0x23EC
        | 0x23F0
        | 0x23F3
        | 0x25FD..=0x25FE
        | 0x2614..=0x2615
        | 0x2648..=0x2653
        | 0x267F
        | 0x2693
        | 0x26A1
        | 0x26AA..=0x26AB
        | 0x26BD..=0x26BE
        | 0x26C4..=0x26C5
        | 0x26CE
        | 0x26D4
        | 0x26EA
        | 0x26F2..=0x26F5
        | 0x26FA
        | 0x26FD
        | 0x2705
        | 0x270A..=0x270B
        | 0x2728
        | 0x274C
        | 0x274E
        | 0x2753..=0x2755
        | 0x2757
        | 0x2795..=0x2797
        | 0x27B0
        | 0x27BF
        | 0x2B1B..=0x2B1C
        | 0x2B50
        | 0x2B55
        | 0x2E80..=0x303E
        | 0x3041..=0x33FF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF
        | 0xA960..=0xA97F
        | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF
        | 0xFE10..=0xFE19
        | 0xFE30..=0xFE6F
        | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6
        | 0x16FE0..=0x18AFF
        | 0x1B000..=0x1B2FF
        | 0x1F004
        | 0x1F0CF
        | 0x1F18E
        | 0x1F191..=0x1F19A
        | 0x1F200..=0x1F251
        | 0x1F300..=0x1F64F
        | 0x1F680..=0x1F6FF
        | 0x1F7E0..=0x1F7EB
        | 0x1F90C..=0x1F9FF
        | 0x1FA70..=0x1FAFF
        | 0x20000..=0x3FFFD
    );
    if wide { 2 } else { 1 }
}

/// The columns of `text`.
pub(crate) fn columns(text: &str) -> usize {
    text.chars().map(char_columns).sum()
}

/// The ANSI styles of a person's output (ripgrep's defaults: paths magenta, line numbers
/// green, matches bold red).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    /// A scope heading.
    Heading,
    /// A path.
    Path,
    /// A line number.
    Line,
    /// A matched word.
    Match,
}

impl Style {
    fn start(self) -> &'static str {
        match self {
            Style::Heading => "\x1b[1m",
            Style::Path => "\x1b[35m",
            Style::Line => "\x1b[32m",
            Style::Match => "\x1b[1;31m",
        }
    }
}

const RESET: &str = "\x1b[0m";

/// How one output styles text: with ANSI colour, or plain with matches marked `>>…<<` (the
/// marker of contract 03 §17.4, so a match stays visible without colour).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Painter {
    pub(crate) colour: bool,
}

impl Painter {
    /// `text` in `style` (as it is without colour).
    pub(crate) fn style(self, style: Style, text: &str) -> String {
        if self.colour {
            format!("{}{text}{RESET}", style.start())
        } else {
            text.to_owned()
        }
    }

    /// `text` with the byte ranges `marks` (sorted, disjoint, on character boundaries) marked,
    /// cut to `width` columns with `…` when it is longer or when `more` says that `text` is
    /// itself a prefix. Without colour the markers take columns and are counted; a cut never
    /// leaves a marker open.
    pub(crate) fn marked(
        self,
        text: &str,
        marks: &[(usize, usize)],
        width: usize,
        more: bool,
    ) -> String {
        let (open, close, marker) = if self.colour {
            (Style::Match.start(), RESET, 0)
        } else {
            (">>", "<<", 2)
        };
        let fits = !more && columns(text) + marks.len() * 2 * marker <= width;
        let budget = if fits { width } else { width.saturating_sub(1) };
        let mut out = String::with_capacity(text.len() + 16);
        let mut used = 0;
        let mut next = marks.iter().peekable();
        let mut inside: Option<usize> = None;
        for (at, c) in text.char_indices() {
            if inside.is_some_and(|end| at >= end) {
                out.push_str(close);
                used += marker;
                inside = None;
            }
            let opens = inside.is_none() && next.peek().is_some_and(|&&(start, _)| start == at);
            let needed = char_columns(c)
                + if opens { 2 * marker } else { 0 }
                + if inside.is_some() { marker } else { 0 };
            if used + needed > budget {
                break;
            }
            if opens && let Some(&(_, end)) = next.next() {
                out.push_str(open);
                used += marker;
                inside = Some(end);
            }
            out.push(c);
            used += char_columns(c);
        }
        if inside.is_some() {
            out.push_str(close);
        }
        if !fits {
            out.push('…');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stdout(is_terminal: bool, no_color: bool, dumb: bool) -> Stdout {
        Stdout {
            is_terminal,
            no_color,
            dumb,
            ansi: true,
            width: DEFAULT_WIDTH,
        }
    }

    /// `auto` colours a terminal only, and `NO_COLOR` or `TERM=dumb` turn it off; `always`
    /// wins over `NO_COLOR` as in ripgrep (contract 06 §1.9).
    #[test]
    fn colour_follows_the_flag_the_terminal_and_no_color() {
        assert!(stdout(true, false, false).colour(ColorChoice::Auto));
        assert!(!stdout(false, false, false).colour(ColorChoice::Auto));
        assert!(!stdout(true, true, false).colour(ColorChoice::Auto));
        assert!(!stdout(true, false, true).colour(ColorChoice::Auto));
        assert!(stdout(false, true, true).colour(ColorChoice::Always));
        assert!(!stdout(true, false, false).colour(ColorChoice::Never));
        let windows_console = Stdout {
            ansi: false,
            ..stdout(true, false, false)
        };
        assert!(!windows_console.colour(ColorChoice::Auto));
        assert!(windows_console.colour(ColorChoice::Always));
        assert_eq!(ColorChoice::parse("always"), Some(ColorChoice::Always));
        assert_eq!(ColorChoice::parse("Always"), None);
    }

    #[test]
    fn width_prefers_columns_then_the_terminal() {
        assert_eq!(width(Some(OsStr::new("40")), Some(120)), 40);
        assert_eq!(width(Some(OsStr::new("x")), Some(120)), 120);
        assert_eq!(width(Some(OsStr::new("0")), None), DEFAULT_WIDTH);
        assert_eq!(width(None, None), DEFAULT_WIDTH);
        assert_eq!(width(Some(OsStr::new("5")), None), MIN_WIDTH);
        assert_eq!(width(Some(OsStr::new("999999")), None), MAX_WIDTH);
        assert_eq!(
            width(Some(OsStr::new("99999999999999999999")), None),
            DEFAULT_WIDTH
        );
    }

    #[test]
    fn marked_text_is_cut_to_the_width_with_markers_counted() {
        let plain = Painter { colour: false };
        assert_eq!(
            plain.marked("a needle b", &[(2, 8)], 20, false),
            "a >>needle<< b"
        );
        // 14 columns with the markers: cut to 9 (the closing marker reserved) plus `…`.
        assert_eq!(
            plain.marked("a needle b", &[(2, 8)], 10, false),
            "a >>nee<<…"
        );
        assert_eq!(plain.marked("abc", &[], 3, true), "ab…");
        assert_eq!(plain.marked("会議会議", &[], 5, false), "会議…");
        assert_eq!(columns(&plain.marked("会議会議", &[], 5, false)), 5);
        let colour = Painter { colour: true };
        assert_eq!(
            colour.marked("a needle b", &[(2, 8)], 10, false),
            "a \x1b[1;31mneedle\x1b[0m b"
        );
        for width in MIN_WIDTH..40 {
            let text = "x ".repeat(30);
            let marks: Vec<(usize, usize)> = (0..30).map(|i| (2 * i, 2 * i + 1)).collect();
            assert!(columns(&plain.marked(&text, &marks, width, false)) <= width);
        }
    }
}
