//! The corpus generator `dotaios-search-fixture-v1` (contract 07 §1): byte-compatible with the
//! reference's fixture generator, proven by the inventory digests of §1.9.
//!
//! One pseudo-random generator per file (mulberry32 seeded from a SHA-256 of the seed text),
//! files written one at a time (the corpus is never held in memory), fixed mtimes, and an
//! inventory receipt outside the AIOS folder.

use std::fs;
use std::io::Write;
#[cfg(unix)]
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::fixtures::{Distribution, Fixture, Layout, QUERIES};

pub(crate) const GENERATOR: &str = "dotaios-search-fixture-v1";
pub(crate) const SEED: &str = "20260813";
/// 2026-08-13T00:00:00.000Z in seconds since the epoch.
pub(crate) const FIXED_SECONDS: u64 = 1_786_579_200;
pub(crate) const FIXED_TIME_TEXT: &str = "2026-08-13T00:00:00.000Z";

/// The exact bytes of every fixture's `aios.json`.
pub(crate) const AIOS_JSON: &str = "{\n  \"schema_version\": \"1.2.0\",\n  \"created_at\": \"2026-08-13T00:00:00.000Z\",\n  \"ai_tools\": [],\n  \"vault_path\": null\n}\n";

const PROSE_WORDS: [&str; 48] = [
    "account",
    "action",
    "agent",
    "archive",
    "brief",
    "campaign",
    "client",
    "context",
    "decision",
    "delivery",
    "evidence",
    "experiment",
    "feedback",
    "handoff",
    "identity",
    "insight",
    "launch",
    "market",
    "memory",
    "metric",
    "note",
    "outcome",
    "owner",
    "pipeline",
    "plan",
    "priority",
    "project",
    "proposal",
    "question",
    "receipt",
    "research",
    "review",
    "roadmap",
    "scope",
    "search",
    "session",
    "signal",
    "source",
    "strategy",
    "summary",
    "task",
    "timeline",
    "update",
    "validation",
    "workflow",
    "workspace",
    "writer",
    "year",
];

/// The per-file generator of §1.3.
#[derive(Debug, Clone)]
pub(crate) struct Mulberry32 {
    state: u32,
}

impl Mulberry32 {
    /// Seeds from the first 8 hexadecimal digits of SHA-256(`seed_text`).
    pub(crate) fn from_seed_text(seed_text: &str) -> Mulberry32 {
        let digest = Sha256::digest(seed_text.as_bytes());
        Mulberry32 {
            state: u32::from_be_bytes([digest[0], digest[1], digest[2], digest[3]]),
        }
    }

    #[cfg(test)]
    pub(crate) fn state(&self) -> u32 {
        self.state
    }

    /// The next value in `[0, 1)`.
    pub(crate) fn next(&mut self) -> f64 {
        self.state = self.state.wrapping_add(0x6D2B_79F5);
        let mut t = self.state;
        t = (t ^ (t >> 15)).wrapping_mul(t | 1);
        t ^= t.wrapping_add((t ^ (t >> 7)).wrapping_mul(t | 61));
        f64::from(t ^ (t >> 14)) / 4_294_967_296.0
    }
}

/// The content of file `index` (§1.4).
pub(crate) fn note_content(layout: Layout, distribution: Distribution, index: usize) -> String {
    let seed_text = format!(
        "{GENERATOR}:{SEED}:{}:{}:{index}",
        layout.as_str(),
        distribution.as_str()
    );
    let mut random = Mulberry32::from_seed_text(&seed_text);
    let target = 768 + (random.next() * 513.0).floor() as usize;
    let mut content = String::with_capacity(target + 128);
    if index.is_multiple_of(4) {
        content.push_str(&format!(
            "---\ntitle: Fixture note {index:05}\ncategory: benchmark\n---\n"
        ));
    }
    content.push_str(&format!("# Fixture note {index:05}\n\n"));
    let applicable: Vec<&str> = QUERIES
        .iter()
        .filter(|query| query.applies_to(index))
        .map(|query| query.text)
        .collect();
    if !applicable.is_empty() {
        content.push_str(&applicable.join("\n"));
        content.push_str("\n\n");
    }
    let mut token_index: usize = 0;
    while content.len() < target {
        match distribution {
            Distribution::Prose => {
                let words: Vec<String> = (0..14)
                    .map(|_| {
                        let value = (random.next() * 192.0).floor() as usize;
                        let word = PROSE_WORDS[value % 48];
                        if value < 48 {
                            word.to_owned()
                        } else {
                            format!("{word}-{}", value / 48)
                        }
                    })
                    .collect();
                content.push_str(&words.join(" "));
                content.push_str(".\n");
            }
            Distribution::HighEntropy => {
                let x = random.next();
                let input = format!("{index}:{token_index}:{}", js_number(x));
                let digest = Sha256::digest(input.as_bytes());
                content.push_str(&hex(&digest)[..18]);
                content.push(' ');
                if token_index % 8 == 7 {
                    content.push('\n');
                }
                token_index += 1;
            }
        }
    }
    if !content.ends_with('\n') {
        content.push('\n');
    }
    content
}

