//! `dotaios-bench quality --skills`: skill-routing quality against a gold set (contract 07,
//! docs/benchmark.md "Skill routing"). The gold sets (`data/skill-intents.json`, the catalog
//! and the first intents; `data/skill-intents-paraphrase.json`, each skill's body headings and
//! paraphrase intents) hold intents, each with the skill that should be the top match or `null`
//! when none fits. The catalog is written into a fresh folder (`dotaios init`, bundled skills
//! removed), and every intent is resolved by a fresh `dotaios skills resolve <intent> --json` of
//! the binary under test, so any build (an older one included) can be measured the same way.
//!
//! The intents are split, by a seed committed with the paraphrase set, into a tuning part (all
//! first intents and a seeded share of the paraphrases) and a held-out part (the other
//! paraphrases); the routing threshold is chosen on the tuning part only. The threshold sweep
//! ranks the same folder in process with the linked `dotaios-core`
//! (`skills::candidates`, before the threshold), so it describes this build's ranking.
//!
//! It measures; it never asserts. The tables go to stdout, progress to stderr, and with
//! `--report <FILE>` the same figures as JSON.

use std::path::Path;
use std::process::Command;

use dotaios_core::skills::{self, ROUTE_THRESHOLD};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// The first gold set, written before any resolver ran on it (never edited afterwards).
const GOLD: &str = include_str!("../data/skill-intents.json");
/// The paraphrase gold set and the skills' headings, written before the paraphrase ranking
/// existed (never edited afterwards).
const PARAPHRASE: &str = include_str!("../data/skill-intents-paraphrase.json");

/// The largest false-route rate the chosen threshold may have on the tuning part (contract 04
/// §3.2).
const MAX_FALSE_ROUTE: f64 = 0.05;

/// The thresholds of the sweep: 0, 0.05, …, 0.95.
const SWEEP_STEPS: usize = 20;

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

fn outcome(gold: Option<&str>, top: Option<&str>) -> Outcome {
    match (gold, top) {
        (Some(gold), Some(top)) if gold == top => Outcome::Right,
        (Some(_), Some(_)) => Outcome::WrongSkill,
        (Some(_), None) => Outcome::Miss,
        (None, Some(_)) => Outcome::FalseRoute,
        (None, None) => Outcome::Abstained,
    }
}

/// Which part of the split an intent belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Tuning,
    HeldOut,
}

/// One gold intent.
struct Intent {
    text: String,
    gold: Option<String>,
    part: Part,
}

/// One intent measured: the binary's top match, and the in-process first candidate with its
/// fit (what the routing threshold applies to), score, runner-up score and corroboration.
struct Measured<'a> {
    intent: &'a Intent,
    product: Outcome,
    product_top: Option<String>,
    candidate: Option<(String, f64, f64, Option<f64>, bool)>,
}

/// The split of contract 07: SHA-256 of `<seed>\n<intent>`, even first byte → tuning.
fn part_of(seed: &str, intent: &str) -> Part {
    let digest = Sha256::digest(format!("{seed}\n{intent}").as_bytes());
    if digest[0] % 2 == 0 {
        Part::Tuning
    } else {
        Part::HeldOut
    }
}

fn intents(gold: &Value, paraphrase: &Value) -> Result<Vec<Intent>, String> {
    let seed = paraphrase["split_seed"]
        .as_str()
        .ok_or("paraphrase set: no split_seed")?;
    let mut out = Vec::new();
    for (set, paraphrased) in [(gold, false), (paraphrase, true)] {
        for item in set["intents"].as_array().ok_or("gold set: no intents")? {
            let text = item["intent"]
                .as_str()
                .ok_or("gold set: intent")?
                .to_owned();
            let part = if paraphrased {
                part_of(seed, &text)
            } else {
                Part::Tuning
            };
            out.push(Intent {
                gold: item["gold"].as_str().map(str::to_owned),
                text,
                part,
            });
        }
    }
    Ok(out)
}

/// Runs the gold sets through `dotaios` and prints the rates and the threshold sweep.
pub(crate) fn run(dotaios: &Path, report: Option<&Path>) -> Result<(), String> {
    let gold: Value = serde_json::from_str(GOLD).map_err(|e| format!("gold set: {e}"))?;
    let paraphrase: Value =
        serde_json::from_str(PARAPHRASE).map_err(|e| format!("paraphrase set: {e}"))?;
    let temp = std::env::temp_dir().join(format!("dotaios-bench-skills-{}", std::process::id()));
    let aios = temp.join("aios");
    let result = write_folder(dotaios, &aios, &gold, &paraphrase)
        .and_then(|()| measure(dotaios, &aios, &gold, &paraphrase, report));
    let _ = std::fs::remove_dir_all(&temp);
    result
}

