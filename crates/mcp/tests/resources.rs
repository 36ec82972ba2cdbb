//! Skills as MCP resources (contract 05 §7.7), per era, through the spawned adapter: present in
//! the structured eras (2025-11-25 and 2026-07-28), absent in the reference era; `resolve_skill`
//! names the URI its match is read at; URIs are path-free; Off reads nothing; a URI that names
//! no listed skill, whatever its form, is refused with the one fixed error; a linked or
//! oversized `SKILL.md` is refused by the catalog's contained reader.
#![allow(
    clippy::disallowed_methods,
    reason = "the tests build their folders with std::fs"
)]

mod support;

use serde_json::{Value, json};
use support::{Fixture, call, error_of, payload, payload_text, request};

/// A token that exists only in the body of the fixture's skill (below its frontmatter, which
/// is all the catalog ever reads for routing).
const TOKEN: &str = "ORCHARD-LANTERN-4417";
const SKILL: &str = "---\nname: harvest-ledger\ndescription: Keep the harvest ledger.\ntriggers:\n  - update the harvest ledger\n---\n# Harvest ledger\n\nWrite ORCHARD-LANTERN-4417 at the top of the ledger.\n";
const URI: &str = "aios://skills/harvest-ledger/SKILL.md";
const BODY: &str = "# Harvest ledger\n\nWrite ORCHARD-LANTERN-4417 at the top of the ledger.\n";
const OFF_NOTICE: &str = "DotAIOS is off; your AI app may still keep its own conversation history. DotAIOS did not read, search, save, or capture this turn.";

fn modern(version: &str, extra: Value) -> Value {
    let mut params = json!({"_meta": {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": {},
    }});
    for (name, value) in extra.as_object().unwrap() {
        if name == "_meta" {
            for (key, member) in value.as_object().unwrap() {
                params["_meta"][key] = member.clone();
            }
        } else {
            params[name] = value.clone();
        }
    }
    params
}

fn fixture() -> Fixture {
    let fixture = Fixture::init();
    fixture.write("skills/harvest-ledger/SKILL.md", SKILL);
    fixture.write(
        "skills/_drafts/SKILL.md",
        "---\nname: draft\n---\nDRAFT-ONLY\n",
    );
    fixture
}

/// The same four requests in the reference era (no `initialize`, then one at 2025-06-18),
/// the modern era (2026-07-28 `_meta`) and the structured era (`initialize` at 2025-11-25).
#[test]
fn skills_are_resources_in_the_structured_eras_only() {
    let fixture = fixture();
    let asks = |first: u64, params: &dyn Fn(Value) -> Value| {
        vec![
            request(first, "resources/list", params(json!({}))),
            request(first + 1, "resources/read", params(json!({"uri": URI}))),
            request(first + 2, "resources/templates/list", params(json!({}))),
            request(
                first + 3,
                "tools/call",
                params(
                    json!({"name": "resolve_skill", "arguments": {"intent": "update the harvest ledger"}}),
                ),
            ),
        ]
    };
    let plain = |params: Value| params;
    let mut lines = asks(0, &plain);
    lines.push(request(
        10,
        "initialize",
        json!({"protocolVersion": "2025-06-18"}),
    ));
    lines.extend(asks(11, &plain));
    lines.extend(asks(20, &|params| modern("2026-07-28", params)));
    lines.extend(asks(30, &|params| modern("2025-06-18", params)));
    lines.push(request(
        40,
        "initialize",
        json!({"protocolVersion": "2025-11-25"}),
    ));
    lines.extend(asks(41, &plain));
    let responses = fixture.responses(&lines);

    // Reference era: unknown methods, as the reference answered; the match has no `uri`; the
    // 2025-06-18 handshake announces only tools.
    for block in [&responses[0..4], &responses[5..9], &responses[13..17]] {
        for (index, method) in [
            "resources/list",
            "resources/read",
            "resources/templates/list",
        ]
        .iter()
        .enumerate()
        {
            assert_eq!(
                error_of(&block[index]),
                (-32601, format!("Method not found: {method}"))
            );
        }
        let matched = &payload(&block[3])["matches"][0];
        assert_eq!(matched["name"], "harvest-ledger");
        assert!(matched.get("uri").is_none(), "{matched}");
        assert!(matched.get("instructions").is_none(), "{matched}");
    }
    assert_eq!(responses[4]["result"]["capabilities"], json!({"tools": {}}));
    assert_eq!(
        responses[17]["result"]["capabilities"],
        json!({"tools": {}, "resources": {}})
    );

    // Structured eras: the same resources; the match names the URI its body is read at.
    for (era, block) in [
        ("modern", &responses[9..13]),
        ("structured", &responses[18..22]),
    ] {
        let list = &block[0]["result"];
        assert_eq!(list.get("resultType").is_some(), era == "modern", "{list}");
        let resources = list["resources"].as_array().unwrap();
        let uris: Vec<&str> = resources
            .iter()
            .map(|resource| resource["uri"].as_str().unwrap())
            .collect();
        assert!(uris.contains(&URI), "{uris:?}");
        assert!(
            uris.iter()
                .all(|uri| uri.starts_with("aios://skills/") && uri.ends_with("/SKILL.md")),
            "{uris:?}"
        );
        assert!(!uris.iter().any(|uri| uri.contains("_drafts")), "{uris:?}");
        let entry = resources.iter().find(|r| r["uri"] == URI).unwrap();
        assert_eq!(
            entry,
            &json!({"uri": URI, "name": "harvest-ledger", "description": "Keep the harvest ledger.", "mimeType": "text/markdown"})
        );
        let contents = &block[1]["result"]["contents"];
        assert_eq!(
            contents,
            &json!([{"uri": URI, "mimeType": "text/markdown", "text": SKILL}])
        );
        assert_eq!(block[2]["result"]["resourceTemplates"], json!([]));
        let matched = &payload(&block[3])["matches"][0];
        assert_eq!(matched["uri"], URI, "{era}");
        // The start of the instructions, here all of them: the body after the frontmatter.
        assert_eq!(matched["instructions"], BODY, "{era}");
        assert_eq!(matched["resource"], "skills/harvest-ledger/SKILL.md");
        assert!(list["_meta"]["io.modelcontextprotocol/serverInfo"].is_object());
    }
}

