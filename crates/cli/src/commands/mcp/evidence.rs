//! The `Evidence:` line of `mcp install` (contract 06 §5.5): what release evidence exists for one
//! client, read from the table in `docs/compatibility.md`, which `scripts/test-hosts.sh
//! --write-docs` generates and this module compiles in.
//!
//! What it must never do: claim more than the table says. A client without a row, or with a
//! row it cannot read, is "configured only".

use super::options::Agent;

/// The evidence table, compiled in so the binary states what the release was checked with
/// (through `crates/cli/compatibility.md`, a link to `docs/compatibility.md` that the packaged
/// crate carries).
const COMPATIBILITY: &str = include_str!("../../../compatibility.md");

/// One table row: host name, version and level (`None` version: not tested).
#[derive(Debug, PartialEq, Eq)]
struct Row<'a> {
    host: &'a str,
    version: Option<&'a str>,
    level: &'a str,
}

/// The row for `agent` in `table`: a line `| Host | `agent` | Version | Level | …`.
fn row<'a>(table: &'a str, agent: &str) -> Option<Row<'a>> {
    let tick = format!("`{agent}`");
    table.lines().find_map(|line| {
        let mut cells = line.strip_prefix('|')?.split('|').map(str::trim);
        let host = cells.next()?;
        if cells.next()? != tick {
            return None;
        }
        let version = cells.next()?;
        let level = cells.next()?;
        let tested = !matches!(version, "" | "—" | "-" | "?");
        Some(Row {
            host,
            version: tested.then_some(version),
            level,
        })
    })
}

/// The sentence after the fragment that says what the `Evidence:` line means (§5.5).
pub(crate) const EXPLANATION: &str = "Evidence: the furthest a real run of this client got with such a fragment (configured, discoverable, invoked, produced: its tool results reached the model); see docs/compatibility.md.";

/// The line for `agent`, e.g. `Evidence: produced with Claude Code 2.1.197` or
/// `Evidence: configured only (not tested with a real Cursor)`.
pub(crate) fn line(agent: Agent) -> String {
    line_from(COMPATIBILITY, agent)
}

fn line_from(table: &str, agent: Agent) -> String {
    match row(table, agent.as_str()) {
        Some(Row {
            host,
            version: Some(version),
            level,
        }) if !level.is_empty() && level != "none" => {
            format!("Evidence: {level} with {host} {version}")
        }
        Some(Row {
            host,
            version: Some(version),
            ..
        }) => format!("Evidence: none ({host} {version} did not accept the fragment)"),
        Some(Row { host, .. }) => {
            format!("Evidence: configured only (not tested with a real {host})")
        }
        None => format!(
            "Evidence: configured only (not tested with a real {})",
            agent.as_str()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "| Host | `--agent` | Version | Level | Date | Note |\n\
        |---|---|---|---|---|---|\n\
        | Claude Code | `claude` | 2.1.197 | produced | 2026-12-01 |  |\n\
        | Codex CLI | `codex` | 0.171.0 | invoked | 2026-12-01 | marker=False |\n\
        | Cursor | `cursor` | — | configured only | — | not tested: a desktop editor |\n\
        | Gemini CLI | `gemini` | 0.61.0 | none | 2026-12-01 | list=failed |\n";

    #[test]
    fn each_row_kind_gives_its_line() {
        for (agent, expected) in [
            (Agent::Claude, "Evidence: produced with Claude Code 2.1.197"),
            (Agent::Codex, "Evidence: invoked with Codex CLI 0.171.0"),
            (
                Agent::Gemini,
                "Evidence: none (Gemini CLI 0.61.0 did not accept the fragment)",
            ),
            (
                Agent::Cursor,
                "Evidence: configured only (not tested with a real Cursor)",
            ),
            (
                Agent::Kimi,
                "Evidence: configured only (not tested with a real kimi)",
            ),
        ] {
            assert_eq!(line_from(SAMPLE, agent), expected);
        }
        // Rows too short to carry a version and a level count as missing.
        assert_eq!(
            line_from("| `claude` |\n| a | `claude` |\n", Agent::Claude),
            "Evidence: configured only (not tested with a real claude)"
        );
    }

    #[test]
    fn the_compiled_table_has_a_row_for_every_agent() {
        for agent in Agent::ALL {
            assert!(
                row(COMPATIBILITY, agent.as_str()).is_some(),
                "docs/compatibility.md has no row for {}",
                agent.as_str()
            );
        }
        for agent in [Agent::Cursor, Agent::Antigravity] {
            assert!(line(agent).starts_with("Evidence: configured only (not tested with a real "));
        }
    }
}
