//! Contract 05 §14 acceptance items about the protocol, Off mode and input validation (items 1–3,
//! 13, 32–35, 41, 43, 46–60, 63; item 61 compares two binaries of the `dotaios` package and
//! lives in its `adapter_cli.rs`), plus the bad-input cases of contract 05 §2.3 (D3d), each against
//! the built `dotaios-mcp` spawned as a child process, responses matched by position.
#![allow(
    clippy::disallowed_methods,
    reason = "tests build and inspect their folders with std::fs"
)]

mod support;

use std::ffi::OsStr;
use std::process::Command;

use dotaios_core::error::NO_FOLDER_MESSAGE;
use serde_json::{Value, json};
use support::*;

const OFF_TEXT: &str = "AI app may still keep its own conversation history";

fn assert_invalid(response: &Value, needle: &str) {
    let (code, message) = error_of(response);
    assert_eq!(code, -32602, "{response}");
    assert!(message.contains(needle), "{message:?} lacks {needle:?}");
}

/// Item 1.
#[test]
fn item_01_off_mode_works_without_a_folder() {
    let fixture = Fixture::missing();
    let responses = fixture.responses(&[
        request(1, "tools/list", json!({})),
        call(2, "read_working_context", json!({"memory": "off"})),
        call(
            3,
            "search_aios",
            json!({"query": "private", "memory": "off"}),
        ),
        call(
            4,
            "resolve_skill",
            json!({"intent": "plan privately", "memory": "off"}),
        ),
    ]);
    for tool in responses[0]["result"]["tools"].as_array().unwrap() {
        assert_eq!(
            tool["inputSchema"]["properties"]["memory"]["enum"],
            json!(["shared", "project", "off"])
        );
    }
    for response in &responses[1..] {
        let text = payload_text(response);
        assert!(
            text.contains("Memory: Off") && text.contains(OFF_TEXT),
            "{text}"
        );
    }
    let search = payload(&responses[2]);
    assert_eq!(
        (search["results"].clone(), search["complete"].clone()),
        (json!([]), json!(true))
    );
    assert_eq!(payload(&responses[3])["matches"], json!([]));
    assert!(!fixture.aios.exists());
}

/// Item 2.
#[test]
fn item_02_off_mode_still_validates() {
    let fixture = Fixture::missing();
    let lines = vec![
        call(1, "search_aios", json!({"memory": "off"})),
        call(2, "search_aios", json!({"memory": "off", "query": 42})),
        call(
            3,
            "search_aios",
            json!({"memory": "off", "query": "x".repeat(501)}),
        ),
        call(
            4,
            "search_aios",
            json!({"memory": "off", "query": "x", "scope": "projects"}),
        ),
        call(5, "resolve_skill", json!({"memory": "off"})),
        call(6, "resolve_skill", json!({"memory": "off", "intent": []})),
        call(
            7,
            "resolve_skill",
            json!({"memory": "off", "intent": "x".repeat(501)}),
        ),
        call(
            8,
            "read_working_context",
            json!({"memory": "off", "budget": 20}),
        ),
        call(9, "read_working_context", json!({"memory": "automatic"})),
        call(
            10,
            "read_working_context",
            json!({"memory": "off", "surprise": true}),
        ),
    ];
    for response in fixture.responses(&lines) {
        assert_eq!(error_of(&response).0, -32602, "{response}");
    }
    assert!(!fixture.aios.exists());
}

/// Item 3.
#[test]
fn item_03_skill_off_envelope_is_budgeted() {
    let fixture = Fixture::missing();
    let intent = "x".repeat(500);
    let responses = fixture.responses(&[
        call(
            1,
            "resolve_skill",
            json!({"memory": "off", "intent": intent, "budget": 256}),
        ),
        call(
            2,
            "resolve_skill",
            json!({"memory": "off", "intent": intent, "budget": 512}),
        ),
    ]);
    assert_invalid(&responses[0], "budget 256 is too small");
    let text = payload_text(&responses[1]);
    assert!(len16(&text) <= 512);
    let value = payload(&responses[1]);
    assert_eq!(value["memory"], "off");
    assert_eq!(value["receipt"], "Memory: Off");
    assert_eq!(value["matches"], json!([]));
    assert_eq!(value["budget"]["limit"], 512);
    assert_eq!(value["budget"]["used"], len16(&text));
    assert!(!fixture.aios.exists());
}

/// Item 13 (the parts that need no folder content).
#[test]
fn item_13_bounds_and_unknown_tools() {
    let fixture = Fixture::init();
    let responses = fixture.responses(&[
        call(1, "read_working_context", json!({"budget": 20})),
        call(2, "search_aios", json!({"query": "x", "limit": 100})),
        call(3, "log_event", json!({})),
    ]);
    assert_invalid(&responses[0], "256 to 32000");
    assert_invalid(&responses[1], "1 to 20");
    assert_invalid(&responses[2], "Unknown tool");
}

/// Items 32, 33, 41, 43.
#[test]
fn items_32_33_41_43_project_argument() {
    let fixture = Fixture::init();
    let mut lines = vec![
        call(
            1,
            "read_working_context",
            json!({"project": "x".repeat(201), "budget": 256}),
        ),
        call(
            2,
            "read_working_context",
            json!({"project": "🚀".repeat(201), "budget": 256}),
        ),
    ];
    for (index, value) in [json!(42), json!(true), json!(null), json!({}), json!([])]
        .into_iter()
        .enumerate()
    {
        lines.push(call(
            10 + index as u64,
            "read_working_context",
            json!({"project": value, "budget": 256}),
        ));
    }
    for (index, value) in ["x\u{0}y", "alpha\n", "alpha\u{7f}", "alpha\u{85}"]
        .into_iter()
        .enumerate()
    {
        lines.push(call(
            20 + index as u64,
            "read_working_context",
            json!({"project": value, "budget": 256}),
        ));
    }
    let transcript = fixture.run(&lines);
    transcript.assert_clean(&fixture);
    let responses = &transcript.responses;
    for response in &responses[..2] {
        assert_invalid(response, "project must be at most 200");
    }
    assert!(transcript.stdout.lines().next().unwrap().len() < 512);
    for response in &responses[2..7] {
        assert_invalid(response, "project must be a non-empty string");
    }
    for response in &responses[7..] {
        assert_invalid(response, "control");
    }
}