/// Off reads nothing: the folder does not exist, yet neither request reports the missing
/// folder (which a read would have to check first), and nothing is created.
#[test]
fn off_reads_nothing() {
    let fixture = Fixture::missing();
    let off = json!({"_meta": {"dotaios/memory": "off"}});
    let mut read = off.clone();
    read["uri"] = json!(URI);
    let responses = fixture.responses(&[
        request(0, "initialize", json!({"protocolVersion": "2025-11-25"})),
        request(1, "resources/list", off.clone()),
        request(2, "resources/read", read.clone()),
        request(3, "resources/list", json!({})),
        request(4, "resources/read", json!({"uri": URI})),
        request(5, "resources/list", modern("2026-07-28", off)),
        request(6, "resources/read", modern("2026-07-28", read)),
        request(
            7,
            "resources/list",
            json!({"_meta": {"dotaios/memory": "project"}}),
        ),
    ]);
    for index in [1, 5] {
        assert_eq!(responses[index]["result"]["resources"], json!([]));
    }
    for index in [2, 6] {
        assert_eq!(
            responses[index]["result"]["contents"],
            json!([{"uri": URI, "mimeType": "text/plain", "text": OFF_NOTICE}])
        );
    }
    for index in [3, 4] {
        assert_eq!(
            error_of(&responses[index]),
            (-32602, dotaios_core::error::NO_FOLDER_MESSAGE.into())
        );
    }
    assert_eq!(
        error_of(&responses[7]),
        (-32602, "dotaios/memory must be one of: shared, off.".into())
    );
    assert!(!fixture.aios.exists());
}

