//! `sudoku-snap generate`: puzzles made in parallel, printed in index order, so the output
//! depends only on the seed and the options, never on the thread count.

use std::io::{self, Write};

use rayon::prelude::*;
use serde::Serialize;
use sudoku_snap::generate::{self, GenerateOptions, Generated};
use sudoku_snap::grade::Difficulty;
use sudoku_snap::text;

use super::Outcome;
use crate::cli::{DifficultyArg, Format, GenerateArgs};

/// Puzzles made per parallel batch before printing: output starts early and a request that
/// cannot be met stops after one batch instead of trying every index.
const CHUNK: u64 = 64;

/// One puzzle in the JSON schema of the generate command.
#[derive(Serialize)]
struct Report {
    puzzle: String,
    solution: String,
    givens: usize,
    difficulty: &'static str,
    solved_logically: bool,
    techniques: super::grade::Techniques,
    seed: u64,
    index: u64,
}

impl Report {
    fn new(g: &Generated) -> Report {
        Report {
            puzzle: g.puzzle.to_string(),
            solution: g.solution.to_string(),
            givens: g.puzzle.filled_count(),
            difficulty: g.grade.difficulty.name(),
            solved_logically: g.grade.solved_logically,
            techniques: super::grade::technique_counts(&g.grade),
            seed: g.seed,
            index: g.index,
        }
    }
}

/// Runs the generate command; returns the outcome for the exit code.
pub fn run(args: GenerateArgs) -> anyhow::Result<Outcome> {
    let format = super::output::resolve_format(args.format);
    let options = options_from(&args);
    let pool = super::thread_pool(args.jobs)?;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut start = 0;
    while start < args.count {
        let end = (start + CHUNK).min(args.count);
        let results: Vec<_> = pool.install(|| {
            (start..end)
                .into_par_iter()
                .map(|i| generate::generate(&options, i))
                .collect()
        });
        for result in results {
            match result {
                Ok(g) => print_one(&mut out, &g, format)?,
                Err(e) => {
                    out.flush()?;
                    eprintln!("error: {e}");
                    return Ok(Outcome::SomeFailed);
                }
            }
        }
        start = end;
    }
    out.flush()?;
    Ok(Outcome::Success)
}

/// The library options; a missing seed comes from the clock (and is printed with each puzzle).
fn options_from(args: &GenerateArgs) -> GenerateOptions {
    let seed = args.seed.unwrap_or_else(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
        now.map_or(0, |d| d.as_nanos() as u64)
    });
    GenerateOptions {
        seed,
        holes: args.holes,
        difficulty: args.difficulty.map(|d| match d {
            DifficultyArg::Easy => Difficulty::Easy,
            DifficultyArg::Medium => Difficulty::Medium,
            DifficultyArg::Hard => Difficulty::Hard,
            DifficultyArg::Expert => Difficulty::Expert,
        }),
        symmetric: args.symmetric,
        minimal: args.minimal,
        max_attempts: args.max_attempts,
    }
}

fn print_one(out: &mut impl Write, g: &Generated, format: Format) -> anyhow::Result<()> {
    match format {
        Format::Line => writeln!(out, "{}", text::to_line(&g.puzzle))?,
        Format::Json => {
            serde_json::to_writer(&mut *out, &Report::new(g))?;
            writeln!(out)?;
        }
        Format::Pretty | Format::Csv => {
            let guessing = if g.grade.solved_logically {
                ""
            } else {
                ", needs guessing"
            };
            writeln!(
                out,
                "# puzzle {} of seed {}: {}{guessing}, {} givens",
                g.index,
                g.seed,
                g.grade.difficulty,
                g.puzzle.filled_count()
            )?;
            let body = if format == Format::Csv {
                text::to_csv(&g.puzzle)
            } else {
                text::to_pretty(&g.puzzle)
            };
            writeln!(out, "{body}")?;
        }
    }
    Ok(())
}
