//! The Cranfield collection's three files, read into documents, queries and judgments
//! (contract 07 §9.2): `cran.all.1400` (records `.I <n>` with the fields `.T` title, `.A`
//! authors, `.B` bibliography, `.W` text), `cran.qry` (records `.I <n>` with `.W`) and
//! `cranqrel` (`<query> <document> <code>` per line).
//!
//! It owns the format and its bounds: each file is read whole only below [`MAX_FILE_BYTES`],
//! and at most [`MAX_RECORDS`] records and [`MAX_JUDGMENTS`] judgments are kept, in one pass
//! over the lines. It never writes anything.

use std::collections::BTreeMap;
use std::path::Path;

/// The largest file read (the real `cran.all.1400` is 1.6 MB).
pub(crate) const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;
/// The most documents, or queries, of one file.
pub(crate) const MAX_RECORDS: usize = 100_000;
/// The most judgment lines.
pub(crate) const MAX_JUDGMENTS: usize = 1_000_000;

/// One document: its `.I` number, its title (`.T`) and its text (`.W`), each field's lines
/// joined with one space.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CranDoc {
    pub(crate) number: u32,
    pub(crate) title: String,
    pub(crate) text: String,
}

/// One query: its position in `cran.qry` (1-based, the number `cranqrel` uses) and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CranQuery {
    pub(crate) position: u32,
    pub(crate) text: String,
}

/// The whole collection; `judgments` maps (query position, document number) to the gain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cranfield {
    pub(crate) docs: Vec<CranDoc>,
    pub(crate) queries: Vec<CranQuery>,
    pub(crate) judgments: BTreeMap<(u32, u32), u8>,
}

/// Reads `cran.all.1400`, `cran.qry` and `cranqrel` from `dir`.
pub(crate) fn load(dir: &Path) -> Result<Cranfield, String> {
    let docs_text = read_bounded(&dir.join("cran.all.1400"))?;
    let queries_text = read_bounded(&dir.join("cran.qry"))?;
    let qrels_text = read_bounded(&dir.join("cranqrel"))?;
    parse(&docs_text, &queries_text, &qrels_text)
}

/// The three texts parsed; every judgment names a query and a document that exist.
pub(crate) fn parse(docs: &str, queries: &str, qrels: &str) -> Result<Cranfield, String> {
    let docs: Vec<CranDoc> = records(docs, "cran.all.1400")?
        .into_iter()
        .map(|record| CranDoc {
            number: record.number,
            title: record.field('T'),
            text: record.field('W'),
        })
        .collect();
    let queries: Vec<CranQuery> = records(queries, "cran.qry")?
        .into_iter()
        .zip(1u32..)
        .map(|(record, position)| CranQuery {
            position,
            // One space between words: the topics file is tab-separated, one query a line.
            text: record
                .field('W')
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
        })
        .collect();
    let mut seen = std::collections::HashSet::new();
    for doc in &docs {
        if !seen.insert(doc.number) {
            return Err(format!("cran.all.1400: document {} twice", doc.number));
        }
    }
    let judgments = judgments(qrels, queries.len(), &seen)?;
    Ok(Cranfield {
        docs,
        queries,
        judgments,
    })
}

/// Cleverdon's relevance code (1 = a complete answer … 4 = of minimum interest; `cranqrel.readme`)
/// as a graded gain for nDCG: 1 → 4, 2 → 3, 3 → 2, 4 → 1. The code -1 (and 5, "of no
/// interest") is a judged non-relevant document, gain 0.
pub(crate) fn gain(code: i32) -> Option<u8> {
    match code {
        1..=4 => u8::try_from(5 - code).ok(),
        -1 | 5 => Some(0),
        _ => None,
    }
}

fn judgments(
    text: &str,
    queries: usize,
    docs: &std::collections::HashSet<u32>,
) -> Result<BTreeMap<(u32, u32), u8>, String> {
    let mut out = BTreeMap::new();
    for (index, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        if fields.is_empty() {
            continue;
        }
        let bad = || {
            format!(
                "cranqrel line {}: not `<query> <document> <code>`",
                index + 1
            )
        };
        let [query, doc, code] = fields[..] else {
            return Err(bad());
        };
        let query: u32 = query.parse().map_err(|_| bad())?;
        let doc: u32 = doc.parse().map_err(|_| bad())?;
        let gain = code.parse::<i32>().ok().and_then(gain).ok_or_else(bad)?;
        if query == 0 || query as usize > queries {
            return Err(format!("cranqrel line {}: no query {query}", index + 1));
        }
        if !docs.contains(&doc) {
            return Err(format!("cranqrel line {}: no document {doc}", index + 1));
        }
        // A pair judged twice keeps its higher gain.
        let entry = out.entry((query, doc)).or_insert(gain);
        *entry = (*entry).max(gain);
        if out.len() > MAX_JUDGMENTS {
            return Err(format!("cranqrel: more than {MAX_JUDGMENTS} judgments"));
        }
    }
    Ok(out)
}

/// One `.I` record: its number and its fields' lines.
struct Record<'a> {
    number: u32,
    fields: Vec<(char, Vec<&'a str>)>,
}