/// JavaScript's `String(x)` for a double in `[0, 1)`.
fn js_number(x: f64) -> String {
    dotaios_core::text::js_number_to_string(x)
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// One inventory entry (§1.6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct InventoryEntry {
    pub(crate) path: String,
    pub(crate) bytes: u64,
    pub(crate) sha256: String,
}

impl InventoryEntry {
    fn to_value(&self) -> Value {
        let mut object = Map::new();
        object.insert("bytes".into(), Value::from(self.bytes));
        object.insert("mtime".into(), Value::from(FIXED_TIME_TEXT));
        object.insert("path".into(), Value::from(self.path.as_str()));
        object.insert("sha256".into(), Value::from(self.sha256.as_str()));
        Value::Object(object)
    }
}

/// The inventory digest of §1.6: SHA-256 of the canonical JSON of the sorted entries.
pub(crate) fn inventory_sha256(entries: &[InventoryEntry]) -> String {
    let array = Value::Array(entries.iter().map(InventoryEntry::to_value).collect());
    hex(&Sha256::digest(
        dotaios_core::text::to_json_canonical(&array).as_bytes(),
    ))
}

/// The entries a fixture must have, computed without writing anything.
#[cfg(test)]
pub(crate) fn expected_inventory(fixture: &Fixture) -> Vec<InventoryEntry> {
    let mut entries: Vec<InventoryEntry> = (0..fixture.count)
        .map(|index| {
            let content = note_content(fixture.layout, fixture.distribution, index);
            InventoryEntry {
                path: fixture.layout.note_path(index),
                bytes: content.len() as u64,
                sha256: hex(&Sha256::digest(content.as_bytes())),
            }
        })
        .collect();
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    entries
}

/// Writes `<out>/<fixture id>/` (§1.5). Refuses a fixture directory that exists and is not
/// empty.
pub(crate) fn write_fixture(out: &Path, fixture: &Fixture) -> Result<(), String> {
    let dir = out.join(fixture.id);
    if dir.exists() {
        let empty = fs::read_dir(&dir)
            .map_err(|error| format!("cannot read {}: {error}", fixture.id))?
            .next()
            .is_none();
        if !empty {
            return Err(format!(
                "fixture directory {} already exists and is not empty",
                fixture.id
            ));
        }
    }
    let vault = dir.join("aios").join("vault");
    make_dir(&dir)?;
    make_dir(&dir.join("aios"))?;
    make_dir(&vault)?;
    write_file(&dir.join("aios").join("aios.json"), AIOS_JSON.as_bytes())?;
    let mut entries = Vec::with_capacity(fixture.count);
    for index in 0..fixture.count {
        let path = fixture.layout.note_path(index);
        let full = vault.join(&path);
        if let Some(parent) = full.parent() {
            make_dirs(&vault, parent)?;
        }
        let content = note_content(fixture.layout, fixture.distribution, index);
        write_file(&full, content.as_bytes())?;
        entries.push(InventoryEntry {
            path,
            bytes: content.len() as u64,
            sha256: hex(&Sha256::digest(content.as_bytes())),
        });
    }
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    let inventory = inventory_value(fixture, &entries);
    let mut text = dotaios_core::text::to_json_pretty(&inventory);
    text.push('\n');
    fs::write(dir.join("inventory.json"), text)
        .map_err(|error| format!("cannot write the inventory: {error}"))?;
    Ok(())
}

fn inventory_value(fixture: &Fixture, entries: &[InventoryEntry]) -> Value {
    let mut object = Map::new();
    object.insert("generator".into(), Value::from(GENERATOR));
    object.insert("seed".into(), Value::from(SEED));
    object.insert("fixture".into(), Value::from(fixture.id));
    object.insert("count".into(), Value::from(fixture.count));
    object.insert("layout".into(), Value::from(fixture.layout.as_str()));
    object.insert(
        "distribution".into(),
        Value::from(fixture.distribution.as_str()),
    );
    object.insert(
        "sourceBytes".into(),
        Value::from(entries.iter().map(|entry| entry.bytes).sum::<u64>()),
    );
    object.insert(
        "inventorySha256".into(),
        Value::from(inventory_sha256(entries)),
    );
    object.insert(
        "entries".into(),
        Value::Array(entries.iter().map(InventoryEntry::to_value).collect()),
    );
    Value::Object(object)
}

