//! The envelope around the projection (contract 02 §13–§14): the migration notice, the combined
//! notice, and the exact output texts of each surface: CLI plain, CLI agent-hook JSON, the MCP
//! `read_working_context` payload, and the fixed Off responses.
//!
//! The MCP adapter owns the protocol; this module only builds the payload text it returns, so
//! that the CLI and the adapter cannot drift apart on bytes.

use super::fit::{ContextBudget, Coverage};
use super::{Projection, WorkingContext};
use crate::folder::inspection::{Inspection, MigrationStatus};
use crate::folder::memory::{MemoryMode, OFF_NOTICE};
use crate::text::{JsString, JsonLayout, JsonWriter, utf16_len};

/// The bound on the MCP payload without its `markdown` member (contract 05 §7.2), in UTF-16 units.
pub const MCP_METADATA_BOUND: usize = 1024;

/// The MCP payload's metadata exceeded [`MCP_METADATA_BOUND`]; the adapter answers -32603
/// `DotAIOS request failed safely.`
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("DotAIOS request failed safely.")]
pub struct MetadataTooLarge;

/// The operational notice of contract 02 §13 (none for `current`). It names no path: the folder
/// is the literal placeholder `<this-aios-folder>`.
pub(crate) fn operational_notice(inspection: &Inspection) -> Option<String> {
    let lines: [String; 3] = match inspection {
        Inspection::Inspected(state) => match state.status {
            MigrationStatus::Current => return None,
            MigrationStatus::SchemaOutdated => [
                format!(
                    "> [DotAIOS] This folder uses schema {}; this build supports 1.2.0.",
                    state.folder_schema_version.as_str()
                ),
                "> A migration preview is required before any compatibility change.".into(),
                "> Preview this same folder with: dotaios migrate --path <this-aios-folder>".into(),
            ],
            MigrationStatus::TransactionPresent => [
                "> [DotAIOS] Migration transaction metadata is present; liveness is not verified."
                    .into(),
                "> Tell the user before writing to the folder and do not start blind recovery."
                    .into(),
                "> Diagnose this same folder with: dotaios doctor --path <this-aios-folder>".into(),
            ],
        },
        Inspection::Failed(code) => [
            format!(
                "> [DotAIOS] Folder migration state could not be verified ({}).",
                code.as_str()
            ),
            "> Do not assume the folder is current or start a compatibility write.".into(),
            "> Diagnose this same folder with: dotaios doctor --path <this-aios-folder>".into(),
        ],
    };
    Some(lines.join("\n"))
}

fn write_budget(writer: &mut JsonWriter, budget: &ContextBudget) {
    writer.begin_object();
    writer.name("limit");
    writer.number(budget.limit);
    writer.name("used");
    writer.number(budget.used as f64);
    writer.name("remaining");
    writer.number(budget.remaining);
    writer.name("truncated");
    writer.bool(budget.truncated);
    writer.end_object();
}

fn write_coverage(writer: &mut JsonWriter, coverage: &Coverage) {
    writer.begin_object();
    writer.name("version");
    writer.number(1.0);
    writer.name("selectedProjectReadme");
    writer.begin_object();
    writer.name("excerptClipped");
    writer.bool(coverage.excerpt_clipped);
    writer.name("budgetOmitted");
    writer.bool(coverage.budget_omitted);
    writer.end_object();
    writer.name("notice");
    match coverage.notice() {
        Some(notice) => writer.str(&notice),
        None => writer.null(),
    }
    // Only when a sibling was left out, so the object is the reference's otherwise.
    if coverage.omitted_siblings > 0 {
        writer.name("omittedProjectReadmes");
        writer.begin_object();
        writer.name("count");
        writer.number(coverage.omitted_siblings as f64);
        writer.name("reason");
        writer.str("file_too_large");
        writer.end_object();
    }
    writer.end_object();
}

fn write_optional_str(writer: &mut JsonWriter, text: Option<&str>) {
    match text {
        Some(text) => writer.str(text),
        None => writer.null(),
    }
}

impl WorkingContext {
    /// The operational notice of the migration state (contract 02 §13), or `None` when current.
    pub fn operational_notice(&self) -> Option<String> {
        operational_notice(&self.migration)
    }