/// Item 34.
#[test]
fn item_34_arguments_shape_and_unknown_keys() {
    let fixture = Fixture::init();
    let arguments = [
        json!(42),
        json!(true),
        json!("demo"),
        json!([]),
        json!(null),
        json!({"projet": "demo"}),
        json!({"project": "demo", "extra": true}),
        json!({"k".repeat(100_000): true}),
    ];
    let lines: Vec<String> = arguments
        .iter()
        .enumerate()
        .map(|(index, arguments)| {
            request(
                index as u64,
                "tools/call",
                json!({"name": "read_working_context", "arguments": arguments}),
            )
        })
        .collect();
    let transcript = fixture.run(&lines);
    transcript.assert_clean(&fixture);
    for (line, response) in transcript.stdout.lines().zip(&transcript.responses) {
        assert_eq!(error_of(response).0, -32602);
        assert!(line.len() < 512, "{line}");
    }
}

/// Item 35.
#[test]
fn item_35_integers_are_not_coerced() {
    let fixture = Fixture::init();
    let cases = [
        json!({"limit": "3", "budget": 256}),
        json!({"limit": true, "budget": 256}),
        json!({"limit": 3, "budget": "256"}),
        json!({"limit": [], "budget": 256}),
    ];
    let lines: Vec<String> = cases
        .iter()
        .enumerate()
        .map(|(id, args)| call(id as u64, "read_working_context", args.clone()))
        .collect();
    for response in fixture.responses(&lines) {
        assert_eq!(error_of(&response).0, -32602);
    }
}

/// Item 46.
#[test]
fn item_46_initialize_negotiation() {
    let fixture = Fixture::missing();
    let versions = [
        json!("2024-11-05"),
        json!("2025-03-26"),
        json!("2025-06-18"),
        json!("2025-11-25"),
        json!("2026-07-28"),
        json!("2099-01-01"),
        json!(42),
        Value::Null,
    ];
    let lines: Vec<String> = versions
        .iter()
        .enumerate()
        .map(|(id, version)| {
            let params = if version.is_null() {
                json!({})
            } else {
                json!({"protocolVersion": version})
            };
            request(id as u64, "initialize", params)
        })
        .collect();
    let responses = fixture.responses(&lines);
    let expected = [
        "2024-11-05",
        "2025-03-26",
        "2025-06-18",
        "2025-11-25",
        "2025-11-25",
        "2025-11-25",
        "2025-11-25",
        "2025-11-25",
    ];
    for (response, expected) in responses.iter().zip(expected) {
        let result = &response["result"];
        assert_eq!(result["protocolVersion"], expected);
        let names: Vec<&String> = result.as_object().unwrap().keys().collect();
        assert_eq!(
            names,
            [
                "protocolVersion",
                "capabilities",
                "serverInfo",
                "instructions"
            ]
        );
        // §4.1: `resources` (skills, §7.7) is announced only where it is served.
        let capabilities = if expected == "2025-11-25" {
            json!({"tools": {}, "resources": {}})
        } else {
            json!({"tools": {}})
        };
        assert_eq!(result["capabilities"], capabilities);
        assert_eq!(
            result["serverInfo"],
            json!({"name": "dotaios-mcp", "title": "DotAIOS MCP", "version": env!("CARGO_PKG_VERSION")})
        );
        assert_eq!(
            result["instructions"],
            "This is an optional, read-only DotAIOS adapter. Use read_working_context for bounded continuity, search_aios to find local material, and resolve_skill before inventing a workflow. Content returned here may be sent to the configured AI provider."
        );
    }
}

fn modern_meta(version: &str) -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": version, "io.modelcontextprotocol/clientCapabilities": {}})
}

