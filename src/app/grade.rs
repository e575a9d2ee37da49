//! `sudoku-snap grade`: the difficulty and the techniques used for text puzzles from arguments,
//! files or stdin (the INPUT conventions of `solve`), graded in parallel, printed in input order.

use std::io::{self, Write};

use serde::Serialize;
use sudoku_snap::puzzle::grade::{self, Grade};
use sudoku_snap::puzzle::solve::{self, Verdict};
use sudoku_snap::puzzle::text::Parsed;

use super::input::{each_puzzle_chunk, pool_for};
use super::output::{write_json_line, PuzzleStatus};
use super::Outcome;
use crate::cli::{Format, GradeArgs};

/// One puzzle's result, in the JSON schema of the grade command.
#[derive(Serialize)]
struct Report {
    #[serde(skip)]
    origin: String,
    puzzle: Option<String>,
    /// `graded`, or why not: `invalid`, `unsolvable`, `multiple_solutions`.
    status: PuzzleStatus,
    difficulty: Option<&'static str>,
    solved_logically: Option<bool>,
    techniques: Option<Techniques>,
    error: Option<String>,
}

/// Techniques and counts, easiest first; a JSON object in that order: `{"naked_single": 40, ...}`.
pub struct Techniques(Vec<(&'static str, u32)>);

impl Techniques {
    fn iter(&self) -> impl Iterator<Item = &(&'static str, u32)> {
        self.0.iter()
    }
}

impl Serialize for Techniques {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, n) in &self.0 {
            map.serialize_entry(k, n)?;
        }
        map.end()
    }
}

/// The techniques of a grade, for printing.
pub fn technique_counts(grade: &Grade) -> Techniques {
    Techniques(
        grade
            .techniques
            .iter()
            .map(|&(t, n)| (t.key(), n))
            .collect(),
    )
}

/// Runs the grade command; returns the outcome for the exit code.
pub fn run(args: GradeArgs) -> anyhow::Result<Outcome> {
    let format = super::output::resolve_format(args.format);
    let pool = pool_for(&args.inputs, args.jobs)?;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if format == Format::Csv {
        writeln!(out, "puzzle,difficulty,solved_logically,techniques")?;
    }
    let outcome = each_puzzle_chunk(&args.inputs, pool.threads(), |name, chunk| {
        let mut failed = false;
        let reports: Vec<Report> = pool.map(chunk, |p| grade_one(p, name))?;
        for r in &reports {
            if let Some(e) = &r.error {
                failed = true;
                crate::err!("error: {}: {e}", r.origin);
            }
            print_report(&mut out, r, format)?;
        }
        // The chunk is what the input had ready: show its results before waiting for more.
        out.flush()?;
        Ok(failed)
    })?;
    out.flush()?;
    Ok(outcome)
}

/// Grades a puzzle with exactly one solution; anything else is reported, not graded.
fn grade_one(parsed: &Parsed, input: &str) -> Report {
    let mut report = Report {
        origin: format!("{input}:{}", parsed.line),
        puzzle: None,
        status: PuzzleStatus::Invalid,
        difficulty: None,
        solved_logically: None,
        techniques: None,
        error: None,
    };
    let board = match &parsed.board {
        Ok(b) => *b,
        Err(e) => {
            // The origin names the file and line already.
            report.error = Some(e.after_line(parsed.line));
            return report;
        }
    };
    report.puzzle = Some(board.to_string());
    match solve::check(&board) {
        Err(conflict) => report.error = Some(format!("invalid puzzle: {conflict}")),
        Ok(Verdict::Unsolvable) => {
            report.status = PuzzleStatus::Unsolvable;
            report.error = Some("no solution, nothing to grade".into());
        }
        Ok(Verdict::Multiple(_)) => {
            report.status = PuzzleStatus::MultipleSolutions;
            report.error = Some("more than one solution: a grade needs a proper puzzle".into());
        }
        Ok(Verdict::Unique(_)) => {
            let g = grade::grade(&board);
            report.status = PuzzleStatus::Graded;
            report.difficulty = Some(g.difficulty.name());
            report.solved_logically = Some(g.solved_logically);
            report.techniques = Some(technique_counts(&g));
        }
    }
    report
}

fn print_report(out: &mut impl Write, r: &Report, format: Format) -> io::Result<()> {
    let guessing = r.solved_logically == Some(false);
    let techniques = r.techniques.as_ref().map_or(String::new(), |t| {
        let list: Vec<String> = t.iter().map(|(k, n)| format!("{k}:{n}")).collect();
        list.join(" ")
    });
    let (puzzle, difficulty) = (
        r.puzzle.as_deref().unwrap_or("-"),
        r.difficulty.unwrap_or(r.status.name()),
    );
    match format {
        Format::Json => write_json_line(out, r),
        Format::Line => {
            let flag = if guessing { " needs_guessing" } else { "" };
            writeln!(out, "{puzzle} {difficulty}{flag} {techniques}")
        }
        Format::Csv => writeln!(
            out,
            "{puzzle},{difficulty},{},{techniques}",
            r.solved_logically.map_or(String::new(), |b| b.to_string())
        ),
        Format::Pretty => {
            let flag = if guessing {
                " (needs guessing: the techniques below stall before the grid is full)"
            } else {
                ""
            };
            writeln!(out, "# {} {difficulty}{flag}", r.origin)?;
            for (k, n) in r.techniques.iter().flat_map(Techniques::iter) {
                writeln!(out, "  {:<14} {n}", k.replace('_', " "))?;
            }
            writeln!(out)
        }
    }
}
