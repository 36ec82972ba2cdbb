//! The outputs of a run (contract 07 §3.3, §3.6, §4, §5): statistics, targets, the one Markdown
//! table on stdout and the JSON report. The environment record holds no host name and no
//! absolute path.

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::process::Command;

use serde_json::{Map, Value};

use crate::RunOptions;
use crate::fixtures::{ControlledQuery, Fixture, reference};
use crate::protocol::{ORDER, Protocol, slot};

const MIB: f64 = 1024.0 * 1024.0;
const RSS_LIMIT: u64 = 64 * 1024 * 1024;

/// One measure of one cell.
#[derive(Debug, Default, Clone)]
pub(crate) struct MeasureRecord {
    pub(crate) present: bool,
    pub(crate) cold: Vec<u64>,
    pub(crate) warm: Vec<u64>,
    pub(crate) peak_rss: Option<u64>,
}

impl MeasureRecord {
    fn warm_p95(&self) -> Option<f64> {
        percentile(&self.warm, 0.95)
    }

    fn warm_median(&self) -> Option<f64> {
        percentile(&self.warm, 0.5)
    }

    fn cold_p95(&self) -> Option<f64> {
        percentile(&self.cold, 0.95)
    }

    fn cold_median(&self) -> Option<f64> {
        percentile(&self.cold, 0.5)
    }
}

/// Creates the report file exclusively, before any timing, so that a run never overwrites one;
/// `None` (with the reason on stderr) when it exists or cannot be created.
pub(crate) fn create(path: &Path) -> Option<File> {
    match File::options().write(true).create_new(true).open(path) {
        Ok(file) => {
            eprintln!("report: {}", path.display());
            Some(file)
        }
        Err(error) => {
            eprintln!("cannot create the report file (it must not exist): {error}");
            None
        }
    }
}

/// `sorted[ceil(n × q) − 1]` in milliseconds.
pub(crate) fn percentile(samples: &[u64], q: f64) -> Option<f64> {
    if samples.is_empty() {
        return None;
    }
    let mut sorted = samples.to_vec();
    sorted.sort_unstable();
    let rank = ((sorted.len() as f64) * q).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1] as f64 / 1_000_000.0)
}

/// One row: a fixture and a query.
#[derive(Debug)]
pub(crate) struct Cell {
    pub(crate) fixture: &'static Fixture,
    pub(crate) query: &'static ControlledQuery,
    pub(crate) expected_sources: Vec<String>,
    pub(crate) output_digest: String,
    /// In [`ORDER`]: raw-read, raw-stat, safe-corpus, safe-walk, safe-enumerate, core, cli, mcp, ripgrep.
    pub(crate) measures: Vec<MeasureRecord>,
}

impl Cell {
    fn measure(&self, name: &str) -> &MeasureRecord {
        &self.measures[slot(name)]
    }

    /// CLI warm p95 over ripgrep's warm p95 (contract 07 §4.1 target a′), when ripgrep ran.
    fn cli_to_ripgrep(&self) -> Option<f64> {
        let rg = self.measure("ripgrep").warm_p95()?;
        let cli = self.measure("cli").warm_p95()?;
        (rg > 0.0).then(|| cli / rg)
    }

    fn ratio(&self, name: &str) -> Option<f64> {
        let raw = self.measure("raw-read").warm_p95()?;
        let value = self.measure(name).warm_p95()?;
        (raw > 0.0).then(|| value / raw)
    }

    fn id(&self) -> String {
        format!("{}/{}", self.fixture.id, self.query.id)
    }
}

#[derive(Debug)]
pub(crate) struct FixtureRecord {
    pub(crate) fixture: &'static Fixture,
    pub(crate) source_bytes: u64,
    pub(crate) inventory_sha256: String,
    pub(crate) verified_before: bool,
    pub(crate) verified_after: bool,
}

#[derive(Debug, Clone)]
pub(crate) struct Failure {
    pub(crate) measure: String,
    pub(crate) cell: String,
    pub(crate) round: usize,
    pub(crate) expected: Vec<String>,
    pub(crate) actual: Vec<String>,
    pub(crate) detail: String,
}