/// Items 47, 48, 49, 50.
#[test]
fn items_47_to_50_modern_era() {
    let fixture = Fixture::missing();
    let responses = fixture.responses(&[
        request(1, "server/discover", json!({"_meta": modern_meta("2026-07-28")})),
        request(2, "tools/list", json!({"_meta": modern_meta("2026-07-28")})),
        request(3, "tools/call", json!({"_meta": modern_meta("2026-07-28"), "name": "read_working_context", "arguments": {"memory": "off"}})),
        request(4, "tools/call", json!({"name": "read_working_context", "arguments": {"memory": "off"}})),
        request(5, "tools/call", json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}, "name": "read_working_context", "arguments": {"memory": "off"}})),
        request(6, "server/discover", json!({})),
        request(7, "ping", json!({"_meta": modern_meta("1999-01-01")})),
        request(8, "tools/list", json!({})),
    ]);
    let discover = &responses[0]["result"];
    assert_eq!(discover["resultType"], "complete");
    assert_eq!(
        discover["supportedVersions"],
        json!([
            "2024-11-05",
            "2025-03-26",
            "2025-06-18",
            "2025-11-25",
            "2026-07-28"
        ])
    );
    assert_eq!(
        discover["capabilities"],
        json!({"tools": {}, "resources": {}})
    );
    assert_eq!(discover["ttlMs"], 0);
    assert_eq!(discover["cacheScope"], "private");
    assert_eq!(
        discover["_meta"]["io.modelcontextprotocol/serverInfo"],
        json!({"name": "dotaios-mcp", "title": "DotAIOS MCP", "version": env!("CARGO_PKG_VERSION")})
    );
    assert!(
        discover["instructions"]
            .as_str()
            .unwrap()
            .starts_with("This is an optional, read-only")
    );
    let list = &responses[1]["result"];
    assert_eq!(
        (
            list["resultType"].clone(),
            list["ttlMs"].clone(),
            list["cacheScope"].clone()
        ),
        (json!("complete"), json!(0), json!("public"))
    );
    // The modern list is the structured edition (§5.1): the same tools, names, titles and
    // annotations as the reference list, each with an output schema.
    let reference = responses[7]["result"]["tools"].as_array().unwrap();
    let modern = list["tools"].as_array().unwrap();
    assert_eq!(modern.len(), reference.len());
    for (new, old) in modern.iter().zip(reference) {
        for member in ["name", "title", "annotations"] {
            assert_eq!(new[member], old[member]);
        }
        assert_eq!(new["outputSchema"]["type"], "object");
    }
    let server_info = json!({"name": "dotaios-mcp", "title": "DotAIOS MCP", "version": env!("CARGO_PKG_VERSION")});
    assert_eq!(
        list["_meta"]["io.modelcontextprotocol/serverInfo"],
        server_info
    );
    let call = &responses[2]["result"];
    assert_eq!(call["resultType"], "complete");
    assert_eq!(
        call["_meta"]["io.modelcontextprotocol/serverInfo"],
        server_info
    );
    assert_eq!(payload_text(&responses[2]), payload_text(&responses[3]));
    let text: Value = serde_json::from_str(&payload_text(&responses[2])).unwrap();
    assert_eq!(call["structuredContent"], text);
    assert!(responses[3]["result"].get("structuredContent").is_none());
    assert_eq!(
        error_of(&responses[4]),
        (-32602, "request _meta is missing or has malformed required fields: io.modelcontextprotocol/clientCapabilities".into())
    );
    assert_eq!(
        error_of(&responses[5]),
        (-32602, "request _meta is missing or has malformed required fields: io.modelcontextprotocol/protocolVersion, io.modelcontextprotocol/clientCapabilities".into())
    );
    assert_eq!(
        error_of(&responses[6]),
        (-32022, "Unsupported protocol version".into())
    );
    assert_eq!(
        responses[6]["error"]["data"],
        json!({"supported": ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"], "requested": "1999-01-01"})
    );
}

/// Item 51 (and the rest of the tool list's contract).
#[test]
fn item_51_tools_list_annotations() {
    let fixture = Fixture::missing();
    let transcript = fixture.run(&[request(1, "tools/list", json!({"cursor": "abc"}))]);
    transcript.assert_clean(&fixture);
    let line = transcript.stdout.lines().next().unwrap();
    assert!(
        line.contains(r#""inputSchema":"#)
            && !line.contains("outputSchema")
            && !line.contains("nextCursor")
    );
    let tools = transcript.responses[0]["result"]["tools"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(tools.len(), 3);
    for tool in &tools {
        let names: Vec<&String> = tool.as_object().unwrap().keys().collect();
        assert_eq!(
            names,
            ["name", "title", "description", "inputSchema", "annotations"]
        );
        assert_eq!(
            tool["annotations"],
            json!({"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false})
        );
    }
    let annotations = r#""annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}"#;
    assert_eq!(line.matches(annotations).count(), 3);
}

/// Item 52.
#[test]
fn item_52_unknown_tool_names_are_bounded() {
    let fixture = Fixture::missing();
    let long: String = "ü".repeat(100);
    let exact: String = "ü".repeat(64);
    let responses = fixture.responses(&[
        request(1, "tools/call", json!({"name": long})),
        request(2, "tools/call", json!({"name": exact})),
        request(3, "tools/call", json!({})),
        request(4, "tools/call", json!({"name": null})),
    ]);
    assert_eq!(
        error_of(&responses[0]).1,
        format!("Unknown tool: {}…", "ü".repeat(64))
    );
    assert_eq!(error_of(&responses[1]).1, format!("Unknown tool: {exact}"));
    assert_eq!(error_of(&responses[2]).1, "Unknown tool: undefined");
    assert_eq!(error_of(&responses[3]).1, "Unknown tool: null");
}

/// Item 53.
#[test]
fn item_53_unknown_methods_are_bounded() {
    let fixture = Fixture::missing();
    let responses = fixture.responses(&[
        request(1, &"x".repeat(100), json!({})),
        request(2, "resources/list", json!({})),
    ]);
    assert_eq!(
        error_of(&responses[0]),
        (-32601, format!("Method not found: {}…", "x".repeat(64)))
    );
    assert_eq!(
        error_of(&responses[1]),
        (-32601, "Method not found: resources/list".into())
    );
}

fn raw(input: &[u8]) -> Transcript {
    run_raw(
        Command::new(adapter()).args(["--path", "/nonexistent/dotaios-mcp-acceptance"]),
        input,
    )
}

/// Item 54.
#[test]
fn item_54_non_requests_are_ignored() {
    let transcript = raw(b"null\n42\n\"x\"\n[1,2]\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n");
    assert!(transcript.status.success());
    assert_eq!(transcript.stderr, missing_folder_line());
    assert_eq!(
        transcript.stdout,
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n"
    );
}

/// Item 55.
#[test]
fn item_55_parse_error_then_continue() {
    let transcript = raw(b"{not json\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n");
    assert_eq!(
        transcript.stdout,
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n"
    );
}

/// Item 56.
#[test]
fn item_56_invalid_requests() {
    let transcript = raw(b"{\"id\":7,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":\"a\"}\n{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":5}\n");
    assert_eq!(
        transcript.stdout,
        concat!(
            "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32600,\"message\":\"Invalid Request\"}}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"error\":{\"code\":-32600,\"message\":\"Invalid Request\"}}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32601,\"message\":\"Method not found: 5\"}}\n"
        )
    );
}

/// Item 57.
#[test]
fn item_57_arguments_defaults() {
    let fixture = Fixture::missing();
    let responses = fixture.responses(&[
        request(1, "tools/call", json!({"name": "read_working_context"})),
        request(
            2,
            "tools/call",
            json!({"name": "read_working_context", "arguments": {}}),
        ),
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call"}"#.to_owned(),
        request(4, "tools/call", json!({"name": "nope", "arguments": 42})),
    ]);
    assert_eq!(responses[0]["error"], responses[1]["error"]);
    assert_eq!(error_of(&responses[2]).1, "Unknown tool: undefined");
    assert_eq!(
        error_of(&responses[3]).1,
        "tool arguments must be an object"
    );
}

/// Item 58.
#[test]
fn item_58_framing() {
    let ping = |id: u32| format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"ping\"}}");
    let input = format!("{}\r\n\r\n\n{}\r{}", ping(1), ping(2), ping(3));
    let transcript = raw(input.as_bytes());
    assert_eq!(transcript.responses.len(), 3);
    assert_eq!(transcript.responses[2]["id"], 3);
    let empty = raw(b"");
    assert!(empty.status.success());
    assert_eq!(
        (empty.stdout.as_str(), empty.stderr),
        ("", missing_folder_line())
    );
}

/// Item 59.
#[test]
fn item_59_command_line() {
    let usage = dotaios_mcp::usage(dotaios_mcp::Invocation::Adapter);
    assert!(usage.starts_with("Usage:\n  dotaios-mcp [options]\n\nOptions:\n  --path <dir> "));
    for args in [&["--help"][..], &["--path", "--help"], &["-h"]] {
        let output = Command::new(adapter()).args(args).output().unwrap();
        assert!(output.status.success());
        assert_eq!(String::from_utf8(output.stdout).unwrap(), usage);
        assert!(output.stderr.is_empty());
    }
    for args in [&["--version"][..], &["-V"], &["--path", "/x", "--version"]] {
        let output = Command::new(adapter()).args(args).output().unwrap();
        assert!(output.status.success());
        assert_eq!(
            String::from_utf8(output.stdout).unwrap(),
            format!("{}\n", env!("CARGO_PKG_VERSION"))
        );
        assert!(output.stderr.is_empty());
    }
    let cases: [(&[&str], &str); 6] = [
        (&["--path"], "--path requires a value\n"),
        (&["--path", "--x"], "--path requires a value\n"),
        (&["--path="], "--path requires a value\n"),
        (&["--bogus"], "Unknown option: --bogus\n"),
        (
            &["--paht=/x"],
            "Unknown option: --paht. Did you mean --path?\n",
        ),
        (&["serve"], "Unknown option: serve\n"),
    ];
    for (args, stderr) in cases {
        let output = Command::new(adapter()).args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert!(output.stdout.is_empty());
        assert_eq!(String::from_utf8(output.stderr).unwrap(), stderr);
    }
}

/// Item 60.
#[test]
fn item_60_environment_locates_the_folder() {
    let fixture = Fixture::init();
    let line = call(1, "read_working_context", json!({}));
    let transcript = run_raw(
        Command::new(adapter())
            .env("DOTAIOS_PATH", &fixture.aios)
            .env_remove("HOME")
            .env_remove("USERPROFILE"),
        format!("{line}\n").as_bytes(),
    );
    assert!(
        transcript.responses[0].get("result").is_some(),
        "{}",
        transcript.stdout
    );
    assert_no_path(&transcript.stdout, &fixture);

    let home = tempfile::tempdir().unwrap();
    let transcript = run_raw(
        Command::new(adapter())
            .env("DOTAIOS_PATH", "")
            .env("HOME", home.path())
            .env("USERPROFILE", home.path()),
        format!("{line}\n").as_bytes(),
    );
    assert_eq!(error_of(&transcript.responses[0]).1, NO_FOLDER_MESSAGE);
    std::fs::rename(&fixture.aios, home.path().join("aios")).unwrap();
    let transcript = run_raw(
        Command::new(adapter())
            .env("DOTAIOS_PATH", "")
            .env("HOME", home.path())
            .env("USERPROFILE", home.path()),
        format!("{line}\n").as_bytes(),
    );
    assert!(
        transcript.responses[0].get("result").is_some(),
        "{}",
        transcript.stdout
    );
}

/// Bad input (contract 05 §2.3, D3d): every line gets a correct answer or none, never a crash.
#[test]
fn bad_input_never_crashes() {
    let fixture = Fixture::init();
    let deep = format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
    let nested_args = format!(
        r#"{{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{{"name":"search_aios","arguments":{{"query":{}"x"{}}}}}}}"#,
        "[".repeat(50),
        "]".repeat(50)
    );
    let mut input: Vec<u8> = Vec::new();
    let mut push = |line: &[u8]| {
        input.extend_from_slice(line);
        input.push(b'\n');
    };
    push(deep.as_bytes());
    push(nested_args.as_bytes());
    push(br#"{"jsonrpc":"2.0","id":1e400,"method":"ping"}"#);
    push(br#"{"jsonrpc":"2.0","id":-0,"method":"ping"}"#);
    push(br#"{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}"#);
    push(br#"{"jsonrpc":"2.0","id":"\ud800","method":"tools/call","params":{"name":"search_aios","arguments":{"query":"\udfff","memory":"off"}}}"#);
    push(b"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\xfe\",\"method\":\"ping\"}");
    push(br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_working_context","arguments":{"budget":1e400}}}"#);
    push(br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_working_context","arguments":{"limit":-0}}}"#);
    push(br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"read_working_context","arguments":{"memory":1e400}}}"#);
    push(br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"read_working_context","arguments":{"limit":1e3}}}"#);
    push(br#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"read_working_context","arguments":{"budget":1e3}}}"#);
    push(br#"{"jsonrpc":"2.0","method":"ping"}"#);
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":7,"method":"{}"}}"#,
        "m".repeat(10 << 20)
    );
    push(big.as_bytes());
    push(br#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#);
    let before = fixture.snapshot();
    let transcript = run_raw(
        Command::new(adapter()).arg("--path").arg(&fixture.aios),
        &input,
    );
    transcript.assert_clean(&fixture);
    let responses = &transcript.responses;
    assert_eq!(responses.len(), 14, "{}", transcript.stdout);
    assert_eq!(
        error_of(&responses[0]).0,
        -32700,
        "over-deep nesting is refused as unparseable"
    );
    assert_eq!(
        error_of(&responses[1]),
        (-32602, "query must be a non-empty string".into())
    );
    assert_eq!(responses[2]["id"], Value::Null);
    assert_eq!(responses[3]["id"], 0);
    assert_eq!(responses[4]["id"], json!(12345678901234567000_u64));
    assert!(transcript.stdout.contains("\"id\":12345678901234567000,"));
    assert_eq!(responses[5]["id"], "\u{FFFD}");
    assert_eq!(payload(&responses[5])["query"], "\u{FFFD}");
    assert_eq!(responses[6]["id"], "\u{FFFD}\u{FFFD}");
    assert_eq!(
        error_of(&responses[7]).1,
        "budget must be an integer from 256 to 32000"
    );
    assert_eq!(
        error_of(&responses[8]).1,
        "limit must be an integer from 1 to 10"
    );
    assert_eq!(
        error_of(&responses[9]).1,
        "Memory mode must be one of: shared, project, off."
    );
    assert_eq!(
        error_of(&responses[10]).1,
        "limit must be an integer from 1 to 10"
    );
    assert!(
        responses[11].get("result").is_some(),
        "budget 1e3 is the integer 1000"
    );
    assert_eq!(
        error_of(&responses[12]).1,
        format!("Method not found: {}…", "m".repeat(64))
    );
    assert!(transcript.stdout.lines().nth(12).unwrap().len() < 200);
    assert_eq!(responses[13]["result"], json!({}));
    assert_eq!(fixture.snapshot(), before, "nothing was written");
}

/// Requests are answered strictly in order, even when sent all at once.
#[test]
fn responses_follow_request_order() {
    let fixture = Fixture::init();
    let mut lines = Vec::new();
    for id in 0..60_u64 {
        lines.push(match id % 4 {
            0 => request(id, "ping", json!({})),
            1 => request(id, "tools/list", json!({})),
            2 => call(id, "read_working_context", json!({"memory": "off"})),
            _ => call(id, "search_aios", json!({"query": "x", "budget": 1})),
        });
    }
    let responses = fixture.responses(&lines);
    for (id, response) in responses.iter().enumerate() {
        assert_eq!(response["id"], id as u64);
    }
}

/// Item 63 over the error-producing protocol cases: no path, empty stderr (checked by
/// `responses`), and `--path` values never echoed.
#[test]
fn item_63_errors_carry_no_path() {
    let fixture = Fixture::missing();
    let transcript = run_adapter(
        &[OsStr::new("--path"), fixture.aios.as_os_str()],
        &[
            call(1, "read_working_context", json!({})),
            call(2, "search_aios", json!({"query": "x"})),
            call(3, "resolve_skill", json!({"intent": "x"})),
        ],
    );
    transcript.assert_clean(&fixture);
    for response in &transcript.responses {
        assert_eq!(error_of(response), (-32602, NO_FOLDER_MESSAGE.into()));
    }
    assert!(!fixture.aios.exists());
}

/// `(reference, structured, modern)` answers to `calls` on `fixture`, from one process: first
/// with no `initialize` (reference era), then each with 2026-07-28 `_meta` (modern), then after
/// an `initialize` at 2025-11-25 (structured) (contract 05 §3.4).
fn in_three_eras(fixture: &Fixture, calls: &[(&str, Value)]) -> [Vec<Value>; 3] {
    let mut lines = Vec::new();
    let mut id = 0;
    let mut next = || {
        id += 1;
        id
    };
    for (tool, arguments) in calls {
        lines.push(call(next(), tool, arguments.clone()));
    }
    for (tool, arguments) in calls {
        let params =
            json!({"_meta": modern_meta("2026-07-28"), "name": tool, "arguments": arguments});
        lines.push(request(next(), "tools/call", params));
    }
    lines.push(request(
        next(),
        "initialize",
        json!({"protocolVersion": "2025-11-25"}),
    ));
    for (tool, arguments) in calls {
        lines.push(call(next(), tool, arguments.clone()));
    }
    let mut responses = fixture.responses(&lines);
    let n = calls.len();
    let structured = responses.split_off(2 * n + 1);
    responses.truncate(2 * n);
    let modern = responses.split_off(n);
    [responses, structured, modern]
}

/// Contract 05 §6.12: in the structured eras each fixable folder problem is an `isError`
/// result whose fixed text names what to fix and `dotaios doctor`; the reference era keeps the
/// fixed `-32603` answer of §6.9 byte for byte.
fn assert_fixable(fixture: &Fixture, calls: &[(&str, Value)], needle: &str) {
    let [reference, structured, modern] = in_three_eras(fixture, calls);
    for (index, (tool, _)) in calls.iter().enumerate() {
        let fallback = if *tool == "read_working_context" {
            "DotAIOS could not read working context safely."
        } else {
            "DotAIOS request failed safely."
        };
        assert_eq!(
            error_of(&reference[index]),
            (-32603, fallback.into()),
            "{tool}"
        );
        assert_eq!(
            reference[index].as_object().unwrap().len(),
            3,
            "{}",
            reference[index]
        );
        for (era, response) in [
            ("structured", &structured[index]),
            ("modern", &modern[index]),
        ] {
            let result = &response["result"];
            assert_eq!(result["isError"], true, "{era} {tool}: {response}");
            assert!(result.get("structuredContent").is_none(), "{response}");
            assert_eq!(
                result.get("resultType").is_some(),
                era == "modern",
                "{response}"
            );
            let text = result["content"][0]["text"].as_str().unwrap();
            assert!(
                text.contains(needle) && text.contains("run `dotaios doctor`"),
                "{era} {tool}: {text}"
            );
        }
    }
}

/// Contract 05 §6.12, 01 §6.3: an invalid stable id in the named project's README (the
/// working context's catalog reads that id leniently, 01 §6.1, so it is not asked).
#[test]
fn an_invalid_project_id_is_an_is_error_result_in_the_structured_eras() {
    let fixture = Fixture::init();
    fixture.write(
        "projects/client-work/README.md",
        "---\nid: \" client work \"\n---\n# Client work\n",
    );
    let project = json!("client-work");
    assert_fixable(
        &fixture,
        &[
            ("search_aios", json!({"query": "x", "project": project})),
            ("resolve_skill", json!({"intent": "x", "project": project})),
        ],
        "projects/ has an invalid identity",
    );
}

/// Contract 05 §6.12, 01 §6.1: a README whose `id` and `project_id` differ fails every catalog
/// read, the working context's included.
#[test]
fn conflicting_project_ids_are_an_is_error_result_in_the_structured_eras() {
    let fixture = Fixture::init();
    fixture.write(
        "projects/client-work/README.md",
        "---\nid: client-work\nproject_id: client-work-2\n---\n# Client work\n",
    );
    let project = json!("client-work");
    assert_fixable(
        &fixture,
        &[
            ("read_working_context", json!({})),
            ("read_working_context", json!({"project": project})),
            ("search_aios", json!({"query": "x", "project": project})),
            ("resolve_skill", json!({"intent": "x", "project": project})),
        ],
        "projects/ has an invalid identity",
    );
}

/// Contract 05 §6.12, 03 §3.2: an `aios.json` that is not JSON.
#[test]
fn an_invalid_aios_json_is_an_is_error_result_in_the_structured_eras() {
    let fixture = Fixture::init();
    fixture.write("aios.json", "{\"schema_version\": 1,");
    assert_fixable(
        &fixture,
        &[("search_aios", json!({"query": "x"}))],
        "aios.json is not valid JSON",
    );
}

/// Contract 05 §6.12, 01 §4: `context/` is a symbolic link to a folder outside the AIOS folder.
#[cfg(unix)]
#[test]
fn a_linked_fixed_location_is_an_is_error_result_in_the_structured_eras() {
    let fixture = Fixture::init();
    let outside = fixture.tmp.path().join("elsewhere");
    std::fs::rename(fixture.aios.join("context"), &outside).unwrap();
    std::os::unix::fs::symlink(&outside, fixture.aios.join("context")).unwrap();
    // The working context still refuses a linked source; search skips the link and says so
    // in its answer instead (contract 03 §4.4), in every era.
    assert_fixable(
        &fixture,
        &[("read_working_context", json!({}))],
        "Replace the link with the real folder or file",
    );
    let [reference, structured, modern] = in_three_eras(
        &fixture,
        &[("search_aios", json!({"query": "x", "scope": "context"}))],
    );
    for response in [&reference[0], &structured[0], &modern[0]] {
        let text = response.to_string();
        assert!(
            text.contains(r#"\"reason\": \"symlink_skipped\""#),
            "{text}"
        );
        assert!(!text.contains("\"error\""), "{text}");
    }
}

/// Contract 05 §6.12: internal failures that are not one of its fixable folder problems stay
/// `-32603` in every era (here a `SKILL.md` over the catalog's 8 MiB, contract 04 §1).
#[test]
fn other_internal_failures_stay_protocol_errors() {
    let fixture = Fixture::init();
    fixture.write("skills/huge/SKILL.md", vec![b'x'; 8 * 1024 * 1024 + 1]);
    let [reference, structured, modern] =
        in_three_eras(&fixture, &[("resolve_skill", json!({"intent": "x"}))]);
    for response in [&reference[0], &structured[0], &modern[0]] {
        assert_eq!(
            error_of(response),
            (-32603, "DotAIOS request failed safely.".into())
        );
    }
}

/// Contract 05 §6.12, 02: a note saved as UTF-16 is a working-context source the context
/// cannot read (its fixed sources have their own rules); `dotaios doctor` names it, so the
/// answer says what to fix. Search skips such a note instead (contract 03 §4.5).
#[test]
fn a_context_source_that_is_not_utf8_is_an_is_error_result_in_the_structured_eras() {
    let fixture = Fixture::init();
    let utf16: Vec<u8> = "\u{FEFF}# Me\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    fixture.write("context/identity.md", &utf16);
    assert_fixable(
        &fixture,
        &[("read_working_context", json!({}))],
        "is not UTF-8 text",
    );
}

/// Contract 03 §4.5, 05 §9: a note that is not UTF-8 (Notepad's UTF-16) and a named pipe
/// called like a note are skipped; `search_aios` answers the rest in every era, reference
/// included (as for `symlink_skipped`), with `complete: false` and one path-free
/// `unreadable_skipped` record for the scope.
#[cfg(unix)]
#[test]
fn unreadable_notes_are_skipped_and_reported_in_every_era() {
    let fixture = Fixture::init();
    let utf16: Vec<u8> = "\u{FEFF}# Notes\nunreadable canary\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    fixture.write("vault/u16-note.md", &utf16);
    fixture.write("vault/kept.md", "# Kept\n\nunreadable canary\n");
    let pipe = fixture.aios.join("vault/pipe-note.md");
    let made = std::process::Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .unwrap();
    assert!(made.success());
    let [reference, structured, modern] = in_three_eras(
        &fixture,
        &[(
            "search_aios",
            json!({"query": "unreadable canary", "scope": "vault"}),
        )],
    );
    let record = json!([{
        "scope": "vault",
        "reason": "unreadable_skipped",
        "observed": {"files": 2, "bytes": 0, "entries": 0},
        "inspection": "partially_searched",
        "recovery": {
            "code": "fix_unreadable_files",
            "message": "Files that are not readable UTF-8 were skipped; dotaios doctor names them."
        }
    }]);
    for (era, response) in [
        ("reference", &reference[0]),
        ("structured", &structured[0]),
        ("modern", &modern[0]),
    ] {
        assert!(response.get("error").is_none(), "{era}: {response}");
        assert_eq!(response["result"]["isError"], false, "{era}: {response}");
        let text = response["result"]["content"][0]["text"].as_str().unwrap();
        let value: Value = serde_json::from_str(text).unwrap();
        assert_eq!(value["omissions"], record, "{era}: {text}");
        assert_eq!(value["complete"], false, "{era}: {text}");
        assert_eq!(value["results"][0]["source"], "vault/kept.md", "{era}");
        let whole = response.to_string();
        for leak in [
            "u16-note",
            "pipe-note",
            fixture.tmp.path().to_str().unwrap(),
        ] {
            assert!(!whole.contains(leak), "{era}: {leak} in {whole}");
        }
    }
}

/// Item 78 (contract 03 §4.6, 05 §9): a note and a folder whose names are not UTF-8 are skipped;
/// `search_aios` answers the rest in every era, reference included, with `complete: false` and
/// one path-free `unreadable_skipped` record counting both, and names neither.
#[cfg(unix)]
#[test]
fn names_that_are_not_utf8_are_skipped_and_reported_in_every_era() {
    use dotaios_testkit::non_utf8_entry;
    let fixture = Fixture::init();
    fixture.write("vault/kept.md", "# Kept\n\nlatin canary\n");
    let vault = fixture.aios.join("vault");
    let Some(_) = non_utf8_entry(&vault, b"caf\xe9-note.md", Some(b"# Hi\nlatin canary\n")) else {
        return;
    };
    let old = non_utf8_entry(&vault, b"old\xe9-folder", None).unwrap();
    std::fs::write(old.join("inside.md"), "latin canary inside\n").unwrap();
    let [reference, structured, modern] = in_three_eras(
        &fixture,
        &[(
            "search_aios",
            json!({"query": "latin canary", "scope": "vault"}),
        )],
    );
    let record = json!([{
        "scope": "vault",
        "reason": "unreadable_skipped",
        "observed": {"files": 2, "bytes": 0, "entries": 0},
        "inspection": "partially_searched",
        "recovery": {
            "code": "fix_unreadable_files",
            "message": "Files that are not readable UTF-8 were skipped; dotaios doctor names them."
        }
    }]);
    for (era, response) in [
        ("reference", &reference[0]),
        ("structured", &structured[0]),
        ("modern", &modern[0]),
    ] {
        assert!(response.get("error").is_none(), "{era}: {response}");
        assert_eq!(response["result"]["isError"], false, "{era}: {response}");
        let text = response["result"]["content"][0]["text"].as_str().unwrap();
        let value: Value = serde_json::from_str(text).unwrap();
        assert_eq!(value["omissions"], record, "{era}: {text}");
        assert_eq!(value["complete"], false, "{era}: {text}");
        assert_eq!(value["results"][0]["source"], "vault/kept.md", "{era}");
        assert_eq!(
            value["results"].as_array().unwrap().len(),
            1,
            "{era}: {text}"
        );
        if era != "reference" {
            let structured = &response["result"]["structuredContent"];
            assert_eq!(structured["complete"], false, "{era}: {response}");
            assert_eq!(structured["omissions"], record, "{era}: {response}");
        }
        let whole = response.to_string();
        for leak in [
            "-note",
            "-folder",
            "\\\\x",
            "\u{FFFD}",
            fixture.tmp.path().to_str().unwrap(),
        ] {
            assert!(!whole.contains(leak), "{era}: {leak} in {whole}");
        }
    }
}

/// Contract 05 §6.12, 01 §5.1: a machine-written `memory/events.jsonl` over 8 MiB.
#[test]
fn an_oversized_context_source_is_an_is_error_result_in_the_structured_eras() {
    let fixture = Fixture::init();
    let row = "{\"ts\":\"2026-01-01T00:00:00Z\",\"type\":\"note\",\"text\":\"x\"}\n";
    fixture.write(
        "memory/events.jsonl",
        row.repeat(8 * 1024 * 1024 / row.len() + 1),
    );
    assert_fixable(
        &fixture,
        &[("read_working_context", json!({}))],
        "over its size limit",
    );
}

/// Contract 05 §6.12, 03 §4.5: a folder where search reads a fixed JSONL source is not a
/// regular file, and not one search skips (only special files are), which the fixable text
/// names.
#[test]
fn a_folder_named_like_a_memory_source_is_an_is_error_result_in_the_structured_eras() {
    let fixture = Fixture::init();
    std::fs::remove_file(fixture.aios.join("memory/events.jsonl")).ok();
    std::fs::create_dir_all(fixture.aios.join("memory/events.jsonl")).unwrap();
    assert_fixable(
        &fixture,
        &[("search_aios", json!({"query": "x", "scope": "memory"}))],
        "symbolic links or special files",
    );
}

/// Contract 05 §6.2, §6.13: a `scope` over 64 code points is refused as an invalid scope in
/// every era and never echoed, so the answer stays small however long the argument is; at the
/// maximum the Off payload echoes it.
#[test]
fn an_oversized_scope_is_refused_and_never_echoed() {
    let fixture = Fixture::missing();
    let scope = format!("{}memory{}", " ".repeat(1 << 20), " ".repeat(1 << 20));
    let arguments = json!({"query": "x", "memory": "off", "scope": scope});
    let padded = format!("{}memory", " ".repeat(58));
    let at_max = json!({"query": "x", "memory": "off", "scope": padded});
    let lines = [
        call(1, "search_aios", arguments.clone()),
        request(
            2,
            "tools/call",
            json!({"_meta": modern_meta("2026-07-28"), "name": "search_aios", "arguments": arguments}),
        ),
        request(
            3,
            "tools/call",
            json!({"_meta": modern_meta("2026-07-28"), "name": "search_aios", "arguments": at_max}),
        ),
        request(4, "initialize", json!({"protocolVersion": "2025-11-25"})),
        call(5, "search_aios", arguments),
    ];
    let transcript = fixture.run(&lines);
    transcript.assert_clean(&fixture);
    let answers: Vec<&str> = transcript.stdout.lines().collect();
    assert_eq!(answers.len(), lines.len());
    let refusal = "scope must be one of: memory, vault";
    assert!(answers[0].len() < 512, "{}", answers[0].len());
    assert!(error_of(&transcript.responses[0]).1.starts_with(refusal));
    for index in [1, 4] {
        assert!(answers[index].len() < 1024, "{}", answers[index].len());
        let result = &transcript.responses[index]["result"];
        assert_eq!(result["isError"], true);
        assert!(
            result["content"][0]["text"]
                .as_str()
                .unwrap()
                .starts_with(refusal)
        );
    }
    let echoed = &transcript.responses[2]["result"]["structuredContent"]["scope"];
    assert_eq!(echoed.as_str(), Some(padded.as_str()));
}

/// Contract 05 §2.8: in a 2025-03-26 session a batch of more than 8 elements is one
/// `Invalid Request` (none of its calls run), and the same connection goes on answering: a
/// batch of 8 is answered, and so is a `ping` after each.
#[test]
fn batches_over_the_limit_are_refused_and_the_connection_goes_on() {
    let fixture = Fixture::missing();
    let batch = |first: u64, count: u64| {
        let calls: Vec<String> = (first..first + count)
            .map(|id| call(id, "search_aios", json!({"query": "x", "memory": "off"})))
            .collect();
        format!("[{}]", calls.join(","))
    };
    let lines = [
        request(0, "initialize", json!({"protocolVersion": "2025-03-26"})),
        batch(10, 9),
        request(1, "ping", json!({})),
        batch(20, 8),
        request(2, "ping", json!({})),
    ];
    let transcript = fixture.run(&lines);
    transcript.assert_clean(&fixture);
    let responses = &transcript.responses;
    assert_eq!(responses.len(), lines.len());
    assert_eq!(
        responses[1],
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "Invalid Request"}})
    );
    assert_eq!(
        responses[2],
        json!({"jsonrpc": "2.0", "id": 1, "result": {}})
    );
    let answered = responses[3].as_array().expect("a batch answer");
    let ids: Vec<u64> = answered
        .iter()
        .map(|answer| answer["id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, (20..28).collect::<Vec<u64>>());
    for answer in answered {
        assert!(payload_text(answer).contains("Memory: Off"));
    }
    assert_eq!(
        responses[4],
        json!({"jsonrpc": "2.0", "id": 2, "result": {}})
    );
}

/// Whether `value` satisfies `schema`, for the keywords the output schemas use (`type`,
/// `properties`, `required`, `additionalProperties: false`, `items`, `enum`, `anyOf`), so a
/// payload member the schema does not admit fails here as it would in a validating client.
fn satisfies(value: &Value, schema: &Value) -> bool {
    if let Some(options) = schema["anyOf"].as_array() {
        return options.iter().any(|option| satisfies(value, option));
    }
    if let Some(allowed) = schema["enum"].as_array() {
        return allowed.contains(value);
    }
    match schema["type"].as_str() {
        Some("object") => {
            let Some(object) = value.as_object() else {
                return false;
            };
            let properties = schema["properties"].as_object().unwrap();
            let required = schema["required"].as_array().map_or(&[][..], Vec::as_slice);
            required
                .iter()
                .all(|name| object.contains_key(name.as_str().unwrap()))
                && object.iter().all(|(name, member)| {
                    properties
                        .get(name)
                        .is_some_and(|property| satisfies(member, property))
                })
        }
        Some("array") => value
            .as_array()
            .is_some_and(|items| items.iter().all(|item| satisfies(item, &schema["items"]))),
        Some("string") => value.is_string(),
        Some("number") => value.is_number(),
        Some("integer") => value.is_u64() || value.is_i64(),
        Some("boolean") => value.is_boolean(),
        Some("null") => value.is_null(),
        other => panic!("unexpected schema type {other:?}"),
    }
}

/// Contract 05 §7.5.1: at a budget that holds no match, `resolve_skill` in the structured eras
/// says in `budget.hint` which budget would, that budget does hold one, the answer satisfies
/// the tool's `outputSchema`, and the tool's description says when to raise `budget`; the
/// reference era's answer and tool list carry none of it.
#[test]
fn resolve_skill_names_the_budget_that_holds_a_match() {
    let fixture = Fixture::init();
    let small = (
        "resolve_skill",
        json!({"intent": "plan my day", "budget": 700}),
    );
    let [reference, structured, modern] = in_three_eras(&fixture, &[small]);

    let plain = payload(&reference[0]);
    assert_eq!(plain["matches"], json!([]));
    assert_eq!(
        plain["budget"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["limit", "used", "truncated"]
    );
    assert_eq!(plain["budget"]["truncated"], true);

    let hinted = payload(&modern[0]);
    assert_eq!(payload(&structured[0]), hinted);
    assert_eq!(hinted["matches"], json!([]));
    assert_eq!(hinted["budget"]["truncated"], true);
    assert_eq!(hinted["budget"]["used"], len16(&payload_text(&modern[0])));
    let hint = hinted["budget"]["hint"].as_str().unwrap();
    let needed: u64 = hint
        .strip_prefix("budget 700 cannot hold one match; call again with budget ")
        .and_then(|rest| rest.strip_suffix(" or more"))
        .and_then(|number| number.parse().ok())
        .unwrap_or_else(|| panic!("{hint}"));

    let at = |budget: u64| {
        request(
            1,
            "tools/call",
            json!({"_meta": modern_meta("2026-07-28"), "name": "resolve_skill", "arguments": {"intent": "plan my day", "budget": budget}}),
        )
    };
    let responses = fixture.responses(&[
        request(1, "tools/list", json!({"_meta": modern_meta("2026-07-28")})),
        at(needed),
        at(needed - 1),
        request(1, "tools/list", json!({})),
        at(needed + 200),
    ]);
    assert_eq!(payload(&responses[1])["matches"][0]["name"], "plan-today");
    assert!(payload(&responses[1])["budget"].get("hint").is_none());
    assert_eq!(payload(&responses[2])["matches"], json!([]));

    let tool = |list: &Value| {
        list["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|tool| tool["name"] == "resolve_skill")
            .unwrap()
            .clone()
    };
    let modern_tool = tool(&responses[0]);
    let schema = &modern_tool["outputSchema"];
    assert!(satisfies(&hinted, schema), "{hinted}");
    // §7.7: a match in the structured eras names its resource, and the schema admits it.
    assert_eq!(
        payload(&responses[1])["matches"][0]["uri"],
        "aios://skills/plan-today/SKILL.md"
    );
    assert!(satisfies(&payload(&responses[1]), schema));
    // §7.7: with room left, the best match also carries the start of its instructions.
    let roomy = payload(&responses[4]);
    assert!(roomy["matches"][0]["instructions"].is_string(), "{roomy}");
    assert!(satisfies(&roomy, schema), "{roomy}");
    assert_eq!(modern[0]["result"]["structuredContent"], hinted);
    let description = modern_tool["description"].as_str().unwrap();
    assert!(description.contains("raise budget"), "{description}");
    assert!(
        !tool(&responses[3])["description"]
            .as_str()
            .unwrap()
            .contains("budget")
    );
}

/// Contract 03 §8.2: `search_aios` shows a long paragraph as a bounded window with `…` in the
/// structured eras, and whole, with its neighbouring lines, in the reference era (whose
/// recorded answers fix that text, contract 05 §3.4).
#[test]
fn snippet_windows_in_the_structured_eras_only() {
    let fixture = Fixture::init();
    let words = |seed: usize| {
        (0..120)
            .map(|index| format!("w{}", (seed * 7919 + index * 31) % 997))
            .collect::<Vec<_>>()
            .join(" ")
    };
    fixture.write(
        "vault/cells.md",
        format!(
            "# Cells\n\n{}\n\n{} mitochondria {}\n\n{}\n",
            words(1),
            words(2),
            words(3),
            words(4)
        ),
    );
    let calls = [(
        "search_aios",
        json!({"query": "mitochondria", "scope": "vault"}),
    )];
    let [reference, structured, modern] = in_three_eras(&fixture, &calls);
    let first_match = |response: &Value| {
        let payload = payload(response);
        payload["results"][0]["matches"][0].clone()
    };
    let whole = first_match(&reference[0]);
    assert_eq!(
        (whole["line"].clone(), whole["lineEnd"].clone()),
        (json!(4), json!(6))
    );
    let content = whole["content"].as_str().unwrap();
    assert!(
        !content.contains('…') && content.chars().count() > 600,
        "{content}"
    );
    for response in [&structured[0], &modern[0]] {
        let window = first_match(response);
        assert_eq!(
            (window["line"].clone(), window["lineEnd"].clone()),
            (json!(5), json!(5))
        );
        let content = window["content"].as_str().unwrap();
        assert!(
            content.starts_with('…') && content.ends_with('…'),
            "{content}"
        );
        assert!(
            content.contains(" mitochondria ") && content.chars().count() <= 260,
            "{content}"
        );
    }
}
