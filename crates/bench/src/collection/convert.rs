//! The collection written out (contract 07 §9.2): an AIOS folder (`aios/`: an `aios.json` as
//! `dotaios init` writes it, every document a vault note `vault/<docid>.md` holding `# <title>`,
//! an empty line and its text), the queries (`topics.tsv`: `<qid>\t<text>`) and the judgments
//! in TREC qrels form (`qrels.txt`: `<qid> 0 <docid> <gain>`).
//!
//! File names are stable (`cran-0001` for document 1) and every note has one fixed
//! modification time, so two conversions of one collection are byte-identical folders and the
//! recency prior (contract 03 §9) is the same for every note. It writes only below `out`,
//! which must not exist yet.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::cranfield::{CranDoc, Cranfield};

/// The one modification time of every note: 2026-01-01T00:00:00Z.
const NOTE_MTIME_SECONDS: u64 = 1_767_225_600;

/// What the runs need of the converted collection.
pub(crate) struct Converted {
    pub(crate) out: PathBuf,
    pub(crate) aios: PathBuf,
    /// `(qid, text)` in topic order.
    pub(crate) queries: Vec<(String, String)>,
}

/// The TREC document id of a Cranfield document.
pub(crate) fn doc_id(number: u32) -> String {
    format!("cran-{number:04}")
}

/// The note's text: the title as its heading (a document without one is headed by its id, so
/// no note is untitled), then its text.
pub(crate) fn note(doc: &CranDoc) -> String {
    let title = if doc.title.is_empty() {
        doc_id(doc.number)
    } else {
        doc.title.clone()
    };
    let mut text = format!("# {title}\n");
    if !doc.text.is_empty() {
        text.push('\n');
        text.push_str(&doc.text);
        text.push('\n');
    }
    text
}

pub(crate) fn write(collection: &Cranfield, out: &Path) -> Result<Converted, String> {
    let fail =
        |path: &Path, error: std::io::Error| format!("cannot write {}: {error}", path.display());
    fs::create_dir(out).map_err(|error| {
        format!(
            "cannot create {} (it must not exist): {error}",
            out.display()
        )
    })?;
    let aios = out.join("aios");
    let vault = aios.join("vault");
    fs::create_dir_all(&vault).map_err(|error| fail(&vault, error))?;
    let config = "{\n  \"schema_version\": \"1.2.0\",\n  \"created_at\": \"2026-01-01T00:00:00.000Z\",\n  \"ai_tools\": [],\n  \"vault_path\": null\n}\n";
    fs::write(aios.join("aios.json"), config).map_err(|error| fail(&aios, error))?;
    let mtime = SystemTime::UNIX_EPOCH + Duration::from_secs(NOTE_MTIME_SECONDS);
    for doc in &collection.docs {
        let path = vault.join(format!("{}.md", doc_id(doc.number)));
        fs::write(&path, note(doc)).map_err(|error| fail(&path, error))?;
        fs::File::options()
            .write(true)
            .open(&path)
            .and_then(|file| file.set_modified(mtime))
            .map_err(|error| fail(&path, error))?;
    }
    let queries: Vec<(String, String)> = collection
        .queries
        .iter()
        .map(|query| (query.position.to_string(), query.text.clone()))
        .collect();
    let mut topics = String::new();
    for (qid, text) in &queries {
        let _ = writeln!(topics, "{qid}\t{text}");
    }
    let path = out.join("topics.tsv");
    fs::write(&path, topics).map_err(|error| fail(&path, error))?;
    let mut qrels = String::new();
    for (&(query, doc), gain) in &collection.judgments {
        let _ = writeln!(qrels, "{query} 0 {} {gain}", doc_id(doc));
    }
    let path = out.join("qrels.txt");
    fs::write(&path, qrels).map_err(|error| fail(&path, error))?;
    Ok(Converted {
        out: out.to_path_buf(),
        aios,
        queries,
    })
}

#[cfg(test)]
mod tests {
    use super::super::cranfield::parse;
    use super::*;

    #[test]
    fn the_folder_holds_one_note_per_document_and_trec_files() {
        let collection = parse(
            ".I 1\n.T\nwing in a slipstream .\n.W\nwing in a slipstream .\n  an experimental study .\n.I 2\n.T\n.W\n",
            ".I 001\n.W\nwhat similarity\nlaws .\n.I 004\n.W\nheat .\n",
            "1 1 2\n2 2 4\n",
        )
        .unwrap();
        let temp = tempfile::tempdir().unwrap();
        let out = temp.path().join("cran");
        let converted = write(&collection, &out).unwrap();
        let read = |path: &str| fs::read_to_string(out.join(path)).unwrap();
        assert_eq!(
            read("aios/vault/cran-0001.md"),
            "# wing in a slipstream .\n\nwing in a slipstream . an experimental study .\n"
        );
        assert_eq!(read("aios/vault/cran-0002.md"), "# cran-0002\n");
        assert_eq!(read("topics.tsv"), "1\twhat similarity laws .\n2\theat .\n");
        assert_eq!(read("qrels.txt"), "1 0 cran-0001 3\n2 0 cran-0002 1\n");
        assert!(dotaios_core::folder::check::is_aios_folder(&converted.aios));
        let mtime = fs::metadata(out.join("aios/vault/cran-0002.md"))
            .unwrap()
            .modified()
            .unwrap();
        assert_eq!(
            mtime,
            SystemTime::UNIX_EPOCH + Duration::from_secs(NOTE_MTIME_SECONDS)
        );
        // The output directory must be new.
        assert!(write(&collection, &out).is_err());
    }
}