impl Record<'_> {
    /// The field's lines, trimmed, joined with one space ("" when absent).
    fn field(&self, name: char) -> String {
        let mut out = String::new();
        for (_, lines) in self.fields.iter().filter(|(field, _)| *field == name) {
            for line in lines
                .iter()
                .map(|line| line.trim())
                .filter(|l| !l.is_empty())
            {
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push_str(line);
            }
        }
        out
    }
}

/// The records of one file, in order: a line `.I <n>` opens a record, a line `.X` (one
/// letter) opens its field `X`, any other line belongs to the open field.
fn records<'a>(text: &'a str, file: &str) -> Result<Vec<Record<'a>>, String> {
    let mut out: Vec<Record<'a>> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if let Some(number) = line.strip_prefix(".I") {
            if out.len() == MAX_RECORDS {
                return Err(format!("{file}: more than {MAX_RECORDS} records"));
            }
            let number = number
                .trim()
                .parse()
                .map_err(|_| format!("{file} line {}: `.I` without a number", index + 1))?;
            out.push(Record {
                number,
                fields: Vec::new(),
            });
            continue;
        }
        let Some(record) = out.last_mut() else {
            if line.trim().is_empty() {
                continue;
            }
            return Err(format!(
                "{file} line {}: text before the first `.I`",
                index + 1
            ));
        };
        let mut chars = line.chars();
        if let (Some('.'), Some(name), None) = (chars.next(), chars.next(), chars.next())
            && name.is_ascii_uppercase()
        {
            record.fields.push((name, Vec::new()));
            continue;
        }
        match record.fields.last_mut() {
            Some((_, lines)) => lines.push(line),
            None if line.trim().is_empty() => {}
            None => {
                return Err(format!(
                    "{file} line {}: text before the record's first field",
                    index + 1
                ));
            }
        }
    }
    Ok(out)
}

/// The file's text, refused above [`MAX_FILE_BYTES`] before it is read.
fn read_bounded(path: &Path) -> Result<String, String> {
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let size = std::fs::metadata(path)
        .map_err(|error| format!("cannot read {name}: {error}"))?
        .len();
    if size > MAX_FILE_BYTES {
        return Err(format!("{name} is larger than {MAX_FILE_BYTES} bytes"));
    }
    let bytes = std::fs::read(path).map_err(|error| format!("cannot read {name}: {error}"))?;
    String::from_utf8(bytes).map_err(|_| format!("{name} is not UTF-8"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOCS: &str = ".I 1\n.T\nwing in a\nslipstream .\n.A\nbrenckman,m.\n.B\nj. ae. 25\n.W\nwing in a slipstream .\n  an experimental study .\n.I 2\n.T\n.A\n.B\n.W\n";
    const QUERIES: &str =
        ".I 001\n.W\nwhat similarity laws\nmust be obeyed .\n.I 004\n.W\nheat\tconduction .\n";

    #[test]
    fn fields_join_their_lines_and_queries_take_their_position() {
        let parsed = parse(DOCS, QUERIES, "1 1 2\n2 2 -1\n").unwrap();
        assert_eq!(
            parsed.docs,
            [
                CranDoc {
                    number: 1,
                    title: "wing in a slipstream .".into(),
                    text: "wing in a slipstream . an experimental study .".into(),
                },
                CranDoc {
                    number: 2,
                    title: String::new(),
                    text: String::new(),
                },
            ]
        );
        // `.I 004` is the second query: cranqrel numbers queries by position.
        assert_eq!(parsed.queries[1].position, 2);
        assert_eq!(parsed.queries[1].text, "heat conduction .");
        assert_eq!(
            parsed.queries[0].text,
            "what similarity laws must be obeyed ."
        );
        assert_eq!(
            parsed.judgments.into_iter().collect::<Vec<_>>(),
            [((1, 1), 3), ((2, 2), 0)]
        );
    }

    #[test]
    fn the_best_code_gains_most() {
        assert_eq!(gain(1), Some(4));
        assert_eq!(gain(4), Some(1));
        assert_eq!(gain(-1), Some(0));
        assert_eq!(gain(0), None);
    }

    #[test]
    fn judgments_must_name_what_exists() {
        assert!(parse(DOCS, QUERIES, "3 1 2\n").is_err());
        assert!(parse(DOCS, QUERIES, "1 9 2\n").is_err());
        assert!(parse(DOCS, QUERIES, "1 1\n").is_err());
        assert!(parse(DOCS, QUERIES, "1 1 7\n").is_err());
        // A pair judged twice keeps its higher gain.
        let twice = parse(DOCS, QUERIES, "1 1 1\n1 1 3\n").unwrap();
        assert_eq!(twice.judgments[&(1, 1)], 4);
    }

    #[test]
    fn malformed_records_are_refused() {
        assert!(parse("stray\n.I 1\n", QUERIES, "").is_err());
        assert!(parse(".I x\n", QUERIES, "").is_err());
        assert!(parse(".I 1\n.W\na\n.I 1\n.W\nb\n", QUERIES, "").is_err());
    }
}
