//! "Did you mean …?" for a mistyped option, command name or listed value (contract 06 §1.2):
//! the closest candidate within a small edit distance. Shared by the `dotaios` CLI and the
//! `dotaios-mcp` command line. Pure and bounded: long inputs are never compared.

/// `. Did you mean <prefix><candidate>?` for the candidate closest to `given`, or nothing when
/// none is near. Names are compared without `prefix`; long inputs are not compared at all, so
/// the work stays bounded whatever the argument (contract 06 §1.2).
pub fn did_you_mean<'c>(
    given: &str,
    candidates: impl IntoIterator<Item = &'c str>,
    prefix: &str,
) -> String {
    const LONGEST: usize = 64;
    let given = given.strip_prefix(prefix).unwrap_or(given);
    if given.is_empty() || given.chars().count() > LONGEST {
        return String::new();
    }
    let allowed = match given.chars().count() {
        0..=3 => 1,
        4..=8 => 2,
        _ => 3,
    };
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        let bare = candidate.strip_prefix(prefix).unwrap_or(candidate);
        let distance = edit_distance(given, bare);
        let near = distance <= allowed || (given.len() >= 3 && bare.starts_with(given));
        if near && best.is_none_or(|(best_distance, _)| distance < best_distance) {
            best = Some((distance, bare));
        }
    }
    best.map(|(_, bare)| format!(". Did you mean {prefix}{bare}?"))
        .unwrap_or_default()
}

/// The optimal-string-alignment distance: insertions, deletions, substitutions and adjacent
/// transpositions (`serach` is one step from `search`). Both inputs are short (≤ 64 chars).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        assert_eq!(
            did_you_mean("serach", ["init", "search", "skills"], ""),
            ". Did you mean search?"
        );
        assert_eq!(did_you_mean("xyzzy", ["init", "search"], ""), "");
        assert_eq!(
            did_you_mean("--dry", ["--dry-run"], "--"),
            ". Did you mean --dry-run?"
        );
    }
}
