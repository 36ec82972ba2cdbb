//! The server cache of contract 03 §19.2 against its oracle, a fresh scan: every answer a
//! request served through the cache gives equals, byte for byte, the answer of the same request
//! without a cache, in both snippet forms, over the example folder with generated notes and over
//! generated edit sequences made between requests (added, rewritten in place with the same size
//! and the old mtime put back, renamed, deleted, replaced by a link, appended to, two files
//! swapped, grown past the per-file cap), and with a cap that holds only part of the folder.
//! Each test also checks that the cache served texts, so it fails if requests stop using it.

use std::fs;
use std::path::Path;

use super::SnippetForm;
use super::cache::SearchCache;
use super::cache_tests::{ask_with, clock_ahead, write};

/// The deterministic generator of every sequence here: the same cases on every run.
use dotaios_testkit::SplitMix64 as Random;

/// Words chosen to meet every matching rule: exact, stems, prefixes, short terms, stop words,
/// accents and folding, joined words, ideographs, emoji.
const WORDS: &[&str] = &[
    "harbour",
    "harbor",
    "Lighthouse",
    "lighthouses",
    "keeper",
    "keeping",
    "running",
    "runs",
    "runway",
    "national",
    "nationally",
    "nation",
    "café",
    "cafe",
    "naïve",
    "Straße",
    "strasse",
    "EPIPE-4712",
    "epipe",
    "4712",
    "会議",
    "会議室",
    "議",
    "a",
    "the",
    "of",
    "ab",
    "x",
    "quay",
    "wall",
    "needle",
    "haystack",
    "peregrine",
    "controlled-peregrine-benchmark-needle",
    "lightship",
    "happy",
    "happiness",
    "data",
    "database",
    "organización",
    "🙂",
    "→",
    "e-mail",
    "email",
];

/// Words with a letter no other word has (`j`), written only on a note's last line: a text's
/// byte profile (§19.2) that missed its end would rule those notes out.
const LAST_WORDS: &[&str] = &["jazz", "fjord", "quokka", "vizsla", "Jökull"];

const QUERIES: &[&str] = &[
    "jazz",
    "fjord quokka",
    "jokull",
    "lighthouse",
    "harbour keeper",
    "runs",
    "nation",
    "cafe naive",
    "strasse",
    "EPIPE-4712",
    "epipe 4712",
    "会議室",
    "会議",
    "ab",
    "the of",
    "needle haystack",
    "controlled-peregrine-benchmark-needle",
    "happy lightship",
    "database organizacion",
    "e-mail",
    "🙂",
    "zzqx",
    "",
];

fn line(random: &mut Random) -> String {
    let count = 1 + random.below(9);
    let mut words = Vec::with_capacity(count);
    for _ in 0..count {
        words.push(*random.pick(WORDS));
    }
    let mut line = words.join(if random.below(4) == 0 { ", " } else { " " });
    if random.below(3) == 0 {
        line.push('.');
    }
    line
}

/// A note with, at random, frontmatter (title, description, tags), a title line, headings,
/// body lines and blank lines.
fn note(random: &mut Random) -> String {
    let mut text = String::new();
    if random.below(2) == 0 {
        text.push_str("---\n");
        if random.below(2) == 0 {
            text.push_str(&format!("title: {}\n", line(random)));
        }
        match random.below(3) {
            0 => text.push_str(&format!("description: \"{}\"\n", line(random))),
            1 => text.push_str(&format!("description: {}\n", line(random))),
            _ => {}
        }
        if random.below(2) == 0 {
            text.push_str(&format!("tags: [{}]\n", *random.pick(WORDS)));
        }
        text.push_str("---\n");
    }
    if random.below(2) == 0 {
        text.push_str(&format!("# {}\n", line(random)));
    }
    for _ in 0..random.below(14) {
        match random.below(6) {
            0 => text.push_str(&format!("## {}\n", line(random))),
            1 => text.push('\n'),
            _ => text.push_str(&format!("{}\n", line(random))),
        }
    }
    if random.below(3) == 0 {
        text.push_str(&format!("P.S. {}\n", *random.pick(LAST_WORDS)));
    }
    text
}

/// `text` cut or padded to exactly `size` bytes, on a character boundary.
fn sized(mut text: String, size: usize) -> String {
    let mut cut = size.min(text.len());
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    text.truncate(cut);
    while text.len() < size {
        text.push('.');
    }
    text
}