    /// The combined notice: the operational notice, then the README coverage notice, joined
    /// with a blank line; `None` when neither exists.
    pub fn notice(&self) -> Option<String> {
        let notices: Vec<String> = [
            self.operational_notice(),
            self.projection
                .coverage
                .and_then(|coverage| coverage.notice()),
        ]
        .into_iter()
        .flatten()
        .collect();
        (!notices.is_empty()).then(|| notices.join("\n\n"))
    }

    /// The CLI plain output without its final newline: the notice and a blank line when there
    /// is a notice, then the digest (contract 02 §14.1).
    fn plain_context(&self) -> JsString {
        let mut text = JsString::new();
        if let Some(notice) = self.notice() {
            text.push_str(&notice);
            text.push_str("\n\n");
        }
        text.push_js(&self.projection.markdown);
        text
    }

    /// The exact stdout of `dotaios brief --compact` (contract 02 §14.1). A lone surrogate left by
    /// a UTF-16 cut is written as U+FFFD, as Node writes it.
    pub fn cli_plain(&self) -> String {
        let mut text = self.plain_context().to_string_lossy();
        text.push('\n');
        text
    }

    /// The exact stdout of `dotaios brief --compact --json` (contract 02 §14.2): one line of
    /// compact JSON and `\n`. `selector` is the `--project` value exactly as given (`None` in
    /// shared mode).
    pub fn cli_hook_json(&self, selector: Option<&str>) -> String {
        let projection = &self.projection;
        let mut writer = JsonWriter::new(JsonLayout::Compact);
        writer.begin_object();
        writer.name("systemMessage");
        writer.str(projection.mode.receipt());
        writer.name("hookSpecificOutput");
        writer.begin_object();
        writer.name("hookEventName");
        writer.str("BeforeAgent");
        writer.name("additionalContext");
        writer.js_string(&self.plain_context());
        writer.end_object();
        writer.name("dotaiosMemory");
        writer.begin_object();
        writer.name("mode");
        writer.str(projection.mode.as_str());
        writer.name("project");
        write_optional_str(&mut writer, selector);
        writer.end_object();
        writer.name("contextBudget");
        write_budget(&mut writer, &projection.budget);
        if let Some(coverage) = &projection.coverage {
            writer.name("contextCoverage");
            write_coverage(&mut writer, coverage);
        }
        writer.end_object();
        let mut text = writer.finish();
        text.push('\n');
        text
    }

    /// Writes the MCP members after `markdown` (contract 02 §14.4, 05 §7.2), in order.
    fn write_mcp_metadata(&self, writer: &mut JsonWriter) {
        let projection = &self.projection;
        writer.name("memory");
        writer.str(projection.mode.as_str());
        writer.name("receipt");
        writer.str(projection.mode.receipt());
        writer.name("notice");
        writer.null();
        writer.name("complete");
        writer.bool(true);
        writer.name("scope");
        writer.begin_object();
        writer.name("project");
        write_optional_str(writer, projection.scope_project.as_deref());
        writer.end_object();
        writer.name("generated_at");
        writer.str(&projection.generated_at);
        writer.name("budget");
        write_budget(writer, &projection.budget);
        writer.name("operational");
        writer.begin_object();
        writer.member("migration", &self.migration.operational_json());
        writer.end_object();
    }

    /// The text of the MCP `read_working_context` result (contract 02 §14.4): 2-space pretty JSON
    /// of `markdown` (the digest, no notices), `memory`, `receipt`, `notice`, `complete`,
    /// `scope`, `generated_at`, `budget`, `operational`, and in project mode `coverage` (the
    /// hook JSON's `contextCoverage`, same object).
    ///
    /// Fails when the payload without `markdown` and `coverage` is longer than 1,024 units;
    /// coverage has its own fixed bound (contract 02 §12).
    pub fn mcp_payload(&self) -> Result<String, MetadataTooLarge> {
        let mut metadata = JsonWriter::new(JsonLayout::Pretty);
        metadata.begin_object();
        self.write_mcp_metadata(&mut metadata);
        metadata.end_object();
        if utf16_len(&metadata.finish()) > MCP_METADATA_BOUND {
            return Err(MetadataTooLarge);
        }
        let mut writer = JsonWriter::new(JsonLayout::Pretty);
        writer.begin_object();
        writer.name("markdown");
        writer.js_string(&self.projection.markdown);
        self.write_mcp_metadata(&mut writer);
        if let Some(coverage) = &self.projection.coverage {
            writer.name("coverage");
            write_coverage(&mut writer, coverage);
        }
        writer.end_object();
        Ok(writer.finish())
    }
}

