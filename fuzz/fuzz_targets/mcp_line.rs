//! The MCP adapter's one-line handler, `dotaios_mcp::Server::handle_line`, on arbitrary bytes,
//! serving a private copy of the sample folder.
//!
//! `handle_line` catches panics and answers `-32603`; under libFuzzer the panic hook aborts
//! first, so a caught panic still counts as a crash here, as it should.
//!
//! Checks: no panic; at most one response, on one line, that is a JSON-RPC 2.0 object with
//! exactly one of `result` and `error` (or, for a batch in a 2025-03-26 session, a non-empty
//! array of such objects); no response contains the folder's absolute path
//! unless the input itself did (a request id is echoed as given).
#![no_main]
#![forbid(unsafe_code)]

use std::sync::OnceLock;

use dotaios_fuzz::{parse_json, sample_folder};
use dotaios_mcp::Server;
use libfuzzer_sys::fuzz_target;

fn server() -> &'static (Server, String) {
    static SERVER: OnceLock<(Server, String)> = OnceLock::new();
    SERVER.get_or_init(|| {
        let folder = sample_folder("mcp_line");
        (
            Server::new(folder.to_path_buf()),
            folder.to_string_lossy().into_owned(),
        )
    })
}

fuzz_target!(|line: &[u8]| {
    let (server, machine) = server();
    let Some(response) = server.handle_line(line) else {
        return;
    };
    assert!(
        !response.contains('\n') && !response.contains('\r'),
        "{response}"
    );
    let value = parse_json(&response).expect("a response is JSON");
    // A 2025-03-26 session answers a batch with one array of answers (contract 05 §2.8).
    let answers = match value.as_array() {
        Some(answers) => answers.iter().collect(),
        None => vec![&value],
    };
    assert!(!answers.is_empty(), "{response}");
    for answer in answers {
        let object = answer.as_object().expect("an answer is an object");
        assert_eq!(object.get("jsonrpc").and_then(|v| v.as_str()), Some("2.0"));
        assert!(object.contains_key("result") != object.contains_key("error"));
    }
    let parent = std::path::Path::new(machine)
        .parent()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default();
    if response.contains(parent.as_str()) {
        assert!(
            String::from_utf8_lossy(line).contains(parent.as_str()),
            "machine path in {response}"
        );
    }
});