/// Both snippet forms, cached and uncached, for each query: equal, or the test fails.
fn compare(root: &Path, queries: &[&str], now: f64, cache: &SearchCache) {
    for query in queries {
        for form in [SnippetForm::Lines, SnippetForm::Windows] {
            let fresh = ask_with(root, query, now, None, form);
            let served = ask_with(root, query, now, Some(cache), form);
            same(&served, &fresh, &format!("query {query:?}, {form:?}"));
        }
    }
}

/// Fails with the first line where the served answer leaves the fresh one (an answer is a
/// few kilobytes of debug text; the whole of both would bury the difference).
fn same(served: &str, fresh: &str, what: &str) {
    if served == fresh {
        return;
    }
    let (line, (left, right)) = served
        .lines()
        .chain(std::iter::repeat("<end>"))
        .zip(fresh.lines().chain(std::iter::repeat("<end>")))
        .enumerate()
        .find(|(_, (left, right))| left != right)
        .unwrap_or((0, ("", "")));
    let mut at = left
        .bytes()
        .zip(right.bytes())
        .take_while(|(a, b)| a == b)
        .count()
        .saturating_sub(80);
    // Inside the common prefix, so a character boundary of one line is one of the other.
    while !left.is_char_boundary(at) {
        at -= 1;
    }
    let cut = |text: &str| -> String { text[at..].chars().take(400).collect() };
    panic!(
        "{what}: the cached answer differs from a fresh scan at line {line}, byte {at}\n  served: {}\n  fresh:  {}",
        cut(left),
        cut(right)
    );
}

fn base(random: &mut Random, notes: usize) -> tempfile::TempDir {
    let temp = tempfile::tempdir().unwrap();
    dotaios_testkit::write_sample(temp.path());
    for index in 0..notes {
        let dir = ["gen", "gen/deep", "wiki"][index % 3];
        write(
            temp.path(),
            &format!("vault/{dir}/note-{index}.md"),
            &note(random),
        );
    }
    temp
}

/// The example folder's own words as queries: what its notes say, one to three at a time.
fn example_queries(root: &Path, random: &mut Random, count: usize) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for entry in walk_files(&root.join("vault")) {
        let Ok(text) = fs::read_to_string(&entry) else {
            continue;
        };
        words.extend(
            text.split(|c: char| !c.is_alphanumeric() && c != '-')
                .filter(|word| word.len() >= 2)
                .take(200)
                .map(str::to_owned),
        );
    }
    words.sort();
    words.dedup();
    (0..count)
        .map(|_| {
            let terms = 1 + random.below(3);
            (0..terms)
                .map(|_| words[random.below(words.len())].clone())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

fn walk_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let Ok(listing) = fs::read_dir(dir) else {
        return found;
    };
    for entry in listing.flatten() {
        let path = entry.path();
        match entry.file_type() {
            Ok(kind) if kind.is_dir() => found.extend(walk_files(&path)),
            Ok(kind) if kind.is_file() => found.push(path),
            _ => {}
        }
    }
    found.sort();
    found
}

#[test]
fn cached_answers_equal_a_fresh_scan_over_the_example_folder() {
    let mut random = Random(37);
    let temp = base(&mut random, 30);
    let root = temp.path();
    let now = clock_ahead();
    let cache = SearchCache::new();
    let mut queries: Vec<String> = QUERIES.iter().map(|query| (*query).to_owned()).collect();
    queries.extend(example_queries(root, &mut random, 40));
    let queries: Vec<&str> = queries.iter().map(String::as_str).collect();
    // The first request fills the cache; every later one is answered from it.
    compare(root, &queries, now, &cache);
    compare(root, &queries, now, &cache);
    assert!(cache.len() > 30, "{}", cache.len());
    assert!(cache.hits() > 1000, "{}", cache.hits());
}

/// One edit between two requests, chosen at random.
fn edit(root: &Path, random: &mut Random, next_name: &mut usize, outside: &Path) -> &'static str {
    let files = walk_files(&root.join("vault/gen"));
    let target = (!files.is_empty()).then(|| files[random.below(files.len())].clone());
    let mut fresh_name = || {
        *next_name += 1;
        format!("vault/gen/added-{next_name}.md")
    };
    match (random.below(8), target) {
        (0, _) | (_, None) => {
            write(root, &fresh_name(), &note(random));
            "add"
        }
        (1, Some(target)) => {
            // Same size, the old mtime put back: only the ctime tells the change.
            let old = fs::metadata(&target).unwrap();
            let text = sized(note(random), old.len() as usize);
            fs::write(&target, text).unwrap();
            fs::File::options()
                .write(true)
                .open(&target)
                .unwrap()
                .set_modified(old.modified().unwrap())
                .unwrap();
            "rewrite in place"
        }
        (2, Some(target)) => {
            fs::rename(&target, root.join(fresh_name())).unwrap();
            "rename"
        }
        (3, Some(target)) => {
            fs::remove_file(&target).unwrap();
            "delete"
        }
        (4, Some(target)) => {
            let moved = outside.join(format!("moved-{next_name}.md"));
            *next_name += 1;
            fs::rename(&target, &moved).unwrap();
            // Links need no privilege on Unix only; elsewhere the note moves out of the folder.
            #[cfg(unix)]
            std::os::unix::fs::symlink(&moved, &target).unwrap();
            "replace by a link"
        }
        (5, Some(target)) => {
            let mut text = fs::read_to_string(&target).unwrap_or_default();
            text.push_str(&line(random));
            text.push('\n');
            fs::write(&target, text).unwrap();
            "append"
        }
        (6, Some(target)) if files.len() >= 2 => {
            // Two files swap names: each path now names the other's inode and text.
            let at = files.iter().position(|file| *file == target).unwrap_or(0);
            let other = files[(at + 1 + random.below(files.len() - 1)) % files.len()].clone();
            let swap = root.join("vault/gen/swap.tmp");
            fs::rename(&target, &swap).unwrap();
            fs::rename(&other, &target).unwrap();
            fs::rename(&swap, &other).unwrap();
            "swap"
        }
        (_, Some(target)) => {
            fs::write(&target, note(random)).unwrap();
            "rewrite"
        }
    }
}