fn make_dir(path: &Path) -> Result<(), String> {
    match fs::create_dir(path) {
        Ok(()) => {}
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists && path.is_dir() => {}
        Err(error) => return Err(format!("cannot create a fixture directory: {error}")),
    }
    // Windows has no mode bits: the directory keeps the ACL it inherits.
    #[cfg(unix)]
    fs::set_permissions(path, fs::Permissions::from_mode(0o755))
        .map_err(|error| format!("cannot set a directory mode: {error}"))?;
    Ok(())
}

fn make_dirs(base: &Path, dir: &Path) -> Result<(), String> {
    let mut current = PathBuf::from(base);
    for component in dir
        .strip_prefix(base)
        .map_err(|_| "path outside the vault".to_owned())?
        .components()
    {
        current.push(component);
        if !current.is_dir() {
            make_dir(&current)?;
        }
    }
    Ok(())
}

/// Writes a new file, mode 0644, with the fixed old mtime every generated note has, so no note
/// is within the server cache's racy window (contract 03 §19.2) however soon a run starts.
pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|error| format!("cannot create {}: {error}", path.display()))?;
    file.write_all(bytes)
        .map_err(|error| format!("cannot write a fixture file: {error}"))?;
    #[cfg(unix)]
    file.set_permissions(fs::Permissions::from_mode(0o644))
        .map_err(|error| format!("cannot set a file mode: {error}"))?;
    set_fixed_time(&file)
}

/// Sets a file's access and modification times to [`FIXED_SECONDS`].
pub(crate) fn set_fixed_time(file: &fs::File) -> Result<(), String> {
    let fixed = SystemTime::UNIX_EPOCH + Duration::from_secs(FIXED_SECONDS);
    file.set_times(fs::FileTimes::new().set_accessed(fixed).set_modified(fixed))
        .map_err(|error| format!("cannot set file times: {error}"))
}

/// What verification found (§1.9).
#[derive(Debug, Clone)]
pub(crate) struct Verified {
    pub(crate) source_bytes: u64,
    pub(crate) inventory_sha256: String,
    /// Absolute paths of every note, for the raw-read control, in inventory order.
    pub(crate) files: Vec<PathBuf>,
}

/// Recomputes every file's size, digest and mtime, checks that the AIOS tree holds exactly
/// `aios.json`, `vault/` and the notes, and compares with the published values.
pub(crate) fn verify_fixture(fixtures_dir: &Path, fixture: &Fixture) -> Result<Verified, String> {
    let aios = fixtures_dir.join(fixture.id).join("aios");
    let config = fs::read(aios.join("aios.json"))
        .map_err(|_| format!("{}: aios.json is missing", fixture.id))?;
    if config != AIOS_JSON.as_bytes() {
        return Err(format!("{}: aios.json differs", fixture.id));
    }
    check_mtime(&aios.join("aios.json"), fixture)?;
    let mut entries = Vec::new();
    let mut files = Vec::new();
    let mut stack = vec![(aios.clone(), String::new())];
    while let Some((dir, relative)) = stack.pop() {
        for entry in fs::read_dir(&dir).map_err(|error| format!("{}: {error}", fixture.id))? {
            let entry = entry.map_err(|error| format!("{}: {error}", fixture.id))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let kind = entry
                .file_type()
                .map_err(|error| format!("{}: {error}", fixture.id))?;
            let child = if relative.is_empty() {
                name.clone()
            } else {
                format!("{relative}/{name}")
            };
            if relative.is_empty() {
                match (name.as_str(), kind.is_dir(), kind.is_file()) {
                    ("aios.json", _, true) => continue,
                    ("vault", true, _) => {
                        stack.push((entry.path(), "vault".to_owned()));
                        continue;
                    }
                    _ => {
                        return Err(format!(
                            "{}: unexpected entry {name} in the AIOS folder",
                            fixture.id
                        ));
                    }
                }
            }
            if kind.is_dir() {
                stack.push((entry.path(), child));
            } else if kind.is_file() {
                let bytes =
                    fs::read(entry.path()).map_err(|error| format!("{}: {error}", fixture.id))?;
                check_mtime(&entry.path(), fixture)?;
                entries.push(InventoryEntry {
                    path: child["vault/".len()..].to_owned(),
                    bytes: bytes.len() as u64,
                    sha256: hex(&Sha256::digest(&bytes)),
                });
                files.push(entry.path());
            } else {
                return Err(format!("{}: unexpected special entry {child}", fixture.id));
            }
        }
    }
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    files.sort();
    if entries.len() != fixture.count {
        return Err(format!(
            "{}: {} notes instead of {}",
            fixture.id,
            entries.len(),
            fixture.count
        ));
    }
    let source_bytes: u64 = entries.iter().map(|entry| entry.bytes).sum();
    let digest = inventory_sha256(&entries);
    if source_bytes != fixture.source_bytes || digest != fixture.inventory_sha256 {
        return Err(format!(
            "{}: inventory mismatch (source bytes {source_bytes}, digest {digest})",
            fixture.id
        ));
    }
    Ok(Verified {
        source_bytes,
        inventory_sha256: digest,
        files,
    })
}