impl Projection {
    /// The memory mode the projection ran in (`shared` or `project`).
    pub fn memory_mode(&self) -> MemoryMode {
        self.mode
    }
}

/// `Memory: Off` + blank line + the Off notice: the Off digest of every surface.
fn off_context() -> String {
    format!("{}\n\n{OFF_NOTICE}", MemoryMode::Off.receipt())
}

/// The exact stdout of `dotaios brief` in Off mode (contract 02 §14.3), with or without
/// `--compact`: three lines.
pub fn off_cli_plain() -> String {
    format!("{}\n", off_context())
}

/// The exact stdout of `dotaios brief --json` in Off mode (contract 02 §14.3).
pub fn off_cli_hook_json() -> String {
    let context = off_context();
    let length = utf16_len(&context) as f64;
    let mut writer = JsonWriter::new(JsonLayout::Compact);
    writer.begin_object();
    writer.name("systemMessage");
    writer.str(&format!(
        "{} \u{2014} {OFF_NOTICE}",
        MemoryMode::Off.receipt()
    ));
    writer.name("hookSpecificOutput");
    writer.begin_object();
    writer.name("hookEventName");
    writer.str("BeforeAgent");
    writer.name("additionalContext");
    writer.str(&context);
    writer.end_object();
    writer.name("dotaiosMemory");
    writer.begin_object();
    writer.name("mode");
    writer.str("off");
    writer.name("project");
    writer.null();
    writer.end_object();
    writer.name("contextBudget");
    write_budget(
        &mut writer,
        &ContextBudget {
            limit: length,
            used: utf16_len(&context),
            remaining: 0.0,
            truncated: false,
        },
    );
    writer.end_object();
    let mut text = writer.finish();
    text.push('\n');
    text
}

/// The text of the MCP `read_working_context` result in Off mode (contract 02 §14.4): no
/// `budget`, `generated_at` or `operational`.
pub fn off_mcp_payload() -> String {
    let mut writer = JsonWriter::new(JsonLayout::Pretty);
    writer.begin_object();
    writer.name("markdown");
    writer.str(&off_context());
    writer.name("scope");
    writer.begin_object();
    writer.name("project");
    writer.null();
    writer.end_object();
    writer.name("memory");
    writer.str("off");
    writer.name("receipt");
    writer.str(MemoryMode::Off.receipt());
    writer.name("notice");
    writer.str(OFF_NOTICE);
    writer.name("complete");
    writer.bool(true);
    writer.end_object();
    writer.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_outputs() {
        assert_eq!(utf16_len(OFF_NOTICE), 130);
        assert_eq!(off_cli_plain(), format!("Memory: Off\n\n{OFF_NOTICE}\n"));
        let json = off_cli_hook_json();
        assert!(json.ends_with(
            "\"contextBudget\":{\"limit\":143,\"used\":143,\"remaining\":0,\"truncated\":false}}\n"
        ));
        assert!(json.starts_with("{\"systemMessage\":\"Memory: Off \u{2014} DotAIOS is off;"));
        assert!(json.contains("\"additionalContext\":\"Memory: Off\\n\\nDotAIOS is off;"));
        assert!(json.contains("\"dotaiosMemory\":{\"mode\":\"off\",\"project\":null}"));
        let mcp = off_mcp_payload();
        assert!(mcp.starts_with("{\n  \"markdown\": \"Memory: Off\\n\\nDotAIOS is off;"));
        assert!(mcp.ends_with("\",\n  \"complete\": true\n}"));
        assert!(mcp.contains("\n  \"scope\": {\n    \"project\": null\n  },\n  \"memory\": \"off\",\n  \"receipt\": \"Memory: Off\",\n  \"notice\": \"DotAIOS is off;"));
    }
}