#[derive(Debug, Clone)]
pub(crate) struct Target {
    id: &'static str,
    cell: String,
    value: Option<f64>,
    limit: f64,
    status: &'static str,
}

/// The environment record (§3.6).
#[derive(Debug)]
pub(crate) struct Environment {
    fields: Map<String, Value>,
}

impl Environment {
    pub(crate) fn capture(
        fixtures_dir: &Path,
        options: &RunOptions,
        workers: usize,
    ) -> Environment {
        let mut fields = Map::new();
        let host = host_facts();
        fields.insert("cpuModel".into(), host.cpu.map_or(Value::Null, Value::from));
        fields.insert("availableParallelism".into(), Value::from(workers));
        fields.insert(
            "totalMemoryBytes".into(),
            host.memory_bytes.map_or(Value::Null, Value::from),
        );
        let kernel = host.kernel;
        fields.insert(
            "kernelRelease".into(),
            kernel.map_or(Value::Null, Value::from),
        );
        fields.insert(
            "filesystem".into(),
            Value::from(filesystem_name(fixtures_dir)),
        );
        fields.insert("openat2".into(), Value::from(openat2_available()));
        fields.insert(
            "rustc".into(),
            command_line("rustc", &["--version"]).map_or(Value::Null, Value::from),
        );
        fields.insert(
            "buildProfile".into(),
            Value::from(if cfg!(debug_assertions) {
                "debug"
            } else {
                "release"
            }),
        );
        let version = Command::new(&options.dotaios)
            .arg("--version")
            .output()
            .ok()
            .filter(|output| output.status.success())
            .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_owned());
        fields.insert(
            "productVersion".into(),
            version.map_or(Value::Null, Value::from),
        );
        let revision = command_line(
            "git",
            &["-C", env!("CARGO_MANIFEST_DIR"), "rev-parse", "HEAD"],
        );
        fields.insert(
            "sourceRevision".into(),
            revision.map_or(Value::Null, Value::from),
        );
        fields.insert("startedAt".into(), Value::from(utc_now()));
        fields.insert("dropCaches".into(), Value::from(options.drop_caches));
        fields.insert("quick".into(), Value::from(options.quick));
        Environment { fields }
    }
}

impl Environment {
    /// The record as JSON, for reports other than the search run's.
    pub(crate) fn to_value(&self) -> Value {
        Value::Object(self.fields.clone())
    }
}

fn command_line(program: &str, args: &[&str]) -> Option<String> {
    Command::new(program)
        .args(args)
        .output()
        .ok()
        .filter(|output| output.status.success())
        .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

#[cfg(not(unix))]
fn filesystem_name(_path: &Path) -> String {
    "unknown".to_owned()
}

#[cfg(unix)]
fn filesystem_name(path: &Path) -> String {
    let Ok(stat) = rustix::fs::statfs(path) else {
        return "unknown".to_owned();
    };
    #[allow(
        clippy::unnecessary_cast,
        reason = "`f_type` is i64 on Linux and u32 on macOS"
    )]
    let magic = stat.f_type as u64;
    match magic {
        0xEF53 => "ext4".to_owned(),
        0x0102_1994 => "tmpfs".to_owned(),
        0x794C_7630 => "overlayfs".to_owned(),
        0x9123_683E => "btrfs".to_owned(),
        0x5846_5342 => "xfs".to_owned(),
        0x2FC1_2FC1 => "zfs".to_owned(),
        other => format!("0x{other:x}"),
    }
}

/// What the environment record says about the machine.
struct HostFacts {
    cpu: Option<String>,
    memory_bytes: Option<u64>,
    kernel: Option<String>,
}

/// Linux: `/proc`.
#[cfg(target_os = "linux")]
fn host_facts() -> HostFacts {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpu = cpuinfo.lines().find_map(|line| {
        line.strip_prefix("model name")
            .and_then(|rest| rest.split_once(':'))
            .map(|(_, name)| name.trim().to_owned())
    });
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let memory_bytes = proc_kib_field(&meminfo, "MemTotal:");
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .ok()
        .map(|text| text.trim().to_owned());
    HostFacts {
        cpu,
        memory_bytes,
        kernel,
    }
}