fn check_mtime(path: &Path, fixture: &Fixture) -> Result<(), String> {
    let meta = fs::metadata(path).map_err(|error| format!("{}: {error}", fixture.id))?;
    #[cfg(unix)]
    let fixed = meta.mtime() == FIXED_SECONDS as i64 && meta.mtime_nsec() == 0;
    #[cfg(not(unix))]
    let fixed =
        meta.modified().ok() == Some(SystemTime::UNIX_EPOCH + Duration::from_secs(FIXED_SECONDS));
    if !fixed {
        return Err(format!(
            "{}: a file's mtime is not the fixed time",
            fixture.id
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::FIXTURES;

    #[test]
    fn generator_test_vectors() {
        let mut random =
            Mulberry32::from_seed_text("dotaios-search-fixture-v1:20260813:shallow:prose:0");
        assert_eq!(random.state(), 0xd890_0653);
        assert_eq!(
            [random.next(), random.next(), random.next()],
            [0.34023677092045546, 0.9831087186466902, 0.8735386428888887]
        );
        let mut random =
            Mulberry32::from_seed_text("dotaios-search-fixture-v1:20260813:nested:high-entropy:0");
        assert_eq!(random.state(), 446_864_752);
        assert_eq!(
            [random.next(), random.next(), random.next()],
            [0.05123706767335534, 0.33361879643052816, 0.5375433044973761]
        );
    }

    #[test]
    fn content_test_vectors() {
        let check = |layout, distribution, index, bytes: usize, sha: &str, start: &str| {
            let content = note_content(layout, distribution, index);
            assert_eq!(content.len(), bytes);
            assert_eq!(hex(&Sha256::digest(content.as_bytes())), sha);
            assert!(content.starts_with(start), "{content}");
        };
        check(
            Layout::Shallow,
            Distribution::Prose,
            0,
            1023,
            "fe76491537e4be29b3ff8729ba05cb33522630dd1108eb48708861f974ab6644",
            "---\ntitle: Fixture note 00000\ncategory: benchmark\n---\n# Fixture note 00000\n\ncommon-benchmark-marker-needle\n\nworkflow-3 pipeline-3 context action-3 decision market outcome-1 receipt-3 source-2 pipeline session-3 strategy-1 summary launch-1.\n",
        );
        check(
            Layout::Shallow,
            Distribution::Prose,
            3,
            1212,
            "391ac4ce4a537485cde80d3c6cd8913d15311a0a9f94f8180852cf31f2514733",
            "# Fixture note 00003\n\ncontrolled-peregrine-benchmark-needle\n\nupdate-3 receipt-3 memory-3 owner-1 ",
        );
        check(
            Layout::Nested,
            Distribution::HighEntropy,
            0,
            797,
            "055234d73df94673f8bd6595ac940e3fd1eac8ea0acb83928bf08e27751bc345",
            "---\ntitle: Fixture note 00000\ncategory: benchmark\n---\n# Fixture note 00000\n\ncommon-benchmark-marker-needle\n\n4dc16a849a65993e07 b85f0fe82f7ffbc3b6 ",
        );
        check(
            Layout::Nested,
            Distribution::HighEntropy,
            1,
            883,
            "b0b08ee0e7217cc3d1f11bb5edbe3bfe389a0497a9ed33174ade73257fe70e2c",
            "# Fixture note 00001\n\ndb49c149e2fb1a1922 fe2adb5c1aca162015 ",
        );
    }

    #[test]
    fn paths() {
        assert_eq!(
            Layout::Nested.note_path(307),
            "branch-04/branch-06/branch-03/note-00307.md"
        );
        assert_eq!(Layout::Shallow.note_path(3), "bucket-01/note-00003.md");
    }

    #[test]
    fn published_inventories_at_500_files() {
        for fixture in FIXTURES.iter().filter(|fixture| fixture.count == 500) {
            let entries = expected_inventory(fixture);
            assert_eq!(
                entries.iter().map(|entry| entry.bytes).sum::<u64>(),
                fixture.source_bytes,
                "{}",
                fixture.id
            );
            assert_eq!(
                inventory_sha256(&entries),
                fixture.inventory_sha256,
                "{}",
                fixture.id
            );
        }
    }
}
