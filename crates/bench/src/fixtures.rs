//! The six fixtures, the three controlled queries, their expected ordered hits and result
//! digests (contract 07 §1.7, §1.9, §2), and the reference's published numbers (§6).

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    Shallow,
    Nested,
}

impl Layout {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Layout::Shallow => "shallow",
            Layout::Nested => "nested",
        }
    }

    /// The vault-relative path of file `index` (§1.2).
    pub(crate) fn note_path(self, index: usize) -> String {
        match self {
            Layout::Shallow => format!("bucket-{:02}/note-{index:05}.md", index % 2),
            Layout::Nested => format!(
                "branch-{:02}/branch-{:02}/branch-{:02}/note-{index:05}.md",
                (index / 64) % 8,
                (index / 8) % 8,
                index % 8
            ),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Distribution {
    Prose,
    HighEntropy,
}

impl Distribution {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Distribution::Prose => "prose",
            Distribution::HighEntropy => "high-entropy",
        }
    }
}

/// One fixture and its published receipt.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fixture {
    pub(crate) id: &'static str,
    pub(crate) count: usize,
    pub(crate) layout: Layout,
    pub(crate) distribution: Distribution,
    pub(crate) source_bytes: u64,
    pub(crate) inventory_sha256: &'static str,
}

pub(crate) const FIXTURES: [Fixture; 6] = [
    Fixture {
        id: "500-shallow-prose",
        count: 500,
        layout: Layout::Shallow,
        distribution: Distribution::Prose,
        source_bytes: 543_978,
        inventory_sha256: "db6ab0454118d7cd1e2c54c3519db2018fddcba75e124105f13f1345dc525306",
    },
    Fixture {
        id: "500-nested-high-entropy",
        count: 500,
        layout: Layout::Nested,
        distribution: Distribution::HighEntropy,
        source_bytes: 519_370,
        inventory_sha256: "16d7f2dc55c48230a2a65d71e93453245cd4bfd6b562701cd5c5cc95c3a5fe19",
    },
    Fixture {
        id: "2500-shallow-prose",
        count: 2500,
        layout: Layout::Shallow,
        distribution: Distribution::Prose,
        source_bytes: 2_731_459,
        inventory_sha256: "229da6c47d147660684099dacb22af3362a3467b2e607a6823dd7d8bc582a910",
    },
    Fixture {
        id: "2500-nested-high-entropy",
        count: 2500,
        layout: Layout::Nested,
        distribution: Distribution::HighEntropy,
        source_bytes: 2_582_784,
        inventory_sha256: "42178a1a3d649a5223662730f7373ce1505289feefbb88dd2afad3918194e537",
    },
    Fixture {
        id: "10000-shallow-prose",
        count: 10_000,
        layout: Layout::Shallow,
        distribution: Distribution::Prose,
        source_bytes: 10_886_041,
        inventory_sha256: "50a3e8026807256715a8f7ea5ffcb8d35c8a074d04c08badbf4e27c6119008c6",
    },
    Fixture {
        id: "10000-nested-high-entropy",
        count: 10_000,
        layout: Layout::Nested,
        distribution: Distribution::HighEntropy,
        source_bytes: 10_319_743,
        inventory_sha256: "cc818211f579b4c54fcacfaa42ed195be052d156c5161c1ccdf2f23cdd1bf9a8",
    },
];

pub(crate) fn fixture(id: &str) -> Option<&'static Fixture> {
    FIXTURES.iter().find(|fixture| fixture.id == id)
}

/// A controlled query (§1.7).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ControlledQuery {
    pub(crate) id: &'static str,
    pub(crate) text: &'static str,
}

impl ControlledQuery {
    pub(crate) fn applies_to(&self, index: usize) -> bool {
        match self.id {
            "low-hit" => matches!(index, 3 | 17 | 101 | 307),
            "high-hit" => index.is_multiple_of(25),
            _ => false,
        }
    }
}

/// In manifest order.
pub(crate) const QUERIES: [ControlledQuery; 3] = [
    ControlledQuery {
        id: "no-hit",
        text: "zqxj-unfindable-20260813",
    },
    ControlledQuery {
        id: "low-hit",
        text: "controlled-peregrine-benchmark-needle",
    },
    ControlledQuery {
        id: "high-hit",
        text: "common-benchmark-marker-needle",
    },
];

/// The result limit of every controlled query.
pub(crate) const RESULT_LIMIT: usize = 20;

/// The expected ordered `source` list (§2.1): matching indices ordered by vault path, cut to 20.
pub(crate) fn expected_sources(fixture: &Fixture, query: &ControlledQuery) -> Vec<String> {
    let mut paths: Vec<String> = (0..fixture.count)
        .filter(|&index| query.applies_to(index))
        .map(|index| fixture.layout.note_path(index))
        .collect();
    paths.sort();
    paths.truncate(RESULT_LIMIT);
    paths
        .into_iter()
        .map(|path| format!("vault/{path}"))
        .collect()
}

/// The expected snippet lines of a hit: 6–8 with frontmatter (`i mod 4 = 0`), else 2–4.
pub(crate) fn expected_lines(source: &str) -> (usize, usize) {
    let index: usize = source
        .rsplit("note-")
        .next()
        .and_then(|tail| tail.strip_suffix(".md"))
        .and_then(|digits| digits.parse().ok())
        .unwrap_or(1);
    if index.is_multiple_of(4) {
        (6, 8)
    } else {
        (2, 4)
    }
}

