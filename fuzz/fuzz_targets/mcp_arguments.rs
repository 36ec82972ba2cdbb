//! The MCP adapter's argument validator, reached the way a client reaches it: a well-formed
//! `tools/call` for each of the three tools (and one unknown name), whose `arguments` member is
//! whatever JSON the fuzzer makes, serving a private copy of the sample folder.
//!
//! Checks: no panic; exactly one answer, a JSON-RPC object with one of `result` and `error`;
//! an error is `-32602` (invalid arguments) or `-32603` (the fixed internal failure), never
//! anything else; no answer contains the folder's absolute path.
#![no_main]
#![forbid(unsafe_code)]

use std::sync::OnceLock;

use dotaios_fuzz::{parse_json, sample_folder};
use dotaios_mcp::Server;
use libfuzzer_sys::fuzz_target;

const TOOLS: [&str; 4] = [
    "read_working_context",
    "search_aios",
    "resolve_skill",
    "no_such_tool",
];

fn server() -> &'static (Server, String) {
    static SERVER: OnceLock<(Server, String)> = OnceLock::new();
    SERVER.get_or_init(|| {
        let folder = sample_folder("mcp_arguments");
        (
            Server::new(folder.to_path_buf()),
            folder.to_string_lossy().into_owned(),
        )
    })
}

fuzz_target!(|input: &[u8]| {
    let Some((&selector, arguments)) = input.split_first() else {
        return;
    };
    // Only well-formed JSON reaches the validator; anything else is the line handler's job.
    let Ok(arguments) = std::str::from_utf8(arguments) else {
        return;
    };
    if serde_json::from_str::<serde_json::Value>(arguments).is_err() {
        return;
    }
    let tool = TOOLS[usize::from(selector) % TOOLS.len()];
    let line = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{{\"name\":\"{tool}\",\"arguments\":{arguments}}}}}"
    );
    let (server, machine) = server();
    let response = server
        .handle_line(line.as_bytes())
        .expect("a request with an id is answered");
    let value = parse_json(&response).expect("a response is JSON");
    let object = value.as_object().expect("a response is an object");
    assert!(object.contains_key("result") != object.contains_key("error"));
    if let Some(error) = object.get("error") {
        let code = error.get("code").and_then(|code| code.as_i64());
        assert!(matches!(code, Some(-32602 | -32603)), "{response}");
    }
    assert!(
        !response.contains(machine.as_str()),
        "machine path in {response}"
    );
});
