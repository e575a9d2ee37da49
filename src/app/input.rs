//! Reading the INPUT arguments of the text commands (`solve`, `grade`): stdin, a file, or
//! the argument itself as a puzzle.

use std::io::{self, Read};

use sudoku_snap::text::{self, Parsed};

use super::Outcome;

/// Puzzles handed on per batch: large enough to keep every core busy, small enough that the
/// results waiting to be printed stay a few hundred kB.
const CHUNK: usize = 4096;

/// Reads every INPUT (`-` when there are none) and hands its puzzles to `per_chunk`, with the
/// input's name, in batches of `CHUNK` in input order; `per_chunk` says whether any puzzle of
/// the batch failed. An input that cannot be read or holds no puzzle is reported on stderr; either
/// kind of failure makes the outcome `SomeFailed`, and the other inputs go on.
pub fn each_puzzle_chunk(
    inputs: &[String],
    mut per_chunk: impl FnMut(&str, &[Parsed]) -> anyhow::Result<bool>,
) -> anyhow::Result<Outcome> {
    let stdin = ["-".to_string()];
    let inputs = if inputs.is_empty() {
        &stdin[..]
    } else {
        inputs
    };
    let mut outcome = Outcome::Success;
    for (n, input) in inputs.iter().enumerate() {
        let (name, text) = match read_input(input, n + 1) {
            Ok(v) => v,
            Err(e) => {
                crate::err!("error: {e:#}");
                outcome = outcome.max(Outcome::SomeFailed);
                continue;
            }
        };
        let mut puzzles = text::puzzles(&text).peekable();
        if puzzles.peek().is_none() {
            crate::err!("error: {name}: no puzzle found");
            outcome = outcome.max(Outcome::SomeFailed);
        }
        loop {
            if super::console::stderr_closed() {
                // Nobody reads our messages any more: wind down as for a closed stdout.
                return Ok(outcome);
            }
            let chunk: Vec<Parsed> = puzzles.by_ref().take(CHUNK).collect();
            if chunk.is_empty() {
                break;
            }
            if per_chunk(&name, &chunk)? {
                outcome = outcome.max(Outcome::SomeFailed);
            }
        }
    }
    Ok(outcome)
}

/// The text of one INPUT: stdin, an existing file, or the argument itself as a puzzle.
pub fn read_input(input: &str, position: usize) -> anyhow::Result<(String, String)> {
    if input == "-" {
        let mut text = String::new();
        io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| anyhow::anyhow!("stdin: {e}"))?;
        return Ok(("stdin".into(), text));
    }
    let path = std::path::Path::new(input);
    if path.is_file() {
        let bytes = std::fs::read(path).map_err(|e| anyhow::anyhow!("{input}: {e}"))?;
        let text = String::from_utf8(bytes).map_err(|e| {
            anyhow::anyhow!(
                "{input}: not UTF-8 text (byte {})",
                e.utf8_error().valid_up_to()
            )
        })?;
        return Ok((input.to_string(), text));
    }
    let looks_like_puzzle =
        input.chars().filter(|c| !c.is_whitespace()).count() >= 17 && !input.contains(['/', '\\']);
    if looks_like_puzzle {
        return Ok((format!("argument {position}"), input.to_string()));
    }
    anyhow::bail!("{input}: no such file, and not an 81-character puzzle")
}