/// Every URI that is not, character for character, the URI of a listed skill is the one
/// fixed "Resource not found" (`-32002`; `-32602` in the 2026-07-28 era), however it tries to
/// leave `skills/`: `..`, absolute paths, other schemes, percent-encodings, hidden skills.
#[test]
fn unknown_and_escaping_uris_are_refused() {
    let fixture = fixture();
    let absolute = fixture.aios.join("skills/harvest-ledger/SKILL.md");
    let absolute = absolute.to_string_lossy().into_owned();
    let uris = [
        "aios://skills/../aios.json".to_owned(),
        "aios://skills/../SKILL.md".to_owned(),
        "aios://skills/harvest-ledger/../../aios.json/SKILL.md".to_owned(),
        "aios://skills/..%2F..%2Faios.json/SKILL.md".to_owned(),
        "aios://skills/%2e%2e/SKILL.md".to_owned(),
        "aios://skills/harvest%2Dledger/SKILL.md".to_owned(),
        "aios://skills/HARVEST-LEDGER/SKILL.md".to_owned(),
        "aios://skills/harvest-ledger%2F/SKILL.md".to_owned(),
        "aios://skills/harvest-ledger%00/SKILL.md".to_owned(),
        "aios://skills/xharvest-ledger/SKILL.md".to_owned(),
        "aios://skills/_drafts/SKILL.md".to_owned(),
        "aios://skills/missing/SKILL.md".to_owned(),
        "aios://skills/harvest-ledger/skill.md".to_owned(),
        "file:///etc/passwd".to_owned(),
        format!("file://{absolute}"),
        absolute,
        "skills/harvest-ledger/SKILL.md".to_owned(),
        format!("aios://skills/{}/SKILL.md", "x".repeat(5000)),
        String::new(),
    ];
    let mut lines = vec![request(
        0,
        "initialize",
        json!({"protocolVersion": "2025-11-25"}),
    )];
    for (id, uri) in uris.iter().enumerate() {
        lines.push(request(
            id as u64 + 1,
            "resources/read",
            json!({"uri": uri}),
        ));
        lines.push(request(
            id as u64 + 100,
            "resources/read",
            modern("2026-07-28", json!({"uri": uri})),
        ));
    }
    lines.push(request(200, "resources/read", json!({"uri": 7})));
    lines.push(request(201, "resources/read", json!({})));
    lines.push(request(202, "resources/list", json!({"cursor": "next"})));
    let responses = fixture.responses(&lines);
    for (index, uri) in uris.iter().enumerate() {
        let structured = &responses[1 + 2 * index];
        let modern = &responses[2 + 2 * index];
        assert_eq!(
            structured,
            &json!({"jsonrpc": "2.0", "id": index + 1, "error": {"code": -32002, "message": "Resource not found"}}),
            "{uri}"
        );
        assert_eq!(
            error_of(modern),
            (-32602, "Resource not found".into()),
            "{uri}"
        );
    }
    let n = 1 + 2 * uris.len();
    assert_eq!(
        error_of(&responses[n]),
        (-32602, "uri must be a string".into())
    );
    assert_eq!(
        error_of(&responses[n + 1]),
        (-32602, "uri must be a string".into())
    );
    assert_eq!(
        error_of(&responses[n + 2]),
        (-32602, "Invalid cursor".into())
    );
}

/// The catalog's contained reader decides what may be read (contract 04 §1.1): a linked skill
/// directory is not a resource at all; a linked or oversized `SKILL.md` fails the request with
/// the fixed, path-free internal failure, and its content never leaves.
#[cfg(unix)]
#[test]
fn linked_and_oversized_skill_files_are_refused() {
    let failed = (-32603, "DotAIOS request failed safely.".to_owned());
    let outside = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(outside.path().join("secret")).unwrap();
    std::fs::write(
        outside.path().join("secret/SKILL.md"),
        "---\nname: secret\n---\nSECRET-BODY\n",
    )
    .unwrap();
    let init = request(0, "initialize", json!({"protocolVersion": "2025-11-25"}));

    let linked_dir = fixture();
    std::os::unix::fs::symlink(
        outside.path().join("secret"),
        linked_dir.aios.join("skills/secret"),
    )
    .unwrap();
    let responses = linked_dir.responses(&[
        init.clone(),
        request(1, "resources/list", json!({})),
        request(
            2,
            "resources/read",
            json!({"uri": "aios://skills/secret/SKILL.md"}),
        ),
        request(3, "resources/read", json!({"uri": URI})),
    ]);
    let listed = responses[1]["result"]["resources"].to_string();
    assert!(!listed.contains("secret"), "{listed}");
    assert_eq!(
        error_of(&responses[2]),
        (-32002, "Resource not found".into())
    );
    assert!(
        responses[3]["result"]["contents"][0]["text"]
            .as_str()
            .unwrap()
            .contains(TOKEN)
    );

    let linked_file = fixture();
    std::fs::create_dir_all(linked_file.aios.join("skills/secret")).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("secret/SKILL.md"),
        linked_file.aios.join("skills/secret/SKILL.md"),
    )
    .unwrap();
    let oversized = fixture();
    let mut big = String::from("---\nname: big\n---\n");
    big.push_str(&"x".repeat(8 * 1024 * 1024));
    oversized.write("skills/big/SKILL.md", big);
    for (folder, uri) in [
        (&linked_file, "aios://skills/secret/SKILL.md"),
        (&oversized, "aios://skills/big/SKILL.md"),
    ] {
        let transcript = folder.run(&[
            init.clone(),
            request(1, "resources/read", json!({"uri": uri})),
            request(2, "resources/list", json!({})),
        ]);
        transcript.assert_clean(folder);
        assert!(!transcript.stdout.contains("SECRET-BODY"));
        assert_eq!(error_of(&transcript.responses[1]), failed, "{uri}");
        assert_eq!(error_of(&transcript.responses[2]), failed, "{uri}");
    }
}