/// The digest of `[]`, every fixture's `no-hit` digest.
pub(crate) const EMPTY_DIGEST: &str =
    "4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945";

/// The expected result digest of §2.3.
pub(crate) fn expected_digest(fixture: &Fixture, query: &ControlledQuery) -> &'static str {
    let shallow = fixture.layout == Layout::Shallow;
    match (query.id, shallow, fixture.count) {
        ("no-hit", _, _) => EMPTY_DIGEST,
        ("low-hit", true, _) => "6bc96a7e535089d0f1232a6aa21cf6cf2b255f9d1ddccfe2dea5b098ff0c98b5",
        ("low-hit", false, _) => "3426468c469ccf3a134e93a71f6dea6f3a21d3e622918668af97a098bee9b3fd",
        (_, true, 500) => "0c51d10ccea2f49c756db6a66d988559b5db90ccb4843048ebc80b01444a5fca",
        (_, true, _) => "9b3d7e484ca325f107d3363721ce8b99b038149f4b79a4f23c25e52c393bfe3f",
        (_, false, 500) => "7f89b11c4f05e3bdb46a359a0cc8f9df6f1f0ba7b5c91b591213096cac7a1c15",
        (_, false, 2500) => "cd69f09fe24115d75bb9e0b9d77835b6e944712ea4ac7e87e6275ea09cf4baa4",
        (_, false, _) => "0bcab7da3781ba39e4bdcbc5e04bb5f2bc293ad8dbc75d19f43ee4fca5c0da58",
    }
}

/// The reference's published figures for one cell (§6).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reference {
    pub(crate) public_p95_ms: f64,
    pub(crate) raw_read_p95_ms: Option<f64>,
    pub(crate) unsafe_search_p95_ms: Option<f64>,
    pub(crate) safe_corpus_p95_ms: Option<f64>,
    pub(crate) warm_peak_rss_bytes: Option<u64>,
}

pub(crate) fn reference(fixture: &Fixture, query: &ControlledQuery) -> Reference {
    let column = match query.id {
        "no-hit" => 0,
        "low-hit" => 1,
        _ => 2,
    };
    let public: [f64; 3] = match fixture.id {
        "500-shallow-prose" => [39.96, 39.51, 38.88],
        "500-nested-high-entropy" => [192.88, 195.38, 192.26],
        "2500-shallow-prose" => [173.25, 176.34, 177.22],
        "2500-nested-high-entropy" => [347.99, 357.03, 348.90],
        "10000-shallow-prose" => [675.50, 689.51, 689.64],
        _ => [937.58, 954.16, 954.99],
    };
    let detail = match fixture.id {
        "10000-shallow-prose" => Some((
            [369.36, 392.95, 394.09],
            135.48,
            503.84,
            [313_868_288, 314_654_720, 336_805_888],
        )),
        "10000-nested-high-entropy" => Some((
            [441.40, 449.73, 462.86],
            139.54,
            720.88,
            [494_551_040, 594_886_656, 614_268_928],
        )),
        _ => None,
    };
    Reference {
        public_p95_ms: public[column],
        raw_read_p95_ms: detail.map(|detail| detail.1),
        unsafe_search_p95_ms: detail.map(|detail| detail.0[column]),
        safe_corpus_p95_ms: detail.map(|detail| detail.2),
        warm_peak_rss_bytes: detail.map(|detail| detail.3[column]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(id: &str) -> &'static ControlledQuery {
        QUERIES.iter().find(|query| query.id == id).unwrap()
    }

    #[test]
    fn expected_lists_match_the_spec() {
        let nested = fixture("500-nested-high-entropy").unwrap();
        assert_eq!(
            expected_sources(nested, query("low-hit")),
            [
                "vault/branch-00/branch-00/branch-03/note-00003.md",
                "vault/branch-00/branch-02/branch-01/note-00017.md",
                "vault/branch-01/branch-04/branch-05/note-00101.md",
                "vault/branch-04/branch-06/branch-03/note-00307.md",
            ]
        );
        let high = expected_sources(nested, query("high-hit"));
        assert_eq!(high.len(), 20);
        assert_eq!(high[4], "vault/branch-01/branch-04/branch-04/note-00100.md");
        assert_eq!(
            high[19],
            "vault/branch-07/branch-03/branch-03/note-00475.md"
        );
        let big = expected_sources(
            fixture("10000-nested-high-entropy").unwrap(),
            query("high-hit"),
        );
        assert_eq!(big[10], "vault/branch-00/branch-01/branch-05/note-00525.md");
        assert_eq!(big[19], "vault/branch-00/branch-02/branch-06/note-09750.md");
        let shallow = expected_sources(fixture("500-shallow-prose").unwrap(), query("high-hit"));
        assert_eq!(shallow[9], "vault/bucket-00/note-00450.md");
        assert_eq!(shallow[10], "vault/bucket-01/note-00025.md");
        let shallow = expected_sources(fixture("2500-shallow-prose").unwrap(), query("high-hit"));
        assert_eq!(shallow[19], "vault/bucket-00/note-00950.md");
        assert!(expected_sources(nested, query("no-hit")).is_empty());
    }

    #[test]
    fn expected_lines_follow_frontmatter() {
        assert_eq!(expected_lines("vault/bucket-00/note-00000.md"), (6, 8));
        assert_eq!(expected_lines("vault/bucket-01/note-00003.md"), (2, 4));
    }
}