fn write_folder(
    dotaios: &Path,
    aios: &Path,
    gold: &Value,
    paraphrase: &Value,
) -> Result<(), String> {
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
        for heading in paraphrase["headings"][dir].as_array().into_iter().flatten() {
            text.push_str(&format!("\n## {}\n", heading.as_str().unwrap_or_default()));
        }
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

/// Rates of one set of outcomes: `(with a right skill, without, top-1, wrong skill, miss,
/// false route)`.
struct Rates {
    with_gold: usize,
    without: usize,
    top1: f64,
    wrong: f64,
    miss: f64,
    false_route: f64,
}

fn rates(outcomes: &[Outcome]) -> Rates {
    let count = |wanted: &[Outcome]| outcomes.iter().filter(|o| wanted.contains(o)).count();
    let with_gold = count(&[Outcome::Right, Outcome::WrongSkill, Outcome::Miss]);
    let without = count(&[Outcome::FalseRoute, Outcome::Abstained]);
    let rate = |n: usize, of: usize| if of == 0 { 0.0 } else { n as f64 / of as f64 };
    Rates {
        with_gold,
        without,
        top1: rate(count(&[Outcome::Right]), with_gold),
        wrong: rate(count(&[Outcome::WrongSkill]), with_gold),
        miss: rate(count(&[Outcome::Miss]), with_gold),
        false_route: rate(count(&[Outcome::FalseRoute]), without),
    }
}

impl Rates {
    fn json(&self) -> Value {
        json!({
            "withRightSkill": self.with_gold,
            "withoutRightSkill": self.without,
            "top1": self.top1,
            "wrongSkill": self.wrong,
            "miss": self.miss,
            "falseRoute": self.false_route,
        })
    }
}

/// The outcome of `measured` had the threshold been `threshold`.
fn swept(measured: &Measured<'_>, threshold: f64) -> Outcome {
    let top = measured
        .candidate
        .as_ref()
        .filter(|(_, fit, ..)| *fit >= threshold)
        .map(|(dir, ..)| dir.as_str());
    outcome(measured.intent.gold.as_deref(), top)
}

fn part_name(part: Option<Part>) -> &'static str {
    match part {
        Some(Part::Tuning) => "tuning",
        Some(Part::HeldOut) => "held-out",
        None => "all",
    }
}

