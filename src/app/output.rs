//! Output choices decided once per run (the text layout, TTY-dependent by default), and what
//! every command writes alike: a JSON line, and the status word of a text puzzle.

use std::io::{self, IsTerminal, Write};

use serde::{Serialize, Serializer};

use crate::cli::Format;

/// The layout to print: the user's choice, else pretty on a terminal and line when piped.
pub fn resolve_format(choice: Option<Format>) -> Format {
    choice.unwrap_or_else(|| {
        if std::io::stdout().is_terminal() {
            Format::Pretty
        } else {
            Format::Line
        }
    })
}

/// Writes `value` as one line of JSON (JSON Lines): every JSON record of every command, on
/// stdout or in `--report`, ends this one way.
pub fn write_json_line(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    writeln!(out)
}

/// How a text puzzle ended, for `solve` and `grade`: `status` in JSON, and the word printed
/// in the line and pretty layouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleStatus {
    /// `solve`: exactly one solution.
    Solved,
    /// `grade`: exactly one solution, graded.
    Graded,
    /// More than one solution.
    MultipleSolutions,
    /// No solution.
    Unsolvable,
    /// Unreadable text or clashing givens.
    Invalid,
}

impl PuzzleStatus {
    /// The word in every layout; JSON serialises the same word.
    pub fn name(self) -> &'static str {
        match self {
            PuzzleStatus::Solved => "solved",
            PuzzleStatus::Graded => "graded",
            PuzzleStatus::MultipleSolutions => "multiple_solutions",
            PuzzleStatus::Unsolvable => "unsolvable",
            PuzzleStatus::Invalid => "invalid",
        }
    }
}

impl std::fmt::Display for PuzzleStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for PuzzleStatus {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}