#[test]
fn cached_answers_equal_a_fresh_scan_after_every_edit() {
    let outside = tempfile::tempdir().unwrap();
    let mut served = 0;
    for seed in 0..3 {
        let mut random = Random(1000 + seed);
        let temp = base(&mut random, 24);
        let root = temp.path();
        let now = clock_ahead();
        let cache = SearchCache::new();
        let mut next_name = 0;
        compare(root, QUERIES, now, &cache);
        for step in 0..14 {
            let done = edit(root, &mut random, &mut next_name, outside.path());
            if step == 9 {
                // One note grows past the per-file cap: the request's answer changes (an
                // omission) and its cached text must not answer for it.
                write(
                    root,
                    "vault/gen/note-0.md",
                    &"lighthouse ".repeat(super::MAX_FILE_BYTES as usize / 10),
                );
            }
            let queries: Vec<&str> = (0..5).map(|_| *random.pick(QUERIES)).collect();
            for query in &queries {
                for form in [SnippetForm::Lines, SnippetForm::Windows] {
                    let fresh = ask_with(root, query, now, None, form);
                    let answer = ask_with(root, query, now, Some(&cache), form);
                    same(
                        &answer,
                        &fresh,
                        &format!("seed {seed}, step {step} ({done}), {query:?}, {form:?}"),
                    );
                }
            }
        }
        served += cache.hits();
    }
    assert!(served > 1000, "{served}");
}

/// Files beyond the cache's cap are read afresh on every request: still the scan's answer,
/// while the files the cache holds are served from it.
#[test]
fn files_beyond_the_cache_cap_are_still_answered_exactly() {
    let mut random = Random(7);
    let temp = base(&mut random, 40);
    let root = temp.path();
    let now = clock_ahead();
    let roomy = SearchCache::new();
    compare(root, &["lighthouse"], now, &roomy);
    let full = roomy.cached_bytes();
    let files = roomy.len();
    assert!(full > 0 && files > 40, "{full} bytes, {files} files");
    let cache = SearchCache::with_cap(full / 3);
    compare(root, QUERIES, now, &cache);
    compare(root, QUERIES, now, &cache);
    assert!(cache.cached_bytes() <= full / 3);
    assert!(
        !cache.is_empty() && cache.len() < files,
        "{} of {files}",
        cache.len()
    );
    assert!(cache.hits() > 0);
}