/// The value of a `/proc` line `<key> <n> kB`, in bytes.
#[cfg(target_os = "linux")]
pub(crate) fn proc_kib_field(text: &str, key: &str) -> Option<u64> {
    text.lines()
        .find_map(|line| line.strip_prefix(key))
        .and_then(|value| {
            value
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
        .map(|kib| kib * 1024)
}

/// macOS and other Unix systems: `sysctl` and `uname`.
#[cfg(not(target_os = "linux"))]
fn host_facts() -> HostFacts {
    HostFacts {
        cpu: command_line("sysctl", &["-n", "machdep.cpu.brand_string"]),
        memory_bytes: command_line("sysctl", &["-n", "hw.memsize"])
            .and_then(|text| text.parse().ok()),
        kernel: command_line("uname", &["-r"]),
    }
}

#[cfg(not(target_os = "linux"))]
fn openat2_available() -> bool {
    false
}

#[cfg(target_os = "linux")]
fn openat2_available() -> bool {
    let flags = rustix::fs::OFlags::PATH | rustix::fs::OFlags::CLOEXEC;
    rustix::fs::openat2(
        rustix::fs::CWD,
        ".",
        flags,
        rustix::fs::Mode::empty(),
        rustix::fs::ResolveFlags::BENEATH,
    )
    .is_ok()
}

/// The current UTC time as `YYYY-MM-DDTHH:MM:SS.mmmZ`, through the one formatter.
fn utc_now() -> String {
    dotaios_core::text::iso_utc(jiff::Timestamp::now())
}

/// Everything a run reports.
#[derive(Debug)]
pub(crate) struct Report {
    pub(crate) quick: bool,
    pub(crate) verdict: String,
    pub(crate) environment: Environment,
    pub(crate) protocol: Protocol,
    pub(crate) workers: usize,
    pub(crate) fixtures: Vec<FixtureRecord>,
    pub(crate) cells: Vec<Cell>,
    pub(crate) targets: Vec<Target>,
    pub(crate) failure: Option<Failure>,
}

impl Report {
    pub(crate) fn new(
        environment: Environment,
        protocol: Protocol,
        workers: usize,
        quick: bool,
    ) -> Report {
        Report {
            quick,
            verdict: "error".to_owned(),
            environment,
            protocol,
            workers,
            fixtures: Vec::new(),
            cells: Vec::new(),
            targets: Vec::new(),
            failure: None,
        }
    }

    /// The targets of §4 over the measured cells; correctness (d) held for every sample, or
    /// the run would have stopped.
    pub(crate) fn evaluate_targets(&mut self) {
        let mut targets = Vec::new();
        for cell in &self.cells {
            let big_nested = cell.fixture.id == "10000-nested-high-entropy";
            let big = cell.fixture.count == 10_000;
            if big_nested {
                targets.push(self.ratio_target("a", cell, "cli", 1.5));
                if cell.measure("ripgrep").present {
                    targets.push(self.value_target("a-rg", cell, cell.cli_to_ripgrep(), 1.0));
                }
                targets.push(self.ratio_target("b", cell, "mcp", 0.5));
            }
            if big {
                let cli = cell.measure("cli").peak_rss;
                let mcp = cell.measure("mcp").peak_rss;
                let peak = cli.into_iter().chain(mcp).max();
                let complete = cell.measure("mcp").present;
                let status = match peak {
                    _ if self.quick => "not_evaluated",
                    Some(peak) if peak > RSS_LIMIT => "fail",
                    Some(_) if complete => "pass",
                    Some(_) => "not_evaluated",
                    None => "not_evaluated",
                };
                targets.push(Target {
                    id: "c",
                    cell: cell.id(),
                    value: peak.map(|peak| peak as f64),
                    limit: RSS_LIMIT as f64,
                    status,
                });
            }
            targets.push(Target {
                id: "d",
                cell: cell.id(),
                value: Some(1.0),
                limit: 1.0,
                status: "pass",
            });
        }
        let missed = targets.iter().any(|target| target.status == "fail");
        self.verdict = if missed { "targets_missed" } else { "pass" }.to_owned();
        self.targets = targets;
    }

    fn ratio_target(&self, id: &'static str, cell: &Cell, measure: &str, limit: f64) -> Target {
        self.value_target(id, cell, cell.ratio(measure), limit)
    }

    fn value_target(
        &self,
        id: &'static str,
        cell: &Cell,
        value: Option<f64>,
        limit: f64,
    ) -> Target {
        let status = match value {
            _ if self.quick => "not_evaluated",
            None => "not_evaluated",
            Some(value) if value <= limit => "pass",
            Some(_) => "fail",
        };
        Target {
            id,
            cell: cell.id(),
            value,
            limit,
            status,
        }
    }

    fn targets_for(&self, cell: &Cell) -> String {
        let id = cell.id();
        self.targets
            .iter()
            .filter(|target| target.cell == id)
            .map(|target| {
                let status = match target.status {
                    "fail" => "FAIL",
                    other => other,
                };
                format!("{} {status}", target.id)
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn ms(value: Option<f64>) -> String {
    value.map_or("—".to_owned(), |value| format!("{value:.2}"))
}

fn pair(a: Option<f64>, b: Option<f64>) -> String {
    format!("{} / {}", ms(a), ms(b))
}

fn mib(value: Option<u64>) -> String {
    value.map_or("—".to_owned(), |value| {
        format!("{:.1}", value as f64 / MIB)
    })
}

/// The one Markdown table of §5.1.
pub(crate) fn table(report: &Report) -> String {
    let mut out = String::from(
        "| Fixture | Query | Hits | CLI cold p50/p95 | CLI warm p50/p95 | MCP warm p50/p95 | Core warm p95 | Safe-corpus warm p95 | Safe-walk warm p95 | Safe-enumerate warm p95 | Raw-stat warm p95 | Raw-read warm p95 | rg warm p50/p95 | CLI ÷ raw | MCP ÷ raw | Safe-corpus ÷ raw | Safe-walk ÷ raw | Safe-enumerate ÷ raw | Raw-stat ÷ raw | CLI ÷ rg | Peak RSS CLI / MCP (MiB) | Reference p95 (Node) | Reference raw-read p95 | Targets |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
    );
    for cell in &report.cells {
        let cli = cell.measure("cli");
        let mcp = cell.measure("mcp");
        let rg = cell.measure("ripgrep");
        let reference = reference(cell.fixture, cell.query);
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} / {} | {:.2} | {} | {} |\n",
            cell.fixture.id,
            cell.query.id,
            cell.expected_sources.len(),
            pair(cli.cold_median(), cli.cold_p95()),
            pair(cli.warm_median(), cli.warm_p95()),
            pair(mcp.warm_median(), mcp.warm_p95()),
            ms(cell.measure("core").warm_p95()),
            ms(cell.measure("safe-corpus").warm_p95()),
            ms(cell.measure("safe-walk").warm_p95()),
            ms(cell.measure("safe-enumerate").warm_p95()),
            ms(cell.measure("raw-stat").warm_p95()),
            ms(cell.measure("raw-read").warm_p95()),
            pair(rg.warm_median(), rg.warm_p95()),
            ms(cell.ratio("cli")),
            ms(cell.ratio("mcp")),
            ms(cell.ratio("safe-corpus")),
            ms(cell.ratio("safe-walk")),
            ms(cell.ratio("safe-enumerate")),
            ms(cell.ratio("raw-stat")),
            ms(cell.cli_to_ripgrep()),
            mib(cli.peak_rss),
            mib(mcp.peak_rss),
            reference.public_p95_ms,
            ms(reference.raw_read_p95_ms),
            report.targets_for(cell),
        ));
    }
    out
}

fn number_or_null(value: Option<f64>) -> Value {
    value.map_or(Value::Null, Value::from)
}

fn measure_value(record: &MeasureRecord, with_rss: bool) -> Value {
    if !record.present {
        return Value::Null;
    }
    let mut object = Map::new();
    object.insert("coldNs".into(), Value::from(record.cold.clone()));
    object.insert("warmNs".into(), Value::from(record.warm.clone()));
    object.insert(
        "coldMedianMs".into(),
        number_or_null(record.cold_median().map(round2)),
    );
    object.insert(
        "coldP95Ms".into(),
        number_or_null(record.cold_p95().map(round2)),
    );
    object.insert(
        "warmMedianMs".into(),
        number_or_null(record.warm_median().map(round2)),
    );
    object.insert(
        "warmP95Ms".into(),
        number_or_null(record.warm_p95().map(round2)),
    );
    if with_rss {
        object.insert(
            "peakRssBytes".into(),
            record.peak_rss.map_or(Value::Null, Value::from),
        );
    }
    Value::Object(object)
}

fn round2(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

/// The JSON report of §5.2.
pub(crate) fn to_value(report: &Report) -> Value {
    let mut root = Map::new();
    root.insert(
        "schema".into(),
        Value::from("dotaios-search-benchmark-rust/v1"),
    );
    root.insert("generator".into(), Value::from(crate::corpus::GENERATOR));
    root.insert("seed".into(), Value::from(crate::corpus::SEED));
    root.insert("quick".into(), Value::from(report.quick));
    root.insert("verdict".into(), Value::from(report.verdict.as_str()));
    root.insert(
        "environment".into(),
        Value::Object(report.environment.fields.clone()),
    );
    let mut protocol = Map::new();
    protocol.insert("coldSamples".into(), Value::from(report.protocol.cold));
    protocol.insert("warmupSamples".into(), Value::from(report.protocol.warmup));
    protocol.insert(
        "measuredSamples".into(),
        Value::from(report.protocol.measured),
    );
    protocol.insert("percentile".into(), Value::from("sorted[ceil(n*q)-1]"));
    protocol.insert("rawReadWorkers".into(), Value::from(report.workers));
    protocol.insert("order".into(), Value::from(ORDER.to_vec()));
    root.insert("protocol".into(), Value::Object(protocol));
    let fixtures = report
        .fixtures
        .iter()
        .map(|record| {
            let mut object = Map::new();
            object.insert("id".into(), Value::from(record.fixture.id));
            object.insert("count".into(), Value::from(record.fixture.count));
            object.insert("layout".into(), Value::from(record.fixture.layout.as_str()));
            object.insert(
                "distribution".into(),
                Value::from(record.fixture.distribution.as_str()),
            );
            object.insert("sourceBytes".into(), Value::from(record.source_bytes));
            object.insert(
                "inventorySha256".into(),
                Value::from(record.inventory_sha256.as_str()),
            );
            object.insert("verifiedBefore".into(), Value::from(record.verified_before));
            object.insert("verifiedAfter".into(), Value::from(record.verified_after));
            Value::Object(object)
        })
        .collect();
    root.insert("fixtures".into(), Value::Array(fixtures));
    let cells = report
        .cells
        .iter()
        .map(|cell| {
            let mut object = Map::new();
            object.insert("fixture".into(), Value::from(cell.fixture.id));
            object.insert("query".into(), Value::from(cell.query.id));
            object.insert("queryText".into(), Value::from(cell.query.text));
            object.insert(
                "expectedSources".into(),
                Value::from(cell.expected_sources.clone()),
            );
            object.insert(
                "outputSha256".into(),
                Value::from(cell.output_digest.as_str()),
            );
            let mut measures = Map::new();
            measures.insert("cli".into(), measure_value(cell.measure("cli"), true));
            measures.insert("mcp".into(), measure_value(cell.measure("mcp"), true));
            measures.insert("core".into(), measure_value(cell.measure("core"), false));
            measures.insert(
                "rawRead".into(),
                measure_value(cell.measure("raw-read"), false),
            );
            measures.insert(
                "safeCorpus".into(),
                measure_value(cell.measure("safe-corpus"), false),
            );
            measures.insert(
                "ripgrep".into(),
                measure_value(cell.measure("ripgrep"), true),
            );
            measures.insert(
                "safeWalk".into(),
                measure_value(cell.measure("safe-walk"), false),
            );
            measures.insert(
                "rawStat".into(),
                measure_value(cell.measure("raw-stat"), false),
            );
            measures.insert(
                "safeEnumerate".into(),
                measure_value(cell.measure("safe-enumerate"), false),
            );
            object.insert("measures".into(), Value::Object(measures));
            let mut ratios = Map::new();
            ratios.insert(
                "cliToRawRead".into(),
                number_or_null(cell.ratio("cli").map(round2)),
            );
            ratios.insert(
                "mcpToRawRead".into(),
                number_or_null(cell.ratio("mcp").map(round2)),
            );
            ratios.insert(
                "coreToRawRead".into(),
                number_or_null(cell.ratio("core").map(round2)),
            );
            ratios.insert(
                "safeCorpusToRawRead".into(),
                number_or_null(cell.ratio("safe-corpus").map(round2)),
            );
            ratios.insert(
                "ripgrepToRawRead".into(),
                number_or_null(cell.ratio("ripgrep").map(round2)),
            );
            ratios.insert(
                "cliToRipgrep".into(),
                number_or_null(cell.cli_to_ripgrep().map(round2)),
            );
            ratios.insert(
                "safeWalkToRawRead".into(),
                number_or_null(cell.ratio("safe-walk").map(round2)),
            );
            ratios.insert(
                "rawStatToRawRead".into(),
                number_or_null(cell.ratio("raw-stat").map(round2)),
            );
            ratios.insert(
                "safeEnumerateToRawRead".into(),
                number_or_null(cell.ratio("safe-enumerate").map(round2)),
            );
            object.insert("ratios".into(), Value::Object(ratios));
            let published = reference(cell.fixture, cell.query);
            let mut reference = Map::new();
            reference.insert("publicP95Ms".into(), Value::from(published.public_p95_ms));
            reference.insert(
                "rawReadP95Ms".into(),
                number_or_null(published.raw_read_p95_ms),
            );
            reference.insert(
                "unsafeSearchP95Ms".into(),
                number_or_null(published.unsafe_search_p95_ms),
            );
            reference.insert(
                "safeCorpusP95Ms".into(),
                number_or_null(published.safe_corpus_p95_ms),
            );
            reference.insert(
                "warmPeakRssBytes".into(),
                published
                    .warm_peak_rss_bytes
                    .map_or(Value::Null, Value::from),
            );
            object.insert("reference".into(), Value::Object(reference));
            Value::Object(object)
        })
        .collect();
    root.insert("cells".into(), Value::Array(cells));
    let targets = report
        .targets
        .iter()
        .map(|target| {
            let mut object = Map::new();
            object.insert("id".into(), Value::from(target.id));
            object.insert("cell".into(), Value::from(target.cell.as_str()));
            object.insert(
                "value".into(),
                number_or_null(target.value.map(|value| {
                    if target.id == "c" {
                        value
                    } else {
                        round2(value)
                    }
                })),
            );
            object.insert("limit".into(), Value::from(target.limit));
            object.insert("status".into(), Value::from(target.status));
            Value::Object(object)
        })
        .collect();
    root.insert("targets".into(), Value::Array(targets));
    let failure = report.failure.as_ref().map_or(Value::Null, |failure| {
        let mut object = Map::new();
        object.insert("measure".into(), Value::from(failure.measure.as_str()));
        object.insert("cell".into(), Value::from(failure.cell.as_str()));
        object.insert("round".into(), Value::from(failure.round));
        object.insert("expected".into(), Value::from(failure.expected.clone()));
        object.insert("actual".into(), Value::from(failure.actual.clone()));
        object.insert("detail".into(), Value::from(failure.detail.as_str()));
        Value::Object(object)
    });
    root.insert("failure".into(), failure);
    Value::Object(root)
}

pub(crate) fn write(mut file: File, report: &Report) -> std::io::Result<()> {
    let mut text = dotaios_core::text::to_json_pretty(&to_value(report));
    text.push('\n');
    file.write_all(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_follow_the_protocol() {
        let warm: Vec<u64> = (1..=20).map(|value| value * 1_000_000).collect();
        assert_eq!(percentile(&warm, 0.95), Some(19.0));
        assert_eq!(percentile(&warm, 0.5), Some(10.0));
        let cold = [3_000_000, 1_000_000, 2_000_000];
        assert_eq!(percentile(&cold, 0.95), Some(3.0));
        assert_eq!(percentile(&cold, 0.5), Some(2.0));
        assert_eq!(percentile(&[], 0.5), None);
    }
}
