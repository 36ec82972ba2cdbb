//! Deep nesting (contract 01 §5.7): the input chooses, level by level, block sequences, block
//! mappings, flow sequences and flow mappings, up to 400 levels, and the same shape as JSON.
//!
//! Checks: no crash or stack overflow anywhere; YAML within `MAX_NESTING` levels parses and
//! deeper YAML is refused (`TooDeep`, or a syntax error when the scanner's own flow limit
//! answers first); the JSON pre-check accepts exactly the texts within the limit; the folder's
//! JSON reader agrees with it; the adapter echoes a nested `id` within the limit and answers
//! `Parse error` past it.
#![no_main]
#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::sync::OnceLock;

use dotaios_core::folder::config::parse_config_object;
use dotaios_core::folder::frontmatter::{YamlError, parse_yaml};
use dotaios_core::text::{MAX_NESTING, json_nesting_ok};
use dotaios_mcp::Server;
use libfuzzer_sys::fuzz_target;

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    BlockSequence,
    BlockMapping,
    FlowSequence,
    FlowMapping,
}

/// The levels, outermost first: one per input byte (its low two bits), cycled to the depth
/// the first two bytes give. Block levels never sit inside flow ones (YAML forbids it).
fn levels(data: &[u8]) -> Vec<Kind> {
    let Some((&[high, low], rest)) = data.split_first_chunk::<2>().map(|(a, b)| (a, b)) else {
        return Vec::new();
    };
    let depth = usize::from(u16::from_be_bytes([high, low])) % 401;
    let pattern: &[u8] = if rest.is_empty() { &[0] } else { rest };
    let mut flow = false;
    (0..depth)
        .map(|level| {
            let mut kind = match pattern[level % pattern.len()] & 3 {
                0 => Kind::BlockSequence,
                1 => Kind::BlockMapping,
                2 => Kind::FlowSequence,
                _ => Kind::FlowMapping,
            };
            if flow && kind == Kind::BlockSequence {
                kind = Kind::FlowSequence;
            }
            if flow && kind == Kind::BlockMapping {
                kind = Kind::FlowMapping;
            }
            flow |= matches!(kind, Kind::FlowSequence | Kind::FlowMapping);
            kind
        })
        .collect()
}

fn yaml(levels: &[Kind]) -> String {
    let mut text = String::new();
    let mut indent = 0;
    let mut closers = String::new();
    for kind in levels {
        match kind {
            Kind::BlockSequence | Kind::BlockMapping => {
                text.push_str(&" ".repeat(indent));
                text.push_str(if *kind == Kind::BlockSequence { "-\n" } else { "k:\n" });
                indent += 2;
            }
            Kind::FlowSequence | Kind::FlowMapping => {
                if closers.is_empty() {
                    text.push_str(&" ".repeat(indent));
                }
                text.push_str(if *kind == Kind::FlowSequence { "[" } else { "{k: " });
                closers.insert(0, if *kind == Kind::FlowSequence { ']' } else { '}' });
            }
        }
    }
    if closers.is_empty() {
        text.push_str(&" ".repeat(indent));
    }
    text.push('x');
    text.push_str(&closers);
    text.push('\n');
    text
}

fn json(levels: &[Kind]) -> String {
    let mut text = String::new();
    for kind in levels {
        text.push_str(match kind {
            Kind::BlockSequence | Kind::FlowSequence => "[",
            Kind::BlockMapping | Kind::FlowMapping => "{\"k\":",
        });
    }
    text.push('1');
    for kind in levels.iter().rev() {
        text.push(match kind {
            Kind::BlockSequence | Kind::FlowSequence => ']',
            Kind::BlockMapping | Kind::FlowMapping => '}',
        });
    }
    text
}

fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| Server::new(PathBuf::from("/nonexistent/dotaios-fuzz/aios")))
}

fuzz_target!(|data: &[u8]| {
    let levels = levels(data);
    let depth = levels.len();
    let within = depth <= MAX_NESTING;

    let text = yaml(&levels);
    match parse_yaml(&text) {
        Ok(_) => assert!(within, "{depth} levels of YAML were accepted"),
        Err(YamlError::TooDeep | YamlError::Syntax { .. }) if !within => {}
        Err(error) => panic!("{depth} levels of YAML: {error}\n{text}"),
    }

    let text = json(&levels);
    assert_eq!(json_nesting_ok(&text), within, "{depth} levels of JSON");
    let object = parse_config_object(&text);
    assert_eq!(
        object.is_some(),
        within && levels.first().is_some_and(|kind| matches!(kind, Kind::BlockMapping | Kind::FlowMapping)),
        "{depth} levels of JSON"
    );

    // The request object is one level more than its `id`.
    let line = format!(r#"{{"jsonrpc":"2.0","id":{text},"method":"ping"}}"#);
    let answer = server().handle_line(line.as_bytes()).expect("a request is answered");
    let refused = answer.contains("\"code\":-32700");
    assert_eq!(refused, depth + 1 > MAX_NESTING, "{depth} levels in an id: {answer}");
});
