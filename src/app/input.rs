//! Reading the INPUT arguments of the text commands (`solve`, `grade`): stdin, a file, or
//! the argument itself as a puzzle.

use std::io::{self, Read};

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
