//! `dotaios-bench quality --skills`: skill-routing quality against a gold set (contract 07,
//! docs/benchmark.md "Skill routing"). The gold set (`data/skill-intents.json`) holds a catalog
//! and intents, each with the skill that should be the top match or `null` when none fits. The
//! catalog is written into a fresh folder (`dotaios init`, bundled skills removed), and every
//! intent is resolved by a fresh `dotaios skills resolve <intent> --json` of the binary under
//! test, so any build (an older one included) can be measured the same way.
//!
//! It measures; it never asserts. The table goes to stdout, progress to stderr.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// The gold set, written before any resolver ran on it (never edited afterwards).
const GOLD: &str = include_str!("../data/skill-intents.json");

/// What one intent's top match was, against its gold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// The gold skill is the top match.
    Right,
    /// A right skill exists and another one is on top.
    WrongSkill,
    /// A right skill exists and nothing matched.
    Miss,
    /// No skill fits and something matched.
    FalseRoute,
    /// No skill fits and nothing matched.
    Abstained,
}

/// Runs the gold set through `dotaios` and prints the rates.
pub(crate) fn run(dotaios: &Path) -> Result<(), String> {
    let gold: Value = serde_json::from_str(GOLD).map_err(|e| format!("gold set: {e}"))?;
    let temp = std::env::temp_dir().join(format!("dotaios-bench-skills-{}", std::process::id()));
    let aios = temp.join("aios");
    let result = write_folder(dotaios, &aios, &gold).and_then(|()| measure(dotaios, &aios, &gold));
    let _ = std::fs::remove_dir_all(&temp);
    result
}

fn write_folder(dotaios: &Path, aios: &Path, gold: &Value) -> Result<(), String> {
    let init = Command::new(dotaios)
        .args(["init", "--yes", "--path"])
        .arg(aios)
        .output()
        .map_err(|e| format!("{}: {e}", dotaios.display()))?;
    if !init.status.success() {
        return Err(format!(
            "init failed: {}",
            String::from_utf8_lossy(&init.stderr)
        ));
    }
    let skills = aios.join("skills");
    for entry in std::fs::read_dir(&skills).map_err(|e| e.to_string())? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            std::fs::remove_dir_all(&path).map_err(|e| e.to_string())?;
        }
    }
    for skill in gold["skills"].as_array().ok_or("gold set: no skills")? {
        let dir = skill["dir"].as_str().ok_or("gold set: skill without dir")?;
        let mut text = format!(
            "---\nname: {dir}\ndescription: {}\ntriggers:\n",
            Value::from(skill["description"].as_str().unwrap_or_default())
        );
        for trigger in skill["triggers"].as_array().into_iter().flatten() {
            text.push_str(&format!("  - {trigger}\n"));
        }
        text.push_str(&format!("---\n# {dir}\n"));
        let folder = skills.join(dir);
        std::fs::create_dir_all(&folder).map_err(|e| e.to_string())?;
        std::fs::write(folder.join("SKILL.md"), text).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The top match of one intent, `None` when nothing matched (exit 2).
fn top_match(dotaios: &Path, aios: &Path, intent: &str) -> Result<Option<String>, String> {
    let output = Command::new(dotaios)
        .args(["skills", "resolve", "--json", "--path"])
        .arg(aios)
        .arg("--")
        .arg(intent)
        .output()
        .map_err(|e| e.to_string())?;
    match output.status.code() {
        Some(0) | Some(2) => {}
        _ => {
            return Err(format!(
                "skills resolve {intent:?}: {}",
                String::from_utf8_lossy(&output.stderr)
            ));
        }
    }
    let payload: Value =
        serde_json::from_slice(&output.stdout).map_err(|e| format!("{intent:?}: {e}"))?;
    Ok(payload["matches"][0]["dir"].as_str().map(str::to_owned))
}

fn measure(dotaios: &Path, aios: &Path, gold: &Value) -> Result<(), String> {
    let intents = gold["intents"].as_array().ok_or("gold set: no intents")?;
    let mut outcomes = Vec::with_capacity(intents.len());
    for item in intents {
        let intent = item["intent"].as_str().ok_or("gold set: intent")?;
        let expected = item["gold"].as_str();
        let top = top_match(dotaios, aios, intent)?;
        let outcome = match (expected, top.as_deref()) {
            (Some(gold), Some(top)) if gold == top => Outcome::Right,
            (Some(_), Some(_)) => Outcome::WrongSkill,
            (Some(_), None) => Outcome::Miss,
            (None, Some(_)) => Outcome::FalseRoute,
            (None, None) => Outcome::Abstained,
        };
        if !matches!(outcome, Outcome::Right | Outcome::Abstained) {
            eprintln!(
                "{outcome:?}: {intent:?} → {} (gold {})",
                top.as_deref().unwrap_or("none"),
                expected.unwrap_or("none")
            );
        }
        outcomes.push(outcome);
    }
    let count = |wanted: &[Outcome]| outcomes.iter().filter(|o| wanted.contains(o)).count();
    let with_gold = count(&[Outcome::Right, Outcome::WrongSkill, Outcome::Miss]);
    let without = count(&[Outcome::FalseRoute, Outcome::Abstained]);
    let rate = |n: usize, of: usize| if of == 0 { 0.0 } else { n as f64 / of as f64 };
    println!(
        "| skills | intents (with a right skill / without) | top-1 | wrong skill | miss | false route |"
    );
    println!("|---|---|---|---|---|---|");
    println!(
        "| {} | {} ({with_gold} / {without}) | {:.3} | {:.3} | {:.3} | {:.3} |",
        gold["skills"].as_array().map_or(0, Vec::len),
        outcomes.len(),
        rate(count(&[Outcome::Right]), with_gold),
        rate(count(&[Outcome::WrongSkill]), with_gold),
        rate(count(&[Outcome::Miss]), with_gold),
        rate(count(&[Outcome::FalseRoute]), without),
    );
    Ok(())
}