fn measure(
    dotaios: &Path,
    aios: &Path,
    gold: &Value,
    paraphrase: &Value,
    report: Option<&Path>,
) -> Result<(), String> {
    let intents = intents(gold, paraphrase)?;
    let catalog = skills::read_catalog_at(aios).map_err(|e| format!("catalog: {e}"))?;
    let mut measured = Vec::with_capacity(intents.len());
    for intent in &intents {
        let product_top = top_match(dotaios, aios, &intent.text)?;
        let product = outcome(intent.gold.as_deref(), product_top.as_deref());
        if !matches!(product, Outcome::Right | Outcome::Abstained) {
            eprintln!(
                "{product:?} ({}): {:?} → {} (gold {})",
                part_name(Some(intent.part)),
                intent.text,
                product_top.as_deref().unwrap_or("none"),
                intent.gold.as_deref().unwrap_or("none")
            );
        }
        let ranked = skills::candidates(&intent.text, &catalog);
        let candidate = ranked.first().map(|top| {
            (
                top.skill.dir.clone(),
                top.fit(),
                top.score,
                ranked.get(1).map(|second| second.score),
                top.corroborated,
            )
        });
        measured.push(Measured {
            intent,
            product,
            product_top,
            candidate,
        });
    }
    let parts = [Some(Part::Tuning), Some(Part::HeldOut), None];
    let in_part = |part: Option<Part>| {
        measured
            .iter()
            .filter(move |m| part.is_none_or(|part| m.intent.part == part))
    };

    let skill_count = gold["skills"].as_array().map_or(0, Vec::len);
    println!(
        "| part | skills | intents (with a right skill / without) | top-1 | wrong skill | miss | false route |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut product_json = Vec::new();
    for part in parts {
        let outcomes: Vec<Outcome> = in_part(part).map(|m| m.product).collect();
        let r = rates(&outcomes);
        println!(
            "| {} | {skill_count} | {} ({} / {}) | {:.3} | {:.3} | {:.3} | {:.3} |",
            part_name(part),
            outcomes.len(),
            r.with_gold,
            r.without,
            r.top1,
            r.wrong,
            r.miss,
            r.false_route,
        );
        product_json.push(json!({"part": part_name(part), "rates": r.json()}));
    }

    // The sweep, and the threshold the tuning part chooses: the lowest with false routes at
    // most MAX_FALSE_ROUTE (a lower threshold only routes more, so it has the best top-1).
    let thresholds: Vec<f64> = (0..SWEEP_STEPS).map(|step| step as f64 / 20.0).collect();
    let chosen = thresholds.iter().copied().find(|&threshold| {
        let outcomes: Vec<Outcome> = in_part(Some(Part::Tuning))
            .map(|m| swept(m, threshold))
            .collect();
        rates(&outcomes).false_route <= MAX_FALSE_ROUTE
    });
    println!();
    println!(
        "Threshold sweep (in-process candidates; product threshold {ROUTE_THRESHOLD}, chosen on tuning: {}):",
        chosen.map_or("none".to_owned(), |t| format!("{t:.2}"))
    );
    println!();
    println!("| threshold | part | top-1 | wrong skill | miss | false route |");
    println!("|---|---|---|---|---|---|");
    let mut sweep_json = Vec::new();
    for &threshold in &thresholds {
        for part in [Some(Part::Tuning), Some(Part::HeldOut)] {
            let outcomes: Vec<Outcome> = in_part(part).map(|m| swept(m, threshold)).collect();
            let r = rates(&outcomes);
            println!(
                "| {threshold:.2} | {} | {:.3} | {:.3} | {:.3} | {:.3} |",
                part_name(part),
                r.top1,
                r.wrong,
                r.miss,
                r.false_route,
            );
            sweep_json.push(json!({
                "threshold": threshold,
                "part": part_name(part),
                "rates": r.json(),
            }));
        }
    }

    if let Some(report) = report {
        let intents_json: Vec<Value> = measured
            .iter()
            .map(|m| {
                let (top, fit, score, second, corroborated) = match &m.candidate {
                    Some((dir, fit, score, second, corroborated)) => (
                        Some(dir.clone()),
                        Some(*fit),
                        Some(*score),
                        *second,
                        Some(*corroborated),
                    ),
                    None => (None, None, None, None, None),
                };
                json!({
                    "intent": m.intent.text,
                    "part": part_name(Some(m.intent.part)),
                    "gold": m.intent.gold,
                    "productTop": m.product_top,
                    "candidate": top,
                    "fit": fit,
                    "score": score,
                    "runnerUpScore": second,
                    "corroborated": corroborated,
                })
            })
            .collect();
        let document = json!({
            "skills": skill_count,
            "productThreshold": ROUTE_THRESHOLD,
            "chosenThreshold": chosen,
            "maxFalseRoute": MAX_FALSE_ROUTE,
            "product": product_json,
            "sweep": sweep_json,
            "intents": intents_json,
        });
        let text = serde_json::to_string_pretty(&document).map_err(|e| e.to_string())?;
        std::fs::write(report, text + "\n").map_err(|e| format!("{}: {e}", report.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The gold sets are frozen (contract 07): their bytes are those committed before the
    /// rankings they measure existed. Changing them changes this digest; never do so to fix a
    /// number.
    #[test]
    fn gold_sets_are_frozen() {
        let digest = |text: &str| format!("{:x}", Sha256::digest(text.as_bytes()));
        assert_eq!(
            digest(GOLD),
            "74b4e7e7f8bf15b8abc64e7571e642383daf446498ebf6b621015ac832f8a248"
        );
        assert_eq!(
            digest(PARAPHRASE),
            "62f4ebb00dfa6d94b6021e4efd672905a59d21d74bfb7103eda26703037eba67"
        );
    }

    #[test]
    fn the_split_is_seeded_and_keeps_the_first_set_for_tuning() {
        let gold: Value = serde_json::from_str(GOLD).unwrap();
        let paraphrase: Value = serde_json::from_str(PARAPHRASE).unwrap();
        let intents = intents(&gold, &paraphrase).unwrap();
        let first = gold["intents"].as_array().unwrap().len();
        assert!(intents[..first].iter().all(|i| i.part == Part::Tuning));
        let held: Vec<&Intent> = intents[first..]
            .iter()
            .filter(|i| i.part == Part::HeldOut)
            .collect();
        // Both parts hold paraphrases with and without a right skill.
        assert!(held.iter().any(|i| i.gold.is_some()) && held.iter().any(|i| i.gold.is_none()));
        assert!(held.len() < intents.len() - first);
        assert_eq!(part_of("s", "x"), part_of("s", "x"));
    }
}
