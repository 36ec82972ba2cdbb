//! The stdio transport (contract 05 §2.1, §2.2, §2.4, §2.5): newline-delimited framing, strictly
//! sequential handling, one flushed line per response.
//!
//! **Invariant:** this is the only code that writes protocol output. A line is completely
//! handled and its answer flushed before the next byte of input is read, so answers come in
//! request order. Memory per line is bounded by [`MAX_LINE_BYTES`]: a longer line is consumed
//! to its end without being kept, and answered like an unparseable line.

use std::io::{self, BufRead, Write};

use crate::server::Server;

/// The longest line buffered (16 MiB); the reference had no limit, the contract recommends this
/// one.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// A line buffer larger than this is freed once its line is answered, so one big request does
/// not keep its memory for the rest of the session.
const KEPT_LINE_CAPACITY: usize = 64 * 1024;

/// Serves `input` until EOF, writing each answer to `output`. Returns `Ok` at end of input and
/// the error of a failed write (the client has gone). A read error counts as end of input.
pub fn serve(server: &Server, mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let mut line: Vec<u8> = Vec::new();
    let mut oversized = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if chunk.is_empty() {
            break;
        }
        // `\n`, `\r\n` and a lone `\r` all end a line; the empty line between `\r` and `\n`
        // is ignored like any blank line.
        let end = chunk
            .iter()
            .position(|&byte| byte == b'\n' || byte == b'\r');
        let taken = end.unwrap_or(chunk.len());
        if !oversized {
            if line.len() + taken > MAX_LINE_BYTES {
                oversized = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(&chunk[..taken]);
            }
        }
        let consumed = end.map_or(taken, |end| end + 1);
        input.consume(consumed);
        if end.is_some() {
            answer(server, &line, oversized, &mut output)?;
            line.clear();
            if line.capacity() > KEPT_LINE_CAPACITY {
                line = Vec::new();
            }
            oversized = false;
        }
    }
    answer(server, &line, oversized, &mut output)
}

fn answer(
    server: &Server,
    line: &[u8],
    oversized: bool,
    output: &mut impl Write,
) -> io::Result<()> {
    let response = if oversized {
        Some(server.oversized_line())
    } else {
        server.handle_line(line)
    };
    if let Some(mut response) = response {
        response.push('\n');
        output.write_all(response.as_bytes())?;
        output.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn transcript(input: &[u8]) -> String {
        let server = Server::new(PathBuf::from("/nonexistent/aios"));
        let mut output = Vec::new();
        serve(&server, input, &mut output).unwrap();
        String::from_utf8(output).unwrap()
    }

    const PING: &str = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    const PONG: &str = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n";

    #[test]
    fn terminators_and_final_line() {
        assert_eq!(
            transcript(format!("{PING}\r\n\r\n{PING}\r{PING}").as_bytes()),
            PONG.repeat(3)
        );
        assert_eq!(transcript(b""), "");
        assert_eq!(transcript(b"\n\n  \n"), "");
    }

    #[test]
    fn notifications_and_non_objects_answer_nothing() {
        let input = format!(
            "null\n42\n\"x\"\n[1,2]\n{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}}\n{PING}\n"
        );
        assert_eq!(transcript(input.as_bytes()), PONG);
    }

    #[test]
    fn oversized_line_is_a_parse_error_and_the_loop_goes_on() {
        let mut input = vec![b'x'; MAX_LINE_BYTES + 10];
        input.push(b'\n');
        input.extend_from_slice(PING.as_bytes());
        let output = transcript(&input);
        assert_eq!(
            output,
            format!(
                "{{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{{\"code\":-32700,\"message\":\"Parse error\"}}}}\n{PONG}"
            )
        );
    }

    #[test]
    fn a_failed_write_stops_serving() {
        struct Gone;
        impl Write for Gone {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let server = Server::new(PathBuf::from("/nonexistent"));
        assert!(serve(&server, PING.as_bytes(), Gone).is_err());
    }
}