/// Contract 05 §7.7: the inline instructions fill only what the budget leaves: at a budget
/// that holds the match and a little more they are cut and say so, within the budget; when
/// the match only just fits they are left out; Off reads no instructions.
#[test]
fn inline_instructions_fit_the_budget_and_say_when_cut() {
    let fixture = fixture();
    fixture.write(
        "skills/harvest-ledger/SKILL.md",
        format!("{SKILL}{}", "More steps follow here.\n".repeat(400)),
    );
    let at = |id: u64, budget: u64, memory: &str| {
        request(
            id,
            "tools/call",
            modern(
                "2026-07-28",
                json!({"name": "resolve_skill", "arguments": {"intent": "update the harvest ledger", "budget": budget, "memory": memory}}),
            ),
        )
    };
    let responses = fixture.responses(&[at(1, 6000, "shared"), at(2, 6000, "off")]);
    let full = payload(&responses[0]);
    let text = full["matches"][0]["instructions"].as_str().unwrap();
    assert!(text.starts_with(BODY), "{text}");
    assert!(
        text.ends_with("\n[instructions truncated; read the whole skill at uri]"),
        "{text}"
    );
    let used = support::len16(&payload_text(&responses[0]));
    assert_eq!(full["budget"]["used"], used);
    assert!(used <= 6000 && used > 5900, "{used}");
    assert_eq!(payload(&responses[1])["matches"], json!([]));
    // The smallest budget that holds the match, from the hint, leaves no room for them.
    let hinted = fixture.responses(&[at(3, 400, "shared")]);
    let hint = payload(&hinted[0])["budget"]["hint"]
        .as_str()
        .unwrap()
        .to_owned();
    let needed: u64 = hint
        .strip_prefix("budget 400 cannot hold one match; call again with budget ")
        .and_then(|rest| rest.strip_suffix(" or more"))
        .and_then(|number| number.parse().ok())
        .unwrap_or_else(|| panic!("{hint}"));
    let tight = fixture.responses(&[at(4, needed, "shared")]);
    let matched = &payload(&tight[0])["matches"][0];
    assert_eq!(matched["uri"], URI);
    assert!(matched.get("instructions").is_none(), "{matched}");
}

/// An agent that only speaks MCP follows the skill it resolved: the `uri` of the best match,
/// read back, is the whole `SKILL.md` (a resource call in the same process, as a host makes
/// it); the call uses the same URI `tools/call` printed, so the two can never drift.
#[test]
fn the_resolved_uri_reads_the_skill_it_names() {
    let fixture = fixture();
    let first = fixture.responses(&[request(
        1,
        "tools/call",
        modern(
            "2026-07-28",
            json!({"name": "resolve_skill", "arguments": {"intent": "please update the harvest ledger"}}),
        ),
    )]);
    let uri = payload(&first[0])["matches"][0]["uri"]
        .as_str()
        .unwrap()
        .to_owned();
    let read = fixture.responses(&[request(
        2,
        "resources/read",
        modern("2026-07-28", json!({"uri": uri})),
    )]);
    let text = read[0]["result"]["contents"][0]["text"].as_str().unwrap();
    assert!(text.contains(TOKEN), "{text}");
    // The reference-era call of the same intent names only the folder-relative file.
    let reference = fixture.responses(&[call(
        3,
        "resolve_skill",
        json!({"intent": "please update the harvest ledger"}),
    )]);
    assert!(!payload(&reference[0]).to_string().contains("aios://"));
}
